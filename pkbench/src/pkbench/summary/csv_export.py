"""summary.csv: every registry figure of every measured strategy, flat (strategy x workload x figure).

Written beside results.json after each strategy; one row per figure, with the reason when it is missing, so a
spreadsheet or a script reads the same figures the summary, the report and `compare` show.
"""

from __future__ import annotations

import csv
from collections.abc import Iterator
from pathlib import Path

from pkbench.analysis.metrics import REPLICATION_METRICS, STRATEGY_METRICS, WORKLOAD_METRICS, Metric
from pkbench.results.model import RunResult, StrategyResult, WorkloadResult

# `complete` is false on every row of a run that stopped before doing everything asked for (results.json's
# `completion` says why), so a spreadsheet that collects summary.csv files cannot take one for whole.
COLUMNS = (
    "strategy", "workload", "figure", "label", "unit", "higher_is_better", "value", "missing_reason",
    "complete",
)  # fmt: skip


def rows(run: RunResult) -> Iterator[tuple[object, ...]]:
    complete = "false" if run.incomplete else "true"
    for strategy in run.strategies:
        if strategy.status != "ok":
            continue
        for workload in strategy.workloads:
            metrics = WORKLOAD_METRICS + (REPLICATION_METRICS if workload.replication else [])
            yield from ((*cells, complete) for cells in _cells(strategy, workload, workload.name, metrics))
        yield from ((*cells, complete) for cells in _cells(strategy, None, "", STRATEGY_METRICS))


def _cells(
    strategy: StrategyResult, workload: WorkloadResult | None, scope: str, metrics: list[Metric]
) -> Iterator[tuple[object, ...]]:
    for metric in metrics:
        found = metric.read(strategy, workload)
        yield (
            strategy.name,
            scope,
            metric.key,
            metric.title,
            metric.unit,
            metric.higher_is_better,
            "" if found.value is None else found.value,
            found.reason or "" if found.value is None else "",
        )


def write_csv(out_dir: Path, run: RunResult) -> Path:
    path = out_dir / "summary.csv"
    temporary = path.with_name(path.name + ".tmp")
    with temporary.open("w", newline="") as f:
        writer = csv.writer(f)
        writer.writerow(COLUMNS)
        writer.writerows(rows(run))
    temporary.replace(path)
    return path
