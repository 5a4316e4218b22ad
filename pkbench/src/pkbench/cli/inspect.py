"""`pkbench inspect`: a read-only survey of a live server's tables and their keys, each placed in a condition
of the committed which-key table with that condition's measured answer."""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path
from typing import Any

import click
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from pkbench.cli import exit as cli_exit
from pkbench.cli.exit import fail
from pkbench.errors import PkbenchError
from pkbench.model import calibration
from pkbench.server import connection
from pkbench.survey import catalog, checkpoint_settings, facts, modelled, names, placement, ranking, report
from pkbench.text import parse_bytes

# The width of the terminal output written to a pipe or a file (a terminal's own width otherwise; COLUMNS,
# where set, wins over both).
PIPED_WIDTH = 120
# The widest a table's name is kept on one line in the terminal's list.
NAME_WIDTH = 60


def _seconds(text: str) -> float:
    match = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*(s|m|min)?\s*", text)
    if match is None or float(match.group(1)) <= 0:
        raise PkbenchError(f"--watch {text[:20]!r}: expected a duration such as 60s or 2m")
    return float(match.group(1)) * (60 if match.group(2) in ("m", "min") else 1)


def table_option(table: str | None, schema: str | None) -> tuple[str | None, str | None]:
    """--table NAME or SCHEMA.NAME and --schema NAME, as SQL identifiers (survey.names: double quotes keep a
    name's case); a schema given twice must agree."""
    schema_name = None
    if schema is not None:
        within, schema_name = names.split_qualified(schema, "--schema")
        if within is not None:
            raise PkbenchError(f"--schema {schema}: expected a schema's name")
    if table is None:
        return schema_name, None
    named_schema, name = names.split_qualified(table, "--table")
    if named_schema is None:
        return schema_name, name
    if schema_name is not None and schema_name != named_schema:
        raise PkbenchError(f"--table {table} is not in --schema {schema}")
    return named_schema, name


@click.command("inspect")
@click.option("--dsn", required=True, help="The server to survey (a connection string or URL), read-only.")
@click.option("--schema", help="Only the tables of this schema (a name as SQL reads it).")
@click.option(
    "--table",
    help="Only this table: NAME or SCHEMA.NAME as SQL reads them ('public.\"Display\"' keeps its case).",
)
@click.option(
    "--server-memory",
    metavar="SIZE",
    help="The memory the server may use (64GB), for the memory tiers (default: this machine's when the "
    "server runs here, else the beyond-RAM tier is not told apart).",
)
@click.option(
    "--watch",
    metavar="DURATION",
    help="Measure the insert rate over this long (60s, 2m) instead of since the statistics were reset.",
)
@click.option(
    "--wal",
    "wal_size",
    default="1GB",
    show_default=True,
    metavar="SIZE",
    help="How much recent WAL pg_walinspect reads for the key indexes' share of full-page images.",
)
@click.option(
    "--sample-rows",
    type=click.IntRange(10, 1_000_000),
    default=facts.SAMPLE_ROWS,
    show_default=True,
    help="At most this many key values sampled per table (TABLESAMPLE SYSTEM).",
)
@click.option(
    "--format",
    "output_format",
    type=click.Choice(["terminal", "json", "md"]),
    default="terminal",
    show_default=True,
    help="terminal: a table and a line per table; json: the versioned document docs/inspect.md describes; "
    "md: markdown to paste into a ticket.",
)
@click.option("--out", type=click.Path(path_type=Path), help="Write the json or md output to this file.")
@click.option(
    "--all",
    "every_table",
    is_flag=True,
    help="Every table: the terminal lists them all (not only those worth acting on), and --format md is "
    f"not kept within {report.MARKDOWN_LIMIT:,} characters.",
)
@click.option(
    "--top",
    type=click.IntRange(1),
    default=20,
    show_default=True,
    help="How many of the tables worth acting on the terminal lists.",
)
@click.option(
    "--runs",
    "runs_dir",
    type=click.Path(path_type=Path),
    help="The folder of committed runs the cells come from (default: those shipped with pkbench).",
)
@click.option(
    "--fail-on",
    multiple=True,
    type=click.Choice(report.FAIL_ON),
    help="Exit 6 (after the output) when a table has a random key (random-keys) or an integer key "
    "past half its range (range-end); may be given twice.",
)
@click.option(
    "--fail-above",
    metavar="SIZE",
    help="With --fail-on random-keys: only tables whose key index is at least this size (default: any).",
)
def inspect(**arguments: Any) -> None:
    """Survey a server's tables and keys, read-only, and place each in the which-key table.

    Example: pkbench inspect --dsn postgresql://monitor@db/app --format md
    """
    if arguments["out"] is not None and arguments["output_format"] == "terminal":
        raise PkbenchError("--out writes the json or md output: give --format json or --format md")
    if arguments["fail_above"] is not None and "random-keys" not in arguments["fail_on"]:
        raise PkbenchError("--fail-above sizes the random-keys check: give --fail-on random-keys")
    watch = _seconds(arguments["watch"]) if arguments["watch"] else None
    wal_bytes = parse_bytes(arguments["wal_size"], "--wal")
    above = parse_bytes(arguments["fail_above"], "--fail-above") if arguments["fail_above"] else 0
    schema, table = table_option(arguments["table"], arguments["schema"])
    runs_dir: Path | None = arguments["runs_dir"] or placement.RUNS_DIR
    if arguments["runs_dir"] is not None and not runs_dir.is_dir():  # type: ignore[union-attr]
        raise PkbenchError(f"--runs {runs_dir}: no folder of runs there")
    if runs_dir is not None and not runs_dir.is_dir():
        runs_dir = None
    info = connection.resolve(arguments["dsn"])
    memory = report.server_memory(arguments["server_memory"], info)
    options = facts.Options(schema, table, arguments["sample_rows"], wal_bytes, watch)
    server, tables = catalog.survey(info, options)
    entries = ranking.ranked([placement.entry(t, server, memory.bytes, runs_dir) for t in tables])
    if runs_dir is not None and calibration.calibrated(runs_dir):
        settings = checkpoint_settings.read(info)
        modelled.attach(entries, server, memory.bytes, settings, calibration.committed(runs_dir))
    doc = report.document(server, memory, runs_dir, entries)
    output = arguments["output_format"]
    if output == "terminal":
        stdout = Console()
        width = None if stdout.is_terminal or "COLUMNS" in os.environ else PIPED_WIDTH
        terminal(
            Console(width=width, highlight=False), doc, entries, arguments["top"], arguments["every_table"]
        )
    else:
        limit = None if arguments["every_table"] else report.MARKDOWN_LIMIT
        text = report.json_text(doc) if output == "json" else report.markdown(doc, entries, limit)
        if arguments["out"] is not None:
            arguments["out"].write_text(text)
        else:
            sys.stdout.write(text)
    failed = report.failures(entries, arguments["fail_on"], above)
    if failed:
        # One table a line, to read or to grep; the last line says what failed.
        for line in failed:
            click.echo(line, err=True)
        checks = " and ".join(arguments["fail_on"])
        fail(f"{len(failed):,} table(s) failed --fail-on {checks}", cli_exit.EXIT_FINDINGS)


