"""sweep.html: TPS and latency p99 against the swept value, one line per strategy, a chart per workload."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import plotly.graph_objects as go

from pkbench.errors import PkbenchError
from pkbench.report.charts import Chart, style
from pkbench.report.palette import strategy_colors
from pkbench.report.render import page, rendered, slug
from pkbench.summary import contention
from pkbench.summary import sweep as sweep_figures
from pkbench.summary.sweep import Row

TITLES = {"tps": ("TPS", "transactions per second (tps)"), "p99": ("latency p99", "latency p99 (ms)")}
# (swept value, strategy, workload) -> the interval of the median TPS over the point's rounds.
Intervals = Mapping[tuple[float, str, str], tuple[float | None, float | None]]


def _error_bars(
    points: Sequence[tuple[float, float | None]], strategy: str, workload: str, intervals: Intervals
) -> dict[str, object] | None:
    """The TPS intervals of POINTS as asymmetric error bars; None when no point has one."""
    found = [intervals.get((x, strategy, workload), (None, None)) for x, _ in points]
    if all(low is None or high is None for low, high in found):
        return None
    ys = [y or 0.0 for _, y in points]
    return {
        "type": "data",
        "symmetric": False,
        "array": [0 if high is None else high - y for y, (_, high) in zip(ys, found, strict=True)],
        "arrayminus": [0 if low is None else y - low for y, (low, _) in zip(ys, found, strict=True)],
    }


def sweep_charts(parameter: str, rows: Sequence[Row], intervals: Intervals | None = None) -> list[Chart]:
    """Per workload and figure, a line per strategy over the swept values (a log axis over a wide range);
    the TPS with error bars where INTERVALS has them (the interval of the median over a point's rounds)."""
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
                    bars = _error_bars(points, strategy, workload, intervals or {}) if key == "tps" else None
                    fig.add_trace(
                        go.Scatter(
                            x=[p[0] for p in points],
                            y=[p[1] for p in points],
                            mode="lines+markers",
                            name=strategy,
                            line={"color": colors[strategy]},
                            **({"error_y": bars} if bars else {}),
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


def write_sweep_page(
    out_dir: Path, parameter: str, rows: Sequence[Row], intervals: Intervals | None = None
) -> Path:
    path = out_dir / "sweep.html"
    charts = [rendered(c) for c in sweep_charts(parameter, rows, intervals)]
    path.write_text(
        page("sweep.html.j2", title=f"pkbench sweep of {parameter}", charts=charts), encoding="utf-8"
    )
    return path


def draw(out_dir: Path, sweep_json: Mapping[str, Any]) -> Path:
    """OUT_DIR/sweep.html from the points SWEEP_JSON lists, each TPS with its interval over the point's
    rounds."""
    found = sweep_figures.rows(out_dir, dict(sweep_json))
    rows, _ = contention.read(out_dir, sweep_json)
    intervals = {(r.value, r.strategy, r.workload): (r.tps_low, r.tps_high) for r in rows}
    return write_sweep_page(out_dir, str(sweep_json["parameter"]), found, intervals)


def redraw(directory: Path) -> Path:
    """DIRECTORY/sweep.html drawn again from its sweep.json and its points' results (a sweep run with
    --no-report, or drawn by an older pkbench)."""
    try:
        sweep_json = json.loads((directory / "sweep.json").read_text())
    except (OSError, ValueError) as error:
        raise PkbenchError(f"{directory}: sweep.json unreadable ({error})") from None
    if not isinstance(sweep_json, dict) or not {"parameter", "points"} <= sweep_json.keys():
        raise PkbenchError(f"{directory}: sweep.json is not a sweep's (no parameter or points)")
    return draw(directory, sweep_json)
