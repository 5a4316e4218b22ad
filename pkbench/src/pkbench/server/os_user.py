"""The server's programs as the `postgres` OS user when pkbench runs as root (PostgreSQL refuses to run as
root); as a normal user they run as that user."""

from __future__ import annotations

import os
import pwd
import subprocess
from collections.abc import Sequence
from pathlib import Path

from pkbench.errors import PkbenchError, first_line

SERVER_USER = "postgres"


def running_as_root() -> bool:
    return os.geteuid() == 0


def server_user() -> pwd.struct_passwd:
    try:
        return pwd.getpwnam(SERVER_USER)
    except KeyError:
        raise PkbenchError(
            f"running as root needs an OS user {SERVER_USER!r} to run the server; "
            "create it or run pkbench as a normal user"
        ) from None


def process_user() -> dict[str, object]:
    """subprocess arguments that run a server program as the server user (when we are root)."""
    if not running_as_root():
        return {}
    entry = server_user()
    return {"user": entry.pw_uid, "group": entry.pw_gid, "extra_groups": []}


def give_to_server_user(path: Path) -> None:
    if running_as_root():
        entry = server_user()
        os.chown(path, entry.pw_uid, entry.pw_gid)


def run_program(program: Path, arguments: Sequence[str], cwd: Path | None) -> None:
    """PROGRAM as the server's user in CWD; its first line of complaint if it fails."""
    result = subprocess.run(
        [str(program), *arguments],
        capture_output=True,
        text=True,
        cwd=cwd,
        **process_user(),  # type: ignore[call-overload]
    )
    if result.returncode != 0:
        raise PkbenchError(f"{program.name} failed: {first_line(result.stderr or result.stdout)}")
