"""The "which key?" table as markdown: the table with links to its runs, the runs it cites, and the rules that
follow from its cells (summary.advice builds the cells). Every sentence is made from the cells."""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

from pkbench.errors import PkbenchError
from pkbench.evidence.advice import Table, build, load
from pkbench.evidence.advice_rows import CONDITIONS, FLEET_RUN, Condition, Sources, committed
from pkbench.evidence.cell import HEAVIER, PRECISION, RATE_MARGIN, TIMES, Cell
from pkbench.evidence.decision import WITHIN, Answer, Decision, answer, decide, tally
from pkbench.evidence.decision import Condition as Labelled
from pkbench.summary import fleet
from pkbench.text import markdown_table


def _cell_text(table: Table, cell: Cell, link_from: Path, short: bool = False) -> str:
    if cell.kind == "not measured":
        return "not measured"
    assert cell.run is not None
    cited = table.link(cell.run, link_from)
    if cell.kind == "baseline":
        return f"baseline {cited}"
    word = cell.word()
    # Bold: what the rule counts for or against a key (a size that differs, a rate past the margin).
    strong = cell.holds if cell.kind == "size" else word in ("slower", "faster")
    shown = f"**{word}**" if strong else word
    figures = cell.figures() if not short else cell.figures().replace(" the size (one measurement)", "")
    return " ".join(part for part in (shown, figures, cited) if part)


# The README's short table: the keys people weigh most, and v7 as application servers make it.
README_COLUMNS = ("bigint", "uuid-v4", "uuid-v4-text", "uuid-v7", "app-v7-random")


def table_lines(
    table: Table, link_from: Path, asked_only: bool = False, columns: Sequence[str] | None = None
) -> list[str]:
    """The table in markdown; links relative to LINK_FROM (the folder of the document that shows it); only
    the COLUMNS named, where given."""
    shown_columns = [c for c in table.columns if columns is None or c.strategy in columns]
    conditions = [c for c in table.conditions if c.asked or not asked_only]
    header = ["condition", *(c.heading for c in shown_columns)]
    rows = [
        [
            f"{c.label} ({c.group})" if not asked_only else c.label,
            *(
                _cell_text(table, table.cells[c.key][col.strategy], link_from, asked_only)
                for col in shown_columns
            ),
        ]
        for c in conditions
    ]
    return markdown_table(header, rows)


def run_lines(table: Table, link_from: Path) -> list[str]:
    """Each cited run: its label, directory, command, rounds and machine, and which cells it answers."""
    lines = []
    for run_name in table.runs:
        run = load(table.runs_dir / run_name)
        assert run is not None
        answered = [
            table.conditions[i].label
            for i, c in enumerate(table.conditions)
            if any(cell.run == run_name for cell in table.cells[c.key].values())
        ]
        windows = sorted(
            {
                str(cell.window)
                for c in table.conditions
                for cell in table.cells[c.key].values()
                if cell.run == run_name and cell.window
            }
        )
        rounds = run.rounds.count if run.rounds is not None else 0
        design = run.rounds.design if run.rounds is not None else "paired"
        limit = run.machine.get("memory_limit_bytes")
        machine = f"{run.machine.get('cores', '?')} cores" + (
            f", server capped at {limit / 2**20:,.0f} MiB" if isinstance(limit, int | float) else ""
        )
        settings = run.server.get("settings") or {}
        lines.append(
            f"- {table.link(run_name, link_from)}: scenario {run.scenario.get('name')}, "
            f"{_plural(rounds, _ROUND_OF[design])}, {machine}, shared_buffers "
            f"{settings.get('shared_buffers', '?')}, the server's synchronous_commit "
            f"{settings.get('synchronous_commit', '?')} (a window may set its own), "
            f"PostgreSQL {run.server.get('version', '?')}; windows {', '.join(windows) or 'none'}; "
            f"answers: {'; '.join(answered)}."
        )
    return lines


# How a round of each design reads in a run's line.
_ROUND_OF = {
    "paired": "paired round",
    "interleaved": "interleaved round",
    "mixed": "mixed round",
}


