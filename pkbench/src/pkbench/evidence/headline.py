"""The README's first screen: the decision in a few short lines, one rounded figure each, made from the cells
of the "which key?" table (evidence.advice) so that a committed run changes them. The full table, its
intervals and its rules are advice.md's; each line here links to the run its figure comes from."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from pkbench.evidence.advice import Table, build
from pkbench.evidence.cell import PRECISION, TIMES, Cell
from pkbench.evidence.advice_rows import Column, Condition, committed


@dataclass(frozen=True)
class Found:
    condition: Condition
    column: Column
    cell: Cell


def rounded(ratio: float) -> str:
    """A ratio as a reader keeps it in mind: 0.3, 1.5, 25."""
    if round(ratio, 1) >= 10:
        return f"{ratio:.0f}{TIMES}"
    return f"{ratio:.1f}{TIMES}"


def _speed(table: Table, column: Column) -> list[Found]:
    """The key's rates measured to PRECISION, condition by condition."""
    found = [Found(c, column, table.cells[c.key][column.strategy]) for c in table.conditions]
    return [f for f in found if f.cell.kind == "verdict" and f.cell.answers]


def _link(table: Table, cell: Cell, link_from: Path) -> str:
    assert cell.run is not None
    return f"[{table.label(cell.run)}]({os.path.relpath(table.runs_dir / cell.run, link_from)})"


def _conditions(count: int) -> str:
    return f"{count} condition{'' if count == 1 else 's'}"


def _wal(cell: Cell) -> str:
    return f" and {rounded(cell.work.ratio)} its WAL" if cell.work is not None else ""


def lines(table: Table, link_from: Path) -> list[str]:
    """The decision: the UUID to start with, the keys to avoid and where they fall furthest, and the
    conditions where another key pulls ahead of bigint. Keys the load driver's clients build are set apart
    with what their rate carries."""
    keys = [c for c in table.columns[1:] if not c.made_by_clients]
    speed = {c.strategy: _speed(table, c) for c in table.columns}
    behind = {k: [f for f in v if f.cell.resolved and not f.cell.better] for k, v in speed.items()}
    out = ["- **bigint** where one database makes every key: every figure here is a ratio to it."]
    candidates = [c for c in keys if not behind[c.strategy] and len(speed[c.strategy]) >= 2]
    if candidates:
        start = max(candidates, key=lambda c: len(speed[c.strategy]))
        ratios = [f.cell.ratio for f in speed[start.strategy] if f.cell.ratio is not None]
        span = (
            rounded(min(ratios))
            if rounded(min(ratios)) == rounded(max(ratios))
            else f"{rounded(min(ratios))}\u2013{rounded(max(ratios))}"
        )
        out.append(
            f"- **{start.strategy}** where the key must be a UUID: never behind bigint in the "
            f"{_conditions(len(ratios))} measured to \u00b1{PRECISION:.0%} ({span} its rate)."
        )
    for column in keys:
        worst = min(behind[column.strategy], key=lambda f: f.cell.ratio or 1, default=None)
        if worst is None:
            continue
        out.append(
            f"- not **{column.strategy}**: behind bigint in {_conditions(len(behind[column.strategy]))}, "
            "down to "
            f"{rounded(worst.cell.ratio or 0)} bigint's rate{_wal(worst.cell)}, {worst.condition.label} "
            f"({_link(table, worst.cell, link_from)})."
        )
    ahead: dict[str, list[Found]] = {}
    for column in keys:
        for found in speed[column.strategy]:
            if found.cell.resolved and found.cell.better:
                ahead.setdefault(found.condition.key, []).append(found)
    for group in ahead.values():
        # The key that pulls ahead at the least WAL first: the one to try.
        group.sort(key=lambda f: f.cell.work.ratio if f.cell.work is not None else float("inf"))
        keys_said = "; ".join(
            f"**{f.column.strategy}** {rounded(f.cell.ratio or 0)} bigint's rate{_wal(f.cell)}" for f in group
        )
        out.append(
            f"- except with {group[0].condition.label}, where bigint falls behind: {keys_said} "
            f"({_link(table, group[0].cell, link_from)})."
        )
    made = [f for c in table.columns[1:] if c.made_by_clients for f in speed[c.strategy][:1]]
    if made:
        # "keys made by application servers, clocks 50 ms apart"; "v7 made by app servers, a counter"
        where = made[0].condition.label.partition(", ")[2]
        said = ", ".join(
            f"{rounded(f.cell.ratio or 0)} bigint's rate with {f.column.heading.partition(', ')[2]}"
            for f in made
        )
        out.append(
            f"- v7 made by application servers, {where}: {said}; pgbench has no clock, so each statement "
            "builds such a key in SQL, a cost an application pays in its own process and these rates carry "
            f"({_link(table, made[0].cell, link_from)})."
        )
    return out


def block(runs_dir: Path, link_from: Path) -> list[str]:
    """The README's decision lines from the committed runs under RUNS_DIR, links relative to LINK_FROM."""
    sources, conditions = committed(runs_dir)
    return lines(build(runs_dir, sources, conditions=conditions), link_from)
