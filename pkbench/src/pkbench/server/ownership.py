"""Who owns an embedded cluster: the server dies with its pkbench, and a cluster whose pkbench is gone anyway
(SIGKILL, the OOM killer) is found by the next run through the owner file in its directory, then stopped
and removed.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import shutil
import signal
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

OWNER_FILE = "owner"
_PR_SET_PDEATHSIG = 1


def process_start(pid: int) -> str | None:
    """When process `pid` started (clock ticks since boot), None if there is no such live process: with the
    pid it names one process, even after the pid is reused."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except (OSError, ValueError):
        return None
    fields = stat.rsplit(")", 1)[-1].split()
    if len(fields) < 20 or fields[0] in ("Z", "X"):
        return None
    return fields[19]


def owner_line() -> str:
    return f"{os.getpid()} {process_start(os.getpid())}\n"


def stop_postmaster(data_dir: Path) -> None:
    """Stop the postmaster of `data_dir` if one still runs (immediate shutdown, then SIGKILL)."""
    try:
        pid = int((data_dir / "postmaster.pid").read_text().split()[0])
        cmdline = Path(f"/proc/{pid}/cmdline").read_bytes().decode(errors="replace")
    except (OSError, ValueError, IndexError):
        return
    if str(data_dir) not in cmdline:
        return
    for sig in (signal.SIGQUIT, signal.SIGKILL):
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.kill(pid, sig)
        deadline = time.monotonic() + 10
        while process_start(pid) is not None and time.monotonic() < deadline:
            time.sleep(0.1)
        if process_start(pid) is None:
            return


def remove_orphaned_clusters(parent: Path | None = None) -> list[str]:
    """Stop and remove the embedded clusters whose pkbench is gone (killed with SIGKILL, or by the OOM
    killer, so it could not clean up); one line about each."""
    parent = parent or Path(tempfile.gettempdir())
    notes: list[str] = []
    if process_start(os.getpid()) is None:
        # No /proc: an owner cannot be told alive from gone, so nothing is taken for an orphan.
        return notes
    for directory in sorted(parent.glob("pkbench-*")):
        try:
            pid_text, started = (directory / OWNER_FILE).read_text().split()
            pid = int(pid_text)
        except (OSError, ValueError):
            continue
        if process_start(pid) == started:
            continue
        stop_postmaster(directory / "data")
        shutil.rmtree(directory, ignore_errors=True)
        if not directory.exists():
            notes.append(
                f"pkbench: stopped and removed {directory}, an embedded cluster left by pkbench pid {pid}, "
                "which is gone"
            )
    return notes


def die_with_parent() -> Callable[[], None] | None:
    """A preexec function that has the kernel send SIGQUIT (immediate shutdown) to the server when pkbench
    dies, however it dies. The signal follows the thread that started the server: start it from the main
    thread."""
    if not sys.platform.startswith("linux"):
        return None
    libc = ctypes.CDLL(None, use_errno=True)
    parent = os.getpid()

    def preexec() -> None:
        libc.prctl(_PR_SET_PDEATHSIG, int(signal.SIGQUIT), 0, 0, 0)
        if os.getppid() != parent:
            os._exit(1)

    return preexec
