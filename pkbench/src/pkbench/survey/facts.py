"""What the survey reads and how: the facts of the server and of each table, and the one READ ONLY
transaction every read goes through (catalog.py and extensions.py read through it)."""

from __future__ import annotations

from collections.abc import Iterator
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

    @property
    def qualified(self) -> str:
        return f"{self.schema}.{self.name}"


Row = tuple[Any, ...]


class Reader:
    def __init__(self, conn: psycopg.Connection[Row]) -> None:
        self.conn = conn

    def all(self, query: str | sql.Composable, *params: object) -> list[Row]:
        return self.conn.execute(query, params or None).fetchall()  # type: ignore[arg-type]

    def one(self, query: str | sql.Composable, *params: object) -> Row:
        row = self.conn.execute(query, params or None).fetchone()  # type: ignore[arg-type]
        assert row is not None
        return row

    @contextmanager
    def attempt(self, facts: TableFacts, figure: str) -> Iterator[None]:
        """A read that may fail (a timeout, a lock, a privilege the catalog did not show): undone to its
        savepoint, the figure unknown with the server's reason."""
        try:
            with self.conn.transaction():
                yield
        except psycopg.Error as e:
            facts.needs[figure] = f"the read failed: {first_line(e)}"
            if isinstance(e, psycopg.errors.LockNotAvailable):
                facts.blocked = facts.needs[figure]


@contextmanager
def read_only(connection: ConnectionInfo) -> Iterator[Reader]:
    """One READ ONLY transaction with its own timeouts, rolled back at the end."""
    conn = connection.connect(autocommit=False)
    try:
        # No prepared statements: nothing but the reads themselves reaches the server's statement log.
        conn.prepare_threshold = None
        conn.read_only = True
        conn.isolation_level = psycopg.IsolationLevel.REPEATABLE_READ
        conn.execute(sql.SQL("SET LOCAL statement_timeout = {}").format(sql.Literal(STATEMENT_TIMEOUT)))
        conn.execute(sql.SQL("SET LOCAL lock_timeout = {}").format(sql.Literal(LOCK_TIMEOUT)))
        yield Reader(conn)
    finally:
        if not conn.closed:
            conn.rollback()
        conn.close()


def leaves(reader: Reader, oid: int) -> list[int]:
    """The leaves of OID's partition tree, or OID itself for a plain table or index (which has no tree)."""
    found = [r[0] for r in reader.all("SELECT relid::oid FROM pg_partition_tree(%s) WHERE isleaf", oid)]
    return found or [oid]


def leaves_sql(relation: str) -> str:
    """leaves() in SQL, for the relation the expression RELATION names."""
    return (
        f"(SELECT t.relid::oid AS relid FROM pg_partition_tree({relation}) t WHERE t.isleaf UNION ALL "
        f"SELECT ({relation})::oid WHERE NOT EXISTS (SELECT FROM pg_partition_tree({relation})))"
    )
