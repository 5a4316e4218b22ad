"""Which key to use, read from the which-key cells (evidence.cell): one rule, used by README's generated
block, advice.md, `pkbench advise` and any command that answers for one table (`decide` over a table's
cells; evidence.advice.committed_answer for one key under one condition of the committed runs).

A key is weighed against bigint under each condition on two figures, both judged in the family of figures
the answer cites (evidence.advice.cited_figures): its rate, and its WAL per transaction in the same window
(full-page images are WAL bytes, so they weigh in there).

- Its rate is *slower* or *faster* wherever its interval holds the direction, however wide the interval;
  *level* where the interval includes 1 (or excludes it only outside the family) and is within ±PRECISION;
  *unresolved* otherwise.
- Its work is *heavier* where the WAL's difference holds and the key writes at least HEAVIER times bigint's
  WAL per transaction, *lighter* at most 1/HEAVIER; *similar* where the WAL's interval lies within
  1/HEAVIER to HEAVIER; *unresolved* otherwise.
- A key *costs* under a condition where it is slower or heavier; it *gains* where it is faster.

The decision: start with the key that costs under no condition measured, with the most conditions that
show it level or faster (then the most with any figure that answers); avoid a key where it costs and gains
nothing; choose another key where one is faster than bigint, its WAL named beside; and say, for the key to
start with, where its rate is not resolved. A key that writes several times bigint's WAL is never "never
slower", and a tight but slightly slower rate counts against a key as much as a wide one that holds its
direction.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Literal, Protocol, TypeVar

from pkbench.evidence.cell import BASELINE, TIMES, Cell

# A key that writes this many times bigint's WAL per transaction (its difference holding) pays for it in
# WAL volume, archiving, replication and checkpoints, whatever its rate: a quarter more is where a DBA sizing
# those starts to notice, above what the time-ordered keys write in the committed runs and far below the
# several times it the random keys write.
HEAVIER = 1.25


class Condition(Protocol):
    """A row of the table (evidence.advice_rows.Condition): its key and what it reads as."""

    @property
    def key(self) -> str: ...

    @property
    def label(self) -> str: ...


Row = TypeVar("Row", bound=Condition)

Speed = Literal["faster", "slower", "level", "unresolved"]
Work = Literal["heavier", "lighter", "similar", "unresolved", "not measured"]


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
        """Slower than bigint, or writing HEAVIER times its WAL or more: what rules a key out as the one to
        start with."""
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
    def answers(self) -> bool:
        """Some figure here says how the key compares: a rate level or with a direction, or its WAL."""
        return self.speed != "unresolved" or self.work in ("heavier", "lighter", "similar")

    def decided(self) -> str:
        """The figures that decide, named: `slower 0.96x (0.95-0.98), 2.13x bigint's WAL (2.11-2.15)`."""
        cell = self.cell
        assert cell.ratio is not None
        if self.speed == "unresolved":
            rate = f"rate {cell.width_words()}"
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
    if cell.kind == "verdict" and cell.resolved:
        return "faster" if cell.better else "slower"
    if cell.kind == "verdict" and cell.precise:
        return "level"
    return "unresolved"


def work_of(cell: Cell) -> Work:
    work = cell.work
    if work is None:
        return "not measured"
    if work.resolved and work.ratio >= HEAVIER:
        return "heavier"
    if work.resolved and work.ratio <= 1 / HEAVIER:
        return "lighter"
    if (
        work.interval
        and work.low is not None
        and work.high is not None
        and work.low >= 1 / HEAVIER
        and work.high <= HEAVIER
    ):
        return "similar"
    return "unresolved"


def answer(condition: Condition, key: str, cell: Cell) -> Answer | None:
    """KEY against bigint under CONDITION, from its cell; None where the cell holds no rate (bigint itself,
    a size, a key not measured)."""
    if key == BASELINE or cell.kind not in ("verdict", "one round") or cell.ratio is None:
        return None
    return Answer(condition, key, cell, speed_of(cell), work_of(cell))


@dataclass(frozen=True)
class Decision:
    """What the cells decide: the key to start with where the key must be a UUID (None where every key
    costs somewhere, or none answers in two conditions), each key's conditions where it costs, the keys
    faster than bigint by condition (a heavier WAL named beside), and, for the key to start with, where its
    rate stays unresolved and where it was not measured."""

    start: str | None
    start_answers: tuple[Answer, ...]
    avoid: Mapping[str, tuple[Answer, ...]]
    faster: Mapping[Condition, tuple[Answer, ...]]
    unresolved: tuple[Answer, ...]
    not_measured: tuple[Condition, ...]


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
    candidates = [
        key
        for key in chosen
        if not any(a.costs for a in answers[key]) and sum(1 for a in answers[key] if a.answers) >= 2
    ]
    start = (
        max(
            candidates,
            key=lambda k: (
                sum(1 for a in answers[k] if a.speed in ("level", "faster")),
                sum(1 for a in answers[k] if a.answers),
            ),
        )
        if candidates
        else None
    )
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
    )


def _keys(cells: Mapping[Row, Mapping[str, Cell]]) -> list[str]:
    return list(dict.fromkeys(key for row in cells.values() for key in row if key != BASELINE))


def _rate_row(row: Mapping[str, Cell]) -> bool:
    """Whether a row is about a rate (a window or a load), not a size."""
    return any(c.kind in ("verdict", "one round") for c in row.values())