READING = (
    "Each cell is the key's figure over bigint's in the same run: for speed, its rate (transactions per "
    "second of the window; rows per second of the load), for storage, its size. Speed cells give the ratio "
    "over the run's rounds (the load's: over its parts) and its 95% interval as the run recorded it: the "
    "geometric mean and Student's t on the log ratios, or in runs made before that the median and a "
    "bootstrap; beside a window's rate, its WAL per transaction over bigint's in the same rounds. The words "
    "are the decision rule's, against margins fixed before the runs "
    "([statistics.md](statistics.md#which-key-the-decision-rule)): *level* means the interval lies within "
    f"\u00b1{RATE_MARGIN:.0%} of bigint's rate; **slower** or **faster** that the difference holds at 5% "
    "familywise (Holm) among the figures this table cites from that key's run (the rate and the WAL per "
    "transaction of each window it reads) and its estimate reaches past the margin; *slower, within the "
    "margin* (or faster) that it holds but the estimate stays within, a difference that rules nothing out; "
    "*unresolved* that the interval reaches past the margin with no direction holding. A speed cell whose "
    f"interval reaches further than \u00b1{PRECISION:.0%} from its estimate and holds no direction gives no "
    "ratio: it says how far the interval reached after how many rounds. A size is one measurement at the "
    "end of the run, called the same within 3%. The keys of v7 made by application servers are built by "
    "each pgbench client in SQL inside its statement (pgbench has no clock), a cost an application pays in "
    "its own process: their rates carry it, their WAL does not. Each cell links the run it comes from by "
    "the run's folder name, which no later run changes."
)


