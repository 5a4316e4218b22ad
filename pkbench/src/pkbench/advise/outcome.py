"""What a finished `pkbench advise` says beside its table: why each row not measured is not, whether each
speed cell reached ±PRECISION or its run's share of the budget ended first, and how each run ended its
rounds."""

from __future__ import annotations

import math
from datetime import datetime
from pathlib import Path

from pkbench import results
from pkbench.advise.plan import ALTERNATIVES, MANY_CORES, STRATEGIES, Part, Plan, parts
from pkbench.analysis import family
from pkbench.analysis.verdict import CONFIDENCE, t_quantile
from pkbench.evidence import advice, advice_text
from pkbench.evidence.advice_rows import CONDITIONS, LOAD, Source
from pkbench.evidence.cell import PRECISION, Cell
from pkbench.results.model import RunResult
from pkbench.run.paired import LOAD_PARTS
from pkbench.server import sizing


def not_measured_why(out: Path, plan: Plan) -> list[str]:
    """Why each row stays "not measured" here: this server cannot show it in the time (a memory tier), its
    run was left out, the server has the other side of it (few cores, durable commit), its run did not
    finish, or no run of advise measures it."""
    answered = sources(out, plan)
    # Every row a part may answer: a server whose memory advise caps shows all three tiers.
    every = {p.name: p for p in parts(STRATEGIES, 1, sizing.Server(16 * sizing.MIB, None, can_cap=True))}
    lines = []
    for condition in CONDITIONS:
        if condition.key in answered:
            continue
        owner = next((p for p in plan.parts if condition.key in p.rows), None)
        left = next(
            (name for name, p in every.items() if condition.key in p.rows and name in plan.left_out), None
        )
        if left is not None:
            why = f"{left} was not run: {plan.left_out[left]}"
        elif condition.key in plan.rows_left_out:
            why = f"not measured on this server: {plan.rows_left_out[condition.key]}"
        elif owner is not None and (out / owner.name / "results.json").is_file():
            why = _other_side(condition.key, results.load(out / owner.name))
        elif owner is not None:
            why = f"its run ({owner.name}) did not finish"
        else:
            why = "no run of `pkbench advise` measures it yet"
        lines.append(f"- {condition.label}: {why}.")
    return lines


def _other_side(row: str, run: RunResult) -> str:
    """Why a run that ran answers the other side of ROW on this server."""
    if row in ALTERNATIVES["clients"]:
        return f"this machine has {run.machine.get('cores', '?')} cores (many from {MANY_CORES})"
    if row in ALTERNATIVES["commit"]:
        setting = (run.server.get("settings") or {}).get("synchronous_commit", "?")
        return f"the server's synchronous_commit is {setting}"
    return "its run measured no verdict for it"


def precision_lines(plan: Plan, table: advice.Table, out: Path | None = None) -> list[str]:
    """For each speed cell measured here, whether it was decided: its 95% interval within ±PRECISION of its
    estimate, or a direction the interval holds however wide; where neither, why (the part's share of the
    budget ended first; a load: its parts, which are not added to), how wide it was, and about how many
    more rounds and minutes would bring it within ±PRECISION (from its runs in OUT, where given)."""
    loads = {row for part in plan.parts for row, _, figure in part.answers if figure == LOAD}
    lines = []
    for condition in table.conditions:
        said = []
        for column in table.columns:
            cell = table.cells[condition.key][column.strategy]
            if cell.kind not in ("verdict", "one round"):
                continue
            reach = cell.reach
            unit = "part" if condition.key in loads else "round"
            rounds = f"{cell.rounds} {unit}{'s' if cell.rounds != 1 else ''}"
            width = f"\u00b1{reach:.1%}" if reach is not None else "no interval"
            if reach is not None and reach <= PRECISION + 1e-9:
                said.append(f"{column.heading} reached \u00b1{PRECISION:.0%} ({width} after {rounds})")
            elif cell.holds:
                said.append(
                    f"{column.heading} decided, {cell.word()}: its interval holds the direction ({width} "
                    f"after {rounds})"
                )
            elif condition.key in loads:
                said.append(
                    f"{column.heading} unresolved: its {LOAD_PARTS} parts are all a load makes ({width})"
                )
            else:
                said.append(
                    f"{column.heading} unresolved, the budget ended first ({width} after {rounds})"
                    + _more(cell, out)
                )
        if said:
            lines.append(f"- {condition.label}: {'; '.join(said)}.")
    return lines


# Rounds past which rounds_needed stops looking: a cell that needs more is as good as out of reach.
MOST_ROUNDS = 1000


def rounds_needed(
    rounds: int, reach: float, target: float = PRECISION, confidence: float = CONFIDENCE
) -> int:
    """About how many rounds in all bring a t interval on log ratios that reached REACH after ROUNDS within
    TARGET: the rounds' scatter read back from the interval (its half-width over t(ROUNDS - 1) and the
    square root of the rounds), and the first count whose t quantile and square root bring it within. The t
    quantile falls with the rounds as well (4.30 at three, 2.78 at five), so three rounds at ±20% need about
    five, where the square root alone would say twelve. CONFIDENCE is the interval's (a run made with
    --until-decided judges its cells at one planned look's share of the 5%, analysis.family)."""
    if rounds < 2 or reach <= target:
        return max(rounds + 1, 2)
    quantile = (1 + confidence) / 2
    scatter = math.log1p(reach) * math.sqrt(rounds) / t_quantile(quantile, rounds - 1)
    wanted = math.log1p(target)
    for count in range(rounds + 1, MOST_ROUNDS):
        if t_quantile(quantile, count - 1) * scatter / math.sqrt(count) <= wanted:
            return count
    return MOST_ROUNDS


