"""A sweep's figures of contention, read from its points' results: per swept value, window and strategy, TPS
with its interval over the paired rounds, the verdict against the baseline, and where the sampled active
backends waited (a page's lock, WAL, the rest); and what a key's order costs the order-costs queries.

Written into sweep.md under the sweep's own tables, when the points sampled wait events; the sweep page draws
the TPS with the same intervals (report/sweep_page.py).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pkbench import results
from pkbench.analysis.verdict import median_interval
from pkbench.errors import PkbenchError
from pkbench.probes.machine import STEAL_FRACTION
from pkbench.results.files import read_series
from pkbench.results.model import MachineWindow, RunResult
from pkbench.summary import runs as run_words
from pkbench.summary import waits
from pkbench.text import MISSING, markdown_table

Number = int | float

# The lock of one buffer's page: every backend inserting at an index's right edge queues on its last leaf's.
BUFFER_CONTENT = "LWLock:BufferContent"
# WAL's locks and I/O: inserting records into its buffers, writing and flushing them (a durable commit waits).
WAL_TYPES = ("LWLock", "IO")
WAL_PREFIX = "WAL"
# The queries of the contention scenario's order-costs step, compared with this strategy's.
ORDERED_REFERENCE = "uuid-v7"
ORDER_COSTS_STEP = "order-costs"


@dataclass(frozen=True)
class Shares:
    """Shares of the sampled active backends: on a page's lock, on WAL, on anything else (CPU included)."""

    buffer_content: float
    wal: float
    rest: float
    sampled: int


def is_wal(event: str) -> bool:
    """Whether a sampled `type:event` waits on WAL: LWLock:WALWrite, LWLock:WALInsert, IO:WALSync..."""
    kind, _, name = event.partition(":")
    return kind in WAL_TYPES and name.startswith(WAL_PREFIX)


def shares(events: Mapping[str, int]) -> Shares | None:
    """The backend-samples of EVENTS (`type:event` or CPU -> count) split three ways (pure); None without
    any."""
    total = sum(events.values())
    if not total:
        return None
    content = sum(n for e, n in events.items() if e == BUFFER_CONTENT)
    wal = sum(n for e, n in events.items() if is_wal(e))
    return Shares(content / total, wal / total, (total - content - wal) / total, total)


@dataclass(frozen=True)
class Row:
    """One strategy's window at one swept value."""

    value: Number
    workload: str
    strategy: str
    tps: float | None
    # The median's interval over the rounds (their range below five rounds), None with one round.
    tps_low: float | None
    tps_high: float | None
    against_baseline: str
    waits: Shares | None


def tps_interval(round_tps: Sequence[float | None]) -> tuple[float | None, float | None]:
    """The interval of the median TPS over the rounds (pure)."""
    interval = median_interval([t for t in round_tps if t is not None], seed=0)
    return (interval.low, interval.high) if interval is not None else (None, None)


def rows_of(value: Number, run: RunResult, series: Mapping[str, Sequence[Sequence[object]]]) -> list[Row]:
    """The rows of one sweep point's run, its time series SERIES beside it."""
    windows = waits.by_window(series.get("wait_events", []), [])
    verdicts = {(v.workload, v.strategy): v for v in run.verdicts if v.metric == "tps"}
    found = []
    for strategy in run.strategies:
        for workload in strategy.workloads:
            rounds = workload.rounds or [workload]
            low, high = tps_interval([r.tps for r in rounds])
            verdict = verdicts.get((workload.name, strategy.name))
            words = "baseline" if strategy.name == run.baseline else verdict.words if verdict else MISSING
            sampled = windows.get((strategy.name, workload.name))
            found.append(
                Row(
                    value,
                    workload.name,
                    strategy.name,
                    workload.tps,
                    low,
                    high,
                    words,
                    shares(sampled.events) if sampled else None,
                )
            )
    return found


def read(out_dir: Path, sweep_json: Mapping[str, Any]) -> tuple[list[Row], dict[Number, RunResult]]:
    """The rows of every point of a sweep, and each point's run."""
    found: list[Row] = []
    runs: dict[Number, RunResult] = {}
    for point in sweep_json["points"]:
        directory = out_dir / point["directory"]
        runs[point["value"]] = results.load(directory)
        found += rows_of(point["value"], runs[point["value"]], read_series(directory))
    return found, runs


