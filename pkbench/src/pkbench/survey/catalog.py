"""Reading a live server's tables and their keys, read-only from the first statement to the last, with a
footprint that does not grow with the database.

The catalog is read for the whole database in a few statements (the tables and their partitions, keys,
foreign keys, statistics, sequences), each in a short READ ONLY transaction of its own, none of which opens
a table, so a lock another session holds blocks none of them. Each table is then read in short
transactions of its own (table_reads.py): its size, a sample of its keys, an integer key's largest value,
its key index's leaf density. Every transaction sets its own statement_timeout and lock_timeout and is
rolled back; nothing is created (no extension, schema, temporary table or function) and no statistics are
reset. A read the role may not make is not attempted: its figure is "unknown (needs ...)".
"""

from __future__ import annotations

import time
from collections.abc import Sequence

from pkbench.errors import PkbenchError
from pkbench.server.connection import ConnectionInfo
from pkbench.survey import checks, extensions, keys, table_reads
from pkbench.survey.facts import (
    PAGE,
    STATS_ROLES,
    Leaf,
    Options,
    Reader,
    ServerFacts,
    TableFacts,
    connect,
)
from pkbench.survey.keys import TREE


def survey(connection: ConnectionInfo, options: Options) -> tuple[ServerFacts, list[TableFacts]]:
    """The server's facts and every table's (partitions rolled up into their parent), read-only."""
    with connect(connection, options.observe) as reader:
        with reader.transaction("catalog: tables"):
            server = _server(reader)
            tables = _tables(reader, options)
            if options.schema is not None and not tables:
                (exists,) = reader.one(
                    "SELECT EXISTS (SELECT FROM pg_namespace WHERE nspname = %s)", options.schema
                )
                if not exists:
                    raise PkbenchError(
                        f"--schema {options.schema}: no such schema in database {server.database}"
                    )
            if options.table is not None and not tables:
                where = f"{options.schema}.{options.table}" if options.schema else options.table
                raise PkbenchError(
                    f"{options.table_option} {where}: no such table in database {server.database}"
                )
            _leaves(reader, tables)
        keys.read(reader, tables)
        with reader.transaction("catalog: inserts"):
            _inserts(reader, server, tables)
            allowed = extensions.allowed(reader, server) if options.extension_figures else {}
        for facts in tables:
            table_reads.read(reader, facts, options, allowed)
        if options.extension_figures:
            readable = [t for t in tables if t.cause is None]
            extensions.cached(reader, server, readable, allowed["cached share"])
            extensions.wal(reader, server, readable, options.wal_bytes, allowed["full-page image share"])
    if options.watch_s:
        _watch(connection, server, tables, options.watch_s)
    checks.attach(tables)
    return server, tables


def _server(reader: Reader) -> ServerFacts:
    (num, version, database, shared, recovery, reset, now, superuser, roles, extensions) = reader.one(
        "SELECT current_setting('server_version_num')::int, current_setting('server_version'), "
        "current_database(), pg_size_bytes(current_setting('shared_buffers')), pg_is_in_recovery(), "
        "(SELECT stats_reset FROM pg_stat_database WHERE datname = current_database()), now(), "
        "(SELECT rolsuper FROM pg_roles WHERE rolname = current_user), "
        "ARRAY(SELECT rolname FROM pg_roles WHERE rolname = ANY(%s) AND pg_has_role(rolname, 'USAGE') "
        "      ORDER BY rolname), "
        "ARRAY(SELECT ARRAY[e.extname::text, n.nspname::text] FROM pg_extension e "
        "      JOIN pg_namespace n ON n.oid = e.extnamespace)",
        list(STATS_ROLES),
    )
    return ServerFacts(
        num,
        version,
        database,
        shared,
        recovery,
        reset,
        now,
        bool(superuser),
        tuple(roles),
        {name: schema for name, schema in extensions},
    )


