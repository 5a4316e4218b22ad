"""`pkbench advise`: the "which key?" table of docs/advice.md, measured on this server."""

from __future__ import annotations

import os
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import Any

import click
from rich.console import Console
from rich.table import Table

from pkbench.advise import like as like_plan
from pkbench.advise import like_text, outcome, session
from pkbench.advise import plan as planner
from pkbench.cli import arguments
from pkbench.cli.console import RichReporter
from pkbench.errors import PkbenchError
from pkbench.evidence import advice, advice_rows
from pkbench.run import runner
from pkbench.run.options import Options
from pkbench.server import connection
from pkbench.survey import report
from pkbench.survey import shape as table_shape
from pkbench.text import parse_bytes

ADVICE_FILE = "advice.md"
# How `pkbench run WORDS` reads its words into options (cli.run.options_for), handed over by cli.main, which
# holds both commands: every part is checked and run exactly as that command would.
OptionsFor = Callable[[list[str]], Options]


def command(options_for: OptionsFor) -> click.Command:
    """The `advise` command, reading each run's words into options as OPTIONS_FOR does."""

    @click.command("advise")
    @click.option(
        "--budget",
        default="30m",
        show_default=True,
        help="How long to measure, all runs together (10m, 1h): more time, more rounds, narrower intervals.",
    )
    @click.option(
        "--out", type=click.Path(path_type=Path), help="Folder for the runs and advice.md (must not exist)."
    )
    @click.option(
        "--dsn", help="Measure this existing server, in schemas of its own, instead of an embedded cluster."
    )
    @click.option(
        "--like",
        metavar="SCHEMA.TABLE",
        help="Measure each key on a replica of this table of the --dsn server (read only, as `pkbench "
        "inspect` reads it), scaled to keep its key index's share of shared_buffers and memory, on an "
        "embedded cluster; and what switching its key to v7 costs there.",
    )
    @click.option(
        "--server-memory",
        metavar="SIZE",
        help='With --dsn: the memory the server may use (64GB), for the "beyond RAM" tier (default: '
        "that tier is left out). The embedded cluster's is this machine's, capped as --memory-limit does.",
    )
    @click.option(
        "--disk-budget",
        metavar="SIZE",
        help="With --dsn: the most the runs may write on the server's disk (20GB; default 10GB). The "
        "embedded cluster's is the free space of its directory.",
    )
    @click.option(
        "--strategies", help="Comma-separated keys (default: the table's columns this pkbench has)."
    )
    @click.option("--rows", type=int, help="Rows to prefill in every run (default: each run's own).")
    @click.option("--duration", type=int, help="Seconds per measured window (default: each run's own).")
    @click.option("--pg", "pg_major", type=int, help="The embedded server's major version.")
    @click.option(
        "--pg-bin", type=click.Path(path_type=Path), help="Directory with initdb, postgres and pgbench."
    )
    @click.option(
        "--resume",
        type=click.Path(path_type=Path),
        metavar="DIR",
        help="Continue the advice in DIR: finished runs are kept, an interrupted one resumes, the rest run.",
    )
    @click.argument("run_arguments", nargs=-1, type=click.UNPROCESSED, metavar="[-- RUN OPTIONS]")
    def advise(**arguments: Any) -> None:
        """Measure which key to choose on this server: the table of docs/advice.md from runs made here.

        Runs the fewest `pkbench run`s that fill the rows this server can show (its cores, its memory and
        commit setting; a standby and shards on an embedded cluster only) within --budget, each adding
        rounds until its cells are within ±10% or its share of the budget ends, prints the table and writes
        it to DIR/advice.md beside the runs, saying for each cell which happened. The memory tiers are sized
        to the server's shared_buffers and memory, and their windows to its checkpoint cycle as the model
        predicts it (docs/predict.md); a run that would not fit the disk is not started.
        Options after `--` go to every `pkbench run` (--warmup 0, --rounds 5). With --like SCHEMA.TABLE,
        each key is measured on a replica of that table of the --dsn server, which is only read, and the cost
        of switching its key to v7 beside (docs/advise-like.md).

        \b
        Example:
            pkbench advise
            pkbench advise --budget 1h --out advice-here
            pkbench advise --dsn postgresql://bench@db.example/bench --budget 20m
            pkbench advise --dsn host=db --server-memory 64GB --disk-budget 20GB
            pkbench advise --resume pkbench-advice-20261127-010000
            pkbench advise --like public.orders --dsn postgresql://monitor@db/app --server-memory 64GB
            pkbench advise --budget 10m -- --warmup 0 --sample-every 0
        """
        # click hands the options over by name; _advise's signature is where they are typed.
        _advise(options_for, **arguments)

    return advise


