"""`pkbench run --interleave`: a window of several weighted scripts attributed per strategy (pure, on the
three-script pgbench 15 recording), and a tiny war run end to end whose verdicts and words say the design."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from conftest import OTHER_MAJOR, cli_in_process, run_cli, short_run

from pkbench.pgbench import output
from pkbench.run import interleaved

DATA = Path(__file__).parent / "data"


def mixed_recording() -> str:
    """The three-script recording as if uuid-v4's window had two weighted scripts (plain and text)."""
    text = (DATA / "pgbench15_three_strategies.stdout").read_text()
    text = text.replace("SQL script 3: uuid-v4-text.sql", "SQL script 3: uuid-v4__text.sql")
    return text.replace("SQL script 2: uuid-v4.sql", "SQL script 2: uuid-v4__plain.sql")


def test_a_mix_of_scripts_keeps_its_weights_under_its_strategys_name() -> None:
    mix = [("plain", 3, "SELECT 1;"), ("text", 1, "SELECT 2;")]
    scripts = interleaved.interleaved_scripts({"bigint": mix, "uuid-v4": "SELECT 3;"})
    assert [(s.name, s.weight) for s in scripts] == [
        ("bigint__plain", 3),
        ("bigint__text", 1),
        ("uuid-v4", 1),
    ]


def test_a_strategys_mix_adds_up_to_its_transactions_and_their_mean_time() -> None:
    windows = interleaved.attribute(output.parse_summary(mixed_recording()), ["bigint", "uuid-v4"])
    assert windows["uuid-v4"].transactions == 3349 + 3377
    # Each script's own time (without its SET of the search_path), weighted by its transactions.
    single = interleaved.attribute(
        output.parse_summary((DATA / "pgbench15_three_strategies.stdout").read_text()),
        ["bigint", "uuid-v4", "uuid-v4-text"],
    )
    expected = (3349 * single["uuid-v4"].latency_ms_mean + 3377 * single["uuid-v4-text"].latency_ms_mean) / (
        3349 + 3377
    )
    assert windows["uuid-v4"].latency_ms_mean == pytest.approx(expected)
    assert windows["bigint"] == single["bigint"]


def test_pgbench_18s_report_of_tagged_scripts_is_attributed() -> None:
    # pgbench 18 prints a script's transactions and tps on a line of their own; each SQL command carries
    # its strategy's tag for pg_stat_statements.
    windows = interleaved.attribute(
        output.parse_summary((DATA / "pgbench18_two_strategies.stdout").read_text()), ["bigint", "uuid-v4"]
    )
    assert windows["bigint"].transactions == 227 + 203
    assert windows["uuid-v4"].transactions == 211 + 201
    # Without the SET of the search_path: the insert's and the lookup's own statements.
    assert windows["bigint"].latency_ms_mean == pytest.approx((227 * 6.985 + 203 * (0.003 + 0.556)) / 430)


def test_interleave_refuses_isolated_strategies() -> None:
    result = cli_in_process("run", "war", "--interleave", "--isolate")
    assert result.returncode != 0
    assert result.stderr.count("\n") == 1 and "--interleave applies to paired rounds" in result.stderr


def unavailable(written: dict[str, Any]) -> list[tuple[str, str, int, list[Any]]]:
    """Why a round of a window has no work figures: shown when a verdict lacks a round."""
    return [
        (s["name"], w["name"], number, r["work_per_transaction"]["unavailable"])
        for s in written["strategies"]
        for w in s["workloads"]
        for number, r in enumerate(w.get("rounds") or [], 1)
        if (r.get("work_per_transaction") or {}).get("unavailable")
    ]


