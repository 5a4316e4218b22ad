"""The comparison page: the same strategies and workloads across runs (versions, machines, settings).

The first run is the baseline; every other run's figures are shown with their change relative to it, and a
change resolved over the two runs' rounds (analysis.run_diff) is highlighted, green when it is for the better
and red when for the worse: a difference noise could make is shown but never called out.
Figures come per workload (TPS, WAL, ...) and per strategy (prefill, scenario steps: the bloat study's
durations and index densities); a scope of None below means the per-strategy figures.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from pkbench.analysis import run_diff
from pkbench.analysis.metrics import (
    STRATEGY_METRICS,
    WORKLOAD_METRICS,
    Figure,
    Metric,
    Reader,
    compared,
    figure,
)
from pkbench.analysis.run_diff import Change as RoundsChange
from pkbench.report import render, steps
from pkbench.report.comparison_charts import lookup, metric_chart, metric_value, tps_chart
from pkbench.report.loading import Run, load_run, workload_of
from pkbench.report.palette import strategy_colors
from pkbench.report.tables import SPEED, relative, signed_percent
from pkbench.results.model import StrategyResult, WorkloadResult
from pkbench.text import MISSING

# A workload's compared figures in three tables, as the report has them, each narrow enough for a 1300-pixel
# page: how fast, what each transaction cost the server, and the relation at the end of the window.
AT_THE_END = ("size", "hit")
WORKLOAD_PARTS = ("speed", "work per transaction", "size and key hit ratio at the end")


def workload_part(metric: Metric) -> str:
    """Which of WORKLOAD_PARTS a workload's figure is shown in."""
    if metric.key in SPEED:
        return WORKLOAD_PARTS[0]
    return WORKLOAD_PARTS[2] if metric.key in AT_THE_END else WORKLOAD_PARTS[1]


# The changes `pkbench compare` resolved, by later run's index, strategy, workload and metric key.
Diffs = dict[tuple[int, str, str | None, str], RoundsChange]


def step_seconds(step: str) -> Reader:
    def read(strategy: StrategyResult, _: WorkloadResult | None) -> Figure:
        if step not in strategy.step_durations_s:
            return Figure(None, f"no step {step} in this run")
        return figure(strategy.step_durations_s, step)

    return read


def leaf_density(stage: str, index: str) -> Reader:
    def read(strategy: StrategyResult, _: WorkloadResult | None) -> Figure:
        figures = steps.stages(strategy).get(stage, {}).get(index)
        if not isinstance(figures, dict):
            return Figure(None, f"no density of {index} {stage} in this run")
        found = figure(figures, "avg_leaf_density")
        return found if found.value is None else Figure(found.value * 100.0)

    return read


def strategy_metrics(runs: list[Run]) -> list[Metric]:
    """Per-strategy figures worth comparing: prefill time, then whatever scenario steps recorded."""
    metrics = compared(STRATEGY_METRICS)
    step_names: list[str] = []
    densities: list[tuple[str, str]] = []
    for run in runs:
        for strategy in run.measured_strategies:
            step_names += [n for n in strategy.step_durations_s if n not in step_names]
            for stage, relations in steps.stages(strategy).items():
                for relation, figures in relations.items():
                    pair = (stage, str(relation))
                    if isinstance(figures, dict) and "avg_leaf_density" in figures and pair not in densities:
                        densities.append(pair)
    metrics += [
        Metric(f"step-{render.slug(n)}", f"{n} time", "s", False, step_seconds(n)) for n in step_names
    ]
    metrics += [
        Metric(
            f"density-{render.slug(stage)}-{render.slug(index)}",
            f"{index} leaf density {stage}",
            "%",
            True,
            leaf_density(stage, index),
        )
        for stage, index in densities
    ]
    return metrics


@dataclass(frozen=True)
class Change:
    """One run's figure and how it moved from the baseline's."""

    text: str
    reason: str | None = None
    change: str = ""
    css: str = ""
    moved: float | None = None
    words: str = ""  # the statistics of the change (resolved or not), from pkbench.analysis.run_diff


