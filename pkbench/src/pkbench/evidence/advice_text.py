"""The "which key?" table as markdown: the table with links to its runs, the runs it cites, and the rules that
follow from its cells (summary.advice builds the cells). Every sentence is made from the cells."""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from pkbench.errors import PkbenchError
from pkbench.evidence.advice import Table, build, load
from pkbench.evidence.advice_rows import CONDITIONS, FLEET_RUN, Condition, Sources, committed
from pkbench.evidence.cell import PRECISION, TIMES, Cell
from pkbench.evidence.decision import HEAVIER, Answer, decide
from pkbench.summary import fleet
from pkbench.summary.headline import SAME_WITHIN
from pkbench.text import markdown_table


def _cell_text(table: Table, cell: Cell, link_from: Path, short: bool = False) -> str:
    if cell.kind == "not measured":
        return "not measured"
    assert cell.run is not None
    cited = table.link(cell.run, link_from)
    if cell.kind == "baseline":
        return f"baseline {cited}"
    word = cell.word()
    shown = f"**{word}**" if cell.resolved else word
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
    "bootstrap; beside a window's rate, its WAL per transaction over bigint's in the same rounds. A speed "
    f"cell whose interval reaches further than \u00b1{PRECISION:.0%} from its estimate and holds no "
    "direction gives no ratio: it says how far the interval reached after how many rounds. "
    "**Bold** words are a difference the run states: the interval excludes 1 and the difference "
    "holds at 5% familywise (Holm) among the figures this table cites from that key's run, the rate and "
    "the WAL per transaction of each window it reads (the figures a run also records, latencies and buffer "
    "counts, are judged in a family of their own in the run's summary); a direction that holds is shown "
    "with its ratio however wide its interval. *No difference resolved* means the interval includes 1; "
    "*no difference resolved among its figures* that it excludes 1 on its own, but not beyond what chance "
    "gives one of that many figures. A "
    "size is one measurement at the end of the run, called the same within 3%. The keys of v7 made by "
    "application servers are built by each pgbench client in SQL inside its statement (pgbench has no "
    "clock), a cost an application pays in its own process: their rates carry it, their WAL does not. Each "
    "cell links the run it comes from by the run's folder name, which no later run changes."
)


@dataclass(frozen=True)
class Pair:
    """Two keys the rules set against each other where both were measured under a condition."""

    first: str
    second: str


PAIRS = (
    Pair("uuid-v7", "uuid-v4"),
    Pair("uuid-v4", "uuid-v4-text"),
    Pair("uuid-v7", "seq-time"),
    Pair("uuid-v7", "seq-seq-256"),
    Pair("uuid-striped", "uuid-v7"),
)