def terminal(
    console: Console, doc: dict[str, Any], entries: list[placement.Entry], top: int, every_table: bool
) -> None:
    """The summary (counts per status, what was not read, the tables worth acting on, at most TOP of them),
    or with EVERY_TABLE the table of every table; then a line per table listed."""
    server = doc["server"]
    _say(console, f"Keys of database {server['database']}: {report.counts_line(entries)}")
    held = f"{server['memory_bytes'] / 1024**3:,.1f} GB" if server["memory_bytes"] else "not known"
    _say(
        console,
        f"PostgreSQL {server['version']}, shared_buffers {server['shared_buffers_bytes'] // 1024**2:,} MB, "
        f"memory {held} ({server['memory_source']}). Tables {doc['ranking']}.",
    )
    for line in report.not_read(entries):
        _say(console, f"Not read: {line}")
    acting = [e for e in entries if e.status in ranking.ACTIONABLE]
    listed = entries if every_table else acting[:top]
    if every_table:
        title = f"Every table, ranked ({len(entries):,})"
    elif acting:
        title = f"Worth acting on: {len(listed):,} of {len(acting):,}"
    else:
        title = "Nothing to act on: no key costs or nears its end"
    console.print()
    if listed:
        shown = Table(title=escape(title), title_justify="left")
        # A name is kept whole where the width allows (folded, never cut, where it does not): it is pasted.
        longest = max(len(entry.identifier) for entry in listed)
        shown.add_column("table", no_wrap=True, overflow="fold", min_width=min(longest, NAME_WIDTH))
        for name in report.TERMINAL_COLUMNS[1:]:
            shown.add_column(name, overflow="fold")
        for entry in listed:
            cells = report.cells(entry)
            shown.add_row(*(escape(cells[name]) for name in report.TERMINAL_COLUMNS))
        console.print(shown)
    else:
        _say(console, title)
    for line in report.answer_lines(listed):
        _say(console, line.replace("**", ""))
    if not every_table and len(listed) < len(entries):
        _say(
            console,
            f"{len(entries) - len(listed):,} more table(s) not listed: --all lists every table, --top N more "
            "of those worth acting on, --format json gives every figure.",
        )


def _say(console: Console, text: str) -> None:
    """TEXT as it is: no markup read in a table's name, no highlighting, no wrapping inside a word."""
    console.print(text, highlight=False, markup=False, soft_wrap=True)
