"""A streaming standby and a WAL archive beside the embedded server: what a window costs them, and nothing
of either left behind however the run ends."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import tempfile
import time
from contextlib import AbstractContextManager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import psycopg
import pytest
from conftest import (
    HOLDING_RATE,
    assert_nothing_left,
    interrupted,
    processes_mentioning,
    run_cli,
    run_until_window,
    short_run,
)

from pkbench.probes.replication import lag_summary
from pkbench.reporting import Silent
from pkbench.results import ReplicationWindow, RunResult, StrategyResult, WorkloadResult
from pkbench.server import topology
from pkbench.server.builds import find_pgbench, find_server_bindir
from pkbench.steps.pgbench import replication_measured
from pkbench.summary import replication as replication_summary


def _lsn(conn: psycopg.Connection[tuple[object, ...]], expression: str) -> int:
    row = conn.execute(f"SELECT {expression} - '0/0'::pg_lsn").fetchone()
    assert row is not None
    return int(str(row[0]))


def test_a_window_is_shipped_replayed_and_archived_then_everything_goes(
    server_tmpdir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(tempfile, "tempdir", str(server_tmpdir))
    wanted = topology.Topology(standby=True, archive=True, wal_segment_size_mb=1)
    primary = topology.primary_class(wanted)(
        find_server_bindir(None),
        find_pgbench(None),
        {"shared_buffers": "16MB"},
        initdb_options=wanted.initdb_options(),
    )
    workload = WorkloadResult("insert", "")
    with primary:
        assert isinstance(primary, topology.ArchivingCluster)
        with topology.attached(primary, wanted, Silent()):
            standby = primary.standby
            assert isinstance(standby, topology.StandbyCluster) and standby.directory is not None
            standby_directory = standby.directory
            with primary.connection.connect() as conn:
                conn.execute("CREATE TABLE t (id uuid PRIMARY KEY DEFAULT gen_random_uuid(), pad text)")
                with replication_measured(primary, None, 1.0, workload):
                    started = _lsn(conn, "pg_current_wal_lsn()")
                    conn.execute("INSERT INTO t (pad) SELECT repeat('x', 100) FROM generate_series(1, 30000)")
                    written = _lsn(conn, "pg_current_wal_lsn()")
            with standby.connection.connect() as on_standby:
                # Caught up when the window closed: the standby has replayed all the window wrote.
                assert _lsn(on_standby, "pg_last_wal_replay_lsn()") >= written
                row = on_standby.execute("SELECT count(*) FROM t").fetchone()
                assert row is not None and row[0] == 30000
        assert not standby_directory.exists()
        with primary.connection.connect() as conn:
            row = conn.execute("SELECT count(*) FROM pg_replication_slots").fetchone()
            assert row is not None and row[0] == 0, "the standby's slot is dropped"
        segments = [p for p in primary.archive_directory.iterdir() if len(p.name) == 24]
        primary_directory = primary.directory
    replication = workload.replication
    assert replication is not None, workload.unavailable
    assert replication.catch_up_s is not None and replication.catch_up_s >= 0
    assert replication.wal_shipped_bytes is not None
    assert replication.wal_shipped_bytes >= written - started
    # 1 MB segments: the window's WAL fills several, each copied whole into the archive.
    assert (
        replication.archived_segments is not None
        and replication.archived_segments >= (written - started) // 2**20
    )
    assert replication.archived_bytes == replication.archived_segments * 2**20
    assert len(segments) >= replication.archived_segments
    assert primary_directory is not None and not primary_directory.exists()
    assert processes_mentioning(str(server_tmpdir)) == []


def _results(out: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((out / "results.json").read_text())
    return data


def _window(results: dict[str, Any], strategy: str, workload: str) -> dict[str, Any]:
    found = next(s for s in results["strategies"] if s["name"] == strategy)
    window: dict[str, Any] = next(w for w in found["workloads"] if w["name"] == workload)
    return window


def test_the_replication_scenario_v4_ships_more_wal_than_v7(server_tmpdir: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    result = run_cli(
        "run",
        "--no-report",
        "replication",
        # Two strategies, tiny table, seconds-long windows: enough for full-page images to tell v4 from v7.
        *short_run(strategies="uuid-v4,uuid-v7", rows=30000, duration=3, clients=2, out=out),
        tmpdir=server_tmpdir,
    )
    assert result.returncode == 0, result.stderr
    results = _results(out)
    assert results["target"]["topology"]["standby"] == "started by pkbench"
    shipped = {}
    for strategy in ("uuid-v4", "uuid-v7"):
        for name, level in (("insert-async", None), ("insert-sync", "remote_apply")):
            window = _window(results, strategy, name)
            replication = window["replication"]
            assert replication["synchronous_commit"] == level
            assert replication["sync_state"] == ("sync" if level else "async")
            assert replication["catch_up_s"] is not None
            assert replication["replay_lag_ms"]["max"] is not None
            assert replication["archived_segments"] >= 1
        async_window = _window(results, strategy, "insert-async")
        shipped[strategy] = async_window["replication"]["wal_shipped_bytes"] / async_window["transactions"]
    # After a checkpoint, random keys dirty many index pages, each first change a full-page image.
    assert shipped["uuid-v4"] > shipped["uuid-v7"], shipped
    summary = (out / "summary.md").read_text()
    assert "## Replication" in summary
    assert "uuid-v7 shipped" in summary and "committed at" in summary
    assert "replay_lag_ms" in (out / "timeseries" / "replication.csv").read_text().splitlines()[0]
    assert processes_mentioning(str(server_tmpdir)) == []
    assert list(server_tmpdir.iterdir()) == []


@dataclass(frozen=True)
class Window:
    """A run's arguments (after a scenario file written from `scenario`, if given) and the window to await."""

    arguments: tuple[str, ...]
    path: str
    scenario: str | None = None


