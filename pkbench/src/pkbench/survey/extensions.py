"""The figures only an extension gives, read where it is installed and the role may use it: the key
index's leaf density (pgstattuple), its cached share (pg_buffercache), its share of recent full-page images
(pg_walinspect, PostgreSQL 16 and later). Where not, the figure says what it needs."""

from __future__ import annotations

from collections.abc import Sequence

import psycopg
from psycopg import sql

from pkbench.errors import first_line
from pkbench.survey.facts import LEAF_DENSITY_MOST_BYTES, PAGE, Reader, ServerFacts, TableFacts, leaves


def _function_allowed(reader: Reader, server: ServerFacts, extension: str, signature: str) -> str | None:
    """None when EXTENSION is installed and the role may call SIGNATURE; else what it needs."""
    schema = server.extensions.get(extension)
    if schema is None:
        return f"the {extension} extension"
    qualified = f"{sql.Identifier(schema).as_string(reader.conn)}.{signature}"
    (allowed,) = reader.one("SELECT has_function_privilege(%s, 'EXECUTE')", qualified)
    return None if allowed else f"EXECUTE on {extension}'s {signature.split('(')[0]}()"


def leaf_density(reader: Reader, server: ServerFacts, facts: TableFacts) -> None:
    if facts.index_oid is None:
        return
    why = _function_allowed(reader, server, "pgstattuple", "pgstatindex(regclass)")
    if why is None and (facts.index_bytes or 0) > LEAF_DENSITY_MOST_BYTES:
        why = "an index of at most 1 GiB (pgstatindex reads every page)"
    if why is not None:
        facts.needs["leaf density"] = why
        return
    schema = sql.Identifier(server.extensions["pgstattuple"])
    with reader.attempt(facts, "leaf density"):
        total_pages, density = 0, 0.0
        for leaf in leaves(reader, facts.index_oid):
            (pages, leaf_density) = reader.one(
                sql.SQL("SELECT leaf_pages, avg_leaf_density FROM {}.pgstatindex(%s::regclass)").format(
                    schema
                ),
                leaf,
            )
            if pages and leaf_density == leaf_density:  # NaN for an empty index
                total_pages += pages
                density += pages * leaf_density
        facts.leaf_density = density / total_pages / 100 if total_pages else None


def _filenodes(reader: Reader, index_oid: int) -> list[int]:
    return [
        r[0]
        for leaf in leaves(reader, index_oid)
        for r in reader.all("SELECT pg_relation_filenode(%s::oid)", leaf)
        if r[0] is not None
    ]


def cached(reader: Reader, server: ServerFacts, facts: TableFacts) -> None:
    if facts.index_oid is None:
        return
    why = _function_allowed(reader, server, "pg_buffercache", "pg_buffercache_pages()")
    if why is not None:
        facts.needs["cached share"] = why
        return
    schema = sql.Identifier(server.extensions["pg_buffercache"])
    with reader.attempt(facts, "cached share"):
        (buffers,) = reader.one(
            sql.SQL(
                "SELECT count(*) FROM {}.pg_buffercache b WHERE b.relfilenode = ANY(%s::oid[]) "
                "AND b.reldatabase = (SELECT oid FROM pg_database WHERE datname = current_database())"
            ).format(schema),
            _filenodes(reader, facts.index_oid),
        )
        facts.cached_share = min(1.0, buffers * PAGE / facts.index_bytes) if facts.index_bytes else None


def wal(reader: Reader, server: ServerFacts, tables: Sequence[TableFacts], wal_bytes: int) -> None:
    """Each key index's share of the full-page images in the last WAL_BYTES of WAL (at most back to the
    last checkpoint's redo point, the oldest WAL surely kept), read once for every table."""
    indexed = [t for t in tables if t.index_oid is not None]
    if not indexed:
        return
    why = (
        "PostgreSQL 16's pg_walinspect (pg_get_wal_block_info)"
        if server.version_num < 160000
        else "a primary (pg_current_wal_lsn)"
        if server.in_recovery
        else _function_allowed(
            reader, server, "pg_walinspect", "pg_get_wal_block_info(pg_lsn,pg_lsn,boolean)"
        )
    )
    if why is None:
        (allowed,) = reader.one("SELECT has_function_privilege('pg_control_checkpoint()', 'EXECUTE')")
        why = None if allowed else "EXECUTE on pg_control_checkpoint()"
    if why is not None:
        for facts in indexed:
            facts.needs["full-page image share"] = why
        return
    schema = sql.Identifier(server.extensions["pg_walinspect"])
    nodes = {t.oid: _filenodes(reader, t.index_oid) for t in indexed if t.index_oid is not None}
    try:
        with reader.conn.transaction():
            rows = reader.all(
                sql.SQL(
                    "WITH w AS (SELECT pg_current_wal_lsn() - least(%s::numeric, "
                    "pg_current_wal_lsn() - (SELECT redo_lsn FROM pg_control_checkpoint())) AS start) "
                    "SELECT b.relfilenode, b.reldatabase = (SELECT oid FROM pg_database "
                    "WHERE datname = current_database()), sum(b.block_fpi_length) FROM w, "
                    "{}.pg_get_wal_block_info(w.start, pg_current_wal_lsn(), false) b "
                    "WHERE b.block_fpi_length > 0 GROUP BY 1, 2"
                ).format(schema),
                wal_bytes,
            )
    except psycopg.Error as e:
        for facts in indexed:
            facts.needs["full-page image share"] = f"the read failed: {first_line(e)}"
        return
    by_node = {int(node): int(size) for node, here, size in rows if here}
    total = sum(int(size) for *_, size in rows)
    for facts in indexed:
        if total:
            facts.fpi_share = sum(by_node.get(n, 0) for n in nodes[facts.oid]) / total
        else:
            facts.needs["full-page image share"] = "full-page images in the WAL read (there were none)"