def _advise(
    options_for: OptionsFor,
    budget: str,
    out: Path | None,
    dsn: str | None,
    like: str | None,
    server_memory: str | None,
    disk_budget: str | None,
    strategies: str | None,
    rows: int | None,
    duration: int | None,
    pg_major: int | None,
    pg_bin: Path | None,
    resume: Path | None,
    run_arguments: tuple[str, ...],
) -> None:
    if like is not None:
        if resume is not None:
            raise PkbenchError("--like measures a table's replica anew: give a new --out, not --resume")
        if dsn is None:
            raise PkbenchError(f"--like {like}: give --dsn, the server the table is read from")
        if disk_budget is not None:
            raise PkbenchError(
                "--disk-budget sizes runs on the --dsn server; with --like they run on an embedded cluster"
            )
        if rows is not None and rows < 1:
            raise PkbenchError("--rows: the replica needs at least one row")
        common = [
            *(["--pg", str(pg_major)] if pg_major is not None else []),
            *(["--pg-bin", str(pg_bin)] if pg_bin is not None else []),
            *(["--duration", str(duration)] if duration is not None else []),
            *run_arguments,
        ]
        _advise_like(options_for, like, dsn, budget, out, server_memory, strategies, rows, common)
        return
    reporter = RichReporter()
    if resume is not None:
        given = (out, strategies, rows, duration, server_memory, disk_budget)
        if any(option is not None for option in given):
            raise PkbenchError(
                "--resume runs the recorded plan again: give no --out, --strategies, --rows, --duration, "
                "--server-memory or --disk-budget"
            )
        out = resume
        plan = planner.read_plan(out)
        if plan.on_dsn != (dsn is not None):
            raise PkbenchError(
                f"--resume {out}: its runs measured "
                + (
                    "a server given by --dsn: give the same --dsn again"
                    if plan.on_dsn
                    else "an embedded cluster: give no --dsn"
                )
            )
    else:
        out = out or Path(f"pkbench-advice-{datetime.now():%Y%m%d-%H%M%S}")
        if out.exists():
            raise PkbenchError(f"--out {out}: already exists (give a new folder, or --resume {out})")
        seconds = arguments.duration(budget, "--budget")
        assert seconds is not None
        chosen = (
            [s.strip() for s in strategies.split(",") if s.strip()]
            if strategies
            else list(planner.STRATEGIES)
        )
        common = [
            *(["--pg", str(pg_major)] if pg_major is not None else []),
            *(["--pg-bin", str(pg_bin)] if pg_bin is not None else []),
            *(["--rows", str(rows)] if rows is not None else []),
            *(["--duration", str(duration)] if duration is not None else []),
            *run_arguments,
        ]
        if dsn is None and (server_memory is not None or disk_budget is not None):
            raise PkbenchError(
                "--server-memory and --disk-budget describe a server given by --dsn; the embedded cluster's "
                "are read from this machine"
            )
        # Sizes are read before the server is: a mistyped one fails without a connection.
        budget_bytes = (
            None
            if dsn is None
            else parse_bytes(disk_budget, "--disk-budget")
            if disk_budget is not None
            else planner.DEFAULT_DSN_DISK_BUDGET
        )
        plan = planner.make_plan(
            seconds,
            chosen,
            os.cpu_count() or 1,
            session.server(dsn, server_memory),
            embedded=dsn is None,
            common=common,
            disk_budget_bytes=budget_bytes,
            model=session.model(dsn),
        )
        # Every part's options are checked before the first one starts: a bad name fails now, in one line.
        for part in plan.parts:
            options_for([*plan.arguments(part, out), *(["--dsn", dsn] if dsn else [])])
        planner.write_plan(out, plan)
    _say_plan(reporter, plan, out)
    session.run_parts(options_for, runner.execute, reporter, plan, out, dsn)
    table = advice.build(out, outcome.sources(out, plan))
    lines = outcome.document(plan, out, table)
    (out / ADVICE_FILE).write_text("\n".join(lines) + "\n")
    _print_table(table)
    click.echo(f"pkbench: advice in {out / ADVICE_FILE}", err=True)


