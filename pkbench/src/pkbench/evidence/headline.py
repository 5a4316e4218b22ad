"""The README's first screen: the decision in a few short lines, one rounded figure each, made from the cells
of the "which key?" table (evidence.advice) so that a committed run changes them. The full table, its
intervals and its rules are advice.md's; each line here links to the run its figure comes from."""

from __future__ import annotations

from pathlib import Path

from pkbench.evidence.advice import Table, build
from pkbench.evidence.advice_rows import committed
from pkbench.evidence.cell import HEAVIER, RATE_MARGIN, TIMES, Cell
from pkbench.evidence.decision import answer, decide


def rounded(ratio: float) -> str:
    """A ratio as a reader keeps it in mind: 0.3, 1.5, 25."""
    if round(ratio, 1) >= 10:
        return f"{ratio:.0f}{TIMES}"
    return f"{ratio:.1f}{TIMES}"


def _conditions(count: int) -> str:
    return f"{count} condition{'' if count == 1 else 's'}"


def _wal(cell: Cell) -> str:
    return f" and {rounded(cell.work.ratio)} its WAL" if cell.work is not None else ""


def _span(ratios: list[float]) -> str:
    low, high = rounded(min(ratios)), rounded(max(ratios))
    return low if low == high else f"{low}\u2013{high}"


def lines(table: Table, link_from: Path) -> list[str]:
    """The decision (evidence.decision's rule, the one advice.md and `pkbench advise` state in full): the UUID
    to start with, the keys to avoid and where they fall furthest, and the conditions where another key pulls
    ahead of bigint. Keys the load driver's clients build are set apart with what their rate carries."""
    keys = [c.strategy for c in table.columns[1:] if not c.made_by_clients]
    found = decide(table.rows(), keys)
    out = ["- **bigint** where one database makes every key: every figure here is a ratio to it."]
    counts = found.tally
    if found.start is not None:
        level = [a for a in found.every if a.level_or_better]
        rates = [a.cell.ratio for a in level if a.cell.ratio is not None]
        works = [a.cell.work.ratio for a in level if a.cell.work is not None]
        wal = f", {_span(works)} its WAL" if works else ""
        out.append(
            f"- **{found.start}** where the key must be a UUID: slower than bigint past "
            f"\u00b1{RATE_MARGIN:.0%}, or writing {HEAVIER:.2f}{TIMES} its WAL or more, in none of the "
            f"{_conditions(counts.measured)} its rate was measured in; level with bigint or faster in "
            f"{counts.level_or_better} ({_span(rates)} its rate{wal})."
        )
    elif found.untested is not None:
        out.append(
            f"- no UUID key to start with can be named from these runs: **{found.untested}** costs nothing "
            "where it was measured, but its rate was not resolved in the memory tiers where keys differ "
            f"most ({'; '.join(c.label for c in found.untested_tiers)})."
        )
    else:
        out.append(
            f"- no UUID key is free of cost in these runs: each is slower than bigint, or writes "
            f"{HEAVIER:.2f}{TIMES} its WAL or more, somewhere below."
        )
    for key, costs in found.avoid.items():
        worst = min(costs, key=lambda a: (a.cell.ratio or 1, -(a.cell.work.ratio if a.cell.work else 0)))
        out.append(
            f"- not **{key}**: slower than bigint past \u00b1{RATE_MARGIN:.0%}, or writing "
            f"{HEAVIER:.2f}{TIMES} its WAL or more, in "
            f"{_conditions(len(costs))}, down to {rounded(worst.cell.ratio or 0)} bigint's rate"
            f"{_wal(worst.cell)}, {worst.condition.label} ({table.link(str(worst.cell.run), link_from)})."
        )
    for condition, ahead in found.faster.items():
        # The key that pulls ahead at the least WAL first: the one to try.
        group = sorted(ahead, key=lambda a: a.cell.work.ratio if a.cell.work is not None else float("inf"))
        keys_said = "; ".join(
            f"**{a.key}** {rounded(a.cell.ratio or 0)} bigint's rate{_wal(a.cell)}" for a in group
        )
        out.append(
            f"- except with {condition.label}, where bigint falls behind: {keys_said} "
            f"({table.link(str(group[0].cell.run), link_from)})."
        )
    firsts = []
    for column in table.columns[1:]:
        if not column.made_by_clients:
            continue
        for condition in table.conditions:
            found_here = answer(condition, column.strategy, table.cells[condition.key][column.strategy])
            if found_here is not None and found_here.speed != "unresolved":
                firsts.append((column, found_here))
                break
    if firsts:
        # "keys made by application servers, clocks 50 ms apart"; "v7 made by app servers, a counter"
        where = firsts[0][1].condition.label.partition(", ")[2]
        # The rule's words and two digits, as advice.md says them: 0.98 rounded to 1.0 would read as level.
        said = ", ".join(
            f"{a.speed} ({a.cell.ratio or 0:.2f}{TIMES} bigint's rate) with "
            f"{column.heading.partition(', ')[2]}"
            for column, a in firsts
        )
        out.append(
            f"- v7 made by application servers, {where}: {said}; pgbench has no clock, so each statement "
            "builds such a key in SQL, a cost an application pays in its own process and these rates carry "
            f"({table.link(str(firsts[0][1].cell.run), link_from)})."
        )
    return out


def block(runs_dir: Path, link_from: Path) -> list[str]:
    """The README's decision lines from the committed runs under RUNS_DIR, links relative to LINK_FROM."""
    sources, conditions = committed(runs_dir)
    return lines(build(runs_dir, sources, conditions=conditions), link_from)
