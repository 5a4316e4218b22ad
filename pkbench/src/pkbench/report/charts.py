"""The plotly figures of a run report, one function per chart.

Every figure has a title, axis titles with units and a legend naming the strategy, drawn in the strategy's
colour (palette.py). Parts of one strategy (relations, usage counts, wait events) are tones of that colour.
A chart with nothing to draw is not drawn: its builder returns no figure and says why in the notes.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import plotly.graph_objects as go
from plotly.subplots import make_subplots

from pkbench.analysis.metrics import Figure, figure, nested_figure
from pkbench.report import whiskers
from pkbench.report.loading import Run
from pkbench.report.palette import shades
from pkbench.results.model import Sizes, StatementResult, WorkloadResult
from pkbench.text import MIB

PERCENTILES = ("p50", "p95", "p99")
FPI_PATTERN = "/"


@dataclass
class Chart:
    """A figure to draw (or None when there is no data) and the notes that go under it."""

    div_id: str
    title: str
    # A plotly figure, or its JSON where a chart built it without plotly's per-trace checks (stacks).
    figure: go.Figure | dict[str, Any] | None
    notes: list[str] = field(default_factory=list)
    missing: dict[tuple[str, str], list[str]] = field(default_factory=dict)

    def na(self, strategy: str, what: str, reason: str | None) -> None:
        """Note that WHAT is n/a for STRATEGY; the same gap for the same reason shares one line."""
        self.missing.setdefault((what, reason or "not measured"), []).append(strategy)

    def all_notes(self) -> list[str]:
        grouped = [
            f"{what}: n/a for {', '.join(strategies)} ({reason})"
            for (what, reason), strategies in self.missing.items()
        ]
        return self.notes + grouped


def number(text: str | None) -> float | None:
    if text is None or text == "":
        return None
    try:
        return float(text)
    except ValueError:
        return None


def style(fig: go.Figure, title: str, x_title: str, y_title: str, height: int = 440) -> go.Figure:
    """The report's look; its template (plotly_white) is added where the chart is drawn (render.rendered):
    plotly deep-copies a template into each figure it is set on, a third of a report's CPU."""
    fig.update_layout(
        title={"text": title, "x": 0.01},
        height=height,
        legend={"title": {"text": "strategy"}},
        margin={"l": 70, "r": 20, "t": 70, "b": 60},
    )
    fig.update_xaxes(title_text=x_title)
    fig.update_yaxes(title_text=y_title)
    return fig


def tps_over_time(run: Run, workload: str, colors: dict[str, str], div_id: str) -> Chart:
    title = f"TPS over time: {workload}"
    chart = Chart(div_id, title, None)
    fig = go.Figure()
    for strategy in run.measured_strategies:
        name = strategy.name
        by_repeat: dict[str, list[tuple[float, float]]] = {}
        for row in run.rows("tps", name, workload):
            elapsed, tps = number(row.get("elapsed_s")), number(row.get("tps"))
            if elapsed is not None and tps is not None:
                by_repeat.setdefault(row.get("repeat") or "1", []).append((elapsed, tps))
        if not by_repeat:
            chart.notes.append(f"{name}: no TPS samples ({run.missing_series.get('tps', 'none recorded')})")
        for index, (repeat, points) in enumerate(sorted(by_repeat.items())):
            fig.add_trace(
                go.Scatter(
                    x=[p[0] for p in points],
                    y=[p[1] for p in points],
                    mode="lines+markers",
                    name=name if len(by_repeat) == 1 else f"{name} (repeat {repeat})",
                    legendgroup=name,
                    line={"color": colors[name], "dash": "solid" if index == 0 else "dot"},
                )
            )
    if fig.data:
        chart.figure = style(
            fig, title, "elapsed time in the measured window (s)", "transactions per second (tps)"
        )
    return chart


def bar_chart(
    chart: Chart,
    series: list[tuple[str, list[Any], list[float]]],
    colors: dict[str, str],
    x_title: str,
    y_title: str,
    y_range: tuple[float, float] | None = None,
    height: int = 440,
    rounds: dict[str, list[list[float]]] | None = None,
) -> Chart:
    """Grouped bars, one trace per strategy in its colour; X is a list of labels or [outer, inner] labels.

    ROUNDS gives, per strategy, each bar's figure in every round (empty for a bar measured once): the bar
    gets whiskers from the interval of its median over the rounds, and the rounds are drawn as dots on it.
    """
    fig = go.Figure()
    said: set[str] = set()
    for name, x, y in series:
        if not y:
            continue
        per_bar = (rounds or {}).get(name) or [[] for _ in y]
        error_y = whiskers.whiskers(per_bar, y, said)
        fig.add_trace(
            go.Bar(x=x, y=y, name=name, marker_color=colors[name], offsetgroup=name, error_y=error_y)
        )
        dots = [
            (label, value)
            for label, values in zip(whiskers.labels(x), per_bar, strict=True)
            for value in values
        ]
        if dots:
            fig.add_trace(
                go.Scatter(
                    x=whiskers.unlabels([label for label, _ in dots], x),
                    y=[value for _, value in dots],
                    mode="markers",
                    name=f"{name} · rounds",
                    legendgroup=name,
                    showlegend=False,
                    offsetgroup=name,
                    marker={"color": shades(colors[name], 2)[0], "size": 5, "line": {"width": 0}},
                    line={"color": shades(colors[name], 2)[0]},
                    hovertemplate="%{y:,.4g} (one round)<extra>" + name + "</extra>",
                )
            )
    if fig.data:
        chart.figure = style(fig, chart.title, x_title, y_title, height)
        fig.update_layout(barmode="group", scattermode="group")
        if y_range is not None:
            fig.update_yaxes(range=list(y_range))
    if said:
        chart.notes.insert(0, whiskers.whiskers_note(said, dots=True))
    return chart


