"""summary.md and the console's summary: the Results Summary table (summary_table.py) with the run's setup,
notes on what each column measured, and the sections of verdicts, machine noise, replication, every registry
figure, churn timelines and published figures.
"""

from __future__ import annotations

from pathlib import Path

from rich.console import Console
from rich.table import Table

from pkbench.analysis.metrics import STRATEGY_METRICS, WORKLOAD_METRICS, Metric
from pkbench.probes.machine import busy_machine, disturbed, disturbed_words
from pkbench.results.model import RunResult
from pkbench.summary import pages as pages_summary
from pkbench.summary import partitioned as partitioned_summary
from pkbench.summary import replication as replication_summary
from pkbench.summary import reproductions, waits
from pkbench.summary import sharded as sharded_summary
from pkbench.summary import timeline as timeline_summary
from pkbench.summary import verdicts as verdict_tables
from pkbench.summary.headline import Headline, inserted, measured, rows
from pkbench.text import binary_size, figure_text, markdown_table

__all__ = ["Headline", "markdown", "print_table", "rows", "write"]


def _setup_line(run: RunResult, headline: Headline) -> str:
    server = run.server
    params = run.scenario.get("parameters", {})
    limit = run.machine.get("memory_limit_bytes")
    parts = [
        f"PostgreSQL {server.get('version', '?')}",
        f"shared_buffers {server.get('settings', {}).get('shared_buffers', '?')}",
        f"server memory limited to {binary_size(limit)}" if isinstance(limit, int | float) else "",
        f"pgbench -c {params.get('clients', '?')} -j {params.get('jobs', '?')} "
        f"for {params.get('duration_s', '?')} s per workload"
        if headline.workloads
        else "",
        f"{run.machine.get('cores', '?')} cores",
    ]
    return ", ".join(p for p in parts if p) + "."


def clock_line(run: RunResult) -> str | None:
    """The virtual clock, when it ran at a rate other than 1: the time it covered, and which strategies'
    keys it did not move."""
    clock = run.clock
    rate = clock.get("rate")
    if not isinstance(rate, int | float) or rate == 1:
        return None
    hours = clock.get("virtual_hours_covered")
    covered = f", covering {hours:,.1f} virtual hours" if isinstance(hours, int | float) else ""
    line = f"Virtual clock: sequuid.clock_rate {rate:g} (virtual seconds per real second){covered}."
    real = [f"{r.get('strategy')} ({r.get('generator')})" for r in clock.get("real_clock_only") or []]
    if real:
        line += f" Real clock only, not moved by the rate: {', '.join(real)}."
    return line


def _notes(run: RunResult, headline: Headline) -> str:
    ran = measured(run)
    notes = []
    step = f"fill step {headline.insert_step}" if headline.insert_step else "the first fill step"
    if any(s.prefill for s in ran) and not inserted(ran):
        notes.append(f"No time to insert: {step} found the table at its size already and inserted no rows.")
    elif inserted(ran):
        notes.append(
            f"Time to insert: {step} (batched INSERT ... SELECT into the table as its indexes stand then); "
            "the comparisons compare its time per row."
        )
    if headline.timed:
        notes.append(f"Time of a step: how long the scenario's step {', '.join(headline.timed)} took.")
    if headline.workloads:
        notes.append(
            "TPS: pgbench transactions per second (one run of one script). Hit ratio (shared buffers) and "
            f"WAL per transaction: the {headline.workloads[0]} window."
        )
    notes.append("Size: table and indexes, in powers of 1024 (MiB, GiB).")
    return " ".join(notes)


def markdown(run: RunResult) -> str:
    headline = Headline.of(run)
    header, table = rows(run)
    lines = [
        *([f"**{run.completion.line()}**", ""] if run.completion and run.incomplete else []),
        f"# Results Summary: {run.scenario.get('name', '')}",
        "",
        _setup_line(run, headline),
        "",
        *([line, ""] if (line := clock_line(run)) else []),
        *markdown_table(header, table),
    ]
    lines += ["", _notes(run, headline), ""]
    lines += verdict_tables.markdown(run)
    noise = machine_noise(run)
    lines += [noise, ""] if noise else []
    lines += replication_summary.lines(run)
    lines += sharded_summary.markdown(run)
    lines += partitioned_summary.markdown(run)
    lines += _figures(run, headline)
    lines += timeline_summary.markdown(run)
    lines += pages_summary.markdown(run, headline.insert_step)
    lines += waits.section(run.series)
    lines += reproductions.summary_lines(run)
    return "\n".join(lines)