def test_a_tiny_interleaved_war_run(tmp_path: Path, server_tmpdir: Path) -> None:
    out = tmp_path / "run"
    result = run_cli(
        "run",
        "--no-report",
        "war",
        "--interleave",
        *short_run(strategies="bigint,uuid-v4", rows=200, clients=2, rounds=2, out=out, design=None),
        tmpdir=server_tmpdir,
    )
    assert result.returncode == 0, result.stderr
    written = json.loads((out / "results.json").read_text())
    assert written["rounds"]["design"] == "interleaved" and written["rounds"]["count"] == 2
    windows = {v["workload"] for v in written["verdicts"] if v["metric"] == "latency-mean"}
    assert windows == {"lookup-by-data", "lookup-by-key"}
    # The verdicts are on the figures interleaved windows measure per strategy: its latency mean from
    # pgbench, its statements' execution time, buffers and WAL from pg_stat_statements.
    measured = [v for v in written["verdicts"] if v["workload"] in windows]
    judged = {v["metric"] for v in measured}
    assert {"latency-mean", "statement-time", "buffers-hit", "wal", "fpi"} <= judged
    assert judged <= {"latency-mean", "statement-time", "wal", "fpi"} | {
        f"buffers-{kind}" for kind in ("hit", "read", "dirtied", "written")
    }
    # A round where neither wrote a full-page image (or a buffer) has no ratio of them: only these figures
    # are sure to have both rounds.
    for v in measured:
        if v["metric"] in ("latency-mean", "statement-time", "wal", "buffers-hit"):
            assert v["rounds"] == 2 and v["low"] <= v["ratio"] <= v["high"], (v, unavailable(written))
    wal: dict[str, list[float]] = {}
    for strategy in written["strategies"]:
        for workload in strategy["workloads"]:
            for window in workload["rounds"]:
                assert window["latency_ms"]["mean"] > 0 and window["transactions"] > 0
                spent = window["work_per_transaction"]
                assert spent["transactions"] == window["transactions"]
                assert spent["statement_time_ms"] > 0 and spent["shared_blocks_hit"] > 0
                assert spent["sources"]["wal_bytes"].startswith("pg_stat_statements, the strategy's own")
                assert window["wal_bytes_per_transaction"] == spent["wal_bytes"]
                # The machine during the window, shared by every strategy measured in it.
                assert 0 < window["machine_window"]["busy_fraction"] <= 1
                if workload["name"] == "lookup-by-data":
                    wal.setdefault(strategy["name"], []).append(spent["wal_bytes"])
                # Each window starts right after a checkpoint, as a paired window does: the first insert into
                # each of the table's and indexes' pages writes its image again.
                assert spent["wal_fpi"] > 0, (strategy["name"], workload["name"])
    # A transaction of lookup-by-data inserts one row: uuid-v4's key and foreign key are 16 bytes where
    # bigint's are 8, in the heap and in the key's index, so its insert writes more WAL.
    assert sum(wal["uuid-v4"]) > sum(wal["bigint"]) > 0
    summary = (out / "summary.md").read_text()
    assert "interleaved in one pgbench window per round (--interleave)" in summary
    assert "| Strategy | latency mean |" in summary
    assert "execution time per transaction" in summary


def test_on_postgresql_18_the_strategies_statements_share_query_ids(
    tmp_path: Path, server_tmpdir: Path
) -> None:
    out = tmp_path / "run"
    result = run_cli(
        "run",
        "--no-report",
        "war",
        "--interleave",
        "--pg",
        str(OTHER_MAJOR),
        *short_run(strategies="bigint,uuid-v4", rows=200, clients=2, rounds=2, out=out, design=None),
        tmpdir=server_tmpdir,
    )
    assert result.returncode == 0, result.stderr
    written = json.loads((out / "results.json").read_text())
    # pg_stat_statements cannot tell the strategies apart there: their figures are null with the reason and
    # out of the verdicts; the latency from pgbench's per-script report is judged as on 15.
    assert {v["metric"] for v in written["verdicts"] if v["workload"] != "prefill"} == {"latency-mean"}
    for strategy in written["strategies"]:
        for workload in strategy["workloads"]:
            for window in workload["rounds"]:
                spent = window["work_per_transaction"]
                assert spent["wal_bytes"] is None and spent["statement_time_ms"] is None
                reasons = {u["reason"] for u in spent["unavailable"]}
                assert len(reasons) == 1 and "PostgreSQL 18 gives tables of one name" in reasons.pop()
                assert window["latency_ms"]["mean"] > 0
