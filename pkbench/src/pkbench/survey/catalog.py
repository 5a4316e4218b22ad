"""Reading a live server's tables and their keys, read-only from the first statement to the last.

Everything is read in one READ ONLY, REPEATABLE READ transaction that sets its own statement_timeout and
lock_timeout and is rolled back at the end: nothing is created (no extension, schema, temporary table or
function) and no statistics are reset. Values are sampled with TABLESAMPLE SYSTEM at a percentage that
gives about SAMPLE_ROWS rows, with a LIMIT besides, so a large table is never read whole. A read the role
may not make is not attempted: its figure is "unknown (needs ...)". A read that fails anyway (a timeout, a
lock held) is undone to its savepoint and says why, and the survey goes on.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence

from psycopg import sql

from pkbench.errors import PkbenchError
from pkbench.server.connection import ConnectionInfo
from pkbench.survey import extensions
from pkbench.survey.facts import (
    PAGE,
    STATS_ROLES,
    Child,
    Options,
    Reader,
    ServerFacts,
    TableFacts,
    leaves,
    leaves_sql,
    read_only,
)


def survey(connection: ConnectionInfo, options: Options) -> tuple[ServerFacts, list[TableFacts]]:
    """The server's facts and every table's (partitions rolled up into their parent), read-only."""
    with read_only(connection) as reader:
        server = _server(reader)
        tables = _tables(reader, options)
        if options.table is not None and not tables:
            where = f"{options.schema}.{options.table}" if options.schema else options.table
            raise PkbenchError(f"{options.table_option} {where}: no such table in database {server.database}")
        for facts in tables:
            _read_table(reader, server, facts, options)
        if options.extension_figures:
            extensions.wal(reader, server, [t for t in tables if t.blocked is None], options.wal_bytes)
    if options.watch_s:
        _watch(connection, tables, options.watch_s)
    return server, tables


# MaxHeapTuplesPerPage of an 8 kB page.
ROWS_PER_PAGE_AT_MOST = 291


def _read_table(reader: Reader, server: ServerFacts, facts: TableFacts, options: Options) -> None:
    """Each figure of FACTS's table in a savepoint of its own."""
    stages: list[tuple[str, Callable[[], None]]] = [
        ("size", lambda: _sizes(reader, facts)),
        ("key", lambda: _key(reader, facts)),
        ("children", lambda: _children(reader, facts)),
        ("insert rate", lambda: _inserts(reader, server, facts)),
        ("values", lambda: _sample(reader, facts, options.sample_rows)),
        ("range used", lambda: _largest(reader, facts)),
    ]
    if options.extension_figures:
        stages += [
            ("leaf density", lambda: extensions.leaf_density(reader, server, facts)),
            ("cached share", lambda: extensions.cached(reader, server, facts)),
        ]
    for figure, stage in stages:
        # A table whose lock another session holds (DDL under way) is left after the first wait
        # for it, not waited on once more for each figure.
        if facts.blocked is not None:
            facts.needs[figure] = facts.blocked
            continue
        with reader.attempt(facts, figure):
            stage()


def _server(reader: Reader) -> ServerFacts:
    (num, version, database, shared, recovery, reset, now, superuser) = reader.one(
        "SELECT current_setting('server_version_num')::int, current_setting('server_version'), "
        "current_database(), pg_size_bytes(current_setting('shared_buffers')), pg_is_in_recovery(), "
        "(SELECT stats_reset FROM pg_stat_database WHERE datname = current_database()), now(), "
        "(SELECT rolsuper FROM pg_roles WHERE rolname = current_user)"
    )
    roles = tuple(
        r[0]
        for r in reader.all(
            "SELECT rolname FROM pg_roles WHERE rolname = ANY(%s) AND pg_has_role(rolname, 'USAGE') "
            "ORDER BY rolname",
            list(STATS_ROLES),
        )
    )
    extensions = {
        name: schema
        for name, schema in reader.all(
            "SELECT e.extname, n.nspname FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace"
        )
    }
    return ServerFacts(
        num, version, database, shared, recovery, reset, now, bool(superuser), roles, extensions
    )


