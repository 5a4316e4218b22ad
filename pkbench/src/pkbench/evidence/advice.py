"""The "which key?" table: a row per condition a reader asks about, a column per key, each cell that key's
verdict against bigint with its interval, read from the run that measured it, and the rules the cells support.

What answers a row is data, not code: a condition names the runs, windows and figures that answer it
(`Source`), in the order they are tried, and a cell is "not measured" where none of them holds the key. The
documents' table reads the committed runs (`COMMITTED`); `pkbench advise` gives the same table the runs it
made on the reader's own server. Every word of the rules under the table is generated from the cells: a rule
changes when a run does.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from pkbench import results
from pkbench.results import RunResult, Verdict
from pkbench.summary import fleet
from pkbench.summary.headline import SAME_WITHIN, Headline
from pkbench.text import MISSING

BASELINE = "bigint"
TIMES = "\u00d7"
# A speed cell answers only when its 95% interval ends within this share of its estimate on both sides; a
# wider one says how wide it got instead of printing a ratio it cannot back.
PRECISION = 0.10
# The work figure shown beside each window's rate: WAL bytes per transaction, judged on the same rounds.
WORK_METRIC = "wal"
# A Source's figure: a verdict's metric (the rate of a window, or the load's time per row), or the size.
Figure = Literal["tps", "load", "size"]
TPS: Figure = "tps"
LOAD: Figure = "load"
SIZE: Figure = "size"


@dataclass(frozen=True)
class Column:
    strategy: str
    heading: str
    # Keys the load driver's clients make (summary.fleet): pgbench has no clock, so each statement builds its
    # key in SQL, a cost an application pays in its own process; their rates carry it, their work does not.
    made_by_clients: bool = False


COLUMNS = (
    Column("bigint", "bigint"),
    Column("uuid-v4", "v4"),
    Column("uuid-v4-text", "v4 as text"),
    Column("uuid-v7", "v7"),
    Column("app-v7-random", "v7 made by app servers, random sub-ms bits", made_by_clients=True),
    Column("app-v7-counter", "v7 made by app servers, a counter", made_by_clients=True),
    Column("seq-time", "time prefix"),
    Column("seq-seq-256", "sequence prefix"),
    Column("uuid-striped", "striped"),
)


@dataclass(frozen=True)
class Condition:
    key: str
    group: str
    label: str
    # Among the rows people ask about most: the README's short table shows them.
    asked: bool = False
    # The keys of the conditions merged into this row, when one measurement answers several.
    merged: tuple[str, ...] = ()

    @property
    def keys(self) -> tuple[str, ...]:
        return (self.key, *self.merged)


CONDITIONS = (
    Condition("shared-buffers", "data", "within shared buffers"),
    Condition("page-cache", "data", "beyond shared buffers, within RAM", asked=True),
    Condition("beyond-ram", "data", "beyond RAM (a memory cap)", asked=True),
    Condition("one-writer", "clients", "one writer"),
    Condition("few-cores", "clients", "many clients on few cores", asked=True),
    Condition("many-cores", "clients", "many clients on many cores, asynchronous commit", asked=True),
    Condition("many-cores-durable", "clients", "many clients on many cores, durable commit"),
    Condition("durable", "commit", "durable commit"),
    Condition("asynchronous", "commit", "asynchronous commit"),
    Condition("one-table", "layout", "one table"),
    Condition("range-partitioned", "layout", "range-partitioned by time"),
    Condition("hash-partitioned", "layout", "hash-partitioned"),
    Condition("sharded-range", "layout", "sharded by range"),
    Condition("sharded-hash", "layout", "sharded by hash"),
    Condition("sync-standby", "replication", "with a synchronous standby"),
    Condition("bulk-load", "load", "bulk load", asked=True),
    Condition("storage-size", "size", "storage size", asked=True),
)
BY_KEY = {c.key: c for c in CONDITIONS}


@dataclass(frozen=True)
class Source:
    """Where a condition's cells come from: a results directory (relative to the folder of runs), the window
    or load step whose verdict answers (None: the first the run judged on FIGURE), and the figure."""

    run: str
    window: str | None
    figure: Figure


Sources = Mapping[str, Sequence[Source]]

# The committed runs under pkbench/docs/reproductions that answer each condition, tried in order for each key
# (the run with the narrower intervals first). The memory tiers: seed 004's scale (16MB shared_buffers, a
# 256MB cap, 750k and 6M rows), five paired rounds of 30-s windows; wal-keys, smaller and on a busier machine,
# adds the sequential prefixes. A condition left out is "not measured" in every column. Many cores: 64
# clients on 16 cores, where the right edge's lock held most backends; asynchronous commit from the five-round
# sweep, durable from the other.
COMMITTED: Sources = {
    "shared-buffers": [
        Source("wal-tiers-seed-004", "tier-1-shared-buffers", TPS),
        Source("wal-keys", "tier-1-shared-buffers", TPS),
    ],
    "page-cache": [
        Source("wal-tiers-seed-004", "tier-2-page-cache", TPS),
        Source("wal-keys", "tier-2-page-cache", TPS),
    ],
    "beyond-ram": [
        Source("wal-tiers-seed-004", "tier-3-beyond-memory", TPS),
        Source("wal-keys", "tier-3-beyond-memory", TPS),
    ],
    "one-writer": [
        Source("war-one-writer-six-rounds", "lookup-by-data", TPS),
        Source("war-one-writer", "lookup-by-data", TPS),
    ],
    "few-cores": [Source("war-default", "lookup-by-data", TPS)],
    "many-cores": [Source("contention-16-cores-async/clients-64", "insert-async", TPS)],
    "many-cores-durable": [Source("contention-16-cores-sync/clients-64", "insert-sync", TPS)],
    "durable": [Source("war-default", "lookup-by-data", TPS)],
    "asynchronous": [
        Source("war-async-commit-six-rounds", "lookup-by-data", TPS),
        Source("war-async-commit", "lookup-by-data", TPS),
    ],
    "one-table": [Source("war-default", "lookup-by-data", TPS)],
    "range-partitioned": [Source("partitioned-windows", "range-insert", TPS)],
    "hash-partitioned": [Source("partitioned-windows", "hash-insert", TPS)],
    "sharded-range": [Source("sharded-3", "insert-range", TPS)],
    "sharded-hash": [Source("sharded-3", "insert-hash", TPS)],
    "sync-standby": [Source("designs-by-scenario/replication/paired", "insert-sync", TPS)],
    "bulk-load": [Source("war-default", None, LOAD), Source("war-one-writer", None, LOAD)],
    "storage-size": [Source("war-default", None, SIZE), Source("war-one-writer", None, SIZE)],
}


# Keys made by application servers: the fleet sweep's point at the smallest clock skew where a key the
# clients make stops behaving like server-side v7 (summary.fleet decides), else its largest skew.
FLEET_RUN = "fleet-skew"
FLEET_WINDOW = "insert-lookup"


def fleet_row(runs_dir: Path) -> tuple[Condition, Source] | None:
    """The fleet row and the point that answers it, from the committed sweep; None while it is not there."""
    sweep = runs_dir / FLEET_RUN / "sweep.json"
    if not sweep.is_file():
        return None
    recorded = json.loads(sweep.read_text())
    points, _ = fleet.read(runs_dir / FLEET_RUN, recorded)
    if not points:
        return None
    departed = [p for s in fleet.APP_STRATEGIES if (p := fleet.first_departure(points, s)) is not None]
    skew = min(p.skew_ms for p in departed) if departed else max(p.skew_ms for p in points)
    directory = next(point["directory"] for point in recorded["points"] if point["value"] == skew)
    label = f"keys made by application servers, clocks {fleet.skew_words(skew)} apart"
    return Condition("app-fleet", "keys made outside", label, asked=True), Source(
        f"{FLEET_RUN}/{directory}", FLEET_WINDOW, TPS
    )


def committed(runs_dir: Path) -> tuple[Sources, tuple[Condition, ...]]:
    """The committed table's sources and conditions, the fleet row among them once its sweep is there."""
    found = fleet_row(runs_dir)
    if found is None:
        return COMMITTED, CONDITIONS
    condition, source = found
    at = next(i for i, c in enumerate(CONDITIONS) if c.key == "bulk-load")
    return {**COMMITTED, condition.key: [source]}, (*CONDITIONS[:at], condition, *CONDITIONS[at:])


