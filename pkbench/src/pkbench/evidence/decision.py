"""Which key to use, read from the which-key cells (evidence.cell): one rule, used by README's generated
block, advice.md, `pkbench advise` and any command that answers for one table (`decide` over a table's
cells; evidence.advice.committed_answer for one key under one condition of the committed runs).

A key is weighed against bigint under each condition on two figures, both judged in the family of figures
the answer cites (evidence.advice.cited_figures), against practical margins fixed before any run
(evidence.cell: RATE_MARGIN, HEAVIER; docs/statistics.md gives their reasons):

- Its rate is *level* where its interval lies within ±RATE_MARGIN of bigint's; *slower* or *faster* where
  the direction holds and the estimate reaches past the margin; *slower (faster), within the margin* where
  the direction holds and the estimate does not, a difference said as such that rules nothing out;
  *unresolved* otherwise.
- Its WAL per transaction is *heavier* where the difference holds and the interval's lower bound reaches
  HEAVIER times bigint's, *lighter* where its upper bound reaches 1/HEAVIER; *similar* where the interval
  lies within 1/HEAVIER to HEAVIER; *unresolved* otherwise.
- A key *costs* under a condition where it is slower or heavier; it *gains* where it is faster.

The decision: start with the key that costs under no condition measured, whose rate answers in the memory
tiers beyond shared buffers (where keys differ most: a key measured only elsewhere is named as not measured
there, never as the one to start with), with the most conditions that show it level or faster (then the most
with any figure that answers; a tie goes to the key listed first); avoid a key where it costs and gains
nothing; choose another key where one is faster than bigint, its WAL named beside; and say, for the key to
start with, where its rate is not resolved. Every count the documents and commands state comes from
`tally`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol, TypeVar

from pkbench.evidence.cell import BASELINE, TIMES, Cell, Speed
from pkbench.evidence.cell import WorkSays as Work

# The memory tiers where keys differ most: a random key's insert lands on a leaf that is no longer in shared
# buffers (or in memory), a time-ordered key's on the rightmost one. A key is the one to start with only
# where its rate answers in those the table measured.
DIFFERING = ("page-cache", "beyond-ram")


class Condition(Protocol):
    """A row of the table (evidence.advice_rows.Condition): its key and what it reads as."""

    @property
    def key(self) -> str: ...

    @property
    def label(self) -> str: ...


Row = TypeVar("Row", bound=Condition)

# A held direction whose estimate stays within the margin: said, and no cost or gain.
WITHIN = ("faster, within the margin", "slower, within the margin")


@dataclass(frozen=True)
class Answer:
    """One key against bigint under one condition: what its rate and its WAL say, and the cell they come
    from."""

    condition: Condition
    key: str
    cell: Cell
    speed: Speed
    work: Work

    @property
    def costs(self) -> bool:
        """Slower than bigint past the margin, or writing HEAVIER times its WAL or more: what rules a key out
        as the one to start with."""
        return self.speed == "slower" or self.work == "heavier"

    @property
    def avoid(self) -> bool:
        """A cost with nothing gained beside it; a key faster for its heavier WAL is a trade, said where
        another key is chosen."""
        return self.costs and not self.gains

    @property
    def gains(self) -> bool:
        return self.speed == "faster"

    @property
    def level_or_better(self) -> bool:
        """Its rate level with bigint's or faster: an interval within the margin, or a direction for it."""
        return self.speed in ("level", "faster", "faster, within the margin") or (
            self.speed == "slower, within the margin" and self.cell.within_margin
        )

    @property
    def answers(self) -> bool:
        """Some figure here says how the key compares: a rate level or with a direction, or its WAL."""
        return self.speed != "unresolved" or self.work in ("heavier", "lighter", "similar")

    def decided(self) -> str:
        """The figures that decide, named: `slower 0.86x (0.85-0.88), 2.13x bigint's WAL (2.11-2.15)`."""
        cell = self.cell
        assert cell.ratio is not None
        if self.speed == "unresolved":
            rate = f"rate unresolved {cell.rate_figures()}" if cell.precise else f"rate {cell.width_words()}"
        elif self.speed == "level":
            rate = f"rate level {cell.ratio:.2f}{TIMES} ({cell.low:.2f}\u2013{cell.high:.2f})"
        else:
            rate = f"{self.speed} {cell.rate_figures()}"
        work = cell.work
        if work is None:
            return rate
        if self.work in ("heavier", "lighter"):
            interval = f" {work.interval_text()}" if work.interval else ""
            return f"{rate}, {work.ratio:.2f}{TIMES} bigint's WAL per transaction{interval}"
        return f"{rate}, {work.figures()}"


def speed_of(cell: Cell) -> Speed:
    return cell.speed()


