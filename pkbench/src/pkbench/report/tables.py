"""The tables of a run report: the Results Summary, per-workload figures and sizes.

A cell is text plus, when the figure is null, the reason from `unavailable`, so the page can show the
missing marker and why.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from pkbench.analysis.metrics import Figure, Metric, figure, report_columns, unavailable_reason
from pkbench.report import whiskers
from pkbench.report.loading import Run, workload_of
from pkbench.results.model import RepeatedStrategy, StrategyResult, WorkloadResult
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


# The workload's figures in three tables narrow enough for a 1300-pixel page: how fast, what each transaction
# cost the server, and how large the relations ended. A registry column the report shows goes to SPEED when
# its key is here, else to work.
SPEED = whiskers.SPEED
WAL_DETAILS = [
    "full-page image bytes",
    "page splits",
    "distinct blocks in WAL",
    "checkpoints (timed / requested)",
]
SAMPLING = "sampling busy / CPU (s)"
SIZE_HEADERS = ["table at the end", "primary key", "all indexes", "total"]


@dataclass(frozen=True)
class WorkloadTable:
    """One of a workload's tables: what it shows, its headers (strategy first) and its rows."""

    caption: str
    headers: list[str]
    rows: list[TableRow]


def _speed_columns() -> list[Metric]:
    return [m for m in report_columns() if m.key in SPEED]


def _work_columns() -> list[Metric]:
    return [m for m in report_columns() if m.key not in SPEED]


def workload_tables(run: Run, workload: str) -> list[WorkloadTable]:
    """Every headline figure of one workload per strategy, in three tables (speed, work, size); null figures
    carry their reason. With --repeat, a figure is the median and its [min, max] over the repeats follows in
    brackets."""
    speed, work, size = [], [], []
    for strategy in run.measured_strategies:
        found = workload_of(strategy, workload)
        if found is None:
            continue
        speed.append(
            TableRow(strategy.name, "ok", [_with_spread(m, strategy, found) for m in _speed_columns()])
        )
        work.append(
            TableRow(
                strategy.name,
                "ok",
                [
                    *(_with_spread(m, strategy, found) for m in _work_columns()),
                    *_wal_details(found),
                    sampling_cost(found),
                ],
            )
        )
        size.append(TableRow(strategy.name, "ok", _sizes_at_end(found)))
    return [
        WorkloadTable("Speed", ["strategy", *(str(m.column) for m in _speed_columns())], speed),
        WorkloadTable(
            "Work per transaction and in the window",
            ["strategy", *(str(m.column) for m in _work_columns()), *WAL_DETAILS, SAMPLING],
            work,
        ),
        WorkloadTable("Size at the end of the window", ["strategy", *SIZE_HEADERS], size),
    ]


def _wal_details(found: WorkloadResult) -> list[Cell]:
    checkpoints = found.checkpoints
    if checkpoints is not None:
        timed, requested = figure(checkpoints, "timed"), figure(checkpoints, "requested")
        checkpoint_cell = Cell(f"{format_count(timed)} / {format_count(requested)}")
    else:
        checkpoint_cell = na(figure(found, "checkpoints").reason)
    return [
        size_cell(figure(found, "wal_fpi_bytes")),
        with_per_transaction(
            formatted(figure(found, "page_splits"), "{:,.0f}"), found, "page_splits_per_transaction"
        ),
        distinct_blocks(found),
        checkpoint_cell,
    ]


def _sizes_at_end(found: WorkloadResult) -> list[Cell]:
    sizes = found.sizes_at_end
    if sizes is None:
        return [na(unavailable_reason(found, "sizes_at_end"))] * len(SIZE_HEADERS)
    indexes = [float(v) for v in (sizes.indexes or {}).values() if isinstance(v, int | float)]
    return [
        size_cell(figure(sizes, "table_bytes")),
        size_cell(figure(sizes, "primary_key_bytes")),
        Cell(binary_size(sum(indexes))) if indexes else na(unavailable_reason(sizes, "indexes")),
        size_cell(figure(sizes, "total_bytes")),
    ]


def column_notes(headers: list[str], rows: list[TableRow]) -> list[str]:
    """One line per column with figures missing, instead of the reason in every cell: the strategies it is
    missing for (or every one) and why, a line per reason."""
    notes = []
    measured = [row for row in rows if row.status == "ok"]
    for index, header in enumerate(headers[1:]):
        by_reason: dict[str, list[str]] = {}
        for row in measured:
            if index < len(row.cells) and row.cells[index].missing:
                by_reason.setdefault(str(row.cells[index].reason), []).append(row.strategy)
        for reason, strategies in by_reason.items():
            who = "every strategy" if len(strategies) == len(measured) > 1 else ", ".join(strategies)
            notes.append(f"{header}: n/a for {who} ({reason})")
    return notes


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


SIZE_TABLE_HEADERS = ["strategy", "moment", "table", "primary key", "total"]


def size_rows(run: Run) -> list[TableRow]:
    """A row per strategy and moment (after the prefill, at the end of each workload, at each snapshot): a
    column per moment would outgrow the page in a scenario of many windows."""
    rows = []
    for strategy in run.measured_strategies:
        for moment, sizes, reason in run.size_moments(strategy):
            cells = [Cell(moment)]
            for metric in ("table_bytes", "primary_key_bytes", "total_bytes"):
                cells.append(size_cell(figure(sizes, metric)) if sizes else na(reason))
            rows.append(TableRow(strategy.name, "ok", cells))
    return rows
