"""The comparison page: the same strategies and workloads across runs (versions, machines, settings).

The first run is the baseline; every other run's figures are shown with their change relative to it, and a
change of LARGE_CHANGE or more is highlighted, green when it is for the better and red when for the worse.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import plotly.graph_objects as go

from pkbench.report import charts, render
from pkbench.report.loading import JSON, Figure, Run, figure, nested_figure, workload_of
from pkbench.report.palette import strategy_colors
from pkbench.report.tables import NA, relative, signed_percent

LARGE_CHANGE = 0.10
RUN_PATTERNS = ("", "/", ".", "x", "\\", "+", "-", "|")
RUN_DASHES = ("solid", "dash", "dot", "dashdot", "longdash", "longdashdot")


@dataclass(frozen=True)
class Metric:
    """A figure compared across runs, read from a strategy and one of its workloads."""

    key: str
    title: str
    unit: str
    higher_is_better: bool
    read: Callable[[JSON, JSON], Figure]
    per_workload: bool = True


def workload_figure(key: str, scale: float = 1.0) -> Callable[[JSON, JSON], Figure]:
    def read(_: JSON, workload: JSON) -> Figure:
        found = figure(workload, key)
        return found if found.value is None else Figure(found.value * scale)

    return read


def workload_nested_figure(group: str, key: str, scale: float = 1.0) -> Callable[[JSON, JSON], Figure]:
    def read(_: JSON, workload: JSON) -> Figure:
        found = nested_figure(workload, group, key)
        return found if found.value is None else Figure(found.value * scale)

    return read


def primary_key_hit_ratio(strategy: JSON, workload: JSON) -> Figure:
    """Hit ratio of the primary key index, found by the index name the run's sizes give it."""
    ratios = workload.get("hit_ratio")
    if not isinstance(ratios, dict):
        return figure(workload, "hit_ratio")
    sizes = strategy.get("sizes_after_prefill")
    indexes = (sizes or {}).get("indexes") if isinstance(sizes, dict) else None
    names = [name for name in indexes or {} if str(name).endswith("_pkey") and name in ratios]
    if not names:
        return Figure(None, "no primary key among the hit ratios")
    found = nested_figure(workload, "hit_ratio", names[0])
    return found if found.value is None else Figure(found.value * 100.0)


def prefill_seconds(strategy: JSON, _: JSON) -> Figure:
    prefill = strategy.get("prefill")
    return figure(prefill if isinstance(prefill, dict) else None, "duration_s")


METRICS = (
    Metric("tps", "TPS", "tps", True, workload_figure("tps")),
    Metric("p95", "latency p95", "ms", False, workload_nested_figure("latency_ms", "p95")),
    Metric("wal", "WAL bytes per transaction", "bytes", False, workload_figure("wal_bytes_per_transaction")),
    Metric(
        "fpi", "full-page images per transaction", "count", False, workload_figure("wal_fpi_per_transaction")
    ),
    Metric(
        "size",
        "total size at the end",
        "MiB",
        False,
        workload_nested_figure("sizes_at_end", "total_bytes", 1 / 2**20),
    ),
    Metric("hit", "primary key hit ratio", "%", True, primary_key_hit_ratio),
    Metric("prefill", "prefill time", "s", False, prefill_seconds, per_workload=False),
)


@dataclass(frozen=True)
class Change:
    """One run's figure and how it moved from the baseline's."""

    text: str
    reason: str | None = None
    change: str = ""
    css: str = ""
    moved: float | None = None


@dataclass(frozen=True)
class DifferenceRow:
    """One strategy in one workload: per metric, the figure of every run."""

    strategy: str
    cells: list[list[Change]]


@dataclass(frozen=True)
class CalledOut:
    strategy: str
    workload: str
    metric: str
    run: int
    change: Change
    baseline: str


def unique_labels(runs: list[Run]) -> list[str]:
    labels: list[str] = []
    for index, run in enumerate(runs, start=1):
        label = run.label
        labels.append(label if label not in labels else f"{label} #{index}")
    return labels


