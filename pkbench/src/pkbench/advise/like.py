"""`pkbench advise --like SCHEMA.TABLE`: each key measured on a replica of one of the user's tables, on the
embedded cluster, and what a switch of its key would cost there.

The replica is a scenario file written beside the runs (replica.toml): the table's columns at their
pg_stats widths and shares of NULLs, its secondary indexes, one child table per foreign key that references
it (its rows per parent row and its row width), loaded and then inserted into as the application does, a row
and its children in one statement. Its key column takes each strategy's type and default.

It is scaled down by one factor, f: its rows are f times the table's, its shared_buffers f times the
server's and its memory (capped, as --memory-limit does) f times the server's, so the key index stands to
shared_buffers and to memory as the table's does, and lands in the same memory tier. f is what loads in the
time the budget allows (MEMORY_LOAD_S at most, as advise's memory tiers), and 1 for a table that small;
where a ratio cannot be kept (a cap needs root; a server holds at least LEAST_CAP_BYTES), the words say so.

Its checkpoints come f times as far apart as the model puts the table's on its server (advise.windows): it
has f times the leaves, and a random key's WAL is set by the inserts between two checkpoints per leaf.

It runs as advise's parts do (advise.plan.Plan: the same --precision, --until-decided and share of the
budget). For a random uuid key, a second scenario (switch.toml) follows the migrate scenario's steps on
the same replica: (a) the default switched to v7 for new rows, (b) the existing keys rewritten, the child
tables' foreign keys following them (ON UPDATE CASCADE); each timed, with the WAL it wrote and the disk the
tables held before and after.
"""

from __future__ import annotations

import json
import shutil
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path

from pkbench.advise import windows
from pkbench.advise.calls import Execute, OptionsFor, RunOptions
from pkbench.advise.like_files import replica_toml, switch_toml
from pkbench.advise.plan import MEMORY_LOAD_S, MEMORY_ROUNDS, MEMORY_WINDOW_S, Part, Plan, check_disk
from pkbench.advise.replica import (
    CONDITION,
    LIKE_FILE,
    REPLICA,
    SETUP_S,
    SWITCH,
    SWITCH_STRATEGY,
    WINDOW,
    WINDOW_OVERHEAD_S,
    Replica,
    Scaling,
    can_switch,
    default_strategies,
    load_rows,
    replica,
    row_bytes,
    scale,
    seconds_per_row,
)
from pkbench.errors import PkbenchError, first_line
from pkbench.evidence import advice
from pkbench.evidence.advice_rows import COLUMNS, TPS, Column, Condition, Source
from pkbench.evidence.cell import BASELINE
from pkbench.reporting import Reporter
from pkbench.server import sizing
from pkbench.strategies.catalog import Catalog
from pkbench.survey.shape import TableShape

# ---- The plan ----


def least_s(rows: int, strategies: int, per_row_s: float, window_s: float = MEMORY_WINDOW_S) -> float:
    """The least time a replica run takes: setting up, loading ROWS for every strategy (PER_ROW_S for each
    row of them all), MEMORY_ROUNDS rounds of each strategy's window of WINDOW_S."""
    windows = MEMORY_ROUNDS * strategies * (window_s + WINDOW_OVERHEAD_S)
    return SETUP_S + rows * per_row_s + windows


def make_plan(
    budget_s: float,
    out: Path,
    strategies: Sequence[str],
    shape: TableShape,
    scaling: Scaling,
    switch: bool,
    common: Sequence[str],
    measured: windows.Windows = windows.UNMODELLED,
) -> Plan:
    """The replica's part, and the switch's where it is measured, in a plan of advise.plan's (its shares of
    the budget, its arguments, its disk estimate), its windows as MEASURED says."""
    per_row = seconds_per_row(shape, strategies)
    # The switch loads one random key's table, then rewrites it: about twice a load.
    switch_per_row = 3 * seconds_per_row(shape, [SWITCH_STRATEGY])
    width = row_bytes(shape)
    memory = (
        ("--memory-limit", f"{scaling.memory_cap_bytes // sizing.MIB}MB") if scaling.memory_cap_bytes else ()
    )
    parts = [
        Part(
            REPLICA,
            str(out / "replica.toml"),
            (
                "--paired",
                "--rounds",
                str(MEMORY_ROUNDS),
                *windows.run_arguments(measured),
                *memory,
                "--strategies",
                ",".join(strategies),
            ),
            ((CONDITION, WINDOW, TPS),),
            least_s(scaling.rows, len(strategies), per_row, measured.window_s),
            len(strategies),
            scaling.rows,
            measured.window_s,
            width,
        )
    ]
    if switch:
        parts.append(
            Part(
                SWITCH,
                str(out / "switch.toml"),
                ("--isolate", *memory),
                (),
                SETUP_S + scaling.rows * switch_per_row,
                1,
                2 * scaling.rows,
                0,
                width,
            )
        )
    return Plan(budget_s, parts, common=tuple(common), sizing=measured.words)


def switch_arguments(plan: Plan, out: Path) -> list[str]:
    """`pkbench run`'s arguments for the switch: one pass of its steps (no rounds to add)."""
    part = next(p for p in plan.parts if p.name == SWITCH)
    return [
        part.scenario,
        *part.arguments,
        *_one_pass(plan.common),
        "--no-report",
        "--out",
        str(out / SWITCH),
    ]