# A window whose commits wait for the standby (remote_apply), alone, so a test reaches it at once.
SYNCHRONOUS_SCENARIO = """
name = "synchronous"
strategies = ["bigint"]
parameters = { rows = 1, clients = 2, jobs = 1, duration_s = 60 }
topology = { standby = true }

[[steps]]
kind = "sql"
name = "schema"
statements = ["CREATE TABLE records (id {key_type} PRIMARY KEY {key_default}, data bigint)"]

[[steps]]
kind = "pgbench"
name = "insert-sync"
synchronous_commit = "remote_apply"
scripts = [{ name = "insert", sql = "INSERT INTO records (data) VALUES (1);" }]
"""
# The war run with --standby (its first window asynchronous), and a synchronous window where every commit
# waits for the standby: either way a dead standby must end the run.
ASYNC_WINDOW = Window(("war", "--standby", *short_run(strategies="bigint")), "bigint/lookup-by-data")
SYNC_WINDOW = Window((), "bigint/insert-sync", SYNCHRONOUS_SCENARIO)


def _start_run_with_a_standby(
    server_tmpdir: Path, out: Path, run: Window
) -> AbstractContextManager[subprocess.Popen[str]]:
    """`pkbench run` in a process of its own, given once the named measured window started."""
    arguments = run.arguments
    if run.scenario is not None:
        scenario = out.parent / "scenario.toml"
        scenario.write_text(run.scenario)
        arguments = (str(scenario), *arguments)
    return run_until_window(
        server_tmpdir,
        [*arguments, "--duration", "60", "--rate", str(HOLDING_RATE), "--out", str(out)],
        out / "pgbench" / run.path,
    )


def test_ctrl_c_stops_the_primary_and_the_standby_and_removes_both(
    server_tmpdir: Path, tmp_path: Path
) -> None:
    with _start_run_with_a_standby(server_tmpdir, tmp_path / "out", ASYNC_WINDOW) as process:
        assert len(list(server_tmpdir.glob("pkbench-*/data/standby.signal"))) == 1
        assert len(list(server_tmpdir.glob("pkbench-*/data/postmaster.pid"))) == 2
        time.sleep(1)
        interrupted(process)
    assert_nothing_left(server_tmpdir)