def _tps(row: Row) -> str:
    if row.tps is None:
        return MISSING
    if row.tps_low is None or row.tps_high is None:
        return f"{row.tps:,.0f}"
    return f"{row.tps:,.0f} ({row.tps_low:,.0f}-{row.tps_high:,.0f})"


def _share(value: float | None) -> str:
    return MISSING if value is None else f"{value:.0%}"


def table(parameter: str, rows: Sequence[Row], heading: str = "### {}") -> list[str]:
    """Per window, one row per swept value and strategy: TPS (interval), against the baseline, waits; each
    window's table under HEADING (a document that quotes it sets its own level)."""
    lines: list[str] = []
    for workload in dict.fromkeys(r.workload for r in rows):
        lines += ["", heading.format(workload), ""]
        body = [
            [
                str(r.value),
                r.strategy,
                _tps(r),
                r.against_baseline,
                _share(r.waits.buffer_content if r.waits else None),
                _share(r.waits.wal if r.waits else None),
                _share(r.waits.rest if r.waits else None),
            ]
            for r in sorted((r for r in rows if r.workload == workload), key=lambda r: r.value)
        ]
        header = [parameter, "strategy", "TPS (interval)", "TPS against the baseline", "BufferContent"]
        lines += markdown_table([*header, "WAL", "rest"], body)
    return lines


def order_costs(runs: Mapping[Number, RunResult]) -> list[str]:
    """What order costs, from the first point's order-costs queries: each strategy's buffers and time per row
    of the time-range scan and of the lookups by key, and as a ratio to plain v7's."""
    run = next(iter(runs.values()), None)
    if run is None:
        return []
    measured = {s.name: s.queries.get(ORDER_COSTS_STEP, {}) for s in run.strategies if s.status == "ok"}
    if not any(measured.values()):
        return []
    reference = measured.get(ORDERED_REFERENCE, {})
    body = []
    for name, queries in measured.items():
        ranges = queries.get("ranges", {}).get("index_ranges")
        cells = [name, MISSING if ranges is None else str(ranges)]
        for query in ("time-range", "lookup-by-key"):
            cells += _cost_cells(queries.get(query, {}), reference.get(query, {}))
        body.append(cells)
    header = ["strategy", "index ranges", "time range: buffers / 1000 rows", "ms / 1000 rows"]
    return [
        "",
        "### What order costs (the prefilled table, one EXPLAIN ANALYZE each)",
        "",
        f"Against {ORDERED_REFERENCE} in brackets. The time-range scan reads a tenth of the prefill from "
        "its middle (a striped key: one index range per stripe); the lookups fetch sampled keys one by "
        "one. A key without time order has no time range to scan.",
        "",
        *markdown_table([*header, "lookups by key: buffers / 1000 rows", "ms / 1000 rows"], body),
    ]


def per_thousand(figures: Mapping[str, Any], key: str) -> float | None:
    """A query's figure per 1000 rows it produced (pure); None when it was not measured."""
    rows, value = figures.get("rows"), figures.get(key)
    if not isinstance(rows, int) or not rows or not isinstance(value, int | float):
        return None
    return 1000 * value / rows


def _cost_cells(mine: Mapping[str, Any], reference: Mapping[str, Any]) -> list[str]:
    cells = []
    for key, pattern in (("shared_blocks", "{:,.1f}"), ("execution_ms", "{:,.3f}")):
        value, base = per_thousand(mine, key), per_thousand(reference, key)
        if value is None:
            cells.append(MISSING)
            continue
        ratio = f" ({value / base:.2f}\u00d7)" if base else ""
        cells.append(pattern.format(value) + ratio)
    return cells


def load(source: Path) -> tuple[str, list[Row], dict[Number, RunResult]]:
    """A committed sweep directory: its swept parameter, its rows and its points' runs."""
    path = source / "sweep.json"
    if not path.is_file():
        raise PkbenchError(f"{source}: no committed sweep there (no sweep.json)")
    sweep_json = json.loads(path.read_text())
    rows, runs = read(source, sweep_json)
    return str(sweep_json["parameter"]), rows, runs


