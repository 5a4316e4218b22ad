"""What a finished `pkbench advise` says beside its table: why each row not measured is not, whether each
speed cell reached ±PRECISION or its run's share of the budget ended first, and how each run ended its
rounds."""

from __future__ import annotations

from pathlib import Path

from pkbench import results
from pkbench.evidence import advice
from pkbench.evidence.advice import PRECISION
from pkbench.evidence.advice_rows import CONDITIONS, LOAD
from pkbench.results import RunResult
from pkbench.run.advise import ALTERNATIVES, MANY_CORES, STRATEGIES, Plan, parts, sources
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


def precision_lines(plan: Plan, table: advice.Table) -> list[str]:
    """For each speed cell measured here, whether its 95% interval came within ±PRECISION of its estimate or
    the part's share of the budget ended first (a load: its parts, which are not added to), and how wide it
    was then."""
    loads = {row for part in plan.parts for row, _, figure in part.answers if figure == LOAD}
    lines = []
    for condition in table.conditions:
        why = (
            f"its {LOAD_PARTS} parts are all a load makes"
            if condition.key in loads
            else "the budget ended first"
        )
        said = []
        for column in table.columns:
            cell = table.cells[condition.key][column.strategy]
            if cell.kind not in ("verdict", "one round"):
                continue
            reach = cell.reach
            unit = "part" if condition.key in loads else "round"
            rounds = f"{cell.rounds} {unit}{'s' if cell.rounds != 1 else ''}"
            if reach is not None and reach <= PRECISION + 1e-9:
                said.append(f"{column.heading} reached ±{PRECISION:.0%} (±{reach:.1%} after {rounds})")
            else:
                width = f"±{reach:.0%}" if reach is not None else "no interval"
                said.append(
                    f"{column.heading} did not reach ±{PRECISION:.0%}: {why} ({width} after {rounds})"
                )
        if said:
            lines.append(f"- {condition.label}: {'; '.join(said)}.")
    return lines


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
