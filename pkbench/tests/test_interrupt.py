"""Ctrl-C during a measured window stops pgbench and postgres and removes the temporary cluster."""

from __future__ import annotations

import os
import signal
import subprocess
import time
from contextlib import AbstractContextManager
from pathlib import Path

from conftest import HOLDING_RATE, assert_nothing_left, processes_mentioning, run_until_window, short_run


def start_and_wait_for_the_window(
    server_tmpdir: Path, out: Path
) -> AbstractContextManager[subprocess.Popen[str]]:
    """A bigint run whose first window (long enough to be interrupted in) has started."""
    arguments = short_run(
        strategies="bigint",
        rows=2000,
        duration=60,
        clients=None,
        rounds=None,
        warmup=None,
        out=out,
        rate=HOLDING_RATE,
    )
    return run_until_window(server_tmpdir, arguments, out / "pgbench" / "bigint" / "lookup-by-data")


def test_sigint_during_the_window_leaves_nothing_behind(server_tmpdir: Path, tmp_path: Path) -> None:
    with start_and_wait_for_the_window(server_tmpdir, tmp_path / "out") as process:
        time.sleep(2)
        assert any("pgbench" in p for p in processes_mentioning(str(server_tmpdir))), "pgbench is running"
        process.send_signal(signal.SIGINT)
        _, stderr = process.communicate(timeout=90)
    assert process.returncode == 130
    assert "interrupted" in stderr
    assert "Traceback" not in stderr
    assert processes_mentioning(str(server_tmpdir)) == [], "no postgres or pgbench left"
    assert list(server_tmpdir.iterdir()) == [], "the temporary cluster is removed"


def test_server_death_during_the_window_is_one_line_and_leaves_nothing(
    server_tmpdir: Path, tmp_path: Path
) -> None:
    with start_and_wait_for_the_window(server_tmpdir, tmp_path / "out") as process:
        time.sleep(1)
        (pid_file,) = server_tmpdir.glob("pkbench-*/data/postmaster.pid")
        os.kill(int(pid_file.read_text().split()[0]), signal.SIGKILL)
        _, stderr = process.communicate(timeout=90)
    assert process.returncode == 1
    lines = stderr.strip().splitlines()
    assert lines[-1].startswith("pkbench: error: the PostgreSQL server died"), stderr
    assert "Traceback" not in stderr
    assert_nothing_left(server_tmpdir)
