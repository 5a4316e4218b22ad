"""The measured window rendered into its WorkloadResult, without a server: pgbench's figures, the
counters' window, one row per statement, and the reasons for what was not measured."""

from __future__ import annotations

from pkbench.pgbench import driver as pgbench
from pkbench.pgbench import output
from pkbench.probes.counters import WindowFigures
from pkbench.probes.walinspect import WALINSPECT_FIGURES
from pkbench.results import Unavailable, WorkloadResult
from pkbench.steps.workload import fill, script_statements


def outcome() -> pgbench.Run:
    scripts = (
        output.ScriptSummary("insert", 3, 300, 30.0, 2.0, (output.StatementLatency(2.0, 0, "INSERT ..."),)),
        output.ScriptSummary(
            "pair",
            1,
            100,
            10.0,
            4.0,
            (
                output.StatementLatency(0.01, 0, "\\set id random(1, 10)"),
                output.StatementLatency(1.5, 0, "SELECT 1"),
                output.StatementLatency(2.5, 0, "SELECT 2"),
            ),
        ),
    )
    summary = output.Summary(400, 2, 40.0, 2.5, 0.5, scripts)
    return pgbench.Run(0, summary, [], {0: [1.0, 2.0, 3.0], 1: [4.0]}, 10.0004)


SCRIPTS = [
    pgbench.ScriptFile("insert", 3, "INSERT INTO records DEFAULT VALUES;"),
    pgbench.ScriptFile("pair", 1, "\\set id random(1, 10)\nSELECT 1;\n\nSELECT 2;"),
]
WINDOW = WindowFigures(
    wal_bytes=80_000,
    wal_records=900,
    wal_fpi=40,
    hit_ratio={"records_pkey": 0.5},
    blocks_accessed={"records": 1234},
    checkpoints={"timed": 0, "requested": 1},
    unavailable=[Unavailable("checkpoints.timed", "not on this version")],
)


def test_script_statements_leave_out_meta_commands_and_blank_lines() -> None:
    assert script_statements("\\set id random(1, 10)\n SELECT 1;\n\n  \\sleep 1\nSELECT 2;") == [
        " SELECT 1;",
        "SELECT 2;",
    ]


def test_a_window_is_rendered_into_its_workload_figures() -> None:
    workload = WorkloadResult("mixed", "")
    fill(workload, outcome(), SCRIPTS, WINDOW)
    assert (workload.duration_s, workload.transactions, workload.failed_transactions) == (10.0, 400, 2)
    assert workload.tps == 40.0
    assert workload.latency_ms["max"] == 4.0
    assert workload.wal_bytes_per_transaction == 200.0 and workload.wal_fpi_per_transaction == 0.1
    assert workload.hit_ratio == {"records_pkey": 0.5} and workload.blocks_accessed == {"records": 1234}
    names = [s.name for s in workload.statements]
    # A one-statement script keeps its percentiles; a longer one has one row (means only) per statement.
    assert names == ["insert", "pair.1", "pair.2"]
    assert workload.statements[0].latency_ms["p50"] is not None
    assert [s.latency_ms["mean"] for s in workload.statements[1:]] == [1.5, 2.5]
    assert [s.latency_ms["p95"] for s in workload.statements[1:]] == [None, None]
    metrics = [u.metric for u in workload.unavailable]
    assert "statements.pair.percentiles" in metrics and "checkpoints.timed" in metrics
    # Without a wal_inspect step, pg_walinspect's figures are said to be missing, and why.
    assert set(WALINSPECT_FIGURES) <= set(metrics)


def test_a_wal_inspecting_step_that_could_not_inspect_adds_no_second_reason() -> None:
    workload = WorkloadResult("mixed", "")
    fill(workload, outcome(), SCRIPTS, WINDOW, None, wal_inspected=True)
    assert not set(WALINSPECT_FIGURES) & {u.metric for u in workload.unavailable}