def _tables(reader: Reader, options: Options) -> list[TableFacts]:
    rows = reader.all(
        """
        SELECT c.oid, n.nspname, c.relname, p.partstrat, c.relpersistence,
               c.relrowsecurity AND NOT r.rolsuper AND NOT r.rolbypassrls
                 AND (c.relforcerowsecurity OR NOT pg_has_role(c.relowner, 'USAGE')),
               has_schema_privilege(n.oid, 'USAGE')
          FROM pg_class c
          JOIN pg_namespace n ON n.oid = c.relnamespace
          JOIN pg_roles r ON r.rolname = current_user
          LEFT JOIN pg_partitioned_table p ON p.partrelid = c.oid
         WHERE c.relkind IN ('r', 'p') AND NOT c.relispartition
           AND n.nspname NOT IN ('pg_catalog', 'information_schema')
           AND n.nspname NOT LIKE 'pg\\_toast%%' AND n.nspname NOT LIKE 'pg\\_temp\\_%%'
           AND NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.classid = 'pg_class'::regclass
                            AND d.objid = c.oid AND d.deptype = 'e')
           AND (%s::text IS NULL OR n.nspname = %s::text)
           AND (%s::text IS NULL OR c.relname = %s::text)
         ORDER BY n.nspname, c.relname
        """,
        options.schema,
        options.schema,
        options.table,
        options.table,
    )
    strategies = {"r": "range", "h": "hash", "l": "list"}
    found = []
    for oid, schema, name, strategy, persistence, row_security, usable in rows:
        facts = TableFacts(oid, schema, name, strategies.get(strategy) if strategy else None, 0, 0, None)
        facts.persistence, facts.row_security, facts.schema_usable = persistence, bool(row_security), usable
        found.append(facts)
    return found


def _leaves(reader: Reader, tables: Sequence[TableFacts]) -> None:
    """Each table's leaves, their pages and rows by pg_class (what the sample is sized from until the size is
    read), and the table's rows (None where a leaf was never analyzed)."""
    by_oid = {t.oid: t for t in tables}
    rows = reader.all(
        TREE
        + """
        SELECT t.root, c.oid, n.nspname, c.relname, c.relpages, c.reltuples
          FROM tree t JOIN pg_class c ON c.oid = t.relid JOIN pg_namespace n ON n.oid = c.relnamespace
         WHERE c.relkind = 'r'
         ORDER BY t.root, n.nspname, c.relname
        """,
        {"roots": list(by_oid)},
    )
    for root, oid, schema, name, pages, tuples in rows:
        by_oid[root].leaves.append(
            Leaf(oid, schema, name, int(pages), float(tuples) if tuples >= 0 else None)
        )
    for facts in tables:
        facts.partitions = len(facts.leaves) if facts.partition_strategy else 0
        facts.heap_bytes = sum(leaf.pages for leaf in facts.leaves) * PAGE
        counted = [leaf.tuples for leaf in facts.leaves]
        facts.rows = sum(t for t in counted if t is not None) if all(t is not None for t in counted) else None


def _inserts(reader: Reader, server: ServerFacts, tables: Sequence[TableFacts]) -> None:
    """Rows inserted since the statistics began, each table's leaves summed: one read for the database."""
    counts = _insert_counts(reader, tables)
    for facts in tables:
        facts.inserts = facts.inserted_total = counts.get(facts.oid)
        if server.in_recovery:
            facts.needs["insert rate"] = (
                "a primary: a standby counts no inserts (rows replayed from the WAL are not the table's)"
            )
        elif server.stats_reset is not None:
            facts.inserts_over_s = (server.read_at - server.stats_reset).total_seconds()
            facts.inserts_since = f"since the statistics were reset ({server.stats_reset:%Y-%m-%d %H:%M %Z})"
        else:
            facts.needs["insert rate"] = "--watch 60s: no statistics reset time recorded"


def _insert_counts(reader: Reader, tables: Sequence[TableFacts]) -> dict[int, int]:
    leaves = {leaf.oid: t.oid for t in tables for leaf in t.leaves}
    rows = reader.all(
        "SELECT relid, n_tup_ins FROM pg_stat_user_tables WHERE relid = ANY(%s::oid[])", list(leaves)
    )
    counts: dict[int, int] = {}
    for relid, inserted in rows:
        counts[leaves[relid]] = counts.get(leaves[relid], 0) + int(inserted or 0)
    return counts


def _watch(
    connection: ConnectionInfo, server: ServerFacts, tables: Sequence[TableFacts], seconds: float
) -> None:
    """The insert rate over SECONDS: the counters read again, for the whole database, in a second short
    read-only transaction (on a standby they count nothing: the rate stays unknown)."""
    if server.in_recovery:
        return
    start = time.monotonic()
    time.sleep(seconds)
    with connect(connection) as reader, reader.transaction("watch"):
        elapsed = time.monotonic() - start
        counts = _insert_counts(reader, tables)
    for facts in tables:
        before = facts.inserted_total or 0
        facts.inserts = counts.get(facts.oid, 0) - before
        facts.inserts_over_s = elapsed
        facts.inserts_since = f"over {elapsed:.0f} s watched"
        facts.needs.pop("insert rate", None)
