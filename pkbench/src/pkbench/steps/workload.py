"""A measured window turned into its WorkloadResult: pure, so it is tested without a server."""

from __future__ import annotations

from collections.abc import Sequence

from pkbench.pgbench import driver as pgbench
from pkbench.pgbench.output import latency_summary
from pkbench.probes import counters
from pkbench.probes.walinspect import WALINSPECT_FIGURES, WalInspection
from pkbench.results.model import StatementResult, Unavailable, WorkloadResult


def script_statements(sql: str) -> list[str]:
    """The SQL statements of a pgbench script, without its meta-commands (\\set ...)."""
    return [line for line in sql.splitlines() if line.strip() and not line.lstrip().startswith("\\")]


def fill(
    workload: WorkloadResult,
    outcome: pgbench.Run,
    scripts: Sequence[pgbench.ScriptFile],
    window: counters.WindowFigures,
    inspection: WalInspection | None = None,
    wal_inspected: bool = False,
) -> None:
    """Record pgbench's figures, the counters' window and pg_walinspect's figures (when inspected)."""
    summary = outcome.summary
    workload.duration_s = round(outcome.duration_s, 3)
    workload.transactions = summary.transactions
    workload.failed_transactions = summary.failed_transactions
    workload.tps = summary.tps
    all_latencies = [v for values in outcome.latencies_ms.values() for v in values]
    workload.latency_ms = latency_summary(all_latencies)
    for index, script in enumerate(scripts):
        reported = summary.scripts[index] if index < len(summary.scripts) else None
        statements = script_statements(script.sql)
        sql_means = [s for s in (reported.statements if reported else ()) if not s.text.startswith("\\")]
        if len(statements) == 1:
            latency = latency_summary(outcome.latencies_ms.get(index, []))
            workload.statements.append(StatementResult(script.name, statements[0], latency))
            continue
        for i, text in enumerate(statements):
            mean = sql_means[i].latency_ms if i < len(sql_means) else None
            workload.statements.append(
                StatementResult(
                    f"{script.name}.{i + 1}",
                    text,
                    {"mean": mean, "p50": None, "p95": None, "p99": None, "max": None},
                )
            )
        workload.unavailable.append(
            Unavailable(
                f"statements.{script.name}.percentiles",
                "pgbench logs latency per script run; this script has several statements: means only",
            )
        )
    workload.wal_bytes, workload.wal_records, workload.wal_fpi = (
        window.wal_bytes,
        window.wal_records,
        window.wal_fpi,
    )
    if workload.transactions:
        if window.wal_bytes is not None:
            workload.wal_bytes_per_transaction = round(window.wal_bytes / workload.transactions, 2)
        if window.wal_fpi is not None:
            workload.wal_fpi_per_transaction = round(window.wal_fpi / workload.transactions, 5)
    if inspection is not None:
        for name, value in inspection.figures(workload.transactions or 0).items():
            setattr(workload, name, value)
    elif not wal_inspected:
        workload.unavailable += [
            Unavailable(metric, "needs pg_walinspect (a step with wal_inspect, as in the wal scenario)")
            for metric in WALINSPECT_FIGURES
        ]
    workload.hit_ratio = window.hit_ratio
    workload.blocks_accessed = window.blocks_accessed
    workload.checkpoints = window.checkpoints
    workload.unavailable += window.unavailable
