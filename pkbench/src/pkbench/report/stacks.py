"""The stacked-over-time charts of a run report: one time-series CSV as a stacked area per strategy
(shared buffers by relation, usage counts, wait events, relation sizes)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from plotly.subplots import make_subplots

from pkbench.analysis.metrics import figure
from pkbench.report.charts import Chart, number, style
from pkbench.report.loading import Run
from pkbench.report.palette import shades
from pkbench.text import MIB


@dataclass(frozen=True)
class StackSpec:
    """How one time-series CSV becomes a stacked area per strategy."""

    kind: str
    title: str
    y_title: str
    category: Callable[[dict[str, str]], str]
    value: Callable[[dict[str, str]], float | None]
    order: Callable[[list[str]], list[str]]
    # Metrics of a workload's `unavailable` that explain missing samples, most specific first.
    reasons: tuple[str, ...] = ("timeseries",)


def relation_order(categories: list[str]) -> list[str]:
    tail = [c for c in ("other", "unused") if c in categories]
    return [c for c in categories if c not in tail] + tail


def usage_order(categories: list[str]) -> list[str]:
    return sorted(categories, key=lambda c: -(number(c.removeprefix("usage count ")) or 0))


def wait_event_name(row: dict[str, str]) -> str:
    kind, event = row.get("wait_event_type") or "CPU", row.get("wait_event") or "CPU"
    return "CPU" if kind == "CPU" else f"{kind}:{event}"


def scaled(column: str, divisor: float) -> Callable[[dict[str, str]], float | None]:
    def read(row: dict[str, str]) -> float | None:
        value = number(row.get(column))
        return None if value is None else value / divisor

    return read


BUFFERCACHE = StackSpec(
    "buffercache",
    "Buffer cache contents per relation over time",
    "shared buffers held (MiB)",
    lambda row: row.get("relation") or "?",
    scaled("bytes", MIB),
    relation_order,
    ("buffercache", "timeseries"),
)
USAGECOUNT = StackSpec(
    "usagecount",
    "Shared buffers by usage count over time",
    "buffers (8 kB pages)",
    lambda row: f"usage count {row.get('usage_count')}",
    scaled("buffers", 1),
    usage_order,
    ("usagecount", "buffercache", "timeseries"),
)
WAIT_EVENTS = StackSpec(
    "wait_events",
    "Wait events over time (sampled backends)",
    "backends",
    wait_event_name,
    scaled("backends", 1),
    lambda categories: sorted(categories, key=lambda c: (c != "CPU", c)),
    ("wait_events", "timeseries"),
)
SIZES_OVER_TIME = StackSpec(
    "sizes",
    "Relation sizes over time",
    "size (MiB)",
    lambda row: row.get("relation") or "?",
    scaled("bytes", MIB),
    relation_order,
    ("sizes", "timeseries"),
)
STACKS = (BUFFERCACHE, USAGECOUNT, WAIT_EVENTS, SIZES_OVER_TIME)


def missing_samples_reason(run: Run, spec: StackSpec, strategy: str, workload: str) -> str:
    found = next((w for name, w in run.measured_in(workload) if name == strategy), None)
    for metric in spec.reasons if found is not None else ():
        reason = figure(found, metric).reason
        if reason and reason != "not measured":
            return reason
    return f"no rows in timeseries/{spec.kind}.csv"


def stacked_over_time(run: Run, spec: StackSpec, workload: str, colors: dict[str, str], div_id: str) -> Chart:
    """One stacked-area panel per strategy, sharing the time axis; parts are tones of the strategy colour."""
    title = f"{spec.title}: {workload}"
    chart = Chart(div_id, title, None)
    if spec.kind in run.missing_series:
        chart.notes.append(f"n/a: {run.missing_series[spec.kind]}")
        return chart
    panels: list[tuple[str, list[float], dict[str, dict[float, float]]]] = []
    for strategy in run.measured_strategies:
        name = strategy.name
        rows = run.rows(spec.kind, name, workload)
        repeats = sorted({row.get("repeat") or "1" for row in rows})
        if len(repeats) > 1:
            chart.notes.append(f"{name}: showing repeat {repeats[0]} of {len(repeats)}")
        by_category: dict[str, dict[float, float]] = {}
        for row in rows:
            elapsed, value = number(row.get("elapsed_s")), spec.value(row)
            if (row.get("repeat") or "1") != repeats[0] or elapsed is None or value is None:
                continue
            samples = by_category.setdefault(spec.category(row), {})
            samples[elapsed] = samples.get(elapsed, 0.0) + value
        if not by_category:
            chart.na(name, "samples", missing_samples_reason(run, spec, name, workload))
            continue
        times = sorted({t for samples in by_category.values() for t in samples})
        panels.append((name, times, by_category))
    if not panels:
        return chart
    fig = make_subplots(
        rows=len(panels),
        cols=1,
        shared_xaxes=True,
        vertical_spacing=min(0.08, 0.3 / len(panels)),
        subplot_titles=[name for name, _, _ in panels],
    )
    # One order and one tone per part across all panels, the largest part at the bottom of the stack, so
    # records_pkey sits in the same place and shade for every strategy.
    totals: dict[str, float] = {}
    for _, _, by_category in panels:
        for category, samples in by_category.items():
            totals[category] = totals.get(category, 0.0) + sum(samples.values())
    categories = spec.order(sorted(totals, key=lambda c: (-totals[c], c)))
    for index in range(1, len(panels) + 1):
        fig.update_yaxes(title_text=spec.y_title, row=index, col=1)
    style(fig, title, "", spec.y_title, height=170 + 230 * len(panels))
    fig.update_yaxes(title_text=spec.y_title)
    fig.update_xaxes(title_text="elapsed time in the measured window (s)", row=len(panels), col=1)
    fig.update_layout(legend={"groupclick": "toggleitem"})
    # The figure as plotly's own JSON, its traces as plain dicts beside the layout plotly made and checked:
    # plotly checks each trace where it is added, and a run of 96 partitions makes twelve thousand (half of
    # its report's 25 s). Each panel's traces refer to its row's axes, as add_traces(rows=...) would.
    drawn = fig.to_dict()
    for index, (name, times, by_category) in enumerate(panels, start=1):
        tones = dict(zip(categories, shades(colors[name], len(categories)), strict=True))
        axis = "" if index == 1 else str(index)
        for category in categories:
            if category not in by_category:
                continue
            samples, tone = by_category[category], tones[category]
            drawn["data"].append(
                {
                    "type": "scatter",
                    "x": times,
                    "y": [samples.get(t, 0.0) for t in times],
                    "name": f"{name} · {category}",
                    "legendgroup": name,
                    "legendgrouptitle": {"text": name},
                    "stackgroup": f"stack{index}",
                    "mode": "lines",
                    "line": {"color": tone, "width": 0.5},
                    "fillcolor": tone,
                    "xaxis": f"x{axis}",
                    "yaxis": f"y{axis}",
                }
            )
    chart.figure = drawn
    return chart
