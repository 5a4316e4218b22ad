"""Our figure for one row of a study's table: the metric registry's, or one of the few figures a study states
that the registry does not hold (a window's wall time, a timed step, the key index at a snapshot, shares of
the WAL, the key index's distinct blocks in the WAL)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from pkbench.analysis.metrics import STRATEGY_METRICS, WORKLOAD_METRICS, Figure, Metric, figure, key_index
from pkbench.results.model import PREFILL_SNAPSHOT, StrategyResult
from pkbench.text import MIB

# Study figures the metric registry does not hold, with what each needs: the window's wall time (the time
# pgbench took for a fixed number of transactions), a timed step's duration, the key index at a snapshot.
WINDOW_TIME = "window-time"
STEP_TIME = "step-time"
KEY_INDEX_SIZE = "key-index-size"
# The headline fill (the scenario's [summary] insert) per million rows: fills that top a table up insert
# slightly different counts per strategy, so their times compare only per row.
INSERT_PER_MILLION = "insert-time-per-million"
# The share of a window's WAL that is full-page images (pg_walinspect), in percent: a study that states only
# shares (seed 003) is compared on them.
FPI_SHARE = "wal-fpi-share"
# The distinct blocks of the key index the window's WAL touched (seed 004's chart), and the window's WAL in
# MiB: a study over fixed 4-hour runs compares totals, which our fixed-length windows compare alike.
DISTINCT_INDEX_BLOCKS = "wal-distinct-index-blocks"
WAL_WINDOW = "wal-window"
# The share of the key index's pages a density step found deleted (pgstatindex), in percent of all its pages
# with the metapage, as VACUUM VERBOSE counts them: what deleting the older half freed whole (seed 002).
INDEX_PAGES_DELETED = "index-pages-deleted-share"
# Read from the window's sampled time series, not from results.json (summary/waits.py computes them, in
# percent): the share of active backend samples waiting on reading a data file, and the share of shared
# buffers at a usage count of at most 1 (seed 000's two charts).
WAIT_DATAFILEREAD = "wait-datafileread-share"
LOW_USAGE_BUFFERS = "low-usage-buffers-share"
SAMPLED_METRICS = (WAIT_DATAFILEREAD, LOW_USAGE_BUFFERS)
EXTRA_METRICS = {
    WINDOW_TIME: "workload",
    STEP_TIME: "step",
    KEY_INDEX_SIZE: "snapshot",
    INSERT_PER_MILLION: None,
    FPI_SHARE: "workload",
    DISTINCT_INDEX_BLOCKS: "workload",
    WAL_WINDOW: "workload",
    INDEX_PAGES_DELETED: "step",
    WAIT_DATAFILEREAD: "workload",
    LOW_USAGE_BUFFERS: "workload",
}


@dataclass(frozen=True)
class PublishedFigure:
    """One row of a study's table: its label, what it maps onto, and its figure per strategy of ours."""

    label: str
    metric: str
    unit: str
    values: Mapping[str, float]
    relative_to: str
    workload: str | None = None
    step: str | None = None
    snapshot: str | None = None
    note: str = ""
    # A share is a percentage the study states outright (of its WAL, of the same strategy's rate in
    # base_workload): compared as it is, not as a ratio to another strategy.
    share: bool = False
    base_workload: str | None = None
    # A study that states only which way a strategy differs from relative_to, with no figure (its results
    # are charts): "larger", "smaller" or "same" per strategy, in place of values.
    direction: Mapping[str, str] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {
            "label": self.label,
            "metric": self.metric,
            "unit": self.unit,
            "values": dict(self.values),
            "relative_to": self.relative_to,
            "workload": self.workload,
            "step": self.step,
            "snapshot": self.snapshot,
            "note": self.note,
            "share": self.share,
            "base_workload": self.base_workload,
            "direction": dict(self.direction),
        }


def registry() -> dict[str, Metric]:
    return {m.key: m for m in (*WORKLOAD_METRICS, *STRATEGY_METRICS)}