def tps_per_workload(run: Run, colors: dict[str, str], div_id: str) -> Chart:
    """Average TPS of every workload side by side (the shape of a study over sizes or index variants)."""
    chart = Chart(div_id, "Average TPS of each workload", None)
    series = []
    rounds: dict[str, list[list[float]]] = {}
    for strategy in run.measured_strategies:
        name = strategy.name
        workloads, values = [], []
        for workload in run.workload_names():
            found = next((w for n, w in run.measured_in(workload) if n == name), None)
            tps = figure(found, "tps") if found is not None else None
            if tps is not None and tps.value is None:
                chart.na(name, f"TPS of {workload}", tps.reason)
            elif tps is not None and tps.value is not None:
                workloads.append(workload)
                values.append(tps.value)
                rounds.setdefault(name, []).append(whiskers.round_values(found, lambda w: figure(w, "tps")))
        series.append((name, workloads, values))
    return bar_chart(chart, series, colors, "workload", "transactions per second (tps)", rounds=rounds)


def latency_percentiles(run: Run, workload: str, colors: dict[str, str], div_id: str) -> Chart:
    chart = Chart(div_id, f"Latency percentiles per statement: {workload}", None)
    series = []
    rounds: dict[str, list[list[float]]] = {}
    for name, found in run.measured_in(workload):
        parts: list[tuple[str, StatementResult | WorkloadResult]] = [(s.name, s) for s in found.statements]
        parts.append(("whole transaction", found))
        statements, labels, values = [], [], []
        for part_name, part in parts:
            for percentile in PERCENTILES:
                measured = nested_figure(part, "latency_ms", percentile)
                if measured.value is None:
                    reason = measured.reason
                    if part is not found:
                        reason = statement_reason(found, part_name, percentile) or reason
                    chart.na(name, f"{part_name} {percentile}", reason)
                    continue
                statements.append(part_name)
                labels.append(percentile)
                values.append(measured.value)
                rounds.setdefault(name, []).append(
                    whiskers.round_values(found, _part_reader(part is found, part_name, percentile))
                )
        series.append((name, [statements, labels], values))
    return bar_chart(chart, series, colors, "statement and percentile", "latency (ms)", rounds=rounds)


def _part_reader(whole: bool, statement: str, percentile: str) -> Callable[[WorkloadResult], Figure]:
    """One bar of the latency chart in a round: the transaction's percentile, or a statement's."""

    def read(window: WorkloadResult) -> Figure:
        if whole:
            return nested_figure(window, "latency_ms", percentile)
        part = next((s for s in window.statements if s.name == statement), None)
        return nested_figure(part, "latency_ms", percentile)

    return read


def statement_reason(workload: WorkloadResult, statement: str, percentile: str) -> str | None:
    """Why a statement's percentile is missing: the workload's `unavailable` names statements by a dotted path
    (statements.<name>.latency_ms.p99) or by the script they belong to (statements.<script>.percentiles for
    statements <script>.1, <script>.2, ...)."""
    for entry in workload.unavailable:
        metric = entry.metric
        if not metric.startswith("statements."):
            continue
        named = metric.removeprefix("statements.")
        for suffix in (f".latency_ms.{percentile}", ".latency_ms", ".percentiles", ""):
            owner = named.removesuffix(suffix) if suffix and named.endswith(suffix) else named
            if statement == owner or statement.startswith(owner + "."):
                return entry.reason or "not measured"
    return None


def unavailable_of(workload: WorkloadResult, metric: str) -> str:
    return figure(workload, metric).reason or "not measured"


