"""What `pkbench inspect` prints for a database of many tables: counts per status first, each reason a figure
was not read said once, markdown within what a ticket holds, names as SQL identifiers to paste, one parser for
every option that names a table; and, against a live server, quoted names, markup in a name, a schema that is
not there, and --fail-on one table a line."""

from __future__ import annotations

import io
import json
from collections.abc import Iterator
from datetime import UTC, datetime

import psycopg
import pytest
from conftest import cli_in_process
from rich.console import Console

from pkbench.cli import inspect as inspect_cli
from pkbench.errors import PkbenchError
from pkbench.server.builds import find_pgbench, find_server_bindir
from pkbench.server.embedded import EmbeddedCluster
from pkbench.survey import names, placement, ranking, report
from pkbench.survey.facts import ServerFacts, TableFacts

MIB = 1024**2
SERVER = ServerFacts(
    150000, "15.9", "app", 128 * MIB, False, None, datetime(2026, 1, 1, tzinfo=UTC), True, (), {}
)
MEMORY = report.Memory(8 * 1024 * MIB, "given by --server-memory")


@pytest.mark.parametrize(
    ("name", "pasted"),
    [
        ("orders", "orders"),
        ("Display", '"Display"'),
        ("user", '"user"'),
        ("select", '"select"'),
        ("name", "name"),  # an unreserved keyword reads back as itself
        ("order items", '"order items"'),
        ('say "hi"', '"say ""hi"""'),
        ("1st", '"1st"'),
        ("_x$1", "_x$1"),
        ("[bold]x[/bold]", '"[bold]x[/bold]"'),
    ],
)
def test_a_name_is_printed_as_sql_reads_it_back(name: str, pasted: str) -> None:
    assert names.quote_ident(name) == pasted
    assert names.split_qualified(names.qualified("public", name), "--table") == ("public", name)


@pytest.mark.parametrize(
    ("text", "parsed"),
    [
        ("orders", (None, "orders")),
        ("Sales.Orders", ("sales", "orders")),
        ('public."Display"', ("public", "Display")),
        ('"a.b"."c""d"', ("a.b", 'c"d')),
        ('"My Schema".t', ("My Schema", "t")),
    ],
)
def test_one_parser_reads_every_option_that_names_a_table(text: str, parsed: tuple[str | None, str]) -> None:
    assert names.split_qualified(text, "--table") == parsed


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("a.b.c", "--like a.b.c: expected TABLE or SCHEMA.TABLE"),
        ("a..b", "--like a..b: expected TABLE or SCHEMA.TABLE"),
        ('"open', '--like "open: a double quote is not closed'),
        ('a."b"c', '--like a."b"c: expected TABLE or SCHEMA.TABLE (a quote inside a name)'),
    ],
)
def test_a_name_that_does_not_parse_is_one_line_naming_the_option(text: str, said: str) -> None:
    with pytest.raises(PkbenchError) as raised:
        names.split_qualified(text, "--like")
    assert str(raised.value).startswith(said)


def _many(count: int) -> list[placement.Entry]:
    """COUNT tables as a large application has them: most with random keys and no rate known, a few integer
    keys near their end, some without a key."""
    tables = []
    for n in range(count):
        kind = n % 10
        facts = TableFacts(n, "app", f"table_{n:04d}", None, 0, 0, 1000.0, total_bytes=4 * MIB)
        if kind < 9:
            facts.key_source, facts.key_index, facts.index_bytes = "primary key", f"t{n}_pkey", 600 * MIB
            facts.key_columns = ("id",)
            facts.key_types, facts.default = (
                (("uuid",), "gen_random_uuid()") if kind < 7 else (("integer",), "nextval('s'::regclass)")
            )
            facts.largest = int((0.5 + n / count / 2) * (2**31 - 1)) if kind == 8 else 10
            facts.inserted_total = n * 1000
        facts.needs["insert rate"] = "--watch 60s: no statistics reset time recorded"
        tables.append(facts)
    return ranking.ranked([placement.entry(t, SERVER, MEMORY.bytes, placement.RUNS_DIR) for t in tables])


