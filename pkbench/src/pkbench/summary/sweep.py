"""A sweep's written figures: sweep.csv and sweep.md, TPS and latency p99 per strategy and workload against
the swept value, read from each point's results.json through the metric registry (report/sweep_page.py draws
the same rows)."""

from __future__ import annotations

import csv
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pkbench import results
from pkbench.analysis.metrics import WORKLOAD_METRICS, Metric
from pkbench.text import figure_text, markdown_table

Number = int | float
# The figures drawn against the swept value: keys of metrics.WORKLOAD_METRICS.
SWEPT_FIGURES = ("tps", "p99")


def _metric(key: str) -> Metric:
    return next(m for m in WORKLOAD_METRICS if m.key == key)


@dataclass(frozen=True)
class Row:
    """One strategy's figure in one workload at one swept value (None when it was not measured)."""

    value: Number
    strategy: str
    workload: str
    figures: dict[str, float | None]


def rows(out_dir: Path, sweep_json: dict[str, Any]) -> list[Row]:
    """The figures of every point of a sweep, from the points' results.json."""
    found = []
    for point in sweep_json["points"]:
        run = results.load(out_dir / point["directory"])
        for strategy in run.strategies:
            for workload in strategy.workloads:
                figures = {key: _metric(key).read(strategy, workload).value for key in SWEPT_FIGURES}
                found.append(Row(point["value"], strategy.name, workload.name, figures))
    return found


def write_csv(path: Path, parameter: str, found: list[Row]) -> None:
    with path.open("w", newline="") as f:
        writer = csv.writer(f)
        writer.writerow([parameter, "strategy", "workload", *(_column(k) for k in SWEPT_FIGURES)])
        for row in found:
            writer.writerow(
                [
                    row.value,
                    row.strategy,
                    row.workload,
                    *("" if row.figures[k] is None else row.figures[k] for k in SWEPT_FIGURES),
                ]
            )


def _column(key: str) -> str:
    metric = _metric(key)
    return f"{key}_{metric.unit}" if metric.unit != key else key


def markdown(parameter: str, option: str, found: list[Row]) -> str:
    """sweep.md: per workload and figure, a table of strategies against the swept values."""
    lines = [
        f"# Sweep of {parameter}",
        "",
        f"One run per value of {parameter} ({option}); each point's results are in its own "
        "directory. Single runs on one machine: read differences between neighbouring points with care.",
    ]
    workloads = list(dict.fromkeys(r.workload for r in found))
    strategies = list(dict.fromkeys(r.strategy for r in found))
    values = list(dict.fromkeys(r.value for r in found))
    by_key = {(r.value, r.strategy, r.workload): r for r in found}
    for workload in workloads:
        for key in SWEPT_FIGURES:
            metric = _metric(key)
            lines += ["", f"## {workload}: {metric.title} ({metric.unit})", ""]
            table = []
            for strategy in strategies:
                cells = []
                for value in values:
                    row = by_key.get((value, strategy, workload))
                    cells.append(figure_text(row.figures[key] if row else None, metric.fmt))
                table.append([strategy, *cells])
            header = ["strategy", *(f"{parameter} = {v}" for v in values)]
            lines += markdown_table(header, table, right=len(values))
    return "\n".join(lines) + "\n"