def _plural(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


def _grouped(
    found: Sequence[tuple[Condition, Cell, Cell | None]],
) -> list[tuple[list[Condition], Cell, Cell | None]]:
    """Conditions answered by the same window of the same run, together: one citation, not one per row."""
    groups: dict[tuple[str | None, str | None], tuple[list[Condition], Cell, Cell | None]] = {}
    for condition, cell, other in found:
        groups.setdefault((cell.run, cell.window), ([], cell, other))[0].append(condition)
    return list(groups.values())


def _labels(conditions: Sequence[Condition]) -> str:
    return " / ".join(c.label for c in conditions)


def _short(cell: Cell) -> str:
    return cell.figures().replace(" (one measurement)", "")


def rules(table: Table) -> list[str]:
    """What the cells support, each rule citing the cells it rests on: each key against bigint, then keys
    against each other where their intervals are apart."""
    lines = []
    for column in table.columns[1:]:
        cells = [(c, table.cells[c.key][column.strategy]) for c in table.conditions]
        measured = [(c, cell, None) for c, cell in cells if cell.measured]
        if not measured:
            continue
        answered = [found for found in measured if found[1].states]
        worse = [(cs, cell) for cs, cell, _ in _grouped(answered) if cell.resolved and not cell.better]
        better = [(cs, cell) for cs, cell, _ in _grouped(answered) if cell.resolved and cell.better]
        alike = [c.label for c, cell, _ in answered if not cell.resolved]
        wide = [c.label for c, cell, _ in measured if not cell.states]

        def cited(found: list[tuple[list[Condition], Cell]]) -> str:
            return "; ".join(
                f"{_labels(cs)} ({_short(cell)}, {table.label(str(cell.run))})" for cs, cell in found
            )

        parts = []
        if worse:
            parts.append(f"behind bigint in {cited(worse)}")
        if better:
            parts.append(f"ahead of bigint in {cited(better)}")
        if alike:
            parts.append(f"no difference from bigint resolved in {'; '.join(alike)}")
        if wide:
            parts.append(f"not resolved to \u00b1{PRECISION:.0%} in {'; '.join(wide)}")
        lines.append(
            f"- **{column.strategy}**, measured under {len(measured)} of {_plural(len(cells), 'condition')}: "
            + "; ".join(parts)
            + "."
        )
    for pair in PAIRS:
        line = _pair_rule(table, pair)
        if line:
            lines.append(line)
    return lines


def _apart(mine: Cell, theirs: Cell) -> int:
    """1 when MINE is ahead of THEIRS beyond both intervals (the better side for the figure), -1 when behind,
    0 when their intervals overlap or a figure has none."""
    if mine.ratio is None or theirs.ratio is None:
        return 0
    if mine.kind == "size" and theirs.kind == "size":
        same = abs(mine.ratio - theirs.ratio) / max(mine.ratio, theirs.ratio) < SAME_WITHIN
        return 0 if same else (1 if mine.ratio < theirs.ratio else -1)
    if mine.low is None or mine.high is None or theirs.low is None or theirs.high is None:
        return 0
    if mine.low > theirs.high:
        return 1
    if mine.high < theirs.low:
        return -1
    return 0


def _pair_rule(table: Table, pair: Pair) -> str | None:
    """The two keys against each other under each condition where the same run measured both: only there do
    their ratios to bigint share a baseline."""
    both: list[tuple[Condition, Cell, Cell | None]] = []
    for condition in table.conditions:
        first, second = (
            table.cells[condition.key].get(pair.first),
            table.cells[condition.key].get(pair.second),
        )
        if first and second and first.answers and second.answers and first.run == second.run:
            both.append((condition, first, second))
    if not both:
        return None
    ahead: list[tuple[str, str]] = []
    behind: list[tuple[str, str]] = []
    overlap: list[tuple[str, str]] = []
    for conditions, first, second in _grouped(both):
        assert second is not None
        side = _apart(first, second)
        cited = (
            f"{_labels(conditions)} ({pair.first} {_short(first)} against {pair.second} {_short(second)}, "
            f"{table.label(str(first.run))})"
        )
        (ahead if side > 0 else behind if side < 0 else overlap).append((_labels(conditions), cited))
    if ahead and not behind:
        lead = f"**{pair.first} rather than {pair.second}**"
    elif behind and not ahead:
        lead = f"**{pair.second} rather than {pair.first}**"
    elif ahead and behind:
        lead = f"**{pair.first} or {pair.second}: it depends on the condition**"
    else:
        lead = f"**{pair.first} or {pair.second}: no order resolved**"
    parts = [f"the same run measured both under {_plural(len(both), 'condition')}"]
    if ahead:
        parts.append(f"{pair.first} ahead in {'; '.join(c for _, c in ahead)}")
    if behind:
        parts.append(f"{pair.second} ahead in {'; '.join(c for _, c in behind)}")
    if overlap:
        parts.append(f"their intervals overlap in {'; '.join(label for label, _ in overlap)}")
    return f"- {lead}: " + "; ".join(parts) + "."


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
        "What follows from the table (generated from its cells; each condition is named with the figures and "
        "the run it rests on). Two keys measured in the same run are set apart where their intervals do not "
        "overlap (sizes: where they differ by 3% or more); elsewhere no order between them is resolved:",
        "",
        *rules(table),
    ]


def _cite(table: Table, found: Sequence[Answer], link_from: Path) -> str:
    return "; ".join(
        f"{a.condition.label}: {a.decided()}, {table.link(str(a.cell.run), link_from)}" for a in found
    )


COSTS = f"slower than bigint, or writing {HEAVIER:.2f}{TIMES} its WAL per transaction or more"


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
    if start is not None:
        measured = [*found.start_answers, *found.unresolved]
        works = [a.cell.work.ratio for a in measured if a.cell.work is not None and a.work != "unresolved"]
        work = (
            f"; its WAL per transaction {min(works):.2f}{TIMES}\u2013{max(works):.2f}{TIMES} bigint's"
            if works
            else ""
        )
        sizes = [x for row in table.cells.values() for k, x in row.items() if k == start and x.kind == "size"]
        size = "".join(
            f", and it takes {x.ratio:.2f}{TIMES} bigint's storage ({table.link(str(x.run), link_from)})"
            for x in sizes[:1]
            if x.ratio is not None
        )
        sentences.append(
            f"Where the key must be a UUID, start with **{start}**, on its rate and its WAL per transaction: "
            f"in none of the {_plural(len(measured), 'condition')} measured is it {COSTS}, and its rate is "
            f"level with bigint's or faster in {len(found.start_answers)} of them "
            f"({_cite(table, found.start_answers, link_from)}){work}{size}."
        )
    else:
        sentences.append(
            f"No UUID key measured here is free of cost: each is {COSTS}, in a condition named below."
        )
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
                f"Not decided here, {start}'s rate reaching further than \u00b1{PRECISION:.0%} with no "
                f"direction holding: {_cite(table, found.unresolved, link_from)}."
            )
        if found.not_measured:
            sentences.append(f"Not measured for {start}: {'; '.join(c.label for c in found.not_measured)}.")
    fleet_sweep = table.runs_dir / FLEET_RUN
    if (fleet_sweep / "sweep.json").is_file():
        link = os.path.relpath(fleet_sweep, link_from)
        said = fleet.load_answer(fleet_sweep)
        sentences.append(f"Keys made by application servers ([the sweep]({link})): {said}")
    return [f"- {sentence}" for sentence in sentences]