def wal_per_transaction(run: Run, workload: str, colors: dict[str, str], div_id: str) -> Chart:
    """WAL bytes per transaction split into full-page images and other records when wal_fpi_bytes exists.

    Without wal_fpi_bytes (pg_walinspect missing or not allowed) the bytes cannot be split, so the chart
    shows WAL bytes per transaction beside the count of full-page images per transaction, and says so.
    """
    title = f"WAL per transaction: {workload}"
    chart = Chart(div_id, title, None)
    measured = run.measured_in(workload)
    split_by_bytes = bool(measured) and all(
        figure(w, "wal_fpi_bytes").available and (figure(w, "transactions").value or 0) > 0
        for _, w in measured
    )
    if split_by_bytes:
        fig = go.Figure()
        for name, found in measured:
            transactions = figure(found, "transactions").value or 1.0
            per_tx = figure(found, "wal_bytes_per_transaction").value
            if per_tx is None:
                chart.na(
                    name, "WAL bytes per transaction", unavailable_of(found, "wal_bytes_per_transaction")
                )
                continue
            # pg_walinspect's own per-transaction split when the run has it; else from the window's totals.
            fpi_per_tx = figure(found, "wal_fpi_bytes_per_transaction").value
            if fpi_per_tx is None:
                fpi_per_tx = (figure(found, "wal_fpi_bytes").value or 0.0) / transactions
            records_per_tx = figure(found, "wal_record_bytes_per_transaction").value
            if records_per_tx is None:
                records_per_tx = max(per_tx - fpi_per_tx, 0.0)
            for part, value, pattern in (
                ("full-page images", fpi_per_tx, FPI_PATTERN),
                ("other records", records_per_tx, ""),
            ):
                fig.add_trace(
                    go.Bar(
                        x=[name],
                        y=[value],
                        name=f"{name} · {part}",
                        legendgroup=name,
                        marker={"color": colors[name], "pattern": {"shape": pattern}},
                    )
                )
        fig.update_layout(barmode="stack")
        chart.notes.insert(0, "Split by bytes from wal_fpi_bytes (hatched: full-page images).")
        if fig.data:
            chart.figure = style(fig, title, "strategy", "WAL per transaction (bytes)")
        return chart
    chart.notes.append(
        "wal_fpi_bytes is n/a, so the bytes cannot be split; the right panel counts full-page images per "
        "transaction instead."
    )
    for name, found in measured:
        if not figure(found, "wal_fpi_bytes").available:
            chart.na(name, "wal_fpi_bytes", unavailable_of(found, "wal_fpi_bytes"))
    fig = make_subplots(
        rows=1,
        cols=2,
        subplot_titles=("WAL bytes per transaction", "full-page images per transaction (count)"),
    )
    for name, found in measured:
        for column, metric, pattern in (
            (1, "wal_bytes_per_transaction", ""),
            (2, "wal_fpi_per_transaction", FPI_PATTERN),
        ):
            reading = figure(found, metric)
            if reading.value is None:
                chart.na(name, metric, reading.reason)
                continue
            fig.add_trace(
                go.Bar(
                    x=[name],
                    y=[reading.value],
                    name=name,
                    legendgroup=name,
                    showlegend=column == 1,
                    marker={"color": colors[name], "pattern": {"shape": pattern}},
                ),
                row=1,
                col=column,
            )
    if fig.data:
        chart.figure = style(fig, title, "strategy", "")
        fig.update_yaxes(title_text="WAL per transaction (bytes)", row=1, col=1)
        fig.update_yaxes(title_text="full-page images per transaction", row=1, col=2)
    return chart


def hit_ratios(run: Run, workload: str, colors: dict[str, str], div_id: str) -> Chart:
    chart = Chart(div_id, f"Shared-buffer hit ratio per relation: {workload}", None)
    series = []
    for name, found in run.measured_in(workload):
        ratios = found.hit_ratio
        if ratios is None:
            chart.na(name, "hit ratios", unavailable_of(found, "hit_ratio"))
            continue
        relations, values = [], []
        for relation in ratios:
            value = nested_figure(found, "hit_ratio", relation)
            if value.value is None:
                chart.na(name, f"hit ratio of {relation}", value.reason)
                continue
            relations.append(relation)
            values.append(100.0 * value.value)
        series.append((name, relations, values))
    y_title = "hit ratio (% of block reads served from shared buffers)"
    return bar_chart(chart, series, colors, "relation", y_title, y_range=(0, 100))


def relation_sizes(sizes: Sizes | None) -> list[tuple[str, float]]:
    """(relation, bytes) of one sizes object: the table, then each index (the primary key by name)."""
    if sizes is None:
        return []
    parts: list[tuple[str, float]] = []
    table = figure(sizes, "table_bytes").value
    if table is not None:
        parts.append(("table", table))
    indexes = sizes.indexes
    if indexes:
        parts.extend((str(k), float(v)) for k, v in indexes.items() if isinstance(v, int | float))
    else:
        pkey = figure(sizes, "primary_key_bytes").value
        if pkey is not None:
            parts.append(("primary key", pkey))
    return parts


def sizes_chart(run: Run, colors: dict[str, str], div_id: str) -> Chart:
    chart = Chart(
        div_id, "Relation sizes after prefill, at the end of each workload and at each snapshot", None
    )
    series = []
    for strategy in run.measured_strategies:
        name = strategy.name
        relations, labels, values = [], [], []
        for phase, sizes, reason in run.size_moments(strategy):
            parts = relation_sizes(sizes)
            if not parts:
                chart.na(name, f"sizes {phase}", reason or "no sizes recorded")
            for relation, size in parts:
                relations.append(relation)
                labels.append(phase)
                values.append(size / MIB)
        series.append((name, [relations, labels], values))
    return bar_chart(chart, series, colors, "relation and moment", "size (MiB)", height=480)
