"""The commands over the catalog and over results directories: list, report, reproductions and compare."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

import click
from rich.console import Console

from pkbench.cli import exit as cli_exit
from pkbench.cli.exit import fail
from pkbench.errors import PkbenchError
from pkbench.evidence import reproductions_page
from pkbench.run.options import check_text_file
from pkbench.scenario import file as scenario_module
from pkbench.strategies.catalog import Catalog
from pkbench.strategies.user_config import load_config

FC = TypeVar("FC", bound=Callable[..., object])

# Results directories, as `pkbench run --out` writes them.
results_directories = click.argument("directories", nargs=-1, required=True, type=click.Path(path_type=Path))


def written_to(default: str, help_text: str, *short: str) -> Callable[[FC], FC]:
    """The --out option of a command that writes DEFAULT unless told otherwise."""
    return click.option(
        *short,
        "--out",
        type=click.Path(path_type=Path),
        default=Path(default),
        show_default=True,
        help=help_text,
    )


@click.command(name="list")
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


@click.command()
@click.argument("directory", type=click.Path(path_type=Path))
def report(directory: Path) -> None:
    """Write DIRECTORY/report.html from its results.json, or a sweep's sweep.html from its sweep.json.

    \b
    Example:
        pkbench report pkbench-results-20261121-001500
        pkbench report pkbench-sweep-20261121-001500
    """
    # plotly is imported here, not when the command line starts
    if (directory / "sweep.json").is_file():
        from pkbench.report import sweep_page

        click.echo(str(sweep_page.redraw(directory)))
        return
    if not (directory / "results.json").is_file():
        raise PkbenchError(f"{directory}: no results.json there (nor a sweep's sweep.json)")
    from pkbench.report.render import write_report

    click.echo(str(write_report(directory)))


@click.command("reproductions")
@results_directories
@written_to("reproductions.md", "The Markdown page to write.", "-o")
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
    click.echo(str(reproductions_page.write(list(directories), out, command, notes)))


@click.command()
@results_directories
@written_to("pkbench-comparison", "Directory for the comparison report.")
@click.option(
    "--fail-on-regression",
    "fail_on_regression",
    type=float,
    metavar="PCT",
    help="Exit 5 when a later run is worse than the first by over PCT percent, resolved over the rounds.",
)
@click.option(
    "--allow-incomplete",
    is_flag=True,
    help="Compare a run that did not finish too (refused otherwise); it is marked incomplete.",
)
def compare(
    directories: tuple[Path, ...], out: Path, fail_on_regression: float | None, allow_incomplete: bool
) -> None:
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
    from pkbench.report.comparison import compare_directories

    report_path, found = compare_directories(directories, out, fail_on_regression, allow_incomplete)
    (out / "comparison.md").write_text(found.full)
    click.echo(found.resolved)
    click.echo(f"pkbench: comparison in {report_path} and {out / 'comparison.md'}", err=True)
    if found.regressions:
        fail(
            f"{found.regressions} worse than {fail_on_regression:g}%: {found.named}", cli_exit.EXIT_REGRESSION
        )
