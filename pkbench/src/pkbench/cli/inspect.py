"""`pkbench inspect`: a read-only survey of a live server's tables and their keys, each placed in a condition
of the committed which-key table with that condition's measured answer."""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import Any

import click
from rich.console import Console
from rich.table import Table

from pkbench.cli import exit as cli_exit
from pkbench.cli.exit import fail
from pkbench.errors import PkbenchError
from pkbench.server import connection, sizing
from pkbench.survey import catalog, facts, placement, report

LOCAL_HOSTS = ("localhost", "127.0.0.1", "::1")


def _seconds(text: str) -> float:
    match = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*(s|m|min)?\s*", text)
    if match is None or float(match.group(1)) <= 0:
        raise PkbenchError(f"--watch {text[:20]!r}: expected a duration such as 60s or 2m")
    return float(match.group(1)) * (60 if match.group(2) in ("m", "min") else 1)


def server_memory(given: str | None, info: connection.ConnectionInfo) -> report.Memory:
    """The memory the server may use: --server-memory, else this machine's where the server runs here."""
    if given is not None:
        return report.Memory(sizing.parse_bytes(given, "--server-memory"), "given by --server-memory")
    host = info.params.get("host", "")
    if not host or host.startswith("/") or host in LOCAL_HOSTS:
        return report.Memory(sizing.machine_memory_bytes(), "this machine's: the server runs here")
    return report.Memory(None, "give --server-memory for the beyond-RAM tier")


def _table_option(table: str | None, schema: str | None) -> tuple[str | None, str | None]:
    """--table NAME or SCHEMA.NAME (a schema given twice must agree)."""
    if table is None or "." not in table:
        return schema, table
    named_schema, _, name = table.partition(".")
    if schema is not None and schema != named_schema:
        raise PkbenchError(f"--table {table} is not in --schema {schema}")
    return named_schema, name


@click.command("inspect")
@click.option("--dsn", required=True, help="The server to survey (a connection string or URL), read-only.")
@click.option("--schema", help="Only the tables of this schema.")
@click.option("--table", help="Only this table (NAME or SCHEMA.NAME).")
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
    wal_bytes = sizing.parse_bytes(arguments["wal_size"], "--wal")
    above = sizing.parse_bytes(arguments["fail_above"], "--fail-above") if arguments["fail_above"] else 0
    schema, table = _table_option(arguments["table"], arguments["schema"])
    runs_dir: Path | None = arguments["runs_dir"] or placement.RUNS_DIR
    if arguments["runs_dir"] is not None and not runs_dir.is_dir():  # type: ignore[union-attr]
        raise PkbenchError(f"--runs {runs_dir}: no folder of runs there")
    if runs_dir is not None and not runs_dir.is_dir():
        runs_dir = None
    info = connection.resolve(arguments["dsn"])
    memory = server_memory(arguments["server_memory"], info)
    options = facts.Options(schema, table, arguments["sample_rows"], wal_bytes, watch)
    server, tables = catalog.survey(info, options)
    entries = placement.ranked([placement.entry(t, server, memory.bytes, runs_dir) for t in tables])
    doc = report.document(server, memory, runs_dir, entries)
    output = arguments["output_format"]
    if output == "terminal":
        _print(server, memory, entries)
    else:
        text = report.json_text(doc) if output == "json" else report.markdown(doc, entries)
        if arguments["out"] is not None:
            arguments["out"].write_text(text)
        else:
            sys.stdout.write(text)
    failed = report.failures(entries, arguments["fail_on"], above)
    if failed:
        fail(f"{len(failed)} table(s) failed --fail-on: {'; '.join(failed)}", cli_exit.EXIT_FINDINGS)


def _print(server: facts.ServerFacts, memory: report.Memory, entries: list[placement.Entry]) -> None:
    stdout = Console()
    console = stdout if stdout.is_terminal else Console(width=240)
    shown = Table(title=f"Keys of database {server.database} (read-only survey)")
    for name in report.SHORT_COLUMNS:
        shown.add_column(name)
    for entry in entries:
        cells = report.cells(entry)
        shown.add_row(*(cells[name] for name in report.SHORT_COLUMNS))
    console.print(shown)
    held = f"{memory.bytes / 1024**3:,.1f} GB" if memory.bytes else "not known"
    console.print(
        f"PostgreSQL {server.version}, shared_buffers {server.shared_buffers // 1024**2:,} MB, memory {held} "
        f"({memory.source}). Ranked: {report.RANKING}.",
        highlight=False,
        markup=False,
        soft_wrap=True,
    )
    for line in report.answer_lines(entries):
        console.print(line.replace("**", ""), highlight=False, markup=False, soft_wrap=True)