def _plural(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


def _grouped(found: Sequence[tuple[Labelled, Cell]]) -> list[tuple[list[Labelled], Cell]]:
    """Conditions answered by the same window of the same run, together: one citation, not one per row."""
    groups: dict[tuple[str | None, str | None], tuple[list[Labelled], Cell]] = {}
    for condition, cell in found:
        groups.setdefault((cell.run, cell.window), ([], cell))[0].append(condition)
    return list(groups.values())


def _labels(conditions: Sequence[Labelled]) -> str:
    return " / ".join(c.label for c in conditions)


def _short(cell: Cell) -> str:
    return cell.figures().replace(" (one measurement)", "")


# How the rules name each of the rule's words for a key's rate, in the order they are said.
_SAID = (
    ("slower", "slower than bigint"),
    ("faster", "faster than bigint"),
    ("slower, within the margin", f"slower than bigint, within \u00b1{RATE_MARGIN:.0%}"),
    ("faster, within the margin", f"faster than bigint, within \u00b1{RATE_MARGIN:.0%}"),
)


def rules(table: Table) -> list[str]:
    """Each key against bigint, by the decision rule's words for its rate and its WAL, each condition
    citing the cells it rests on; the counts are evidence.decision.tally's."""
    lines = []
    rate_rows = [c for c in table.conditions if _rate_row(table, c)]
    for column in table.columns[1:]:
        found = [
            a
            for c in rate_rows
            if (a := answer(c, column.strategy, table.cells[c.key][column.strategy])) is not None
        ]
        sizes = [
            (c, cell)
            for c in table.conditions
            if (cell := table.cells[c.key][column.strategy]).kind == "size" and cell.ratio is not None
        ]
        if not found and not sizes:
            continue
        counts = tally(found)

        def cited(answers: Sequence[Answer]) -> str:
            grouped = _grouped([(a.condition, a.cell) for a in answers])
            return "; ".join(
                f"{_labels(cs)} ({_short(cell)}, {table.label(str(cell.run))})" for cs, cell in grouped
            )

        parts = [
            f"{said} in {cited(chosen)}"
            for speed, said in _SAID
            if (chosen := [a for a in found if a.speed == speed])
        ]
        if level := [a.condition.label for a in found if a.speed == "level"]:
            parts.append(f"level with bigint (within \u00b1{RATE_MARGIN:.0%}) in {'; '.join(level)}")
        if heavy := [a for a in found if a.work == "heavier" and a.speed != "slower"]:
            parts.append(f"{HEAVIER:.2f}{TIMES} bigint's WAL per transaction or more in {cited(heavy)}")
        if wide := [a.condition.label for a in found if a.speed == "unresolved"]:
            parts.append(f"its rate unresolved in {'; '.join(wide)}")
        parts += [
            f"{cell.word()} in {c.label} ({_short(cell)}, {table.label(str(cell.run))})" for c, cell in sizes
        ]
        lines.append(
            f"- **{column.strategy}**, its rate measured under {counts.measured} of "
            f"{_plural(len(rate_rows), 'condition')} (level or faster in {counts.level_or_better}, "
            f"a cost in {counts.costs}): " + "; ".join(parts) + "."
        )
    return lines


def _rate_row(table: Table, condition: Condition) -> bool:
    return any(c.kind in ("verdict", "one round") for c in table.cells[condition.key].values())


def page_lines(runs_dir: Path, sources: Sources | None = None, link_from: Path | None = None) -> list[str]:
    """The whole generated part of advice.md (or of `pkbench advise`'s advice.md): table, runs, rules."""
    if not runs_dir.is_dir():
        raise PkbenchError(f"{runs_dir}: no folder of runs there")
    conditions: tuple[Condition, ...] = CONDITIONS
    if sources is None:
        sources, conditions = committed(runs_dir)
    table = build(runs_dir, sources, conditions=conditions)
    where = link_from if link_from is not None else runs_dir.parent
    return [
        *decision(table, where),
        "",
        READING,
        "",
        *table_lines(table, where),
        "",
        "The runs:",
        "",
        *run_lines(table, where),
        "",
        "Each key by the same rule (generated from its cells; each condition is named with the figures and "
        "the run it rests on). Keys are not ranked against each other but each against bigint, in the run "
        "that measured both:",
        "",
        *rules(table),
    ]


def _cite(table: Table, found: Sequence[Answer], link_from: Path) -> str:
    return "; ".join(
        f"{a.condition.label}: {a.decided()}, {table.link(str(a.cell.run), link_from)}" for a in found
    )


COSTS = (
    f"slower than bigint past \u00b1{RATE_MARGIN:.0%}, or writing {HEAVIER:.2f}{TIMES} its WAL per "
    "transaction or more"
)


def start_words(found: Decision) -> str:
    """The key to start with as the rule and its counts name it (evidence.decision.tally): the README's
    line and advice.md's sentence open with these words, `pkbench advise` and inspect quote them."""
    counts = found.tally
    if found.start is not None:
        return (
            f"start with **{found.start}**: in none of the {_plural(counts.measured, 'condition')} its rate "
            f"was measured in is it {COSTS}, and its rate is level with bigint's or faster in "
            f"{counts.level_or_better} of them"
        )
    if found.untested is not None:
        return (
            f"no key to start with can be named: **{found.untested}** costs nothing where it was measured, "
            "but its rate was not resolved in the memory tiers where keys differ most "
            f"({'; '.join(c.label for c in found.untested_tiers)})"
        )
    return f"no UUID key measured here is free of cost: each is {COSTS}, in a condition named below"


def decision(table: Table, link_from: Path) -> list[str]:
    """A few sentences a reader can act on, each citing the figures that decided it (evidence.decision's
    rule): the key to start with, the keys to avoid and where, the conditions where another key pulls ahead,
    and what this table leaves undecided. Made from the cells alone, so they change when a run does."""
    keys = [column.strategy for column in table.columns[1:] if not column.made_by_clients]
    # Keys the clients build in SQL pay that in their rate: the fleet's own sentence speaks for them.
    found = decide(table.rows(), keys)
    sentences = [
        "Start with **bigint** where one database makes every key: it is the baseline every cell below is "
        "measured against."
    ]
    start = found.start
    said = start_words(found)
    if start is not None:
        works = [a.cell.work.ratio for a in found.every if a.cell.work is not None and a.work != "unresolved"]
        work = (
            f"; its WAL per transaction {min(works):.2f}{TIMES}\u2013{max(works):.2f}{TIMES} bigint's"
            if works
            else ""
        )
        sizes = [x for row in table.cells.values() for k, x in row.items() if k == start and x.kind == "size"]
        size = "".join(
            f"; its one cost is storage: it takes {x.ratio:.2f}{TIMES} bigint's "
            f"({table.link(str(x.run), link_from)})"
            for x in sizes[:1]
            if x.ratio is not None and x.holds and not x.better
        )
        sentences.append(
            f"Where the key must be a UUID, {said} "
            f"({_cite(table, [a for a in found.every if a.level_or_better], link_from)}){work}{size}."
        )
    else:
        sentences.append(f"Where the key must be a UUID, {said}.")
    for key, costs in found.avoid.items():
        sentences.append(f"Avoid **{key}** where it is {COSTS}: {_cite(table, costs, link_from)}.")
    for condition, ahead in found.faster.items():
        sentences.append(
            f"Choose another key where bigint falls behind, {condition.label}: "
            + "; ".join(f"**{a.key}** {a.decided()}, {table.link(str(a.cell.run), link_from)}" for a in ahead)
            + "."
        )
    if start is not None:
        if found.unresolved:
            sentences.append(
                f"Not decided here, {start}'s rate reaching past \u00b1{RATE_MARGIN:.0%} of bigint's with no "
                f"direction holding: {_cite(table, found.unresolved, link_from)}."
            )
        if within := [a for a in found.every if a.speed in WITHIN and not a.level_or_better]:
            sentences.append(
                f"A difference that holds, its estimate within \u00b1{RATE_MARGIN:.0%}, which rules nothing "
                f"out: {_cite(table, within, link_from)}."
            )
        if found.not_measured:
            sentences.append(f"Not measured for {start}: {'; '.join(c.label for c in found.not_measured)}.")
    fleet_sweep = table.runs_dir / FLEET_RUN
    if (fleet_sweep / "sweep.json").is_file():
        link = os.path.relpath(fleet_sweep, link_from)
        said = fleet.load_answer(fleet_sweep)
        sentences.append(f"Keys made by application servers ([the sweep]({link})): {said}")
    return [f"- {sentence}" for sentence in sentences]