def machine_line(parameter: str, runs: Mapping[Number, RunResult], directory: Path) -> list[str]:
    """Where and how the sweep in DIRECTORY ran: the machine, the server, the command, the rounds and windows,
    and how much of the CPU the hypervisor took in the rounds' windows."""
    first = next(iter(runs.values()), None)
    if first is None:
        return []
    machine, server = first.machine, first.server
    parameters = first.scenario.get("parameters") or {}
    cpu = machine.get("cpu_model") or "unknown CPU"
    memory = machine.get("memory_bytes")
    gib = f", {memory / 2**30:.0f} GiB" if isinstance(memory, int) else ""
    values = ", ".join(str(v) for v in sorted(runs))
    # the design the runs recorded: the sweeps of many-cores.md ran mixed rounds, not paired ones
    rounds = f"{first.rounds.count} {first.rounds.design}" if first.rounds else "1 paired"
    return [
        f"{machine.get('cores')} cores ({cpu}{gib}), PostgreSQL {server.get('version', '?')}; "
        f"`{run_words.shown_command(first, directory)}`: {parameter} {values}, one run each; "
        f"{rounds} rounds of {parameters.get('duration_s')}-second "
        f"windows, {parameters.get('rows'):,} prefilled rows. {steal_words(round_windows(runs.values()))}"
    ]


def round_windows(runs: Iterable[RunResult]) -> list[MachineWindow]:
    """The machine over every round's window of every run (the window itself where it has no rounds)."""
    return [
        found.machine_window
        for run in runs
        for strategy in run.strategies
        if strategy.status == "ok"
        for workload in strategy.workloads
        for found in (workload.rounds or [workload])
        if found.machine_window is not None
    ]


STEAL = "Steal (CPU the hypervisor gave elsewhere)"


def steal_words(windows: Sequence[MachineWindow]) -> str:
    """One sentence on the CPU the hypervisor gave to other guests during WINDOWS (pure): on a lent virtual
    machine it takes cores from the benchmark unevenly, so TPS moves with it while work per transaction does
    not."""
    if not windows:
        return "The machine's load was not recorded."
    steal = [w.steal_fraction for w in windows]
    over = sum(s >= STEAL_FRACTION for s in steal)
    if not over:
        return f"{STEAL} at most {max(steal):.1%} in any of its {len(steal)} windows."
    return (
        f"{STEAL} reached {STEAL_FRACTION:.0%} or more in {over} of its "
        f"{len(steal)} windows, at most {max(steal):.0%}: TPS there is lower than the machine gives."
    )


def headline(rows: Sequence[Row], workloads: Sequence[str]) -> list[str]:
    """Per window of WORKLOADS, one row per strategy: at each swept value the baseline's TPS or the verdict
    against it with its interval, and the shares of backends on the page lock and on WAL (the compact table a
    README quotes)."""
    lines: list[str] = []
    values = sorted({r.value for r in rows})
    for workload in workloads:
        chosen = [r for r in rows if r.workload == workload]
        if not chosen:
            continue
        by_key = {(r.strategy, r.value): r for r in chosen}
        body = []
        for strategy in dict.fromkeys(r.strategy for r in chosen):
            cells = [strategy]
            for value in values:
                row = by_key.get((strategy, value))
                if row is None or row.tps is None:
                    cells.append(MISSING)
                    continue
                tps = f"{row.tps:,.0f} TPS" if row.against_baseline == "baseline" else row.against_baseline
                waited = (
                    f"; {row.waits.buffer_content:.0%} on the page lock, {row.waits.wal:.0%} on WAL"
                    if row.waits
                    else ""
                )
                cells.append(f"{tps}{waited}")
            body.append(cells)
        lines += ["", f"**{workload}**", ""]
        lines += markdown_table(["strategy", *(_clients(v) for v in values)], body)
    return lines[1:]


def _clients(value: Number) -> str:
    return "1 client" if value == 1 else f"{value} clients"


def section(parameter: str, out_dir: Path, sweep_json: Mapping[str, Any]) -> list[str]:
    """sweep.md's section on contention; empty when no point sampled wait events."""
    rows, runs = read(out_dir, sweep_json)
    if not any(r.waits for r in rows):
        return []
    return [
        "",
        f"## TPS and waits by {parameter}",
        "",
        "TPS: the median over the paired rounds, with the interval of the median (the range of the rounds "
        "below five); against the baseline: the paired verdict of its run. Waits: the share of the active "
        "backends sampled during the windows that waited on a page's lock (LWLock:BufferContent), on WAL "
        "(its LWLocks and I/O: WALWrite, WALInsert, WALSync), and on anything else or nothing (rest).",
        *table(parameter, rows),
        *order_costs(runs),
    ]