@pytest.mark.parametrize("run", [ASYNC_WINDOW, SYNC_WINDOW], ids=["async", "sync"])
def test_a_standby_killed_mid_window_ends_the_run_in_one_line(
    server_tmpdir: Path, tmp_path: Path, run: Window
) -> None:
    with _start_run_with_a_standby(server_tmpdir, tmp_path / "out", run) as process:
        time.sleep(1)
        (signal_file,) = server_tmpdir.glob("pkbench-*/data/standby.signal")
        pid = int((signal_file.parent / "postmaster.pid").read_text().split()[0])
        os.kill(pid, signal.SIGKILL)
        _, stderr = process.communicate(timeout=90)
    assert process.returncode == 1, stderr
    assert stderr.strip().splitlines()[-1].startswith("pkbench: error: the standby server died"), stderr
    assert "Traceback" not in stderr
    assert_nothing_left(server_tmpdir)


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (("--standby", "--dsn", "host=/nonexistent"), "with --dsn name an existing one with --standby-dsn"),
        (("--archive", "--dsn", "host=/nonexistent"), "--archive archives the embedded server's WAL"),
        (("--standby-dsn", "host=/nonexistent"), "--standby-dsn names the standby of the --dsn server"),
    ],
)
def test_topologies_that_cannot_be_are_refused_in_one_line(arguments: tuple[str, ...], message: str) -> None:
    result = run_cli("run", *arguments)
    assert result.returncode == 1
    assert result.stderr.startswith("pkbench: error: ") and message in result.stderr, result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def test_lag_percentiles_interpolate_and_say_none_without_samples() -> None:
    assert lag_summary([4.0, 1.0, 3.0, 2.0]) == {"p50": 2.5, "p99": 3.97, "max": 4.0}
    assert lag_summary([]) == {"p50": None, "p99": None, "max": None}


def _measured_window(name: str, tps: float, shipped: int, archived: int, level: str | None) -> WorkloadResult:
    return WorkloadResult(
        name,
        "",
        transactions=1000,
        tps=tps,
        latency_ms={"mean": 4.0},
        replication=ReplicationWindow(
            synchronous_commit=level,
            wal_shipped_bytes=shipped,
            archived_bytes=archived,
            replay_lag_ms={"p50": 1.0, "p99": 2.0, "max": 3.0},
            catch_up_s=0.1,
        ),
    )


def _run(*strategies: StrategyResult) -> RunResult:
    run = RunResult([], "", {"parameters": {"repeat": 1}}, {}, {}, {})
    run.strategies = list(strategies)
    return run


def test_the_summary_answers_against_bigint_in_words() -> None:
    def strategy(name: str, free_tps: float, waiting_tps: float, shipped: int) -> StrategyResult:
        windows = [
            _measured_window("async", free_tps, shipped, shipped, None),
            _measured_window("sync", waiting_tps, shipped, 2 * shipped, "remote_apply"),
        ]
        return StrategyResult(name, "", "", None, workloads=windows)

    results = _run(strategy("uuid-v4", 2000.0, 500.0, 900_000), strategy("bigint", 2000.0, 1000.0, 300_000))
    results.baseline = "bigint"
    text = "\n".join(replication_summary.lines(results))
    times = "\N{MULTIPLICATION SIGN}"
    assert (
        f"In async: uuid-v4 shipped 3.00{times} the WAL per transaction of bigint, archived 3.00{times}"
        in text
    )
    assert f"committed at 0.50{times} bigint's TPS" in text
    assert f"kept this share of its TPS in async: uuid-v4 0.25{times}, bigint 0.50{times}." in text
    assert "| sync (synchronous_commit remote_apply) | uuid-v4 | 900 | 1,800 |" in text
    assert replication_summary.lines(_run(StrategyResult("bigint", "", "", None))) == []


def test_standby_dsn_reads_an_existing_standby_and_changes_nothing(
    server_tmpdir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(tempfile, "tempdir", str(server_tmpdir))
    wanted = topology.Topology(standby=True)
    primary = topology.primary_class(wanted)(
        find_server_bindir(None), find_pgbench(None), {"shared_buffers": "16MB"}
    )
    with primary, topology.attached(primary, wanted, Silent()):
        standby = primary.standby
        assert standby is not None
        out = tmp_path / "out"
        result = run_cli(
            "run",
            "--no-report",
            "war",
            *short_run(strategies="uuid-v4", out=out),
            "--dsn",
            primary.connection.conninfo(),
            "--standby-dsn",
            standby.connection.conninfo(),
        )
        assert result.returncode == 0, result.stderr
        window = _window(_results(out), "uuid-v4", "lookup-by-key")
        replication = window["replication"]
        assert replication["sync_state"] == "async"
        assert replication["catch_up_s"] is not None and replication["wal_shipped_bytes"] > 0
        reasons = {u["metric"]: u["reason"] for u in window["unavailable"]}
        assert reasons["replication.archived_segments"] == "no WAL archive (--archive)"
        with primary.connection.connect() as conn:
            row = conn.execute(
                "SELECT (SELECT state FROM pg_stat_replication), (SELECT count(*) FROM pg_replication_slots),"
                " current_setting('synchronous_standby_names')"
            ).fetchone()
        assert row == ("streaming", 1, ""), "the standby streams on, its slot and the settings untouched"
