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

from pkbench.advise.calls import Execute, OptionsFor, RunOptions
from pkbench.advise.plan import MEMORY_LOAD_S, MEMORY_ROUNDS, MEMORY_WINDOW_S, Part, Plan, check_disk
from pkbench.advise.replica import (
    BATCH_ROWS,
    CLIENTS,
    CONDITION,
    JOBS,
    LIKE_FILE,
    REPLICA,
    SETTINGS,
    SETUP_S,
    SWITCH,
    SWITCH_STRATEGY,
    V7,
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


def _toml(value: object) -> str:
    """VALUE as TOML: a string as a basic string (JSON's escapes are TOML's), a list, an inline table."""
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{key} = {_toml(item)}" for key, item in value.items()) + " }"
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_toml(item) for item in value) + "]"
    return json.dumps(value)


def _steps(replica_: Replica, cascade: bool) -> list[str]:
    tables = ", ".join(replica_.tables())
    return [
        _step("sql", "schema", statements=replica_.schema(cascade)),
        _step("fill", "fill", rows="rows", statement=replica_.insert("{batch}")),
        _step("sql", "maintenance", statements=[f"VACUUM ANALYZE {tables}"], if_permitted=["CHECKPOINT"]),
        _step("snapshot", "sizes_after_prefill"),
    ]


def _step(kind: str, name: str, **fields: object) -> str:
    lines = ["[[steps]]", f"kind = {_toml(kind)}", f"name = {_toml(name)}"]
    lines += [f"{key} = {_toml(value)}" for key, value in fields.items()]
    return "\n".join(lines)


def _header(
    shape: TableShape, scaling: Scaling, name: str, description: str, strategies: Sequence[str]
) -> list[str]:
    settings = {**SETTINGS, "shared_buffers": f"{scaling.shared_buffers_bytes // 1024}kB"}
    return [
        f"# Written by `pkbench advise --like {shape.table}`: {description}.",
        f"name = {_toml(name)}",
        f"description = {_toml(description)}",
        'table = "records"',
        f"strategies = {_toml(list(strategies))}",
        *(['baseline = "bigint"'] if "bigint" in strategies else []),
        "",
        "[parameters]",
        f"rows = {scaling.rows}",
        f"clients = {CLIENTS}",
        f"jobs = {JOBS}",
        f"duration_s = {MEMORY_WINDOW_S}",
        f"batch_rows = {BATCH_ROWS}",
        "progress_interval_s = 5",
        "sampling_interval_s = 5",
        "",
        "[settings]",
        *(f"{key} = {_toml(value)}" for key, value in settings.items()),
        "",
        "[summary]",
        'insert = "fill"',
        "",
    ]


def replica_toml(shape: TableShape, scaling: Scaling, replica_: Replica, strategies: Sequence[str]) -> str:
    """The scenario that measures each key on the replica: its load, then a row and its children inserted
    at a time."""
    description = f"each key on a replica of {shape.table}'s shape, scaled by {scaling.factor:.4g}"
    script = replica_.insert("1") + ";"
    return (
        "\n\n".join(
            [
                "\n".join(_header(shape, scaling, "like", description, strategies)),
                *_steps(replica_, cascade=False),
                _step(
                    "pgbench",
                    WINDOW,
                    description="inserts of a row and its children, as the application makes them",
                    wal_inspect=["records_pkey"],
                    scripts=[{"name": "insert", "weight": 1, "sql": script}],
                ),
            ]
        )
        + "\n"
    )


def figures_sql(tables: Sequence[str]) -> str:
    """The switch's figures: the WAL position and the disk of the replica's TABLES (their indexes and TOAST
    with them), read before and after each change; a query step's transaction is rolled back and writes no
    WAL of its own."""
    names = ", ".join(f"'{name}'" for name in tables)
    return (
        "SELECT pg_current_wal_lsn() - '0/0'::pg_lsn AS wal_bytes, "
        f"(SELECT sum(pg_total_relation_size(t)) FROM unnest(ARRAY[{names}]::regclass[]) t) AS disk_bytes"
    )


def switch_toml(shape: TableShape, scaling: Scaling, replica_: Replica) -> str:
    """The migrate scenario's steps on the replica: (a) the default switched to v7, (b) the existing keys
    rewritten to v7, the children's foreign keys following them; each between two readings of the WAL
    position and the disk."""
    key = replica_.key
    description = f"the cost of switching {shape.table}'s key to v7, on its replica"
    steps = [
        *_steps(replica_, cascade=True),
        _step("density", "before-switch", indexes=["records_pkey"]),
        _figures("before-switch-default", replica_),
        _step(
            "sql", "switch-default", statements=[f"ALTER TABLE records ALTER COLUMN {key} SET DEFAULT {V7}"]
        ),
        _figures("after-switch-default", replica_),
        _step("sql", "checkpoint-before-rewrite", statements=["CHECKPOINT"]),
        _figures("before-rewrite-keys", replica_),
        _step("sql", "rewrite-keys", statements=[f"UPDATE records SET {key} = {V7}"]),
        _figures("after-rewrite-keys", replica_),
        _step("density", "after-rewrite", indexes=["records_pkey"]),
    ]
    return (
        "\n\n".join(
            ["\n".join(_header(shape, scaling, "like-switch", description, [SWITCH_STRATEGY])), *steps]
        )
        + "\n"
    )


def _figures(name: str, replica_: Replica) -> str:
    return _step("query", name, queries=[{"name": "figures", "sql": figures_sql(replica_.tables())}])


# ---- The plan ----


def least_s(rows: int, strategies: int, per_row_s: float) -> float:
    """The least time a replica run takes: setting up, loading ROWS for every strategy (PER_ROW_S for each
    row of them all), MEMORY_ROUNDS rounds of each strategy's window."""
    windows = MEMORY_ROUNDS * strategies * (MEMORY_WINDOW_S + WINDOW_OVERHEAD_S)
    return SETUP_S + rows * per_row_s + windows


def make_plan(
    budget_s: float,
    out: Path,
    strategies: Sequence[str],
    shape: TableShape,
    scaling: Scaling,
    switch: bool,
    common: Sequence[str],
) -> Plan:
    """The replica's part, and the switch's where it is measured, in a plan of advise.plan's (its shares of
    the budget, its arguments, its disk estimate)."""
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
                "--duration",
                str(MEMORY_WINDOW_S),
                *memory,
                "--strategies",
                ",".join(strategies),
            ),
            ((CONDITION, WINDOW, TPS),),
            least_s(scaling.rows, len(strategies), per_row),
            len(strategies),
            scaling.rows,
            MEMORY_WINDOW_S,
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
    return Plan(budget_s, parts, common=tuple(common), sizing="")


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
) -> Prepared:
    """The replica of SHAPE scaled to this machine and BUDGET_S, its scenario files written in OUT (made
    here) and every run's options checked before the first starts: a bad name fails now, in one line,
    and leaves no folder behind."""
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
    files = {REPLICA: replica_toml(shape, scaling, replica_, chosen)}
    if switch_why is None:
        files[SWITCH] = switch_toml(shape, scaling, replica_)
    plan = make_plan(budget_s, out, chosen, shape, scaling, switch_why is None, common)
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