def _tables(reader: Reader, options: Options) -> list[TableFacts]:
    rows = reader.all(
        f"""
        SELECT c.oid, n.nspname, c.relname, p.partstrat,
               (SELECT count(*) FROM pg_partition_tree(c.oid) t WHERE t.isleaf AND t.relid <> c.oid),
               (SELECT sum(l.relpages) FROM {leaves_sql("c.oid")} t JOIN pg_class l ON l.oid = t.relid),
               (SELECT CASE WHEN bool_and(l.reltuples >= 0) THEN sum(l.reltuples) END
                  FROM {leaves_sql("c.oid")} t JOIN pg_class l ON l.oid = t.relid)
          FROM pg_class c
          JOIN pg_namespace n ON n.oid = c.relnamespace
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
    return [
        TableFacts(
            oid,
            schema,
            name,
            strategies.get(strategy) if strategy else None,
            partitions,
            int(pages or 0) * PAGE,
            float(tuples) if tuples is not None else None,
        )
        for oid, schema, name, strategy, partitions, pages, tuples in rows
    ]


def _sizes(reader: Reader, facts: TableFacts) -> None:
    """Table, indexes and TOAST of every partition (each opened, so a lock held on it is waited for)."""
    (total, heap) = reader.one(
        "SELECT coalesce(sum(pg_total_relation_size(t)), 0), coalesce(sum(pg_relation_size(t)), 0) "
        "FROM unnest(%s::oid[]) t",
        leaves(reader, facts.oid),
    )
    facts.total_bytes, facts.heap_bytes = int(total), int(heap)


def _key(reader: Reader, facts: TableFacts) -> None:
    """The primary key, else the first valid unique index on plain columns without a predicate."""
    found = reader.all(
        f"""
        SELECT i.indexrelid, i.indisprimary, i.indexrelid::regclass::text, i.indkey::int2[],
               (SELECT coalesce(sum(pg_relation_size(t.relid)), 0) FROM {leaves_sql("i.indexrelid")} t)
          FROM pg_index i
         WHERE i.indrelid = %s AND (i.indisprimary OR (i.indisunique AND i.indpred IS NULL
                                    AND i.indexprs IS NULL AND i.indisvalid))
         ORDER BY i.indisprimary DESC, i.indexrelid::regclass::text
         LIMIT 1
        """,
        facts.oid,
    )
    if not found:
        return
    index_oid, primary, index_name, columns, index_bytes = found[0]
    facts.key_source = "primary key" if primary else "unique index"
    facts.index_oid, facts.key_index, facts.index_bytes = index_oid, index_name, int(index_bytes)
    attributes = reader.all(
        """
        SELECT a.attnum, a.attname, format_type(a.atttypid, NULL), a.attidentity,
               pg_get_expr(d.adbin, d.adrelid)
          FROM pg_attribute a
          LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
         WHERE a.attrelid = %s AND a.attnum = ANY(%s::int2[])
        """,
        facts.oid,
        list(columns),
    )
    by_number = {row[0]: row for row in attributes}
    ordered = [by_number[n] for n in columns]
    facts.key_columns = tuple(row[1] for row in ordered)
    facts.key_types = tuple(row[2] for row in ordered)
    # The leading column decides where an insert lands in the index: a composite key is read by it.
    facts.identity, facts.default = ordered[0][3] or "", ordered[0][4]


def _children(reader: Reader, facts: TableFacts) -> None:
    rows = reader.all(
        f"""
        SELECT con.conrelid::regclass::text,
               ARRAY(SELECT a.attname FROM unnest(con.conkey) WITH ORDINALITY k(n, o)
                       JOIN pg_attribute a ON a.attrelid = con.conrelid AND a.attnum = k.n ORDER BY k.o),
               (SELECT coalesce(sum(pg_total_relation_size(t.relid)), 0) FROM {leaves_sql("con.conrelid")} t),
               EXISTS (SELECT 1 FROM pg_index x
                        WHERE x.indrelid = con.conrelid AND x.indkey[0] = con.conkey[1]),
               (SELECT CASE WHEN bool_and(l.reltuples >= 0) THEN sum(l.reltuples) END
                  FROM {leaves_sql("con.conrelid")} t JOIN pg_class l ON l.oid = t.relid),
               (SELECT coalesce(sum(l.relpages), 0) FROM {leaves_sql("con.conrelid")} t
                  JOIN pg_class l ON l.oid = t.relid)
          FROM pg_constraint con
         WHERE con.contype = 'f' AND con.confrelid = %s AND con.conparentid = 0
         ORDER BY 1, con.conname
        """,
        facts.oid,
    )
    facts.children = [
        Child(
            name,
            tuple(cols),
            int(size),
            indexed,
            float(tuples) if tuples is not None else None,
            int(pages) * PAGE,
        )
        for name, cols, size, indexed, tuples, pages in rows
    ]


def _inserts(reader: Reader, server: ServerFacts, facts: TableFacts) -> None:
    (inserts,) = reader.one(
        "SELECT sum(n_tup_ins) FROM pg_stat_user_tables WHERE relid = ANY(%s::oid[])",
        leaves(reader, facts.oid),
    )
    facts.inserts = int(inserts) if inserts is not None else None
    if server.stats_reset is not None:
        facts.inserts_over_s = (server.read_at - server.stats_reset).total_seconds()
        facts.inserts_since = f"since the statistics were reset ({server.stats_reset:%Y-%m-%d %H:%M %Z})"
    else:
        facts.needs["insert rate"] = "--watch 60s: no statistics reset time recorded"


def _privileged(reader: Reader, facts: TableFacts, figure: str) -> bool:
    """Whether the role may read the key's (leading) column; else the figure needs SELECT on it."""
    (schema, allowed) = reader.one(
        "SELECT has_schema_privilege(%s, 'USAGE'), has_column_privilege(%s, %s, 'SELECT')",
        facts.schema,
        facts.oid,
        facts.key_columns[0],
    )
    if not schema:
        facts.needs[figure] = f"USAGE on schema {facts.schema}"
    elif not allowed:
        facts.needs[figure] = f"SELECT on {facts.qualified} ({facts.key_columns[0]})"
    return bool(schema and allowed)


def _sample(reader: Reader, facts: TableFacts, bound: int) -> None:
    """Key values in heap order, a group per partition, from TABLESAMPLE SYSTEM (whole pages at random)
    at the percentage that gives about BOUND rows, and at most BOUND; and pg_stats' correlation."""
    if not facts.key_columns:
        return
    column = facts.key_columns[0]
    stats = reader.all(
        "SELECT correlation FROM pg_stats WHERE schemaname = %s AND tablename = %s AND attname = %s "
        "ORDER BY inherited DESC LIMIT 1",
        facts.schema,
        facts.name,
        column,
    )
    if stats and stats[0][0] is not None:
        facts.correlation = float(stats[0][0])
    if not _privileged(reader, facts, "values"):
        facts.needs["pg_stats correlation"] = facts.needs["values"]
        return
    if not stats:
        facts.needs["pg_stats correlation"] = f"ANALYZE {facts.qualified} (no statistics yet)"
    # Never analyzed: as many rows as the narrowest rows fit in its pages, so the sample stays within BOUND.
    rows = facts.rows if facts.rows and facts.rows > 0 else facts.heap_bytes / PAGE * ROWS_PER_PAGE_AT_MOST
    percent = min(100.0, max(0.001, 100.0 * 2 * bound / max(rows, 1.0)))
    query = sql.SQL(
        "SELECT tableoid::oid, ctid, {column}::text FROM {table} TABLESAMPLE SYSTEM ({percent}) "
        "WHERE {column} IS NOT NULL LIMIT {bound}"
    ).format(
        column=sql.Identifier(column),
        table=sql.Identifier(facts.schema, facts.name),
        percent=sql.Literal(percent),
        bound=sql.Literal(bound),
    )
    with reader.attempt(facts, "values"):
        groups: dict[int, list[tuple[tuple[int, int], str]]] = {}
        for partition, ctid, value in reader.all(query):
            block, offset = str(ctid).strip("()").split(",")
            groups.setdefault(partition, []).append(((int(block), int(offset)), value))
        facts.sample = [[value for _, value in sorted(group)] for group in groups.values()]
        facts.sample_how = (
            f"TABLESAMPLE SYSTEM ({percent:.3g}%) LIMIT {bound:,}: the keys' rank correlation with "
            "their heap position (insertion order where rows are appended)"
        )


def _largest(reader: Reader, facts: TableFacts) -> None:
    """An integer key's largest value (an index's last entry), or its sequence's last value if larger."""
    if not facts.key_types or facts.key_types[0] not in ("smallint", "integer", "bigint"):
        return
    column = facts.key_columns[0]
    found: list[int] = []
    (sequence,) = reader.one("SELECT pg_get_serial_sequence(%s::oid::regclass::text, %s)", facts.oid, column)
    if sequence is not None:
        rows = reader.all(
            "SELECT last_value FROM pg_sequences WHERE format('%%I.%%I', schemaname, sequencename) = %s",
            sequence,
        )
        found += [int(r[0]) for r in rows if r[0] is not None]
    if _privileged(reader, facts, "range used"):
        query = sql.SQL("SELECT max({}) FROM {}").format(
            sql.Identifier(column), sql.Identifier(facts.schema, facts.name)
        )
        with reader.attempt(facts, "range used"):
            (most,) = reader.one(query)
            found += [int(most)] if most is not None else []
    if found:
        facts.largest = max(found)
        facts.needs.pop("range used", None)


def _watch(connection: ConnectionInfo, tables: Sequence[TableFacts], seconds: float) -> None:
    """The insert rate over SECONDS: the counters read again in a second read-only transaction."""
    start = time.monotonic()
    time.sleep(seconds)
    with read_only(connection) as reader:
        elapsed = time.monotonic() - start
        for facts in tables:
            (inserts,) = reader.one(
                "SELECT sum(n_tup_ins) FROM pg_stat_user_tables WHERE relid = ANY(%s::oid[])",
                leaves(reader, facts.oid),
            )
            before = facts.inserts or 0
            facts.inserts = int(inserts or 0) - before
            facts.inserts_over_s = elapsed
            facts.inserts_since = f"over {elapsed:.0f} s watched"
            facts.needs.pop("insert rate", None)