def work_of(cell: Cell) -> Work:
    return "not measured" if cell.work is None else cell.work.says()


def answer(condition: Condition, key: str, cell: Cell) -> Answer | None:
    """KEY against bigint under CONDITION, from its cell; None where the cell holds no rate (bigint itself,
    a size, a key not measured)."""
    if key == BASELINE or cell.kind not in ("verdict", "one round") or cell.ratio is None:
        return None
    return Answer(condition, key, cell, speed_of(cell), work_of(cell))


@dataclass(frozen=True)
class Tally:
    """How many conditions a key's answers cover: the one count every document and command states."""

    measured: int  # conditions with a rate measured for the key
    answered: int  # of those, where its rate is level, or holds a direction
    level_or_better: int  # of those, level with bigint's or faster
    costs: int  # of those, slower past the margin or heavier


def tally(answers: Sequence[Answer]) -> Tally:
    return Tally(
        len(answers),
        sum(1 for a in answers if a.speed != "unresolved"),
        sum(1 for a in answers if a.level_or_better),
        sum(1 for a in answers if a.costs),
    )


@dataclass(frozen=True)
class Decision:
    """What the cells decide: the key to start with where the key must be a UUID (None where every key
    costs somewhere, none answers in two conditions, or none answers in the memory tiers where keys
    differ), each key's conditions where it costs, the keys faster than bigint by condition (a heavier WAL
    named beside), and, for the key to start with, every answer, where its rate stays unresolved and where
    it was not measured. Where no key can be named for want of the memory tiers, ``untested`` is the key
    that would have been, and ``untested_tiers`` the tiers its rate did not answer in."""

    start: str | None
    start_answers: tuple[Answer, ...]
    avoid: Mapping[str, tuple[Answer, ...]]
    faster: Mapping[Condition, tuple[Answer, ...]]
    unresolved: tuple[Answer, ...]
    not_measured: tuple[Condition, ...]
    every: tuple[Answer, ...] = ()
    untested: str | None = None
    untested_tiers: tuple[Condition, ...] = ()

    @property
    def tally(self) -> Tally:
        """The key to start with's counts (every count the sentences about it state)."""
        return tally(self.every)


def decide(cells: Mapping[Row, Mapping[str, Cell]], keys: Sequence[str] | None = None) -> Decision:
    """The decision from CELLS (each condition's cells by key, bigint's among them, in the order the
    conditions are to be read), among KEYS (default: every key the cells hold but bigint, in their order)."""
    chosen = list(keys) if keys is not None else _keys(cells)
    answers: dict[str, list[Answer]] = {key: [] for key in chosen}
    for condition, row in cells.items():
        for key in chosen:
            found = answer(condition, key, row[key]) if key in row else None
            if found is not None:
                answers[key].append(found)
    tiers = [c for c, row in cells.items() if c.key in DIFFERING and _rate_row(row)]

    def tiers_missed(key: str) -> list[Condition]:
        said = {a.condition for a in answers[key] if a.speed != "unresolved"}
        # A table with tier rows none of which was measured names no key measured there.
        return [c for c in tiers if c not in said] if tiers else [c for c in cells if c.key in DIFFERING]

    free = [
        key
        for key in chosen
        if not any(a.costs for a in answers[key]) and sum(1 for a in answers[key] if a.answers) >= 2
    ]

    def best(candidates: list[str]) -> str | None:
        if not candidates:
            return None
        return max(
            candidates,
            key=lambda k: (tally(answers[k]).level_or_better, sum(1 for a in answers[k] if a.answers)),
        )

    start = best([key for key in free if not tiers_missed(key)])
    untested = best(free) if start is None else None
    faster: dict[Condition, list[Answer]] = {}
    for key in chosen:
        for found in answers[key]:
            if found.gains:
                faster.setdefault(found.condition, []).append(found)
    mine = answers[start] if start is not None else []
    measured = {a.condition for a in mine}
    return Decision(
        start,
        tuple(a for a in mine if a.speed != "unresolved"),
        {key: costs for key, found in answers.items() if (costs := tuple(a for a in found if a.avoid))},
        {condition: tuple(found) for condition, found in faster.items()},
        tuple(a for a in mine if a.speed == "unresolved"),
        tuple(c for c, row in cells.items() if start is not None and c not in measured and _rate_row(row)),
        tuple(mine),
        untested,
        tuple(tiers_missed(untested)) if untested is not None else (),
    )


def _keys(cells: Mapping[Row, Mapping[str, Cell]]) -> list[str]:
    return list(dict.fromkeys(key for row in cells.values() for key in row if key != BASELINE))


def _rate_row(row: Mapping[str, Cell]) -> bool:
    """Whether a row is about a rate (a window or a load), not a size."""
    return any(c.kind in ("verdict", "one round") for c in row.values())