Kind = Literal["baseline", "verdict", "one round", "size", "not measured"]


@dataclass(frozen=True)
class Work:
    """The key's WAL per transaction over bigint's in the cell's window, with its interval."""

    ratio: float
    low: float | None
    high: float | None
    resolved: bool

    def figures(self) -> str:
        if self.low is None or self.high is None:
            return f"WAL {self.ratio:.2f}{TIMES} (one round: no interval)"
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
        the WAL beside it; a speed not resolved to PRECISION gives the width it reached instead."""
        if self.ratio is None:
            return MISSING
        if self.kind == "size":
            return f"{self.ratio:.2f}{TIMES} the size (one measurement)"
        if not self.precise:
            return self.width_words()
        shown = f"{self.ratio:.2f}{TIMES} ({self.low:.2f}\u2013{self.high:.2f})"
        return f"{shown}, {self.work.figures()}" if self.work is not None else shown

    def width_words(self) -> str:
        """Why a speed cell gives no ratio: the interval it reached, and after how many rounds."""
        rounds = f"after {self.rounds} round{'' if self.rounds == 1 else 's'}"
        width = self.reach
        if width is None:
            return f"not resolved to \u00b1{PRECISION:.0%}: one round, no interval"
        # Near the target a whole percent could read as the target itself: one decimal there.
        shown = f"{width:.1%}" if width < 2 * PRECISION else f"{width:.0%}"
        return f"not resolved to \u00b1{PRECISION:.0%}: \u00b1{shown} {rounds}"


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
    for condition in conditions:
        row: dict[str, Cell] = {}
        for column in columns:
            found = Cell("not measured")
            for source in sources.get(condition.key, ()):
                run = load(runs_dir / source.run)
                found = _cell(run, source, column.strategy) if run is not None else found
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


def _cell(run: RunResult, source: Source, strategy: str) -> Cell:
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
    work = _work(run.verdicts, verdict.workload, strategy) if source.figure == TPS else None
    return Cell(
        "verdict" if interval else "one round",
        ratio,
        low,
        high,
        verdict.holds and interval,
        verdict.better if verdict.holds and interval else None,
        source.run,
        verdict.workload,
        verdict.rounds,
        alone=verdict.resolved and not verdict.holds and interval,
        work=work,
    )


def _work(verdicts: Sequence[Verdict], window: str, strategy: str) -> Work | None:
    """The WAL per transaction verdict of the same window, when the run judged one."""
    found = _verdict(verdicts, WORK_METRIC, window, strategy)
    if found is None or found.ratio is None:
        return None
    return Work(found.ratio, found.low, found.high, found.holds and found.low is not None)


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