def ours(
    item: PublishedFigure, strategy: StrategyResult, sampled: Mapping[str, Mapping[str, float]] | None = None
) -> Figure:
    """Our figure for ITEM in one strategy's results; SAMPLED holds the figures read from its windows' time
    series (workload -> metric -> value), which results.json does not."""
    if item.metric in SAMPLED_METRICS:
        value = (sampled or {}).get(str(item.workload), {}).get(item.metric)
        return Figure(value) if value is not None else Figure(None, "no sampled time series of the window")
    if item.metric == STEP_TIME:
        return figure(strategy.step_durations_s, str(item.step))
    if item.metric == INSERT_PER_MILLION and item.step:
        rows, seconds = strategy.step_rows.get(item.step), strategy.step_durations_s.get(item.step)
        if not rows or seconds is None:
            return Figure(None, f"the run recorded no rows for step {item.step}")
        return Figure(float(seconds) / float(rows) * 1e6)
    if item.metric == INSERT_PER_MILLION:
        prefill = strategy.prefill
        if prefill is None or not prefill.rows or prefill.duration_s is None:
            return Figure(None, "no headline fill inserted rows")
        return Figure(float(prefill.duration_s) / float(prefill.rows) * 1e6)
    if item.metric == INDEX_PAGES_DELETED:
        return deleted_share(strategy.density.get(str(item.step)), key_index(strategy))
    if item.metric == KEY_INDEX_SIZE:
        sizes = strategy.snapshots.get(str(item.snapshot))
        if item.snapshot == PREFILL_SNAPSHOT:
            sizes = strategy.sizes_after_prefill
        index = key_index(strategy)
        found = figure(sizes.indexes, index) if index and sizes else Figure(None, "no key index")
        return found if found.value is None else Figure(found.value / MIB)
    workload = next((w for w in strategy.workloads if w.name == item.workload), None)
    if item.workload is not None and workload is None:
        return Figure(None, f"workload {item.workload} did not run")
    if item.metric == WINDOW_TIME:
        return figure(workload, "duration_s")
    if item.metric in (FPI_SHARE, WAL_WINDOW):
        fpi, records = figure(workload, "wal_fpi_bytes"), figure(workload, "wal_record_bytes")
        if fpi.value is None or records.value is None or fpi.value + records.value <= 0:
            return Figure(None, fpi.reason or records.reason or "no WAL in the window")
        if item.metric == WAL_WINDOW:
            return Figure((fpi.value + records.value) / MIB)
        return Figure(100 * fpi.value / (fpi.value + records.value))
    if item.metric == DISTINCT_INDEX_BLOCKS:
        blocks = workload.wal_distinct_blocks if workload is not None else None
        index = key_index(strategy)
        if not blocks or index is None or index not in blocks:
            return Figure(None, "the window's WAL was not inspected for the key index")
        return Figure(float(blocks[index]))
    found = registry()[item.metric].read(strategy, workload)
    if item.base_workload is None or found.value is None:
        return found
    base = next((w for w in strategy.workloads if w.name == item.base_workload), None)
    if base is None:
        return Figure(None, f"workload {item.base_workload} did not run")
    of_base = registry()[item.metric].read(strategy, base)
    if not of_base.value:
        return Figure(None, of_base.reason or f"nothing measured in {item.base_workload}")
    return Figure(100 * found.value / of_base.value)


def deleted_share(density: Mapping[str, Any] | None, index: str | None) -> Figure:
    """Deleted pages of INDEX in percent of all its pages (the metapage too), from a density step's
    figures."""
    figures = (density or {}).get(index) if index else None
    if not isinstance(figures, Mapping):
        return Figure(None, "the density step did not measure the key index")
    parts = [figures.get(k) for k in ("leaf_pages", "internal_pages", "empty_pages", "deleted_pages")]
    if not all(isinstance(p, int) for p in parts):
        return Figure(None, "pgstatindex gave no page counts")
    deleted, pages = float(parts[3] or 0), sum(int(p or 0) for p in parts) + 1
    return Figure(100 * deleted / pages)


def unit_of(item: PublishedFigure) -> str:
    """The unit of our figure for ITEM (the study's may differ: GB against our MiB)."""
    if item.metric in (WINDOW_TIME, STEP_TIME, INSERT_PER_MILLION):
        return "s"
    if item.metric in (KEY_INDEX_SIZE, WAL_WINDOW):
        return "MiB"
    if item.metric == DISTINCT_INDEX_BLOCKS:
        return "blocks"
    if item.share or item.metric in SAMPLED_METRICS:
        return "%"
    return registry()[item.metric].unit
