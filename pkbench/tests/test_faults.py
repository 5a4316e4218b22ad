"""Faults injected into small runs: each ends in a non-zero exit and one line naming it, leaves no process and
no temporary directory, and marks the results incomplete with what was measured before it."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import time
from pathlib import Path
from typing import Any

import pytest
from conftest import (
    HOLDING_RATE,
    assert_nothing_left,
    processes_mentioning,
    run_cli,
    run_until_window,
    short_run,
)

from pkbench.server.builds import find_pgbench, find_server_bindir
from pkbench.server.embedded import EmbeddedCluster


def completion(out: Path) -> dict[str, Any]:
    found: dict[str, Any] = json.loads((out / "results.json").read_text())["completion"]
    return found


def last_line(stderr: str) -> str:
    assert "Traceback" not in stderr, stderr
    return stderr.strip().splitlines()[-1]


def test_the_server_killed_in_a_window_then_resume_finishes(server_tmpdir: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    arguments = short_run(
        strategies="bigint,uuid-v4", rows=300, duration=2, rounds=2, out=out, rate=HOLDING_RATE
    )
    # Round 2 runs uuid-v4 first (the rotation): killed once its first window has started, or late by a
    # whole window on a busy machine, the server dies inside round 2 of the first stage.
    with run_until_window(
        server_tmpdir, arguments, out / "pgbench" / "uuid-v4.round-2" / "lookup-by-data"
    ) as run:
        (pid_file,) = server_tmpdir.glob("pkbench-*/data/postmaster.pid")
        os.kill(int(pid_file.read_text().split()[0]), signal.SIGKILL)
        _, stderr = run.communicate(timeout=90)
    assert run.returncode == 1
    assert last_line(stderr).startswith("pkbench: error: the PostgreSQL server died")
    assert_nothing_left(server_tmpdir)
    stopped = completion(out)
    assert stopped["complete"] is False and stopped["stopped"].startswith("the server's death")
    assert stopped["rounds_done"] == 1

    resumed = run_cli("run", "--resume", str(out), tmpdir=server_tmpdir, timeout=300)
    assert resumed.returncode == 0, resumed.stderr
    assert completion(out)["complete"] is True and len(completion(out)["resumed"]) == 1
    assert_nothing_left(server_tmpdir)


def test_pgbench_killed_in_a_window_fails_that_strategy_by_name(server_tmpdir: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    arguments = short_run(strategies="bigint", rows=300, duration=30, rounds=1, out=out, rate=HOLDING_RATE)
    with run_until_window(server_tmpdir, arguments, out / "pgbench" / "bigint" / "lookup-by-data") as run:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            pgbench = [p for p in Path("/proc").iterdir() if p.name.isdigit() and _is_our_pgbench(p, out)]
            if pgbench:
                os.kill(int(pgbench[0].name), signal.SIGKILL)
                break
            time.sleep(0.1)
        _, stderr = run.communicate(timeout=120)
    assert run.returncode == 3, stderr
    assert last_line(stderr) == (
        "pkbench: error: 1 of 1 strategies failed: bigint (lookup-by-data: pgbench was killed by SIGKILL)"
    )
    assert_nothing_left(server_tmpdir)
    stopped = completion(out)
    assert stopped["complete"] is False
    assert stopped["stopped"] == "bigint failing (lookup-by-data: pgbench was killed by SIGKILL)"


def _is_our_pgbench(process: Path, out: Path) -> bool:
    """pgbench runs in its window's directory under the results directory."""
    try:
        command = (process / "cmdline").read_bytes().split(b"\0")
        where = os.readlink(process / "cwd")
    except OSError:
        return False
    return bool(command) and command[0].endswith(b"pgbench") and where.startswith(str(out))


def test_a_full_disk_under_the_data_directory_is_one_line(server_tmpdir: Path, tmp_path: Path) -> None:
    if os.geteuid() != 0:
        pytest.skip("mounting the small filesystem the disk fills needs root")
    small = server_tmpdir / "small"
    small.mkdir()
    subprocess.run(["mount", "-t", "tmpfs", "-o", "size=48m,mode=0755", "tmpfs", str(small)], check=True)
    try:
        out = tmp_path / "out"
        done = run_cli(
            "run", *short_run(strategies="uuid-v4-text", rows=400000, duration=1, rounds=1, out=out),
            tmpdir=small, timeout=300,
        )  # fmt: skip
        assert done.returncode != 0
        line = last_line(done.stderr)
        # A write the full disk cut short is reported by the server without the errno's words.
        full = ("No space left on device", "server died", "could not extend file")
        assert any(words in line for words in full), line
        assert processes_mentioning(str(small)) == []
        assert list(small.iterdir()) == [], "the temporary cluster is removed"
        stopped = completion(out)
        assert stopped["complete"] is False
    finally:
        subprocess.run(["umount", str(small)], check=False)


def test_a_dsn_server_stopped_mid_run_is_one_line(server_tmpdir: Path, tmp_path: Path) -> None:
    cluster = EmbeddedCluster(find_server_bindir(None), find_pgbench(None), {"shared_buffers": "16MB"})
    with cluster:
        dsn = cluster.connection.conninfo()
        out = tmp_path / "out"
        arguments = [
            *short_run(strategies="bigint", rows=300, duration=30, rounds=1, out=out, rate=HOLDING_RATE),
            "--dsn", dsn
        ]  # fmt: skip
        with run_until_window(server_tmpdir, arguments, out / "pgbench" / "bigint" / "lookup-by-data") as run:
            time.sleep(0.5)
            assert cluster.directory is not None
            postmaster = int((cluster.directory / "data" / "postmaster.pid").read_text().split()[0])
            os.kill(postmaster, signal.SIGINT)  # a fast shutdown, as an operator would stop it
            _, stderr = run.communicate(timeout=120)
    assert run.returncode != 0
    assert "pkbench: error: " in last_line(stderr)
    assert completion(out)["complete"] is False
    assert processes_mentioning(str(server_tmpdir)) == []
