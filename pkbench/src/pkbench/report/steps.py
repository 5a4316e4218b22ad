"""Charts of what scenario steps record per strategy outside pgbench windows (the bloat study).

`density` maps a density step's name (after-insert, after-delete, ...) to pgstatindex figures per index and
pgstattuple figures per table; `step_durations_s` maps a step's name to the seconds it took; `queries` maps a
query step's name to its queries' figures (steps/query.py).
"""

from __future__ import annotations

from typing import Any

from pkbench.analysis.metrics import figure
from pkbench.report.charts import Chart, bar_chart
from pkbench.report.loading import Run
from pkbench.results.model import StrategyResult
from pkbench.summary import sharded

# (figure name in a density entry, label) of the table figures drawn; fractions of the table's size.
TABLE_SPACE = (("dead_tuple_fraction", "dead tuples"), ("free_fraction", "free space"))


def stages(strategy: StrategyResult) -> dict[str, dict[str, Any]]:
    """Each density step's figures by relation (pgstatindex for an index, pgstattuple for a table)."""
    return {stage: found for stage, found in strategy.density.items() if isinstance(found, dict)}


def has_steps(run: Run) -> bool:
    return any(stages(s) or s.step_durations_s or s.queries or s.shards for s in run.measured_strategies)


def index_density(run: Run, colors: dict[str, str], div_id: str) -> Chart:
    """Average leaf density of each index after each density step, one bar per strategy."""
    chart = Chart(div_id, "Index leaf density after each step", None)
    series = []
    for strategy in run.measured_strategies:
        name = strategy.name
        indexes, moments, values = [], [], []
        for stage, relations in stages(strategy).items():
            for relation, figures in relations.items():
                if not isinstance(figures, dict) or "avg_leaf_density" not in figures:
                    continue
                density = figure(figures, "avg_leaf_density")
                if density.value is None:
                    chart.na(name, f"{relation} {stage}", "pgstatindex gave no leaf density (no leaf pages)")
                    continue
                indexes.append(str(relation))
                moments.append(stage)
                values.append(100.0 * density.value)
        series.append((name, [indexes, moments], values))
    return bar_chart(chart, series, colors, "index and step", "average leaf density (%)", y_range=(0, 100))


def table_space(run: Run, colors: dict[str, str], div_id: str) -> Chart:
    """Dead tuples and free space of each table after each density step (pgstattuple)."""
    chart = Chart(div_id, "Table dead tuples and free space after each step", None)
    series = []
    for strategy in run.measured_strategies:
        name = strategy.name
        moments, kinds, values = [], [], []
        for stage, relations in stages(strategy).items():
            for relation, figures in relations.items():
                if not isinstance(figures, dict) or "avg_leaf_density" in figures:
                    continue
                for key, label in TABLE_SPACE:
                    share = figure(figures, key)
                    if share.value is not None:
                        moments.append(stage)
                        kinds.append(f"{relation} {label}")
                        values.append(100.0 * share.value)
        series.append((name, [moments, kinds], values))
    return bar_chart(chart, series, colors, "step and figure", "share of the table's size (%)")


def step_durations(run: Run, colors: dict[str, str], div_id: str) -> Chart:
    """Seconds each timed step took (fill, delete, VACUUM, COPY, ...), one bar per strategy."""
    chart = Chart(div_id, "Time each step took", None)
    series = []
    for strategy in run.measured_strategies:
        durations = strategy.step_durations_s
        timed = [
            (str(step), seconds)
            for step in durations
            if (seconds := figure(durations, step).value) is not None
        ]
        series.append((strategy.name, [step for step, _ in timed], [seconds for _, seconds in timed]))
    return bar_chart(chart, series, colors, "step", "duration (s)")


def query_blocks(run: Run, colors: dict[str, str], div_id: str) -> Chart:
    """Buffers each explained query touched per row it produced (a join's joined rows, a range's rows)."""
    chart = Chart(div_id, "Buffers per row of each explained query", None)
    series = []
    for strategy in run.measured_strategies:
        name = strategy.name
        steps, names, values = [], [], []
        for step, queries in strategy.queries.items():
            for query, figures in (queries if isinstance(queries, dict) else {}).items():
                if not isinstance(figures, dict):
                    continue
                if "skipped" in figures:
                    chart.na(name, f"{step} {query}", str(figures["skipped"]))
                per_row = figure(figures, "blocks_per_row").value
                if per_row is not None:
                    steps.append(str(step))
                    names.append(str(query))
                    values.append(per_row)
        series.append((name, [steps, names], values))
    return bar_chart(chart, series, colors, "query step and query", "buffers per row (hit + read)")


def shard_shares(run: Run, colors: dict[str, str], div_id: str) -> Chart:
    """Each shard's share of a strategy's inserts during its window, per sharded table (one per routing)."""
    chart = Chart(div_id, "Each shard's share of the inserts during the window", None)
    found = sharded.splits(run.result)
    series = []
    for strategy in run.measured_strategies:
        tables, shards, values = [], [], []
        for split in (f for f in found if f.strategy == strategy.name):
            for number, share in enumerate(split.shares, 1):
                tables.append(split.table)
                shards.append(f"shard {number}")
                values.append(share)
        series.append((strategy.name, [tables, shards], values))
    return bar_chart(chart, series, colors, "sharded table and shard", "share of the inserts", (0, 1))
