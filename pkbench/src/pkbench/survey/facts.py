"""What the survey reads and how: the facts of the server and of each table, and the short READ ONLY
transactions every read goes through (catalog.py, table_reads.py and extensions.py read through them).

No transaction spans the survey: the catalog is read in one short transaction of a few statements for the
whole database, each table (or a few of its partitions) in one of its own, each with its own statement and
lock timeouts, so the locks held at any moment are a table's and no snapshot lives longer than its reads.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

import psycopg
from psycopg import sql

from pkbench.errors import first_line
from pkbench.server.connection import ConnectionInfo

STATEMENT_TIMEOUT = "10s"
LOCK_TIMEOUT = "1s"
SAMPLE_ROWS = 2000
# A partitioned table is read a few partitions to a transaction, so the locks one holds stay this few tables'.
LEAVES_PER_TRANSACTION = 8
# pgstatindex reads every page of an index: only one this small is read.
LEAF_DENSITY_MOST_BYTES = 1024**3
WAL_BYTES = 1024**3
PAGE = 8192
STATS_ROLES = ("pg_read_all_stats", "pg_monitor", "pg_read_server_files", "pg_stat_scan_tables")


@dataclass(frozen=True)
class Options:
    schema: str | None = None
    table: str | None = None
    sample_rows: int = SAMPLE_ROWS
    wal_bytes: int = WAL_BYTES
    watch_s: float | None = None
    # The option that named the table, for the line that says it is not there.
    table_option: str = "--table"
    # Whether to read the figures of pg_walinspect, pgstattuple and pg_buffercache, which read the WAL, the
    # whole key index and every shared buffer: a reader that needs only the table's shape leaves them.
    extension_figures: bool = True
    # Called at the end of every read transaction, while its locks are still held, with the reading session's
    # backend pid and what the transaction read: how a test watches the footprint from another session.
    observe: Callable[[int, str], None] | None = field(default=None, compare=False)


@dataclass(frozen=True)
class ServerFacts:
    version_num: int
    version: str
    database: str
    shared_buffers: int
    in_recovery: bool
    stats_reset: datetime | None
    read_at: datetime
    superuser: bool
    roles: tuple[str, ...]
    extensions: dict[str, str]


@dataclass(frozen=True)
class Child:
    """A table whose foreign key repeats the key: its name, columns, size, and whether an index leads
    with the foreign key's first column."""

    name: str
    columns: tuple[str, ...]
    total_bytes: int
    indexed: bool
    # Its rows by its statistics (None: never analyzed) and its heap's bytes, all partitions.
    rows: float | None = None
    heap_bytes: int = 0
    # The foreign key's column types, the referenced key's, and the bytes of the child's index leading with
    # it (by pg_class.relpages; None: no such index).
    column_types: tuple[str, ...] = ()
    referenced_types: tuple[str, ...] = ()
    index_bytes: int | None = None
    # Rows inserted into it since the statistics began (n_tup_ins, all partitions).
    inserted_total: int | None = None


@dataclass(frozen=True)
class Check:
    """A DBA's check on a table beside its key's kind (survey/checks.py): what it is (a short kind such as
    "sequence-max-below-type"), in words, and how urgent (0 to 1, 1: act now) for ranking."""

    kind: str
    words: str
    urgency: float


@dataclass(frozen=True)
class Sequence:
    """A sequence feeding the key's leading column (its default's nextval, or its identity)."""

    oid: int
    name: str
    type: str
    max_value: int
    increment: int
    cycle: bool
    # The table and column that own it (None: owned by none), and how many columns' defaults call it.
    owner: str | None
    owned_by_key: bool
    users: int
    readable: bool
    last_value: int | None = None


@dataclass(frozen=True)
class Leaf:
    """A relation whose rows are read: a plain table, or one leaf partition of a partitioned table."""

    oid: int
    schema: str
    name: str
    pages: int
    tuples: float | None
    # Whether the role may SELECT its key column (a partition read directly is checked on its own).
    readable: bool = True


@dataclass(frozen=True)
class KeyIndex:
    """An index on the table whose columns are the key's, or unique on the key's leading column."""

    name: str
    columns: tuple[str, ...]
    unique: bool
    valid: bool
    primary: bool
    predicate: bool
    bytes: int


