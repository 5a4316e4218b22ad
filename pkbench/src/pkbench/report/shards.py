"""Each shard's share of the inserts over a measured window (timeseries/shard_inserts.csv): the sampler
reads every shard's inserts since the window began, so a key that concentrates its inserts shows one shard's
line near 1 from the first samples on, and an even spread three lines near 1/N."""

from __future__ import annotations

import plotly.graph_objects as go

from pkbench.report.charts import Chart, number, style
from pkbench.report.loading import Run

DASHES = ("solid", "dash", "dot", "dashdot", "longdash", "longdashdot")


def shares_over_time(rows: list[dict[str, str]]) -> dict[int, list[tuple[float, float]]]:
    """Each shard's share of the inserts made so far, at each sample where any were made (first repeat)."""
    repeats = sorted({row.get("repeat") or "1" for row in rows})
    by_elapsed: dict[float, dict[int, float]] = {}
    for row in rows:
        elapsed, shard, count = (number(row.get(k)) for k in ("elapsed_s", "shard", "inserted"))
        if (row.get("repeat") or "1") == repeats[0] and elapsed is not None and shard is not None:
            by_elapsed.setdefault(elapsed, {})[int(shard)] = count or 0.0
    shares: dict[int, list[tuple[float, float]]] = {}
    for elapsed, counts in sorted(by_elapsed.items()):
        total = sum(counts.values())
        for number_of_shard, count_so_far in sorted(counts.items()):
            if total > 0:
                shares.setdefault(number_of_shard, []).append((elapsed, count_so_far / total))
    return shares


def workloads_sampled(run: Run) -> list[str]:
    """The workloads whose samples saw inserts on the shards (not the lookups), in the order they ran."""
    rows = run.series.get("shard_inserts", [])
    return list(dict.fromkeys(row["workload"] for row in rows if (number(row.get("inserted")) or 0) > 0))


def shares_chart(run: Run, workload: str, colors: dict[str, str], div_id: str) -> Chart:
    title = f"Each shard's share of the inserts so far: {workload}"
    chart = Chart(div_id, title, None)
    fig = go.Figure()
    for strategy in run.measured_strategies:
        found = shares_over_time(run.rows("shard_inserts", strategy.name, workload))
        if not found:
            chart.notes.append(f"{strategy.name}: no inserts seen on the shards during the samples")
        for shard, points in found.items():
            fig.add_trace(
                go.Scatter(
                    x=[p[0] for p in points],
                    y=[p[1] for p in points],
                    mode="lines+markers",
                    name=f"{strategy.name}, shard {shard}",
                    legendgroup=strategy.name,
                    line={"color": colors[strategy.name], "dash": DASHES[(shard - 1) % len(DASHES)]},
                )
            )
    if fig.data:
        x_title = "elapsed time in the measured window (s)"
        chart.figure = style(fig, title, x_title, "share of the inserts so far").update_yaxes(range=[0, 1.05])
    return chart
