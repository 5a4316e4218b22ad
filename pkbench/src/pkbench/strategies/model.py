"""What a primary key strategy is: a column type and the generators that can fill its default, and the
server-side check that a default is one expression of its column type; what a scenario's parameters make
of one is in binding.py."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import psycopg


@dataclass(frozen=True)
class Generator:
    """One way to produce a key on the server, with what it needs there."""

    expression: str
    extensions: tuple[str, ...] = ()
    functions: tuple[str, ...] = ()
    min_server_version: int = 0
    prelude: tuple[str, ...] = ()
    # Which clock the keys carry: "virtual" (sequuid's generators, which follow sequuid.clock_rate), "real"
    # (generators that read the system clock only, so --clock-rate does not move them) or "none" (no time).
    clock: str = "none"

    @property
    def column_clause(self) -> str:
        """What follows the key column's type in CREATE TABLE (the expression in parentheses, as it was
        checked by check_expression)."""
        if self.expression.upper().startswith("GENERATED "):
            return self.expression
        return f"DEFAULT ({self.expression})"


@dataclass(frozen=True)
class ClientKey:
    """A key each pgbench client makes, as an application server would, and sends as the key column's value
    (strategies/app_keys.py): what a scenario's insert script says in place of the server's default."""

    # pgbench meta-commands that draw the client's numbers, before the statement ({key_client_commands}).
    commands: str
    # The SQL expression of the key, from those pgbench variables ({key_value}).
    value: str
    # How the insert statement ends ({key_statement_end}): ";" or a RETURNING clause with \gset that keeps
    # the client's state in pgbench variables for its next transaction.
    statement_end: str = ";"


# What a scenario's pgbench scripts say in place of a key the server makes: nothing before the statement, the
# column's DEFAULT, a plain end.
SERVER_KEY = ClientKey(commands="", value="DEFAULT", statement_end=";")
CLIENT_KEY_PLACEHOLDERS = ("key_client_commands", "key_value", "key_statement_end")


@dataclass(frozen=True)
class Strategy:
    """A primary key strategy; the first generator whose needs the server meets is used."""

    name: str
    description: str
    column_type: str
    generators: tuple[Generator, ...]
    builtin: bool = True
    # How its keys arrive in the index: "ascending" (each new key above the last: a sequence, v7, ULID),
    # "wrapping" (a prefix that comes round again: sequential UUIDs, v1's low time bits first), "random",
    # "mixed" (random, then ascending), "striped" (ascending within each of several stripes at once), or ""
    # when not said (a user's strategy).
    order: str = ""
    # How the key spreads its inserts over more than one insertion point: "hash" (the scenario's table
    # hash-partitioned on the key, LAYOUT_PARAMETERS["hash"] partitions), "striped" (the generator's keys lead
    # with one of LAYOUT_PARAMETERS["striped"] stripes), or "" (one index, one right edge).
    layout: str = ""
    # A key the load driver's clients make and send as a value (None: the server makes it, by the default).
    client_key: ClientKey | None = None


LAYOUT_PLACEHOLDERS = ("key_partitioning", "key_partitions", "key_stripes")


# The functions whose keys lead with their time, by the kind sequuid's uuid_time_partitions takes for them.
_TIME_KINDS = (
    ("uuid_generate_v7(", "v7"),
    ("uuidv7(", "v7"),
    ("uuid_generate_ulid(", "ulid"),
    ("uuid_generate_v6(", "v6"),
)


def time_kind(column_type: str, generator: Generator) -> str:
    """The uuid_time_partitions kind of a uuid key that leads with its time ('v7', 'ulid', 'v6'), or '' when
    the key cannot be range-partitioned by time (random, wrapping, or not a uuid column)."""
    if column_type != "uuid":
        return ""
    expression = generator.expression.replace(" ", "")
    return next((kind for call, kind in _TIME_KINDS if expression.startswith(call)), "")


# The ways keys can arrive in an index (Strategy.order), for a user's strategy to name one of.
ORDERS = ("ascending", "wrapping", "random", "mixed", "striped")


def check_expression(conn: psycopg.Connection[Any], expression: str, column_type: str) -> str | None:
    """Why `expression` is not one expression of `column_type` on this server, or None when it is.

    The server parses it inside `SELECT (expression)::type` as an unnamed prepared statement (the extended
    protocol takes exactly one statement) and describes it without running it: it must give one column of
    the declared type. Anything else (a second statement, a second column, a syntax error) is refused.
    """
    try:
        row = conn.execute("SELECT to_regtype(%s)::oid", (column_type,)).fetchone()
    except psycopg.Error as e:
        return f"type {column_type!r} is not a type name: {e.diag.message_primary or e}"
    if row is None or row[0] is None:
        return f"type {column_type!r} does not exist"
    expected = int(row[0])
    statement = f"SELECT ({expression})::{column_type}".encode()
    pgconn = conn.pgconn
    parsed = pgconn.prepare(b"", statement)
    if parsed.status != psycopg.pq.ExecStatus.COMMAND_OK:
        message = (parsed.error_field(psycopg.pq.DiagnosticField.MESSAGE_PRIMARY) or b"").decode()
        return f"default {expression!r} is not a single expression of type {column_type}: {message}"
    described = pgconn.describe_prepared(b"")
    if described.nfields != 1 or described.ftype(0) != expected:
        return f"default {expression!r} is not a single expression of type {column_type}"
    return None