@dataclass
class TableFacts:
    oid: int
    schema: str
    name: str
    partition_strategy: str | None
    partitions: int
    # From pg_class's relpages until the table's size is read: what the sample's percentage is sized from.
    heap_bytes: int
    rows: float | None
    total_bytes: int | None = None
    key_source: str | None = None
    key_index: str | None = None
    index_oid: int | None = None
    index_bytes: int | None = None
    key_columns: tuple[str, ...] = ()
    key_types: tuple[str, ...] = ()
    default: str | None = None
    identity: str = ""
    sample: list[list[str]] | None = None
    sample_how: str = ""
    correlation: float | None = None
    largest: int | None = None
    inserts: int | None = None
    inserts_over_s: float | None = None
    inserts_since: str = ""
    children: list[Child] = field(default_factory=list)
    fpi_share: float | None = None
    leaf_density: float | None = None
    cached_share: float | None = None
    # Why a figure is not known: the figure's name, and what it needs (a privilege, an extension).
    needs: dict[str, str] = field(default_factory=dict)
    # Why the table's reads stopped: a lock another session holds on it.
    blocked: str | None = None
    # Why the table's answer is not known (a lock held elsewhere, row-level security, a privilege missing, the
    # table dropped while the survey ran, an unlogged table): None where it is.
    cause: str | None = None
    # The kind of key the column default's generator makes (classify's kinds; None: no generator named).
    default_kind: str | None = None
    # pg_class.relpersistence: "p" permanent, "u" unlogged.
    persistence: str = "p"
    # Whether row-level security filters the rows this role reads (enabled and not bypassed by the role).
    row_security: bool = False
    # Rows inserted since the statistics began (n_tup_ins over its partitions): a proxy where no rate is
    # known.
    inserted_total: int | None = None
    checks: list[Check] = field(default_factory=list)
    # The days an integer key has left at the current insert rate (None: no rate, or not an integer key).
    days_left: float | None = None
    # The key values of the newest pages read (each partition's last blocks), in heap order.
    sample_newest: list[str] | None = None
    # What the catalog read besides: the relations whose rows are read, the key column's attribute number,
    # its sequences, the indexes on its key columns, pg_stats' largest histogram bound of an integer key.
    leaves: list[Leaf] = field(default_factory=list)
    key_index_leaves: tuple[int, ...] = ()
    key_attnum: int | None = None
    sequences: list[Sequence] = field(default_factory=list)
    key_indexes: list[KeyIndex] = field(default_factory=list)
    stats_largest: int | None = None
    key_readable: bool = True
    schema_usable: bool = True

    @property
    def qualified(self) -> str:
        return f"{self.schema}.{self.name}"


Row = tuple[Any, ...]


class Reader:
    """One autocommit connection that reads only inside short READ ONLY transactions (`transaction`)."""

    def __init__(
        self, conn: psycopg.Connection[Row], observe: Callable[[int, str], None] | None = None
    ) -> None:
        self.conn = conn
        self.observe = observe

    def all(self, query: str | sql.Composable, *params: object) -> list[Row]:
        rows: list[Row] = self.conn.execute(query, _arguments(params)).fetchall()  # type: ignore[call-overload]
        return rows

    def one(self, query: str | sql.Composable, *params: object) -> Row:
        row: Row | None = self.conn.execute(query, _arguments(params)).fetchone()  # type: ignore[call-overload]
        assert row is not None
        return row

    @contextmanager
    def transaction(self, what: str) -> Iterator[None]:
        """One READ ONLY transaction with its own timeouts, always rolled back: WHAT names it to the observer,
        which is called before the end, while the transaction's locks are still held."""
        with self.conn.transaction(force_rollback=True):
            self.conn.execute(
                "SELECT pg_catalog.set_config('statement_timeout', %s, true), "
                "pg_catalog.set_config('lock_timeout', %s, true)",
                (STATEMENT_TIMEOUT, LOCK_TIMEOUT),
            )
            yield
            if self.observe is not None:
                self.observe(self.conn.info.backend_pid, what)


def _arguments(params: tuple[object, ...]) -> object:
    """A query's parameters: one mapping for named ones, else the positional ones (None: none)."""
    if len(params) == 1 and isinstance(params[0], dict):
        return params[0]
    return params or None


@contextmanager
def connect(
    connection: ConnectionInfo, observe: Callable[[int, str], None] | None = None
) -> Iterator[Reader]:
    """A connection for reading: autocommit, so nothing is open between the short transactions; no prepared
    statements, so nothing but the reads themselves reaches the server's statement log."""
    conn = connection.connect(autocommit=True)
    try:
        conn.prepare_threshold = None
        conn.read_only = True
        conn.isolation_level = psycopg.IsolationLevel.REPEATABLE_READ
        yield Reader(conn, observe)
    finally:
        conn.close()


@contextmanager
def read_only(connection: ConnectionInfo) -> Iterator[Reader]:
    """One short READ ONLY transaction with its own timeouts, rolled back at the end."""
    with connect(connection) as reader, reader.transaction("read"):
        yield reader


def failure(e: psycopg.Error) -> str:
    return f"the read failed: {first_line(e)}"
