"""summary.csv: every registry figure of every measured strategy, flat (strategy x workload x figure).

Written beside results.json after each strategy; one row per figure, with the reason when it is missing, so a
spreadsheet or a script reads the same figures the summary, the report and `compare` show.
"""

from __future__ import annotations

import csv
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from pkbench.metrics import REPLICATION_METRICS, STRATEGY_METRICS, WORKLOAD_METRICS, Metric

COLUMNS = ("strategy", "workload", "figure", "label", "unit", "higher_is_better", "value", "missing_reason")


def rows(results: dict[str, Any]) -> Iterator[tuple[object, ...]]:
    for strategy in results.get("strategies") or []:
        if not isinstance(strategy, dict) or strategy.get("status", "ok") != "ok":
            continue
        name = strategy.get("name")
        for workload in strategy.get("workloads") or []:
            if isinstance(workload, dict):
                metrics = WORKLOAD_METRICS + (REPLICATION_METRICS if workload.get("replication") else [])
                yield from _cells(name, strategy, workload, str(workload.get("name")), metrics)
        yield from _cells(name, strategy, {}, "", STRATEGY_METRICS)


def _cells(
    name: object, strategy: dict[str, Any], workload: dict[str, Any], scope: str, metrics: list[Metric]
) -> Iterator[tuple[object, ...]]:
    for metric in metrics:
        found = metric.read(strategy, workload)
        yield (
            name,
            scope,
            metric.key,
            metric.title,
            metric.unit,
            metric.higher_is_better,
            "" if found.value is None else found.value,
            found.reason or "" if found.value is None else "",
        )


def write_csv(out_dir: Path, results: dict[str, Any]) -> Path:
    path = out_dir / "summary.csv"
    temporary = path.with_name(path.name + ".tmp")
    with temporary.open("w", newline="") as f:
        writer = csv.writer(f)
        writer.writerow(COLUMNS)
        writer.writerows(rows(results))
    temporary.replace(path)
    return path
