"""Relation sizes: the table, each of its indexes, the primary key, and the total."""

from __future__ import annotations

from pkbench.probes import Connection
from pkbench.results.model import Sizes


def table_sizes(conn: Connection, schema: str, table: str) -> Sizes:
    relation = f"{_quote(schema)}.{_quote(table)}"
    row = conn.execute(
        "SELECT pg_relation_size(c.oid), pg_total_relation_size(c.oid) FROM pg_class c"
        " WHERE c.oid = %s::regclass",
        (relation,),
    ).fetchone()
    assert row is not None
    indexes = conn.execute(
        "SELECT i.relname, pg_relation_size(i.oid), x.indisprimary FROM pg_index x"
        " JOIN pg_class i ON i.oid = x.indexrelid WHERE x.indrelid = %s::regclass ORDER BY i.relname",
        (relation,),
    ).fetchall()
    primary = [int(str(size)) for _, size, is_primary in indexes if is_primary]
    return Sizes(
        table_bytes=int(str(row[0])),
        primary_key_bytes=primary[0] if primary else None,
        total_bytes=int(str(row[1])),
        indexes={str(name): int(str(size)) for name, size, _ in indexes},
    )


def schema_relations(conn: Connection, schema: str) -> list[tuple[str, int]]:
    """Every table and index of the schema with its main-fork size: the sizes time series."""
    rows = conn.execute(
        "SELECT c.relname, pg_relation_size(c.oid) FROM pg_class c"
        " JOIN pg_namespace n ON n.oid = c.relnamespace"
        " WHERE n.nspname = %s AND c.relkind IN ('r', 'i') ORDER BY c.relname",
        (schema,),
    ).fetchall()
    return [(str(name), int(str(size))) for name, size in rows]


def _quote(identifier: str) -> str:
    return '"' + identifier.replace('"', '""') + '"'