def test_markdown_of_a_thousand_tables_fits_a_ticket_counts_first_and_says_how_to_get_the_rest() -> None:
    entries = _many(1000)
    doc = report.document(SERVER, MEMORY, placement.RUNS_DIR, entries)
    text = report.markdown(doc, entries)
    assert len(text) <= report.MARKDOWN_LIMIT
    counts = report.counts(entries)
    assert counts == {"flagged": 100, "costs": 700, "fine": 100, "not placed": 100}
    assert text.splitlines()[2] == "**1,000 tables: 100 flagged, 700 costs, 100 fine, 100 not placed**"
    assert "more not shown here, to keep within 65,536 characters" in text
    assert "`--format md --all` writes every table, `--format json` every figure" in text
    # The reason no rate is known is said once, with how many tables it concerns, not in every row.
    assert text.count("--watch 60s") == 1
    assert (
        "insert rate: unknown (needs --watch 60s: no statistics reset time recorded) for all 1,000 tables"
        in text
    )
    # The most urgent first: the integer key nearest its end, then the busiest random key.
    lines = [line for line in text.splitlines() if line.startswith("- **")]
    assert lines[0].startswith("- **app.table_0998** (flagged)")
    assert lines[1].startswith("- **app.table_0988** (flagged)")
    assert (entries[100].table, entries[100].status) == ("app.table_0996", "costs")
    whole = report.markdown(doc, entries, None)
    assert "more not shown" not in whole and "app.table_0009" in whole and len(whole) > len(text)


def test_the_terminal_summary_of_a_thousand_tables_fits_a_screen() -> None:
    entries = _many(1000)
    doc = report.document(SERVER, MEMORY, placement.RUNS_DIR, entries)
    console = Console(file=io.StringIO(), width=120, highlight=False)
    inspect_cli.terminal(console, doc, entries, 20, every_table=False)
    text = console.file.getvalue()  # type: ignore[attr-defined]
    lines = text.splitlines()
    assert lines[0] == "Keys of database app: 1,000 tables: 100 flagged, 700 costs, 100 fine, 100 not placed"
    assert "Worth acting on: 20 of 800" in text
    assert "980 more table(s) not listed: --all lists every table" in text
    # The counts, what was not read once, 20 tables in a table and a few lines each: not 7,000 lines.
    assert len(lines) < 200 and len(text) < 40_000, len(lines)
    assert text.count("--watch 60s") == 1
    assert max(len(line) for line in lines if line.startswith(("┃", "│"))) <= 120


def test_the_json_document_counts_statuses_and_keeps_every_table() -> None:
    entries = _many(50)
    doc = json.loads(report.json_text(report.document(SERVER, MEMORY, placement.RUNS_DIR, entries)))
    assert doc["counts"] == report.counts(entries) and len(doc["tables"]) == 50
    assert doc["ranking"].startswith(
        "ranked by status (flagged, costs, unknown, not resolved, fine, not placed)"
    )
    assert doc["tables"][0]["rank_by"] and doc["tables"][0]["identifier"] == "app.table_0048"


def test_reasons_of_each_tables_own_are_counted_not_listed() -> None:
    entries = _many(40)
    for entry in entries:
        entry.unknown["pg_stats correlation"] = f"ANALYZE {entry.identifier} (no statistics yet)"
    said = report.not_read(entries)
    assert len(said) == report.REASONS + 1
    assert said[-1].startswith(
        f"pg_stats correlation: unknown for {40 - report.REASONS + 1} more tables, for "
        f"{40 - report.REASONS + 1} other reasons (such as: needs ANALYZE app."
    )
    assert said[-1].endswith("--format json gives each table's")


def test_a_key_column_is_printed_as_sql_reads_it_back() -> None:
    (entry,) = _many(1)
    entry.key, entry.key_types = ["Key", "user"], ["integer", "bigint"]
    assert report.cells(entry)["key"] == '"Key" integer, "user" bigint'


def test_no_row_repeats_what_a_figure_needs() -> None:
    entries = _many(30)
    for entry in entries[:5]:
        entry.unknown["values"] = "SELECT on the table (id)"
    assert all(report.cells(e)["inserts"] in ("unknown", "\N{EN DASH}") for e in entries)
    assert all(report.cells(e)["values"] in ("unknown", "\N{EN DASH}") for e in entries)
    assert report.not_read(entries) == [
        "insert rate: unknown (needs --watch 60s: no statistics reset time recorded) for all 30 tables",
        "values: unknown (needs SELECT on the table (id)) for 5 tables: app.table_0028, app.table_0018, "
        "app.table_0008 and 2 more",
    ]


TABLES = """
CREATE TABLE "Display" (id uuid PRIMARY KEY DEFAULT gen_random_uuid());
CREATE TABLE "[bold]loud[/bold]" (id uuid PRIMARY KEY DEFAULT gen_random_uuid());
CREATE TABLE plain (id uuid PRIMARY KEY DEFAULT gen_random_uuid());
CREATE TABLE counters (id serial PRIMARY KEY);
SELECT setval('counters_id_seq', (0.9 * 2147483647)::bigint);
INSERT INTO "Display" SELECT FROM generate_series(1, 40000);
INSERT INTO "[bold]loud[/bold]" SELECT FROM generate_series(1, 30000);
INSERT INTO plain SELECT FROM generate_series(1, 10);
ANALYZE;
"""