def machine_noise(run: RunResult) -> str | None:
    """One line when the machine was busy with other work during some measured windows: the worst of them."""
    windows = [
        (strategy.name, workload.name, workload.machine_window)
        for strategy in measured(run)
        for workload in strategy.workloads
        if workload.machine_window is not None
    ]
    busy = [(w.other_fraction + w.steal_fraction, s, n, w) for s, n, w in windows if busy_machine(w)]
    if not busy:
        return None
    _, strategy, workload, worst = max(busy, key=lambda found: found[0])
    said = disturbed_words(*disturbed(w for _, _, w in windows))
    return (
        f"Machine noise, in {len(windows)} measured windows: {said}; the most, {strategy} {workload}: "
        f"{'; '.join(busy_machine(worst))}. TPS and latency move with it; work per transaction (buffers, "
        "WAL, CPU) does not."
    )


def _figures(run: RunResult, headline: Headline) -> list[str]:
    """Every figure of the metric registry, one table per workload and one per strategy figure."""
    scopes: list[tuple[str, str, list[Metric]]] = [
        (f"Workload {name}", name, WORKLOAD_METRICS) for name in headline.workloads
    ]
    scopes.append(("Per strategy", "", STRATEGY_METRICS))
    lines = []
    for title, workload, metrics in scopes:
        header = ["Strategy", *(f"{m.title} ({m.unit})" for m in metrics)]
        table = []
        for strategy in measured(run):
            found = next((w for w in strategy.workloads if w.name == workload), None)
            if workload and found is None:
                continue
            cells = [m.read(strategy, found) for m in metrics]
            table.append(
                [
                    strategy.name,
                    *(figure_text(c.value, m.fmt) for m, c in zip(metrics, cells, strict=True)),
                ]
            )
        if table:
            lines += [f"## {title}", "", *markdown_table(header, table), ""]
    return lines


def write(out_dir: Path, run: RunResult) -> Path:
    path = out_dir / "summary.md"
    path.write_text(markdown(run))
    return path


def print_table(console: Console, run: RunResult) -> None:
    header, table = rows(run)
    rich_table = Table(title=f"Results Summary: {run.scenario.get('name', '')}")
    comparisons = sum(1 for name in header if name.startswith("Compared with"))
    for i, name in enumerate(header):
        rich_table.add_column(name, justify="left" if i == 0 or i >= len(header) - comparisons else "right")
    for row in table:
        rich_table.add_row(*row)
    console.print(rich_table)
    line = clock_line(run)
    if line:
        console.print(line, highlight=False, markup=False, soft_wrap=True)
    published = reproductions.console_rows(run)
    if published:
        beside = Table(title="Published figures beside ours (ratios to each figure's baseline)")
        for i, name in enumerate(["Seed", *reproductions.HEADER]):
            beside.add_column(name, justify="right" if 3 <= i <= 6 else "left")
        for row in published:
            beside.add_row(*row)
        console.print(beside)
    for verdicts in verdict_tables.tables(run):
        caption = verdicts.note or verdict_tables.heading(run)
        shown = Table(title=f"Verdicts: {verdicts.workload}", caption=caption)
        for name in verdicts.header:
            shown.add_column(name)
        for verdict_row in verdicts.rows:
            shown.add_row(*verdict_row)
        console.print(shown)
    for line_after in verdict_tables.after_the_tables(run):
        console.print(line_after, highlight=False, markup=False, soft_wrap=True)
    for paragraph in replication_summary.answers(run):
        console.print(paragraph, highlight=False, markup=False, soft_wrap=True)
    for paragraph in sharded_summary.answers(run) + partitioned_summary.answers(run):
        console.print(paragraph, highlight=False, markup=False, soft_wrap=True)