def common_pairs(runs: list[Run]) -> list[tuple[str, str]]:
    """(strategy, workload) pairs measured in at least two runs, in first-seen order."""
    counts: dict[tuple[str, str], int] = {}
    for run in runs:
        for strategy in run.measured_strategies:
            for workload in strategy.get("workloads") or []:
                if isinstance(workload, dict):
                    pair = (str(strategy.get("name")), str(workload.get("name")))
                    counts[pair] = counts.get(pair, 0) + 1
    return [pair for pair, count in counts.items() if count >= 2]


def lookup(run: Run, strategy: str, workload: str) -> tuple[JSON, JSON] | None:
    found = next((s for s in run.measured_strategies if s.get("name") == strategy), None)
    if found is None:
        return None
    measured = workload_of(found, workload)
    return None if measured is None else (found, measured)


def metric_value(run: Run, metric: Metric, strategy: str, workload: str) -> Figure:
    pair = lookup(run, strategy, workload)
    if pair is None:
        return Figure(None, f"{strategy} did not run {workload} in this run")
    return metric.read(*pair)


def change_cell(value: Figure, baseline: Figure | None, metric: Metric) -> Change:
    if value.value is None:
        return Change(NA, value.reason or "not measured")
    text = f"{value.value:,.0f}" if abs(value.value) >= 1000 else f"{value.value:.3g}"
    if baseline is None:
        return Change(text)
    moved = relative(value.value, baseline.value)
    if moved is None:
        return Change(text, None, "no baseline figure")
    css = ""
    if abs(moved) >= LARGE_CHANGE:
        css = "large " + ("better" if (moved > 0) == metric.higher_is_better else "worse")
    return Change(text, None, signed_percent(moved), css, moved)


def difference_table(runs: list[Run], workload: str) -> list[DifferenceRow]:
    """Every strategy measured in this workload by at least two runs; run 1 is the baseline."""
    rows = []
    for strategy, name in common_pairs(runs):
        if name != workload:
            continue
        cells = []
        for metric in METRICS:
            values = [metric_value(run, metric, strategy, workload) for run in runs]
            baseline = values[0] if values[0].value is not None else None
            cells.append(
                [change_cell(values[0], None, metric)]
                + [change_cell(v, baseline, metric) for v in values[1:]]
            )
        rows.append(DifferenceRow(strategy, cells))
    return rows


def called_out(tables: list[tuple[str, list[DifferenceRow]]]) -> list[CalledOut]:
    """The large changes, largest first; a per-strategy figure (prefill) is called out once."""
    found: list[CalledOut] = []
    seen: set[tuple[str, str, int]] = set()
    for workload, rows in tables:
        for row in rows:
            for metric, changes in zip(METRICS, row.cells, strict=True):
                for run_index, change in enumerate(changes[1:], start=2):
                    key = (
                        row.strategy,
                        f"{metric.key}-{workload}" if metric.per_workload else metric.key,
                        run_index,
                    )
                    if change.moved is not None and abs(change.moved) >= LARGE_CHANGE and key not in seen:
                        seen.add(key)
                        found.append(
                            CalledOut(
                                row.strategy, workload, metric.title, run_index, change, changes[0].text
                            )
                        )
    return sorted(found, key=lambda c: -abs(c.change.moved or 0.0))