@pytest.fixture(scope="module")
def server() -> Iterator[EmbeddedCluster]:
    settings = {"shared_buffers": "1MB", "max_connections": "20"}
    with EmbeddedCluster(find_server_bindir(None), find_pgbench(None), settings) as cluster:
        with psycopg.connect(cluster.connection.conninfo(), autocommit=True) as conn:
            conn.execute(TABLES)
        yield cluster


def test_the_terminal_summary_quoted_names_and_markup_in_a_name(server: EmbeddedCluster) -> None:
    dsn = server.connection.conninfo()
    shown = cli_in_process("inspect", "--dsn", dsn, "--top", "2")
    assert shown.returncode == 0, shown.stderr
    lines = shown.stdout.splitlines()
    # The random keys' indexes outgrow the 1 MB of shared buffers (they cost); plain's is within them, where
    # the committed WAL cell is too wide to quote (not resolved).
    assert lines[0] == "Keys of database postgres: 4 tables: 1 flagged, 2 costs, 1 not resolved"
    # Two listed: the key near its end, then the random key with the most rows inserted.
    assert "Worth acting on: 2 of 3" in shown.stdout
    assert "- public.counters (flagged)" in shown.stdout and '- public."Display" (costs)' in shown.stdout
    assert "loud" not in shown.stdout
    assert "2 more table(s) not listed: --all lists every table" in shown.stdout
    every = cli_in_process("inspect", "--dsn", dsn, "--all")
    assert every.returncode == 0, every.stderr
    assert '- public."[bold]loud[/bold]" (costs)' in every.stdout, "the name's brackets are not markup"
    # In the table too, whole on one line to paste; and written to a pipe, the table keeps within a
    # sensible width.
    table = [line for line in every.stdout.splitlines() if line.startswith(("┃", "│", "┏", "└"))]
    assert any(line.startswith('│ public."[bold]loud[/bold]" │') for line in table), table
    assert max(len(line) for line in table) <= 120
    # Rows inserted since the statistics began decide, not the name: Display (40,000) before loud (30,000).
    ranked = [line for line in every.stdout.splitlines() if line.startswith("- ")]
    assert [line.split(" (")[0] for line in ranked] == [
        "- public.counters",
        '- public."Display"',
        '- public."[bold]loud[/bold]"',
        "- public.plain",
    ]


def test_a_quoted_table_option_and_a_schema_or_table_that_is_not_there(server: EmbeddedCluster) -> None:
    dsn = server.connection.conninfo()
    found = cli_in_process("inspect", "--dsn", dsn, "--format", "json", "--table", 'public."Display"')
    assert found.returncode == 0, found.stderr
    (table,) = json.loads(found.stdout)["tables"]
    assert (table["table"], table["identifier"]) == ("public.Display", 'public."Display"')
    folded = cli_in_process("inspect", "--dsn", dsn, "--table", "public.Display")
    assert folded.returncode == 1 and folded.stderr.count("\n") == 1
    assert "--table public.display: no such table in database postgres" in folded.stderr
    for args, said in [
        (("--schema", "nosuch"), "--schema nosuch: no such schema in database postgres"),
        (("--table", "a.b.c"), "--table a.b.c: expected TABLE or SCHEMA.TABLE"),
        (("--schema", "a.b"), "--schema a.b: expected a schema's name"),
    ]:
        refused = cli_in_process("inspect", "--dsn", dsn, *args)
        assert refused.returncode == 1 and refused.stderr.count("\n") == 1, refused.stderr
        assert said in refused.stderr and "Traceback" not in refused.stderr


def test_fail_on_prints_one_table_a_line(server: EmbeddedCluster) -> None:
    dsn = server.connection.conninfo()
    failed = cli_in_process(
        "inspect", "--dsn", dsn, "--format", "json", "--fail-on", "random-keys", "--fail-on", "range-end"
    )
    assert failed.returncode == 6
    lines = failed.stderr.splitlines()
    assert [line.split(" (key index")[0] for line in lines[:-1]] == [
        "public.counters's integer key is at 90% of its range",
        'public."Display" has random UUIDs (v4)',
        'public."[bold]loud[/bold]" has random UUIDs (v4)',
        "public.plain has random UUIDs (v4)",
    ]
    assert lines[-1] == "pkbench: error: 4 table(s) failed --fail-on random-keys and range-end"
