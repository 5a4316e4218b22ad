"""sequuid's C extension for a server build that lacks it, built from the sources pkbench ships.

A pip-only install (`pip install 'pkbench[pg18]'`, no apt) has a server build but no sequuid in it. When that
build has pg_config and the machine a C compiler, the extension is compiled with the build's own PGXS and
installed into the build once: the next run finds it there, so the build is the cache. Only builds that pip or
pkbench put in place are changed (a wheel in a virtual environment, root's staged copy of one); a system's
server (Debian's /usr/lib/postgresql) is left alone, since its packages own it: there the Debian package or
`./dev setup` installs sequuid. Where no C build can be had, the run uses the PL/pgSQL port, and says so.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from pkbench.errors import first_line

SHIPPED = "sequuid_source"
BUILD_TIMEOUT_S = 300


@dataclass(frozen=True)
class SequuidBuild:
    """Whether the server build has sequuid's C extension, and how it came to have it or not."""

    status: str  # "present" | "built" | "absent"
    detail: str

    def to_json(self) -> dict[str, str]:
        return {"status": self.status, "detail": self.detail}

    def line(self) -> str:
        if self.status == "built":
            return f"sequuid: built from pkbench's sources into this server build ({self.detail})"
        if self.status == "absent":
            return f"sequuid: no C extension ({self.detail}); its strategies use the PL/pgSQL port"
        return f"sequuid: {self.detail}"


def _pg_config(pg_config: Path, option: str) -> str:
    done = subprocess.run([str(pg_config), option], capture_output=True, text=True, timeout=30, check=True)
    return done.stdout.strip()


def _default_version(control: Path) -> str | None:
    for line in control.read_text().splitlines():
        key, _, value = line.partition("=")
        if key.strip() == "default_version":
            return value.strip().strip("'\"")
    return None


def _owned_by_a_package(path: Path) -> bool:
    """Whether PATH belongs to the system's package manager (then pkbench does not write into it)."""
    resolved = path.resolve()
    return resolved.is_relative_to("/usr") and not resolved.is_relative_to("/usr/local")


def _compiler_flags(cc: str, server_flags: str) -> str:
    """The build's compiler flags, less those this machine's compiler does not know (a wheel built with a
    newer compiler names warnings an older one rejects)."""
    kept = []
    for flag in server_flags.split():
        probe = subprocess.run(
            [cc, "-Werror", flag, "-x", "c", "-c", "-o", os.devnull, "-"],
            input="int x;\n",
            capture_output=True,
            text=True,
            timeout=30,
        )
        if probe.returncode == 0:
            kept.append(flag)
    return " ".join(kept)


def _copy_sources(into: Path) -> None:
    """The shipped sources only: never the objects an in-tree build may have left beside them."""
    shipped = resources.files("pkbench.server") / SHIPPED
    (into / "src").mkdir(parents=True)
    for entry in shipped.iterdir():
        if entry.name == "Makefile" or entry.name.endswith((".control", ".sql")):
            (into / entry.name).write_bytes(entry.read_bytes())
    for entry in (shipped / "src").iterdir():
        if entry.name.endswith((".c", ".h")):
            (into / "src" / entry.name).write_bytes(entry.read_bytes())


def ensure(bindir: Path) -> SequuidBuild:
    """sequuid's C extension in the server build of BINDIR: found, built now, or why not."""
    pg_config = bindir / "pg_config"
    shipped_control = resources.files("pkbench.server") / SHIPPED / "sequuid.control"
    if not pg_config.is_file():
        return SequuidBuild("absent", f"no pg_config in {bindir}")
    try:
        sharedir = Path(_pg_config(pg_config, "--sharedir"))
        pkglibdir = Path(_pg_config(pg_config, "--pkglibdir"))
        cc = _pg_config(pg_config, "--cc").split()[0]
        server_flags = _pg_config(pg_config, "--cflags")
    except (OSError, subprocess.SubprocessError) as error:
        return SequuidBuild("absent", f"pg_config: {first_line(error)}")
    control = sharedir / "extension" / "sequuid.control"
    wanted = _default_version(Path(str(shipped_control))) if shipped_control.is_file() else None
    if control.is_file():
        # Whatever version the build has is the one CREATE EXTENSION takes; pkbench does not replace it.
        return SequuidBuild("present", f"sequuid {_default_version(control)} installed in this server build")
    if _owned_by_a_package(sharedir):
        return SequuidBuild(
            "absent",
            f"sequuid {wanted} is not installed in {bindir}, which its packages own: install the "
            "postgresql-N-sequuid package or run ./dev setup",
        )
    if not shipped_control.is_file():
        return SequuidBuild("absent", "this pkbench was installed without sequuid's sources")
    if shutil.which(cc) is None:
        return SequuidBuild("absent", f"no C compiler ({cc}) on this machine")
    if not (os.access(sharedir / "extension", os.W_OK) and os.access(pkglibdir, os.W_OK)):
        return SequuidBuild("absent", f"{sharedir / 'extension'} is not writable by this user")
    with tempfile.TemporaryDirectory(prefix="pkbench-sequuid-") as work:
        build = Path(work)
        _copy_sources(build)
        make = ["make", "-s", "-C", str(build), f"PG_CONFIG={pg_config}"]
        flags = f"CFLAGS={_compiler_flags(cc, server_flags)}"
        for command in ([*make, flags], [*make, "install"]):
            try:
                done = subprocess.run(command, capture_output=True, text=True, timeout=BUILD_TIMEOUT_S)
            except (OSError, subprocess.SubprocessError) as error:
                return SequuidBuild("absent", f"make: {first_line(error)}")
            if done.returncode != 0:
                return SequuidBuild("absent", f"make failed: {first_line(done.stderr or done.stdout)}")
    return SequuidBuild("built", f"sequuid {wanted}, with {cc}, into {sharedir.parent}")