# Options of paired rounds, which a pass of the switch's steps has none of.
_ROUND_OPTIONS = {
    "--rounds": 1,
    "--interleave": 0,
    "--paired": 0,
    "--precision": 1,
    "--max-time": 1,
    "--until-decided": 0,
}


def _one_pass(common: Sequence[str]) -> list[str]:
    kept: list[str] = []
    skip = 0
    for word in common:
        if skip:
            skip -= 1
        elif word in _ROUND_OPTIONS:
            skip = _ROUND_OPTIONS[word]
        else:
            kept.append(word)
    return kept


def sources() -> dict[str, list[Source]]:
    return {CONDITION: [Source(REPLICA, WINDOW, TPS)]}


def condition(shape: TableShape, scaling: Scaling) -> Condition:
    return Condition(CONDITION, "your table", f"{shape.table} ({scaling.replica_tier.words})")


def record(out: Path, shape: TableShape, scaling: Scaling) -> None:
    """What the advice was made from, beside the runs: the table's shape and the scaling."""
    document = {"shape": asdict(shape), "scaling": asdict(scaling)}
    (out / LIKE_FILE).write_text(json.dumps(document, indent=2, default=str) + "\n")


@dataclass(frozen=True)
class Prepared:
    """What `measure` runs: the table's shape, how its replica is scaled and made, the keys, the plan of
    runs (the replica's, and the switch's unless SWITCH_WHY says why not) and the folder they go in."""

    shape: TableShape
    scaling: Scaling
    replica: Replica
    strategies: list[str]
    plan: Plan
    switch_why: str | None
    out: Path

    def runs(self) -> list[tuple[Part, Callable[[float], list[str]]]]:
        """Each part with the `pkbench run` words it takes, given the seconds spent before it."""
        replica_part = self.plan.parts[0]
        found: list[tuple[Part, Callable[[float], list[str]]]] = [
            (replica_part, lambda spent: self.plan.arguments(replica_part, self.out, spent))
        ]
        if self.switch_why is None:
            found.append((self.plan.parts[1], lambda _: switch_arguments(self.plan, self.out)))
        return found


def prepare(
    options_for: OptionsFor[RunOptions],
    shape: TableShape,
    memory_bytes: int | None,
    budget_s: float,
    out: Path,
    strategies: Sequence[str] | None,
    rows: int | None,
    common: Sequence[str],
    model: windows.Model | None = None,
) -> Prepared:
    """The replica of SHAPE scaled to this machine and BUDGET_S, its scenario files written in OUT (made
    here) and every run's options checked before the first starts: a bad name fails now, in one line,
    and leaves no folder behind. MODEL chooses the replica's windows (advise.windows)."""
    chosen = list(strategies) if strategies else default_strategies(shape.strategy)
    if BASELINE not in chosen:
        chosen.insert(0, BASELINE)
    # A name no strategy has fails now, in one line, not as a run that did not finish.
    Catalog().select(chosen)
    switch_why = can_switch(shape)
    scaling = scale(
        shape.rows,
        shape.index_bytes,
        shape.shared_buffers,
        memory_bytes,
        sizing.machine_memory_bytes(),
        sizing.can_cap_memory(),
        load_rows(shape, min(MEMORY_LOAD_S, budget_s / 4), chosen),
        rows,
    )
    replica_ = replica(shape)
    server = sizing.Server(shape.shared_buffers, memory_bytes, can_cap=False)
    count = MEMORY_ROUNDS * len(chosen)
    measured = windows.placed(model, shape.rows, server, count, budget_s, replica_factor=scaling.factor)
    files = {REPLICA: replica_toml(shape, scaling, replica_, chosen, measured.window_s)}
    if switch_why is None:
        files[SWITCH] = switch_toml(shape, scaling, replica_)
    plan = make_plan(budget_s, out, chosen, shape, scaling, switch_why is None, common, measured)
    prepared = Prepared(shape, scaling, replica_, chosen, plan, switch_why, out)
    out.mkdir(parents=True)
    for part, _ in prepared.runs():
        Path(part.scenario).write_text(files[part.name])
    try:
        for _, words in prepared.runs():
            options_for(words(0.0))
    except PkbenchError:
        shutil.rmtree(out)
        raise
    record(out, shape, scaling)
    return prepared


def measure(
    prepared: Prepared,
    options_for: OptionsFor[RunOptions],
    execute: Execute[RunOptions],
    reporter: Reporter,
) -> advice.Table:
    """Run each part with its share of the budget through EXECUTE (run.runner.execute, which the command
    hands over as it does OPTIONS_FOR; a part that fails is said, and its cells stay not measured), then read
    the replica's cells."""
    runs = prepared.runs()
    started = time.monotonic()
    for number, (part, words) in enumerate(runs, 1):
        reporter.info(f"advise --like {number}/{len(runs)}: {part.name}: starting")
        options = options_for(words(time.monotonic() - started))
        check_disk(prepared.plan, part)
        try:
            execute(options, reporter)
        except PkbenchError as e:
            reporter.warning(f"{part.name} did not finish ({first_line(str(e))})")
    columns = [next((c for c in COLUMNS if c.strategy == s), Column(s, s)) for s in prepared.strategies]
    return advice.build(prepared.out, sources(), columns, [condition(prepared.shape, prepared.scaling)])
