"""The "which key?" table: a row per condition a reader asks about, a column per key, each cell that key's
verdict against bigint with its interval, read from the run that measured it, and the rules the cells support.

Which runs answer which row is evidence.advice_rows's; a cell is "not measured" where none of them holds the
key. Every word of the rules under the table is generated from the cells: a rule changes when a run does.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from pkbench import results
from pkbench.analysis import family
from pkbench.errors import PkbenchError
from pkbench.evidence import decision
from pkbench.evidence.advice_rows import (
    COLUMNS,
    CONDITIONS,
    LOAD,
    SIZE,
    TPS,
    Column,
    Condition,
    Source,
    Sources,
    committed,
)
from pkbench.evidence.cell import BASELINE, Cell, Work
from pkbench.results.model import RunResult, Verdict
from pkbench.summary.headline import SAME_WITHIN, Headline

# The work figure shown beside each window's rate: WAL bytes per transaction, judged on the same rounds.
WORK_METRIC = "wal"


@dataclass(frozen=True)
class Table:
    """The cells by condition and strategy, and the runs they come from in the order first cited, each cited
    by its folder's name."""

    cells: dict[str, dict[str, Cell]]
    runs: list[str]
    runs_dir: Path
    columns: tuple[Column, ...]
    conditions: tuple[Condition, ...]

    def label(self, run: str) -> str:
        """RUN's name in a citation: its folder under the runs' directory, which no later run changes (a
        number by order of citation would point at another run once a new one is cited first)."""
        if run not in self.runs:
            raise KeyError(run)
        return run

    def link(self, run: str, link_from: Path) -> str:
        """RUN's label, linked relative to LINK_FROM (the folder of the document that shows it)."""
        return f"[{self.label(run)}]({os.path.relpath(self.runs_dir / run, link_from)})"

    def rows(self) -> dict[Condition, dict[str, Cell]]:
        """The cells by condition, in the table's order: what evidence.decision.decide reads."""
        return {c: self.cells[c.key] for c in self.conditions}


def load(directory: Path) -> RunResult | None:
    """The run in DIRECTORY, None while it is not there; read once for each version of its results.json (a
    table cites most runs in several rows, and `pkbench advise` builds its table again as runs finish)."""
    path = directory / "results.json"
    if not path.is_file():
        return None
    return _read(directory, path.stat().st_mtime_ns)


@functools.cache
def _read(directory: Path, version: int) -> RunResult:
    return results.load(directory)


def build(
    runs_dir: Path,
    sources: Sources,
    columns: Sequence[Column] = COLUMNS,
    conditions: Sequence[Condition] = CONDITIONS,
) -> Table:
    """The table from the runs under RUNS_DIR that SOURCES name; a run that is not there answers nothing."""
    cells: dict[str, dict[str, Cell]] = {}
    cited: list[str] = []
    family = cited_figures(sources)
    for condition in conditions:
        row: dict[str, Cell] = {}
        for column in columns:
            found = Cell("not measured")
            for source in sources.get(condition.key, ()):
                run = load(runs_dir / source.run)
                found = _cell(run, source, column.strategy, family[source.run]) if run is not None else found
                if found.kind != "not measured":
                    break
            row[column.strategy] = found
            if found.run is not None and found.run not in cited:
                cited.append(found.run)
        cells[condition.key] = row
    merged = _merged(conditions, cells)
    kept = {c.key for c in merged}
    return Table({k: v for k, v in cells.items() if k in kept}, cited, runs_dir, tuple(columns), merged)


def _merged(
    conditions: Sequence[Condition], cells: Mapping[str, Mapping[str, Cell]]
) -> tuple[Condition, ...]:
    """One row per measurement: conditions whose every cell cites the same window of the same run become one
    row, labelled with each condition's name, in the place of the first."""
    groups: dict[object, list[Condition]] = {}
    for condition in conditions:
        row = cells[condition.key]
        cited = tuple((s, c.run, c.window, c.kind) for s, c in row.items())
        measured = any(c.measured for c in row.values())
        groups.setdefault(cited if measured else condition.key, []).append(condition)
    rows = []
    for group in groups.values():
        first = group[0]
        if len(group) == 1:
            rows.append(first)
            continue
        rows.append(
            Condition(
                first.key,
                " / ".join(dict.fromkeys(c.group for c in group)),
                " / ".join(c.label for c in group),
                asked=any(c.asked for c in group),
                merged=tuple(c.key for c in group[1:]),
            )
        )
    return tuple(rows)


Figures = frozenset[tuple[str, str | None]]


def cited_figures(sources: Sources) -> dict[str, Figures]:
    """Each run's figures the table cites, as (metric, window): the rate and the WAL per transaction of every
    window a row reads from it, the load's rate where a row reads the load. Fixed by the sources, before any
    run: the family a cell's difference must hold in (a size is one measurement, judged by no test)."""
    cited: dict[str, set[tuple[str, str | None]]] = {}
    for found in sources.values():
        for source in found:
            wanted = cited.setdefault(source.run, set())
            if source.figure == TPS:
                wanted |= {(TPS, source.window), (WORK_METRIC, source.window)}
            elif source.figure == LOAD:
                wanted.add((LOAD, source.window))
    return {run: frozenset(wanted) for run, wanted in cited.items()}


def holding(run: RunResult, strategy: str, wanted: Figures) -> dict[tuple[str, str], bool]:
    """Which of STRATEGY's cited figures in RUN hold taken together (analysis.family), by (metric, window):
    the p99 latencies and buffer counts a window also records are no part of the answer, so they do not
    widen the family it is judged in; the run's summary judges them in a family of their own."""
    chosen: list[Verdict] = []
    for metric, window in sorted(wanted, key=str):
        found = _verdict(run.verdicts, metric, window, strategy)
        if found is not None and found not in chosen:
            chosen.append(found)
    held = family.hold_together(chosen, _alpha(run))
    return {(v.metric, v.workload): holds for v, holds in zip(chosen, held, strict=True)}


