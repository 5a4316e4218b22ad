"""sweep.html: TPS and latency p99 against the swept value, one line per strategy, a chart per workload."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import plotly.graph_objects as go

from pkbench.report.charts import Chart, style
from pkbench.report.palette import strategy_colors
from pkbench.report.render import page, rendered, slug
from pkbench.summary.sweep import Row

TITLES = {"tps": ("TPS", "transactions per second (tps)"), "p99": ("latency p99", "latency p99 (ms)")}


def sweep_charts(parameter: str, rows: Sequence[Row]) -> list[Chart]:
    """Per workload and figure, a line per strategy over the swept values (a log axis over a wide range)."""
    colors = strategy_colors(r.strategy for r in rows)
    values = sorted({r.value for r in rows})
    logarithmic = bool(values) and values[0] > 0 and values[-1] / values[0] >= 10
    charts = []
    for workload in dict.fromkeys(r.workload for r in rows):
        for key, (title, axis) in TITLES.items():
            chart = Chart(f"sweep-{slug(workload)}-{key}", f"{title} against {parameter}: {workload}", None)
            fig = go.Figure()
            for strategy in dict.fromkeys(r.strategy for r in rows):
                points = sorted(
                    (r.value, r.figures[key])
                    for r in rows
                    if r.strategy == strategy and r.workload == workload and r.figures[key] is not None
                )
                missing = [r.value for r in rows if r.strategy == strategy and r.workload == workload
                           and r.figures[key] is None]  # fmt: skip
                if missing:
                    chart.na(strategy, f"{title} at {parameter} = {', '.join(map(str, missing))}", None)
                if points:
                    fig.add_trace(
                        go.Scatter(
                            x=[p[0] for p in points],
                            y=[p[1] for p in points],
                            mode="lines+markers",
                            name=strategy,
                            line={"color": colors[strategy]},
                        )
                    )
            if fig.data:
                chart.figure = style(fig, chart.title, parameter, axis)
                # Ticks at the swept values only: the points between them were not measured.
                fig.update_xaxes(
                    type="log" if logarithmic else "linear",
                    tickvals=values,
                    ticktext=[str(v) for v in values],
                )
            charts.append(chart)
    return charts


def write_sweep_page(out_dir: Path, parameter: str, rows: Sequence[Row]) -> Path:
    path = out_dir / "sweep.html"
    charts = [rendered(c) for c in sweep_charts(parameter, rows)]
    path.write_text(
        page("sweep.html.j2", title=f"pkbench sweep of {parameter}", charts=charts), encoding="utf-8"
    )
    return path