@dataclass(frozen=True)
class DifferenceRow:
    """One strategy in one workload (or per strategy): per metric, the figure of every run."""

    strategy: str
    cells: list[list[Change]]


@dataclass(frozen=True)
class DifferenceTable:
    title: str  # the workload, or per strategy: what a change called out names
    metrics: list[Metric]
    rows: list[DifferenceRow]
    part: str = ""  # which of the workload's figures, when they are split over tables


@dataclass(frozen=True)
class CalledOut:
    strategy: str
    scope: str
    metric: str
    run: int
    change: Change
    baseline: str


def strategy_names(runs: list[Run]) -> list[str]:
    names: list[str] = []
    for run in runs:
        names += [s.name for s in run.strategies if s.name not in names]
    return names


def unique_labels(runs: list[Run]) -> list[str]:
    labels: list[str] = []
    for index, run in enumerate(runs, start=1):
        label = run.label
        labels.append(label if label not in labels else f"{label} #{index}")
    return labels


def compared_strategies(runs: list[Run], scope: str | None) -> list[str]:
    """Strategies that at least two runs measured (and that ran workload SCOPE), in first-seen order."""
    counts: dict[str, int] = {}
    for run in runs:
        for strategy in run.measured_strategies:
            if scope is None or workload_of(strategy, scope) is not None:
                counts[strategy.name] = counts.get(strategy.name, 0) + 1
    return [name for name, count in counts.items() if count >= 2]


def change_cell(
    value: Figure, baseline: Figure | None, metric: Metric, rounds: RoundsChange | None = None
) -> Change:
    """A run's figure against run 1's; marked when the change is resolved over both runs' rounds."""
    if value.value is None:
        return Change(MISSING, value.reason or "not measured")
    text = metric.format(value.value)
    if baseline is None:
        return Change(text)
    moved = relative(value.value, baseline.value)
    if moved is None:
        return Change(text, None, "no baseline figure")
    css = ""
    if rounds is not None and rounds.resolved:
        css = "large " + ("better" if (moved > 0) == metric.higher_is_better else "worse")
    return Change(text, None, signed_percent(moved), css, moved, rounds.words if rounds else "")


def rounds_change(
    runs: list[Run], index: int, metric: Metric, strategy: str, scope: str | None, known: Diffs
) -> RoundsChange:
    """The figure over the rounds (or repeats) of run 1 and of run INDEX: as `pkbench compare` resolved it
    when it did, else resolved here (the figures per strategy, which its markdown leaves out)."""
    found = known.get((index, strategy, scope, metric.key))
    if found is not None:
        return found

    def measured(run: Run) -> StrategyResult | None:
        pair = lookup(run, strategy, scope)
        return None if pair is None else pair[0]

    return run_diff.change(measured(runs[0]), measured(runs[index]), scope, metric)


def difference_table(
    runs: list[Run], metrics: list[Metric], scope: str | None, known: Diffs, part: str = ""
) -> DifferenceTable:
    """Every strategy measured (in workload SCOPE) by at least two runs; run 1 is the baseline."""
    rows = []
    for strategy in compared_strategies(runs, scope):
        cells = []
        for metric in metrics:
            values = [metric_value(run, metric, strategy, scope) for run in runs]
            baseline = values[0] if values[0].value is not None else None
            cells.append(
                [change_cell(values[0], None, metric)]
                + [
                    change_cell(v, baseline, metric, rounds_change(runs, i, metric, strategy, scope, known))
                    for i, v in enumerate(values[1:], start=1)
                ]
            )
        rows.append(DifferenceRow(strategy, cells))
    title = f"workload {scope}" if scope else "per strategy"
    return DifferenceTable(title, metrics, rows, part)


