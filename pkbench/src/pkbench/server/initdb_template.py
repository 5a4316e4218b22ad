"""One initdb per server build and options, copied into each new data directory, when the caller creates
many clusters (a test suite does, as PostgreSQL's own does with its initdb template). The environment
variable PKBENCH_INITDB_TEMPLATES names a directory the server's OS user can enter; without it every
cluster runs initdb, as a user's run always has.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import shutil
import subprocess
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path

from pkbench.errors import PkbenchError, first_line
from pkbench.server import os_user as server_user

TEMPLATES_VARIABLE = "PKBENCH_INITDB_TEMPLATES"


def template_key(bindir: Path, options: Sequence[str]) -> str:
    """Tells apart the builds (by where initdb is and when it was installed) and the initdb options, so a
    template is never copied into a cluster of another build or encoding."""
    initdb = bindir / "initdb"
    try:
        stat = initdb.stat()
        installed = f"{stat.st_size}:{stat.st_mtime_ns}"
    except OSError:
        installed = "?"
    text = "\0".join([str(bindir.resolve()), installed, server_user.SERVER_USER, *options])
    return hashlib.sha256(text.encode()).hexdigest()[:20]


def initialise(
    bindir: Path, options: Sequence[str], data_dir: Path, run_initdb: Callable[[Path], None]
) -> None:
    """Fill DATA_DIR as `run_initdb(data_dir)` would, from the template of this build and these options
    when templates are kept, making the template first if it is not there yet."""
    templates = os.environ.get(TEMPLATES_VARIABLE)
    if not templates:
        run_initdb(data_dir)
        return
    template = Path(templates) / template_key(bindir, options)
    if not template.is_dir():
        _make(template, run_initdb)
    _copy_as_server_user(template / "data", data_dir)


def _make(template: Path, run_initdb: Callable[[Path], None]) -> None:
    """initdb into a directory of its own, then renamed into place: two processes that make the same
    template at once both succeed, and one's is kept."""
    making = Path(tempfile.mkdtemp(prefix=f"{template.name}.", dir=template.parent))
    try:
        making.chmod(0o755)
        server_user.give_to_server_user(making)
        run_initdb(making / "data")
        with contextlib.suppress(OSError):
            making.rename(template)
    finally:
        if making.exists():
            shutil.rmtree(making, ignore_errors=True)


def _copy_as_server_user(source: Path, destination: Path) -> None:
    """cp -a as the server's user, so the copy is the server user's and keeps initdb's modes."""
    result = subprocess.run(
        ["cp", "-a", str(source), str(destination)],
        capture_output=True,
        text=True,
        **server_user.process_user(),  # type: ignore[call-overload]
    )
    if result.returncode != 0:
        raise PkbenchError(f"copying the initdb template failed: {first_line(result.stderr)}")
