"""Ctrl-C during a measured window stops pgbench and postgres and removes the temporary cluster."""

from __future__ import annotations

import os
import signal
import subprocess
import time
from pathlib import Path

from conftest import PKBENCH, processes_mentioning


def start_run_and_wait_for_the_window(server_tmpdir: Path, out: Path) -> subprocess.Popen[str]:
    """`pkbench run` in a process of its own, returned once its first measured window has started."""
    process = subprocess.Popen(
        [*PKBENCH, "run", "--strategies", "bigint", "--rows", "2000", "--duration", "60", "--out", str(out)],
        env={**os.environ, "TMPDIR": str(server_tmpdir), "NO_COLOR": "1"},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    window = out / "pgbench" / "bigint" / "lookup-by-data" / "command.txt"
    deadline = time.monotonic() + 120
    while not window.exists():
        if process.poll() is not None or time.monotonic() > deadline:
            process.kill()
            _, stderr = process.communicate()
            raise AssertionError(f"the measured window never started: {stderr}")
        time.sleep(0.2)
    return process


def test_sigint_during_the_window_leaves_nothing_behind(server_tmpdir: Path, tmp_path: Path) -> None:
    process = start_run_and_wait_for_the_window(server_tmpdir, tmp_path / "out")
    try:
        time.sleep(2)
        assert any("pgbench" in p for p in processes_mentioning(str(server_tmpdir))), "pgbench is running"
        process.send_signal(signal.SIGINT)
        _, stderr = process.communicate(timeout=90)
    finally:
        if process.poll() is None:
            process.kill()
    assert process.returncode == 130
    assert "interrupted" in stderr
    assert "Traceback" not in stderr
    assert processes_mentioning(str(server_tmpdir)) == [], "no postgres or pgbench left"
    assert list(server_tmpdir.iterdir()) == [], "the temporary cluster is removed"


def test_server_death_during_the_window_is_one_line_and_leaves_nothing(
    server_tmpdir: Path, tmp_path: Path
) -> None:
    process = start_run_and_wait_for_the_window(server_tmpdir, tmp_path / "out")
    try:
        time.sleep(1)
        (pid_file,) = server_tmpdir.glob("pkbench-*/data/postmaster.pid")
        os.kill(int(pid_file.read_text().split()[0]), signal.SIGKILL)
        _, stderr = process.communicate(timeout=90)
    finally:
        if process.poll() is None:
            process.kill()
    assert process.returncode == 1
    lines = stderr.strip().splitlines()
    assert lines[-1].startswith("pkbench: error: the PostgreSQL server died"), stderr
    assert "Traceback" not in stderr
    deadline = time.monotonic() + 10
    while processes_mentioning(str(server_tmpdir)) and time.monotonic() < deadline:
        time.sleep(0.2)  # orphaned backends notice their postmaster is gone and exit on their own
    assert processes_mentioning(str(server_tmpdir)) == []
    assert list(server_tmpdir.iterdir()) == []