def _advise_like(
    options_for: OptionsFor,
    like: str,
    dsn: str,
    budget: str,
    out: Path | None,
    server_memory: str | None,
    strategies: str | None,
    rows: int | None,
    common: list[str],
) -> None:
    """Each key on a replica of the table LIKE names, on an embedded cluster, and what a switch costs there;
    the server DSN names is only read."""
    reporter = RichReporter()
    out = out or Path(f"pkbench-advice-like-{datetime.now():%Y%m%d-%H%M%S}")
    if out.exists():
        raise PkbenchError(f"--out {out}: already exists (give a new folder)")
    seconds = arguments.duration(budget, "--budget")
    assert seconds is not None
    info = connection.resolve(dsn)
    memory = report.server_memory(server_memory, info)
    chosen = [s.strip() for s in strategies.split(",") if s.strip()] if strategies else None
    prepared = like_plan.prepare(
        options_for,
        table_shape.read(info, like),
        memory.bytes,
        seconds,
        out,
        chosen,
        rows,
        common,
        session.model(dsn),
    )
    reporter.info(
        f"pkbench advise --like {prepared.shape.table}: {len(prepared.plan.parts)} run(s) in {out}, "
        f"{_time(seconds)} in all"
    )
    reporter.info(f"  {like_text.in_words(prepared.shape, prepared.scaling, memory.source)}")
    reporter.info(f"  its windows: {prepared.plan.sizing}")
    for note in prepared.scaling.notes:
        reporter.info(f"  {note}")
    if prepared.switch_why is not None:
        reporter.info(f"  the switch's cost is not measured: {prepared.switch_why}")
    table = like_plan.measure(prepared, options_for, runner.execute, reporter)
    measured = outcome.part_lines(prepared.plan, prepared.plan.parts[0], table, out)
    lines = like_text.document(
        out,
        prepared.shape,
        prepared.scaling,
        prepared.replica,
        table,
        memory.source,
        prepared.switch_why,
        measured,
        prepared.plan.sizing,
    )
    (out / ADVICE_FILE).write_text("\n".join(lines) + "\n")
    _print_table(table, f"Which key for {prepared.shape.table}? Each key against bigint on its replica")
    for line in like_text.summary_lines(
        out, prepared.shape, prepared.scaling, table, prepared.switch_why, memory.source
    ):
        click.echo(line, err=True)


def _say_plan(reporter: RichReporter, plan: planner.Plan, out: Path) -> None:
    reporter.info(f"pkbench advise: {len(plan.parts)} run(s) in {out}, {_time(plan.budget_s)} in all")
    if any(p.name == "wal" for p in plan.parts):
        reporter.info(f"  {plan.sizing}")
    for part in plan.parts:
        labels = "; ".join(advice_rows.BY_KEY[row].label for row in part.rows)
        reporter.info(
            f"  {part.name}: up to {_time(plan.share_s(part))} (more when its rounds take it), for {labels}"
        )
    for name, why in plan.left_out.items():
        reporter.info(f"  {name}: left out, {why}")
    for row, why in plan.rows_left_out.items():
        reporter.info(f"  {advice_rows.BY_KEY[row].label}: left out, {why}")


def _time(seconds: float) -> str:
    return f"{seconds:,.0f} s" if seconds < 60 else f"{seconds / 60:,.1f} min"


def _print_table(
    table: advice.Table,
    title: str = "Which key? Each key against bigint on this server (rate, or size, over bigint's)",
) -> None:
    shown = Table(title=title)
    shown.add_column("condition")
    for column in table.columns:
        shown.add_column(column.heading)
    for condition in table.conditions:
        cells = []
        for column in table.columns:
            cell = table.cells[condition.key][column.strategy]
            if cell.kind == "not measured":
                cells.append("not measured")
            elif cell.kind == "baseline":
                cells.append("baseline")
            else:
                cells.append(f"{cell.word()} {cell.figures()}")
        shown.add_row(condition.label, *cells)
    stdout = Console()
    (stdout if stdout.is_terminal else Console(width=240)).print(shown)