def metric_chart(
    runs: list[Run], labels: list[str], metric: Metric, workload: str, colors: dict[str, str], div_id: str
) -> charts.Chart:
    """One bar per strategy and run: colour names the strategy, the hatch pattern names the run."""
    title = f"{metric.title} across runs: {workload}"
    chart = charts.Chart(div_id, title, None)
    fig = go.Figure()
    for strategy in colors:
        xs_strategy, xs_run, ys, patterns = [], [], [], []
        for index, (run, label) in enumerate(zip(runs, labels, strict=True)):
            value = metric_value(run, metric, strategy, workload)
            if lookup(run, strategy, workload) is None:
                continue
            if value.value is None:
                chart.na(strategy, label, value.reason)
                continue
            xs_strategy.append(strategy)
            xs_run.append(f"run {index + 1}")
            ys.append(value.value)
            patterns.append(RUN_PATTERNS[index % len(RUN_PATTERNS)])
        if ys:
            fig.add_trace(
                go.Bar(
                    x=[xs_strategy, xs_run],
                    y=ys,
                    name=strategy,
                    marker={"color": colors[strategy], "pattern": {"shape": patterns}},
                )
            )
    if fig.data:
        chart.figure = charts.style(
            fig,
            title,
            "strategy and run (run numbers as in the table above)",
            f"{metric.title} ({metric.unit})",
        )
    return chart


def tps_chart(
    runs: list[Run], labels: list[str], workload: str, colors: dict[str, str], div_id: str
) -> charts.Chart:
    title = f"TPS over time across runs: {workload}"
    chart = charts.Chart(div_id, title, None)
    fig = go.Figure()
    for index, run in enumerate(runs):
        for strategy in run.measured_strategies:
            name = str(strategy.get("name"))
            points = [
                (elapsed, tps)
                for row in run.rows("tps", name, workload)
                if (row.get("repeat") or "1") == "1"
                and (elapsed := charts.number(row.get("elapsed_s"))) is not None
                and (tps := charts.number(row.get("tps"))) is not None
            ]
            if not points:
                continue
            fig.add_trace(
                go.Scatter(
                    x=[p[0] for p in points],
                    y=[p[1] for p in points],
                    mode="lines",
                    name=f"{name} · run {index + 1}",
                    legendgroup=name,
                    line={"color": colors[name], "dash": RUN_DASHES[index % len(RUN_DASHES)]},
                )
            )
    if fig.data:
        chart.figure = charts.style(
            fig, title, "elapsed time in the measured window (s)", "transactions per second (tps)"
        )
    else:
        chart.notes.append("n/a: no run has TPS samples for this workload")
    return chart


def settings_rows(runs: list[Run]) -> list[tuple[str, list[str], bool]]:
    """Every setting any run recorded, each run's value, and whether they differ."""
    per_run = [render.settings_of(run) for run in runs]
    names: list[str] = []
    for settings in per_run:
        names += [name for name in settings if name not in names]
    rows = []
    for name in names:
        values = [settings.get(name, NA) for settings in per_run]
        rows.append((name, values, len(set(values)) > 1))
    return rows


def render_comparison(runs: list[Run]) -> str:
    labels = unique_labels(runs)
    names = render.strategy_names(runs)
    colors = strategy_colors(names)
    workloads: list[str] = []
    for run in runs:
        workloads += [w for w in run.workload_names() if w not in workloads]
    differences = [(workload, difference_table(runs, workload)) for workload in workloads]
    sections = []
    for workload in workloads:
        key = render.slug(workload)
        section = render.Section(f"compare-{key}", f"Workload {workload} across runs")
        built = [tps_chart(runs, labels, workload, colors, f"chart-compare-tps-over-time-{key}")]
        built += [
            metric_chart(runs, labels, metric, workload, colors, f"chart-compare-{metric.key}-{key}")
            for metric in METRICS
        ]
        section.charts = [
            render.rendered(chart) for chart in built if chart.figure is not None or chart.notes
        ]
        sections.append(section)
    return render.page(
        "comparison.html.j2",
        title=f"pkbench comparison of {len(runs)} runs",
        runs=[(label, render.metadata_rows(run)) for label, run in zip(labels, runs, strict=True)],
        labels=labels,
        settings=settings_rows(runs),
        differences=differences,
        called_out=called_out(differences),
        metrics=METRICS,
        large_change=f"{LARGE_CHANGE:.0%}",
        colors=colors,
        sections=sections,
    )
