"""The figures only an extension gives, read where it is installed and the role may use it: the key
index's leaf density (pgstattuple), its cached share (pg_buffercache), its share of recent full-page images
(pg_walinspect, PostgreSQL 16 and later). Where not, the figure says what it needs."""

from __future__ import annotations

from collections.abc import Sequence

import psycopg
from psycopg import sql

from pkbench.errors import first_line
from pkbench.survey.facts import PAGE, Reader, ServerFacts, TableFacts


def allowed(reader: Reader, server: ServerFacts) -> dict[str, str | None]:
    """For each figure an extension gives, None where the role may read it, else what it needs; and the
    schema pgstattuple is installed in (under "pgstattuple schema"). One statement for the survey."""
    wanted = {
        "leaf density": ("pgstattuple", "pgstatindex(regclass)"),
        "cached share": ("pg_buffercache", "pg_buffercache_pages()"),
        "full-page image share": ("pg_walinspect", "pg_get_wal_block_info(pg_lsn,pg_lsn,boolean)"),
    }
    found: dict[str, str | None] = {}
    installed = {figure: (ext, sig) for figure, (ext, sig) in wanted.items() if ext in server.extensions}
    for figure, (extension, _) in wanted.items():
        if figure not in installed:
            found[figure] = f"the {extension} extension"
    if installed:
        names = [
            f"{sql.Identifier(server.extensions[ext]).as_string(reader.conn)}.{sig}"
            for ext, sig in installed.values()
        ]
        (grants,) = reader.one(
            "SELECT ARRAY(SELECT has_function_privilege(f, 'EXECUTE') "
            "FROM unnest(%s::text[]) WITH ORDINALITY u(f, o) "
            "ORDER BY u.o)",
            names,
        )
        for (figure, (extension, signature)), granted in zip(installed.items(), grants, strict=True):
            found[figure] = None if granted else f"EXECUTE on {extension}'s {signature.split('(')[0]}()"
    found["pgstattuple schema"] = server.extensions.get("pgstattuple")
    return found


def cached(reader: Reader, server: ServerFacts, tables: Sequence[TableFacts], why: str | None) -> None:
    """Each key index's share in shared buffers: pg_buffercache read once for every table."""
    indexed = [t for t in tables if t.index_oid is not None and t.key_index_leaves]
    if not indexed:
        return
    if why is not None:
        for facts in indexed:
            facts.needs["cached share"] = why
        return
    schema = sql.Identifier(server.extensions["pg_buffercache"])
    owner = {leaf: t.oid for t in indexed for leaf in t.key_index_leaves}
    try:
        with reader.transaction("shared buffers"):
            rows = reader.all(
                sql.SQL(
                    "SELECT c.oid, count(b.relfilenode) FROM pg_class c "
                    "LEFT JOIN {}.pg_buffercache b ON b.relfilenode = c.relfilenode "
                    "AND b.reldatabase = (SELECT oid FROM pg_database WHERE datname = current_database()) "
                    "WHERE c.oid = ANY(%s::oid[]) GROUP BY c.oid"
                ).format(schema),
                list(owner),
            )
    except psycopg.Error as e:
        for facts in indexed:
            facts.needs["cached share"] = f"the read failed: {first_line(e)}"
        return
    buffers: dict[int, int] = {}
    for oid, count in rows:
        buffers[owner[oid]] = buffers.get(owner[oid], 0) + int(count)
    for facts in indexed:
        if facts.index_bytes:
            facts.cached_share = min(1.0, buffers.get(facts.oid, 0) * PAGE / facts.index_bytes)


def _filenodes(reader: Reader, tables: Sequence[TableFacts]) -> dict[int, list[int]]:
    """Each table's key index leaves' file nodes, from pg_class (no lock taken)."""
    owner = {leaf: t.oid for t in tables for leaf in t.key_index_leaves}
    found: dict[int, list[int]] = {t.oid: [] for t in tables}
    for oid, node in reader.all(
        "SELECT oid, relfilenode FROM pg_class WHERE oid = ANY(%s::oid[])", list(owner)
    ):
        found[owner[oid]].append(int(node))
    return found


def wal(
    reader: Reader, server: ServerFacts, tables: Sequence[TableFacts], wal_bytes: int, why: str | None
) -> None:
    """Each key index's share of the full-page images in the last WAL_BYTES of WAL (at most back to the
    last checkpoint's redo point, the oldest WAL surely kept), read once for every table."""
    indexed = [t for t in tables if t.index_oid is not None and t.persistence != "u"]
    if not indexed:
        return
    why = (
        "PostgreSQL 16's pg_walinspect (pg_get_wal_block_info)"
        if server.version_num < 160000
        else "a primary (pg_current_wal_lsn)"
        if server.in_recovery
        else why
    )
    if why is not None:
        for facts in indexed:
            facts.needs["full-page image share"] = why
        return
    schema = sql.Identifier(server.extensions["pg_walinspect"])
    try:
        with reader.transaction("wal"):
            (allowed,) = reader.one("SELECT has_function_privilege('pg_control_checkpoint()', 'EXECUTE')")
            if not allowed:
                for facts in indexed:
                    facts.needs["full-page image share"] = "EXECUTE on pg_control_checkpoint()"
                return
            nodes = _filenodes(reader, indexed)
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
            facts.fpi_share = sum(by_node.get(n, 0) for n in nodes.get(facts.oid, [])) / total
        else:
            facts.needs["full-page image share"] = "full-page images in the WAL read (there were none)"
