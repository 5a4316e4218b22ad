"""The comparison page's figures read across runs and its charts: one bar per strategy and run for each
compared figure, and each workload's TPS over time, one line per strategy and run (report/comparison.py lays
out the page around them)."""

from __future__ import annotations

import plotly.graph_objects as go

from pkbench.analysis.metrics import Figure, Metric
from pkbench.report import charts, whiskers
from pkbench.report.loading import Run, workload_of
from pkbench.results.model import StrategyResult, WorkloadResult

# Which run a bar or a line belongs to, beside the strategy's colour.
RUN_PATTERNS = ("", "/", ".", "x", "\\", "+", "-", "|")
RUN_DASHES = ("solid", "dash", "dot", "dashdot", "longdash", "longdashdot")


def lookup(run: Run, strategy: str, scope: str | None) -> tuple[StrategyResult, WorkloadResult | None] | None:
    found = next((s for s in run.measured_strategies if s.name == strategy), None)
    if found is None or scope is None:
        return None if found is None else (found, None)
    measured = workload_of(found, scope)
    return None if measured is None else (found, measured)


def metric_value(run: Run, metric: Metric, strategy: str, scope: str | None) -> Figure:
    pair = lookup(run, strategy, scope)
    if pair is None:
        return Figure(None, f"{strategy} did not run {scope or 'at all'} in this run")
    return metric.read(*pair)


def metric_chart(
    runs: list[Run], labels: list[str], metric: Metric, scope: str | None, colors: dict[str, str], div_id: str
) -> charts.Chart:
    """One bar per strategy and run: colour names the strategy, the hatch pattern names the run."""
    title = f"{metric.title} across runs" + (f": {scope}" if scope else "")
    chart = charts.Chart(div_id, title, None)
    fig = go.Figure()
    said: set[str] = set()
    for strategy in colors:
        xs_strategy, xs_run, ys, patterns, per_bar = [], [], [], [], []
        for index, (run, label) in enumerate(zip(runs, labels, strict=True)):
            value = metric_value(run, metric, strategy, scope)
            if (found := lookup(run, strategy, scope)) is None:
                continue
            if value.value is None:
                chart.na(strategy, label, value.reason)
                continue
            xs_strategy.append(strategy)
            xs_run.append(f"run {index + 1}")
            ys.append(value.value)
            patterns.append(RUN_PATTERNS[index % len(RUN_PATTERNS)])
            per_bar.append(whiskers.speed_rounds(metric, *found))
        if ys:
            fig.add_trace(
                go.Bar(
                    x=[xs_strategy, xs_run],
                    y=ys,
                    name=strategy,
                    marker={"color": colors[strategy], "pattern": {"shape": patterns}},
                    error_y=whiskers.whiskers(per_bar, ys, said),
                )
            )
    if said:
        chart.notes.insert(0, whiskers.whiskers_note(said, dots=False))
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
            name = strategy.name
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