def called_out(tables: list[DifferenceTable]) -> list[CalledOut]:
    """The changes resolved over the rounds, largest first."""
    found: list[CalledOut] = []
    for table in tables:
        for row in table.rows:
            for metric, changes in zip(table.metrics, row.cells, strict=True):
                for run_index, change in enumerate(changes[1:], start=2):
                    if change.moved is not None and change.css:
                        found.append(
                            CalledOut(
                                row.strategy, table.title, metric.title, run_index, change, changes[0].text
                            )
                        )
    return sorted(found, key=lambda c: -abs(c.change.moved or 0.0))


def settings_rows(runs: list[Run]) -> list[tuple[str, list[str], bool]]:
    """Every setting any run recorded, each run's value, and whether they differ."""
    per_run = [render.settings_of(run) for run in runs]
    names: list[str] = []
    for settings in per_run:
        names += [name for name in settings if name not in names]
    rows = []
    for name in names:
        values = [settings.get(name, MISSING) for settings in per_run]
        rows.append((name, values, len(set(values)) > 1))
    return rows


def render_comparison(runs: list[Run], changes: Sequence[Sequence[run_diff.FigureChange]] = ()) -> str:
    """The comparison page; CHANGES are run_diff's changes of each later run, where they were computed."""
    known: Diffs = {
        (index, c.strategy, c.workload, c.metric.key): c.change
        for index, found in enumerate(changes, start=1)
        for c in found
    }
    labels = unique_labels(runs)
    names = strategy_names(runs)
    colors = strategy_colors(names)
    workloads: list[str] = []
    for run in runs:
        workloads += [w for w in run.workload_names() if w not in workloads]
    per_strategy = strategy_metrics(runs)
    differences = [
        difference_table(runs, metrics, workload, known, part)
        for workload in workloads
        for part in WORKLOAD_PARTS
        if (metrics := [m for m in compared(WORKLOAD_METRICS) if workload_part(m) == part])
    ]
    differences.append(difference_table(runs, per_strategy, None, known))
    sections = []
    for workload in workloads:
        key = render.slug(workload)
        section = render.Section(f"compare-{key}", f"Workload {workload} across runs")
        built = [tps_chart(runs, labels, workload, colors, f"chart-compare-tps-over-time-{key}")]
        built += [
            metric_chart(runs, labels, metric, workload, colors, f"chart-compare-{metric.key}-{key}")
            for metric in compared(WORKLOAD_METRICS)
        ]
        section.charts = [render.rendered(c) for c in built if c.figure is not None or c.all_notes()]
        sections.append(section)
    section = render.Section("compare-per-strategy", "Per strategy across runs")
    built = [
        metric_chart(runs, labels, metric, None, colors, f"chart-compare-{metric.key}")
        for metric in per_strategy
    ]
    section.charts = [render.rendered(c) for c in built if c.figure is not None]
    sections.append(section)
    return render.page(
        "comparison.html.j2",
        title=f"pkbench comparison of {len(runs)} runs",
        runs=[(label, render.metadata_rows(run)) for label, run in zip(labels, runs, strict=True)],
        labels=labels,
        settings=settings_rows(runs),
        differences=differences,
        called_out=called_out(differences),
        colors=colors,
        sections=sections,
    )


def compare_directories(
    dirs: Sequence[Path],
    out_dir: Path,
    fail_on_regression: float | None = None,
    allow_incomplete: bool = False,
) -> tuple[Path, run_diff.Comparison]:
    """Each directory read once, each later run diffed against the first once (if run_diff.comparable
    allows): comparison.html and the markdown diff come from the same changes."""
    runs = [load_run(d) for d in dirs]
    labelled = run_diff.comparable(
        [(str(d), r.result) for d, r in zip(dirs, runs, strict=True)], allow_incomplete
    )
    found, changes = run_diff.against_first(labelled, fail_on_regression)
    out_dir.mkdir(parents=True, exist_ok=True)
    path = out_dir / "comparison.html"
    path.write_text(render_comparison(runs, changes), encoding="utf-8")
    return path, found