def _cell(run: RunResult, source: Source, strategy: str, cited: Figures) -> Cell:
    measured = {s.name: s for s in run.strategies if s.status == "ok"}
    if strategy not in measured or BASELINE not in measured:
        return Cell("not measured")
    if strategy == BASELINE:
        return Cell("baseline", run=source.run, window=source.window)
    if source.figure == SIZE:
        return _size(run, source, strategy)
    verdict = _verdict(run.verdicts, source.figure, source.window, strategy)
    if verdict is None or verdict.ratio is None:
        return Cell("not measured")
    ratio, low, high = verdict.ratio, verdict.low, verdict.high
    if low is not None and high is not None and verdict.method == "t on log ratios":
        low, high = _at_looks(run, low, high, verdict)
    if source.figure == LOAD:
        # Seconds per row over bigint's, turned into the load's rate: every speed cell reads the same way.
        ratio, low, high = 1 / ratio, (1 / high if high else None), (1 / low if low else None)
    interval = low is not None and high is not None
    held = holding(run, strategy, cited)
    holds = held.get((verdict.metric, verdict.workload), False) and interval
    work = _work(run, verdict.workload, strategy, held) if source.figure == TPS else None
    return Cell(
        "verdict" if interval else "one round",
        ratio,
        low,
        high,
        holds,
        verdict.better if holds else None,
        source.run,
        verdict.workload,
        verdict.rounds,
        alone=verdict.resolved and not holds and interval,
        work=work,
    )


def _work(run: RunResult, window: str, strategy: str, holding: Mapping[tuple[str, str], bool]) -> Work | None:
    """The WAL per transaction verdict of the same window, when the run judged one."""
    found = _verdict(run.verdicts, WORK_METRIC, window, strategy)
    # A ratio of 0 is a server that wrote no WAL for either key (the router of the sharded scenario, whose
    # shards write it): no figure of the key's work, not a key that writes none.
    if found is None or found.ratio is None or found.ratio <= 0:
        return None
    holds = holding.get((found.metric, found.workload), False) and found.low is not None
    ranged = found.rounds if found.method == "range of rounds" else None
    low, high = found.low, found.high
    if low is not None and high is not None and found.method == "t on log ratios":
        low, high = _at_looks(run, low, high, found)
    return Work(found.ratio, low, high, holds, ranged)


def _alpha(run: RunResult) -> float:
    """The familywise level RUN's cells are judged at: a run that stopped at the first look that decided
    (--until-decided) spent the 5% across its planned looks, and its cells are judged at one look's share."""
    looked = run.rounds is not None and run.rounds.until_decided
    return family.LOOK_ALPHA if looked else family.FAMILYWISE_ALPHA


def _at_looks(run: RunResult, low: float, high: float, verdict: Verdict) -> tuple[float, float]:
    """A verdict's t interval at the confidence RUN's cells are judged at (the one recorded elsewhere)."""
    confidence = verdict.confidence or 0.95
    wanted = 1 - _alpha(run)
    if abs(confidence - wanted) < 1e-12:
        return low, high
    return family.widened(low, high, verdict.rounds, confidence, wanted)


def _verdict(verdicts: Sequence[Verdict], metric: str, window: str | None, strategy: str) -> Verdict | None:
    return next(
        (
            v
            for v in verdicts
            if v.strategy == strategy
            and v.baseline == BASELINE
            and v.metric == metric
            and (window is None or v.workload == window)
        ),
        None,
    )


def _size(run: RunResult, source: Source, strategy: str) -> Cell:
    """The size the run's summary headlines (table and indexes at its end) over bigint's: one measurement
    each, so no interval; within 3% it is called the same, as the summary does."""
    headline = Headline.of(run)
    by_name = {s.name: s for s in run.strategies}
    where, mine = headline.size(by_name[strategy])
    _, theirs = headline.size(by_name[BASELINE])
    if not mine or not theirs:
        return Cell("not measured")
    ratio = mine / theirs
    resolved = abs(mine - theirs) / max(mine, theirs) >= SAME_WITHIN
    return Cell("size", ratio, None, None, resolved, ratio < 1 if resolved else None, source.run, where)


def committed_answer(condition: str, key: str, runs_dir: Path) -> decision.Answer | None:
    """What the committed runs under RUNS_DIR (pkbench/docs/reproductions) say of KEY against bigint under
    CONDITION (a key of evidence.advice_rows.CONDITIONS, merged rows included), by evidence.decision's rule:
    None where the cell holds no rate (bigint itself, the storage size, a key no committed run measured
    there). A condition or key the table does not have is an error naming it."""
    table = _committed_table(runs_dir)
    known = [k for c in table.conditions for k in c.keys]
    if condition not in known:
        raise PkbenchError(f"condition {condition!r}: not a row of the which-key table ({', '.join(known)})")
    strategies = [c.strategy for c in COLUMNS]
    if key not in strategies:
        raise PkbenchError(f"key {key!r}: not a column of the which-key table ({', '.join(strategies)})")
    row = next(c for c in table.conditions if condition in c.keys)
    return decision.answer(row, key, table.cells[row.key][key])


@functools.lru_cache(maxsize=4)
def _committed_table(runs_dir: Path) -> Table:
    """The table of the committed runs, built once per process: `pkbench inspect` asks it for every table
    and condition of a database, and a build reads every committed run (about a second)."""
    sources, conditions = committed(runs_dir)
    return build(runs_dir, sources, conditions=conditions)