def _more(cell: Cell, out: Path | None) -> str:
    """`; about 12 more rounds, some 9 min, would bring it within ±10%`, from the round time of its run."""
    reach = cell.reach
    if reach is None or cell.run is None or cell.rounds < 2:
        return ""
    run = out / cell.run if out is not None else None
    looked = run is not None and (run / "results.json").is_file() and _until_decided(run)
    confidence = 1 - family.LOOK_ALPHA if looked else CONFIDENCE
    more = rounds_needed(cell.rounds, reach, confidence=confidence) - cell.rounds
    per_round = _round_s(run) if run is not None else None
    took = f", some {math.ceil(more * per_round / 60)} min," if per_round is not None else ""
    return f"; about {more} more rounds{took} would bring it within \u00b1{PRECISION:.0%}"


def _until_decided(directory: Path) -> bool:
    record = results.load(directory).rounds
    return record is not None and record.until_decided


def _round_s(directory: Path) -> float | None:
    """The seconds a round of one stage of the run in DIRECTORY took: its whole time over the rounds of all
    its stages (a memory tier is a stage of its own, each with its rounds), its loads included, so an upper
    bound."""
    if not (directory / "results.json").is_file():
        return None
    run = results.load(directory)
    if run.rounds is None or run.finished_at is None:
        return None
    rounds = sum(run.rounds.completed) or run.rounds.count
    if not rounds:
        return None
    started, finished = datetime.fromisoformat(run.started_at), datetime.fromisoformat(run.finished_at)
    return (finished - started).total_seconds() / rounds


def stopped_lines(out: Path, plan: Plan) -> list[str]:
    """How each part's run ended its rounds: every figure within ±PRECISION, or its share of the budget
    spent (and the figures still wider)."""
    lines = []
    for part in plan.parts:
        directory = out / part.name
        if not (directory / "results.json").is_file():
            continue
        record = results.load(directory).rounds
        if record is None:
            continue
        wider = (
            f"; still wider than ±{PRECISION:.0%}: {', '.join(record.unresolved)}"
            if record.unresolved
            else ""
        )
        lines.append(
            f"- {part.name}: {record.count} round(s) in {_minutes(plan.share_s(part))} allowed, stopped on "
            f"{record.stopped or 'an interruption'}{wider}."
        )
    return lines


def _minutes(seconds: float) -> str:
    return f"{seconds / 60:.1f} min"


def sources(out: Path, plan: Plan) -> dict[str, list[Source]]:
    """Which window of which part's run answers each row, from what each run recorded of its machine and
    server: its cores, its commit setting and whether its data outgrew a memory cap."""
    found: dict[str, list[Source]] = {}
    for part in plan.parts:
        directory = out / part.name
        if not (directory / "results.json").is_file():
            continue
        run = results.load(directory)
        for row, source in _answers(part, run):
            found.setdefault(row, []).append(source)
    return found


def _answers(part: Part, run: RunResult) -> list[tuple[str, Source]]:
    """Each row PART's run answers, with the window and figure that answer it."""
    return [(_row(row, run), Source(part.name, window, figure)) for row, window, figure in part.answers]


def _row(row: str, run: RunResult) -> str:
    """ROW, or for a key of ALTERNATIVES the one RUN's machine and server give."""
    if row == "clients":
        cores = run.machine.get("cores")
        if not (isinstance(cores, int) and cores >= MANY_CORES):
            return "few-cores"
        return "many-cores-durable" if _durable(run) else "many-cores"
    if row == "commit":
        return "durable" if _durable(run) else "asynchronous"
    return row


def _durable(run: RunResult) -> bool:
    return str((run.server.get("settings") or {}).get("synchronous_commit", "on")) != "off"


def part_lines(plan: Plan, part: Part, table: advice.Table, out: Path) -> list[str]:
    """How each cell was decided and how PART's run ended its rounds, with the share of the budget it had:
    one part of a plan said alone (`pkbench advise --like`'s replica)."""
    alone = Plan(plan.share_s(part), [part], common=plan.common)
    return [*precision_lines(plan, table, out), "", *stopped_lines(out, alone)]


def document(plan: Plan, out: Path, table: advice.Table) -> list[str]:
    """advice.md of a finished `pkbench advise`: its table and decision from the runs in OUT, how each cell
    was decided, how each run ended its rounds, and why each row not measured is not."""
    return [
        "# Which key? Measured on this server",
        "",
        "Written by `pkbench advise` from the runs in this folder (each an ordinary `pkbench run`: its own "
        "results.json, summary.md and time series). Run again with `pkbench advise --resume` after an "
        "interruption.",
        "",
        *advice_text.page_lines(out, sources(out, plan), link_from=out),
        "",
        "Each speed cell was measured until it was decided (its 95% interval within "
        f"±{PRECISION:.0%} of its estimate, or a direction its interval holds with its WAL beside), "
        "or its run's share of the budget ended; the memory tiers went first, where the keys differ most:",
        "",
        *precision_lines(plan, table, out),
        "",
        "How each run ended its rounds:",
        "",
        *stopped_lines(out, plan),
        "",
        *([f"The {plan.sizing}.", ""] if any(p.name == "wal" for p in plan.parts) else []),
        "Rows not measured here:",
        "",
        *not_measured_why(out, plan),
    ]
