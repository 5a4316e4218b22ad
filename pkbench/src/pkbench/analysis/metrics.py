"""The metric registry: every figure pkbench compares, defined once.

Each Metric says its key, label, unit, which direction is better, how it is read from a strategy's results
(and one of its workloads, for per-workload figures) and how it is formatted. The exporters (summary.csv, the
comparison's tables and charts, the report's workload table) iterate over WORKLOAD_METRICS and
STRATEGY_METRICS: adding a figure is one entry here plus the probe that measures it.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from pkbench.analysis import verdict
from pkbench.analysis.verdict import FigureKind
from pkbench.results.model import StrategyResult, Unavailable, WorkloadResult
from pkbench.text import MIB


@dataclass(frozen=True)
class Figure:
    """One measured number, or why it is missing."""

    value: float | None
    reason: str | None = None

    @property
    def available(self) -> bool:
        return self.value is not None


def member(holder: object, key: str) -> object:
    """A field of a results-model object, or an entry of one of the model's maps (latency_ms, hit_ratio,
    step_durations_s): the figures are named by these keys (latency_ms.p95), whichever holds them."""
    if isinstance(holder, Mapping):
        return holder.get(key)
    return getattr(holder, key, None)


def unavailable_reason(holder: object, metric: str) -> str:
    """The reason the `unavailable` list of HOLDER gives for METRIC or for its group (hit_ratio for
    hit_ratio.x)."""
    entries = getattr(holder, "unavailable", None) or []
    reasons = {u.metric: u.reason or "not measured" for u in entries if isinstance(u, Unavailable)}
    while metric:
        if metric in reasons:
            return reasons[metric]
        metric = metric.rpartition(".")[0]
    return "not measured"


def figure(holder: object | None, key: str) -> Figure:
    """The number at KEY of HOLDER; when null or absent, the reason that `unavailable` of HOLDER gives."""
    if holder is None:
        return Figure(None, "not measured")
    value = member(holder, key)
    if isinstance(value, bool) or not isinstance(value, int | float):
        return Figure(None, unavailable_reason(holder, key))
    return Figure(float(value))


def nested_figure(holder: object | None, group: str, key: str) -> Figure:
    """The number at GROUP.KEY of HOLDER (hit_ratio.records_pkey, latency_ms.p99); the reason comes from
    HOLDER."""
    inner = member(holder, group) if holder is not None else None
    found = figure(inner, key)
    if found.value is not None or holder is None:
        return found
    return Figure(None, unavailable_reason(holder, f"{group}.{key}"))


def key_index(strategy: StrategyResult) -> str | None:
    """The primary key's index (PostgreSQL names it <table>_pkey), else the table's only index (the wal
    scenario's unique index): the one way every reader finds it."""
    sizes = strategy.sizes_after_prefill
    indexes = list(sizes.indexes or {}) if sizes is not None else []
    keys = [str(name) for name in indexes if str(name).endswith("_pkey")]
    return keys[0] if keys else str(indexes[0]) if len(indexes) == 1 else None


# A figure of a strategy and one of its workloads (None for per-strategy figures).
Reader = Callable[[StrategyResult, WorkloadResult | None], Figure]


@dataclass(frozen=True)
class Metric:
    """A figure read from a strategy and one of its workloads (an empty workload for per-strategy ones).

    `path` is where a workload figure sits (latency_ms.p95), which also names its spread over repeats;
    `column` is its header in the report's workload table (None: not shown there); `compared` puts it in
    `compare`'s tables and charts; `fmt` formats it in tables.
    """

    key: str
    title: str
    unit: str
    higher_is_better: bool
    read: Reader
    fmt: str = "{:,.3g}"
    column: str | None = None
    compared: bool = True
    path: str | None = None
    # A headline figure of paired rounds: judged against the baseline, read in these words (None: not judged).
    verdict: FigureKind | None = None

    def format(self, value: float) -> str:
        """A figure in the comparison, whatever its size: thousands grouped, else three significant digits."""
        return f"{value:,.0f}" if abs(value) >= 1000 else f"{value:.3g}"


def at_path(path: str, scale: float = 1.0) -> Reader:
    """The workload's figure at PATH (tps, latency_ms.p95), scaled."""
    group, _, key = path.rpartition(".")

    def read(_: StrategyResult, workload: WorkloadResult | None) -> Figure:
        found = nested_figure(workload, group, key) if group else figure(workload, key)
        return found if found.value is None else Figure(found.value * scale)

    return read


def workload_metric(
    key: str,
    title: str,
    unit: str,
    higher_is_better: bool,
    path: str,
    fmt: str,
    column: str | None,
    compared: bool = True,
    verdict: FigureKind | None = None,
) -> Metric:
    return Metric(key, title, unit, higher_is_better, at_path(path), fmt, column, compared, path, verdict)


def primary_key_hit_ratio(strategy: StrategyResult, workload: WorkloadResult | None) -> Figure:
    """Hit ratio (%) of the key index in the workload's window."""
    ratios = workload.hit_ratio if workload is not None else None
    if not isinstance(ratios, dict):
        return figure(workload, "hit_ratio")
    index = key_index(strategy)
    if index is None or index not in ratios:
        return Figure(None, "no primary key among the hit ratios")
    found = nested_figure(workload, "hit_ratio", index)
    return found if found.value is None else Figure(found.value * 100.0)


def prefill_figure(key: str) -> Reader:
    def read(strategy: StrategyResult, _: WorkloadResult | None) -> Figure:
        return figure(strategy.prefill, key)

    return read


# Work per transaction (results.WorkPerTransaction), lower is better: key, title, unit, field, format, and
# the report's column.
WORK_FIGURES = (
    ("buffers-hit", "shared buffers hit", "blocks", "shared_blocks_hit", "{:,.2f}", "buffers hit / tx"),
    ("buffers-read", "shared buffers read", "blocks", "shared_blocks_read", "{:,.3f}", "buffers read / tx"),
    (
        "buffers-dirtied",
        "shared buffers dirtied",
        "blocks",
        "shared_blocks_dirtied",
        "{:,.3f}",
        "buffers dirtied / tx",
    ),
    (
        "buffers-written",
        "shared buffers written",
        "blocks",
        "shared_blocks_written",
        "{:,.3f}",
        "buffers written / tx",
    ),
    ("backend-cpu", "backend CPU", "ms", "backend_cpu_ms", "{:,.3f}", "backend CPU ms / tx"),
    (
        "statement-time",
        "statement execution time",
        "ms",
        "statement_time_ms",
        "{:,.3f}",
        "statement ms / tx",
    ),
    ("os-read", "bytes read from the OS", "bytes", "os_read_bytes", "{:,.0f}", "OS read bytes / tx"),
)

# In the order the report's workload table shows them.
WORKLOAD_METRICS: list[Metric] = [
    workload_metric(
        "transactions", "transactions", "count", True, "transactions", "{:,.0f}", "transactions", False
    ),
    workload_metric(
        "failed", "failed transactions", "count", False, "failed_transactions", "{:,.0f}", "failed", False
    ),
    workload_metric("tps", "TPS", "tps", True, "tps", "{:,.1f}", "tps", verdict=verdict.TPS),
    workload_metric(
        "p50", "latency p50", "ms", False, "latency_ms.p50", "{:,.2f}", None, False, verdict.LATENCY
    ),
    workload_metric(
        "latency-mean", "latency mean", "ms", False, "latency_ms.mean", "{:,.2f}", "latency mean (ms)", False
    ),
    workload_metric("p95", "latency p95", "ms", False, "latency_ms.p95", "{:,.2f}", "p95 (ms)"),
    workload_metric(
        "p99", "latency p99", "ms", False, "latency_ms.p99", "{:,.2f}", "p99 (ms)", False, verdict.LATENCY
    ),
    workload_metric(
        "wal",
        "WAL bytes per transaction",
        "bytes",
        False,
        "wal_bytes_per_transaction",
        "{:,.0f}",
        "WAL bytes / tx",
        verdict=verdict.WAL_PER_TRANSACTION,
    ),
    workload_metric(
        "fpi",
        "full-page images per transaction",
        "count",
        False,
        "wal_fpi_per_transaction",
        "{:,.3f}",
        "full-page images / tx",
        verdict=verdict.FPI_PER_TRANSACTION,
    ),
    *(
        workload_metric(
            key,
            f"{title} per transaction",
            unit,
            False,
            f"work_per_transaction.{field}",
            fmt,
            column,
        )
        for key, title, unit, field, fmt, column in WORK_FIGURES
    ),
    Metric(
        "size",
        "total size at the end",
        "MiB",
        False,
        at_path("sizes_at_end.total_bytes", 1 / MIB),
        "{:,.1f}",
        path="sizes_at_end.total_bytes",
    ),
    Metric(
        "hit", "primary key hit ratio", "%", True, primary_key_hit_ratio, "{:.1f}", verdict=verdict.HIT_RATIO
    ),
]


def replication_figure(path: str, per_transaction: bool = False) -> Reader:
    """A figure of the workload's replication block (replay_lag_ms.p99), optionally per transaction."""
    group, _, key = path.rpartition(".")

    def read(_: StrategyResult, workload: WorkloadResult | None) -> Figure:
        block = workload.replication if workload is not None else None
        if block is None:
            return Figure(None, "no standby or WAL archive in this run")
        found = figure(member(block, group) if group else block, key)
        if found.value is None:
            return Figure(None, unavailable_reason(workload, f"replication.{group or key}"))
        if not per_transaction:
            return found
        transactions = figure(workload, "transactions").value
        if not transactions:
            return Figure(None, "the window ran no transaction")
        return Figure(found.value / transactions)

    return read


# What a window cost the standby and the archive (topology.py); shown for workloads that measured them.
REPLICATION_METRICS: list[Metric] = [
    Metric(
        "wal-shipped",
        "WAL shipped to the standby per transaction",
        "bytes",
        False,
        replication_figure("wal_shipped_bytes", per_transaction=True),
        "{:,.0f}",
    ),
    Metric(
        "wal-archived",
        "WAL archived per transaction",
        "bytes",
        False,
        replication_figure("archived_bytes", per_transaction=True),
        "{:,.0f}",
    ),
    *(
        Metric(
            f"replay-lag-{key}",
            f"replay lag {key}",
            "ms",
            False,
            replication_figure(f"replay_lag_ms.{key}"),
            "{:,.1f}",
        )
        for key in ("p50", "p99", "max")
    ),
    Metric("flush-lag-p99", "flush lag p99", "ms", False, replication_figure("flush_lag_ms.p99"), "{:,.1f}"),
    Metric(
        "catch-up",
        "standby catch-up after the window",
        "s",
        False,
        replication_figure("catch_up_s"),
        "{:,.2f}",
    ),
]

STRATEGY_METRICS: list[Metric] = [
    Metric("prefill", "prefill time", "s", False, prefill_figure("duration_s"), "{:,.2f}"),
]


def compared(metrics: list[Metric]) -> list[Metric]:
    return [m for m in metrics if m.compared]


def prefill_seconds_per_row(strategy: StrategyResult, _: WorkloadResult | None) -> Figure:
    """Seconds per row of the headlined load (the prefill)."""
    prefill = strategy.prefill
    if prefill is None or not prefill.rows or not prefill.duration_s:
        return Figure(None, "no load timed")
    return Figure(float(prefill.duration_s) / prefill.rows)


# The load's figure, judged over its parts rather than over windows: kept out of WORKLOAD_METRICS.
LOAD_METRIC = Metric(
    "load",
    "time to load",
    "s/row",
    False,
    prefill_seconds_per_row,
    "{:.3g}",
    compared=False,
    verdict=verdict.LOAD_TIME,
)


# The work figures an interleaved window measures for each strategy (pg_stat_statements by query id), with
# the words of their verdicts: what one transaction cost.
_INTERLEAVED_WORK = {
    "statement-time": verdict.FigureKind(
        False, "more execution time per transaction", "less execution time per transaction"
    ),
    **{
        f"buffers-{kind}": verdict.FigureKind(
            False, f"more buffers {kind} per transaction", f"fewer buffers {kind} per transaction"
        )
        for kind in ("hit", "read", "dirtied", "written")
    },
}


def interleaved_metrics() -> list[Metric]:
    """The figures judged in interleaved windows, where only a strategy's own share of the window says
    anything: its latency mean (pgbench's per-script report), its statements' execution time, buffers and
    WAL per transaction (pg_stat_statements by query id)."""
    by_key = {m.key: m for m in WORKLOAD_METRICS}
    return [
        dataclasses.replace(by_key["latency-mean"], verdict=verdict.LATENCY),
        by_key["wal"],
        by_key["fpi"],
        *(dataclasses.replace(by_key[key], verdict=kind) for key, kind in _INTERLEAVED_WORK.items()),
    ]


def mixed_metrics() -> tuple[list[Metric], list[Metric]]:
    """The mixed design's figures: speed, judged on interleaved windows (the latency mean, and the throughput
    derived from it that each strategy's share records), and the rest of the headline figures, judged on
    paired ones; a paired window's percentiles are speed too, which an interleaved one has none of."""
    by_key = {m.key: m for m in WORKLOAD_METRICS}
    speed = [by_key["tps"], dataclasses.replace(by_key["latency-mean"], verdict=verdict.LATENCY)]
    return speed, [m for m in verdict_metrics() if m.key not in ("tps", "latency-mean", "p50", "p99")]


def verdict_metrics() -> list[Metric]:
    """The headline figures judged over paired rounds, in the registry's order."""
    return [m for m in WORKLOAD_METRICS if m.verdict is not None]


def report_columns() -> list[Metric]:
    """The workload figures the report's workload table shows, leading its other columns."""
    return [m for m in WORKLOAD_METRICS if m.column is not None]


def verdict_title(key: str) -> str:
    """The title of a judged figure by its registry key (a verdict records the key), the key when unknown."""
    return next((m.title for m in (LOAD_METRIC, *WORKLOAD_METRICS) if m.key == key), key)
