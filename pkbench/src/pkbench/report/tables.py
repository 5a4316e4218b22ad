"""The tables of a run report: the Results Summary, per-workload figures and sizes.

A cell is text plus, when the figure is null, the reason from `unavailable`, so the page can show the
missing marker and why.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from pkbench.analysis.metrics import Figure, Metric, figure, report_columns, unavailable_reason
from pkbench.report.loading import Run, workload_of
from pkbench.results import RepeatedStrategy, StrategyResult, WorkloadResult
from pkbench.summary.headline import cells as summary_cells
from pkbench.text import MISSING, binary_size


@dataclass(frozen=True)
class Cell:
    text: str
    reason: str | None = None
    css: str = ""

    @property
    def missing(self) -> bool:
        return self.reason is not None


def na(reason: str | None) -> Cell:
    return Cell(MISSING, reason or "not measured", "na")


def formatted(measured: Figure, fmt: str) -> Cell:
    if measured.value is None:
        return na(measured.reason)
    return Cell(fmt.format(measured.value))


def size_cell(measured: Figure) -> Cell:
    if measured.value is None:
        return na(measured.reason)
    return Cell(binary_size(measured.value))


def relative(value: float | None, other: float | None) -> float | None:
    """(value - other) / other, or None when either is unknown or other is zero."""
    if value is None or other is None or other == 0:
        return None
    return (value - other) / other


def signed_percent(change: float) -> str:
    return f"{change * 100:+.0f}%".replace("-", "\N{MINUS SIGN}")


@dataclass
class TableRow:
    strategy: str
    status: str
    cells: list[Cell] = field(default_factory=list)


def summary_table(run: Run) -> tuple[list[str], list[TableRow]]:
    """The Results Summary exactly as summary.md has it (pkbench.summary.headline builds both)."""
    headers, table = summary_cells(run.result)
    status = {s.name: s.status for s in run.strategies}
    rows = []
    for first, *texts in table:
        name = str(first)
        cells = [
            na("not measured; the workload tables give the reason") if t is None else Cell(t) for t in texts
        ]
        rows.append(TableRow(name, status.get(name, "ok"), cells))
    return headers, rows


def workload_headers() -> list[str]:
    """The workload table's headers: the registry's figures first, then the composite cells below."""
    return ["strategy", *(str(m.column) for m in report_columns()), *DETAIL_HEADERS]


DETAIL_HEADERS = [
    "full-page image bytes",
    "page splits",
    "distinct blocks in WAL",
    "checkpoints (timed / requested)",
    "sampling busy / CPU (s)",
]


def workload_rows(run: Run, workload: str) -> list[TableRow]:
    """Every headline figure of one workload per strategy; null figures carry their reason.

    With --repeat, a figure is the median and its [min, max] over the repeats follows in brackets.
    """
    rows = []
    for strategy in run.measured_strategies:
        found = workload_of(strategy, workload)
        if found is None:
            continue
        checkpoints = found.checkpoints
        if checkpoints is not None:
            timed, requested = figure(checkpoints, "timed"), figure(checkpoints, "requested")
            checkpoint_cell = Cell(f"{format_count(timed)} / {format_count(requested)}")
        else:
            checkpoint_cell = na(figure(found, "checkpoints").reason)
        cells = [
            *(_with_spread(metric, strategy, found) for metric in report_columns()),
            size_cell(figure(found, "wal_fpi_bytes")),
            with_per_transaction(
                formatted(figure(found, "page_splits"), "{:,.0f}"), found, "page_splits_per_transaction"
            ),
            distinct_blocks(found),
            checkpoint_cell,
            sampling_cost(found),
        ]
        rows.append(TableRow(strategy.name, "ok", cells))
    return rows


def _with_spread(metric: Metric, strategy: StrategyResult, workload: WorkloadResult) -> Cell:
    """A registry figure, followed over repeats by its [min, max] in brackets."""
    shown = formatted(metric.read(strategy, workload), metric.fmt)
    spread = strategy.spread if isinstance(strategy, RepeatedStrategy) else {}
    bounds = spread.get(f"workloads.{workload.name}.{metric.path or metric.key}")
    if shown.missing or bounds is None or len(bounds) != 2:
        return shown
    low, high = (metric.fmt.format(bound) for bound in bounds)
    return Cell(f"{shown.text} ({low}\N{EN DASH}{high})")


def with_per_transaction(shown: Cell, workload: WorkloadResult, key: str) -> Cell:
    per_transaction = figure(workload, key)
    if shown.missing or per_transaction.value is None:
        return shown
    return Cell(f"{shown.text} ({per_transaction.value:.4f} / tx)")


def distinct_blocks(workload: WorkloadResult) -> Cell:
    """Distinct blocks of each relation that the window's WAL touched (pg_walinspect)."""
    blocks = workload.wal_distinct_blocks
    if not blocks:
        reason = unavailable_reason(workload, "wal_distinct_blocks")
        # Older runs list only the pg_walinspect figures they name; the blocks come from the same source.
        return na(reason if reason != "not measured" else unavailable_reason(workload, "wal_fpi_bytes"))
    return Cell(
        ", ".join(
            f"{relation} {count:,}" if isinstance(count, int) else f"{relation} {count}"
            for relation, count in blocks.items()
        )
    )


def sampling_cost(workload: WorkloadResult) -> Cell:
    """What the probes' sampling cost in the window: wall time in its queries, and CPU (embedded only)."""
    busy, cpu = figure(workload, "sampling_busy_s"), figure(workload, "sampling_cpu_s")
    if busy.value is None and cpu.value is None:
        return na(busy.reason)
    return Cell(" / ".join(MISSING if f.value is None else f"{f.value:.2f}" for f in (busy, cpu)))


def format_count(measured: Figure) -> str:
    return MISSING if measured.value is None else f"{measured.value:,.0f}"


def size_headers(run: Run) -> list[str]:
    headers = ["strategy"]
    first = run.measured_strategies[:1]
    for moment, _, _ in run.size_moments(first[0]) if first else []:
        headers += [f"{moment}: table", "primary key", "total"]
    return headers


def size_rows(run: Run) -> list[TableRow]:
    rows = []
    for strategy in run.measured_strategies:
        cells = []
        for _, sizes, reason in run.size_moments(strategy):
            for metric in ("table_bytes", "primary_key_bytes", "total_bytes"):
                cells.append(size_cell(figure(sizes, metric)) if sizes else na(reason))
        rows.append(TableRow(strategy.name, "ok", cells))
    return rows
