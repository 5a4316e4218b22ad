"""The "which key?" table: a row per condition a reader asks about, a column per key, each cell that key's
verdict against bigint with its interval, read from the run that measured it, and the rules the cells support.

Which runs answer which row is evidence.advice_rows's; a cell is "not measured" where none of them holds the
key. Every word of the rules under the table is generated from the cells: a rule changes when a run does.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from pkbench import results
from pkbench.analysis import family
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
)
from pkbench.results import RunResult, Verdict
from pkbench.summary.headline import SAME_WITHIN, Headline
from pkbench.text import MISSING

BASELINE = "bigint"
TIMES = "\u00d7"
# A speed cell answers only when its 95% interval ends within this share of its estimate on both sides; a
# wider one says how wide it got instead of printing a ratio it cannot back.
PRECISION = 0.10
# The work figure shown beside each window's rate: WAL bytes per transaction, judged on the same rounds.
WORK_METRIC = "wal"


Kind = Literal["baseline", "verdict", "one round", "size", "not measured"]


@dataclass(frozen=True)
class Work:
    """The key's WAL per transaction over bigint's in the cell's window, with its interval."""

    ratio: float
    low: float | None
    high: float | None
    resolved: bool
    # How many rounds the ratio is over, where its low and high are their range, no confidence interval
    # (too few rounds for the median's bootstrap, in runs of a pkbench that made one).
    range_of: int | None = None

    @property
    def interval(self) -> bool:
        """Whether low and high are a 95% confidence interval."""
        return self.low is not None and self.high is not None and self.range_of is None

    def figures(self) -> str:
        if self.low is None or self.high is None:
            return f"WAL {self.ratio:.2f}{TIMES} (one round: no interval)"
        if self.range_of is not None:
            return f"WAL {self.ratio:.2f}{TIMES} (no interval: the range of {self.range_of} rounds)"
        return f"WAL {self.ratio:.2f}{TIMES} ({self.low:.2f}\u2013{self.high:.2f})"


def reach(ratio: float | None, low: float | None, high: float | None) -> float | None:
    """How far the interval reaches from the estimate, as a share of it (the wider side); None without one."""
    if ratio is None or low is None or high is None or ratio <= 0:
        return None
    return max(high / ratio - 1, 1 - low / ratio)


@dataclass(frozen=True)
class Cell:
    """One key under one condition: its figure over bigint's (a rate for speed, bytes for size), the interval
    of that ratio, and the run it comes from."""

    kind: Kind
    ratio: float | None = None
    low: float | None = None
    high: float | None = None
    resolved: bool = False
    better: bool | None = None
    run: str | None = None
    window: str | None = None
    rounds: int = 0
    # The interval excludes 1 on its own, but the difference does not hold among the key's figures in its run.
    alone: bool = False
    work: Work | None = None

    @property
    def measured(self) -> bool:
        return self.kind in ("verdict", "one round", "size")

    @property
    def reach(self) -> float | None:
        return reach(self.ratio, self.low, self.high)

    @property
    def precise(self) -> bool:
        """A size (one measurement, so no interval), or a speed whose interval is within PRECISION."""
        if self.kind == "size":
            return True
        width = self.reach
        return self.kind == "verdict" and width is not None and width <= PRECISION + 1e-9

    @property
    def states(self) -> bool:
        """Measured, and either tight enough to say something or with a direction its interval holds."""
        return self.measured and (self.precise or self.resolved)

    @property
    def answers(self) -> bool:
        """Measured, and tight enough to say something: what the rules and the decision may rest on."""
        return self.measured and self.precise

    def word(self) -> str:
        if self.kind == "size":
            return "same size" if not self.resolved else "smaller" if self.better else "larger"
        if not self.precise and not self.resolved:
            return ""
        if not self.resolved:
            return "no difference resolved among its figures" if self.alone else "no difference resolved"
        return "faster" if self.better else "slower"

    def figures(self) -> str:
        """The ratio and its interval, as `0.88x (0.83-0.91)` with the multiplication sign and an en dash, and
        the WAL beside it; a speed with neither a direction nor PRECISION gives the width it reached."""
        work = f", {self.work.figures()}" if self.work is not None and self.ratio is not None else ""
        return self.rate_figures() + work

    def rate_figures(self) -> str:
        """The ratio and its interval alone, without the WAL."""
        if self.ratio is None:
            return MISSING
        if self.kind == "size":
            return f"{self.ratio:.2f}{TIMES} the size (one measurement)"
        if not self.precise and not self.resolved:
            return self.width_words()
        interval = f"{self.low:.2f}\u2013{self.high:.2f}"
        # A direction the interval holds is shown with its ratio however wide the interval, and how wide.
        wide = f"; \u00b1{self.reach_words()}, wider than \u00b1{PRECISION:.0%}" if not self.precise else ""
        return f"{self.ratio:.2f}{TIMES} ({interval}{wide})"

    def reach_words(self) -> str:
        """How far the interval reaches from the estimate, after how many rounds: `18.2% after 3 rounds`."""
        rounds = f"after {self.rounds} round{'' if self.rounds == 1 else 's'}"
        width = self.reach
        if width is None:
            return f"no interval {rounds}"
        # Near the target a whole percent could read as the target itself: one decimal there.
        shown = f"{width:.1%}" if width < 2 * PRECISION else f"{width:.0%}"
        return f"{shown} {rounds}"

    def width_words(self) -> str:
        """Why a speed cell gives no ratio: the interval it reached, and after how many rounds."""
        if self.reach is None:
            return f"not resolved to \u00b1{PRECISION:.0%}: one round, no interval"
        return f"not resolved to \u00b1{PRECISION:.0%}: \u00b1{self.reach_words()}"


@dataclass(frozen=True)
class Table:
    """The cells by condition and strategy, and the runs they come from in the order first cited."""

    cells: dict[str, dict[str, Cell]]
    runs: list[str]
    runs_dir: Path
    columns: tuple[Column, ...]
    conditions: tuple[Condition, ...]

    def label(self, run: str) -> str:
        return f"R{self.runs.index(run) + 1}"


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
    held = family.hold_together(chosen)
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
    if source.figure == LOAD:
        # Seconds per row over bigint's, turned into the load's rate: every speed cell reads the same way.
        ratio, low, high = 1 / ratio, (1 / high if high else None), (1 / low if low else None)
    interval = low is not None and high is not None
    held = holding(run, strategy, cited)
    holds = held.get((verdict.metric, verdict.workload), False) and interval
    work = _work(run.verdicts, verdict.workload, strategy, held) if source.figure == TPS else None
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


def _work(
    verdicts: Sequence[Verdict], window: str, strategy: str, holding: Mapping[tuple[str, str], bool]
) -> Work | None:
    """The WAL per transaction verdict of the same window, when the run judged one."""
    found = _verdict(verdicts, WORK_METRIC, window, strategy)
    if found is None or found.ratio is None:
        return None
    holds = holding.get((found.metric, found.workload), False) and found.low is not None
    ranged = found.rounds if found.method == "range of rounds" else None
    return Work(found.ratio, found.low, found.high, holds, ranged)


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
