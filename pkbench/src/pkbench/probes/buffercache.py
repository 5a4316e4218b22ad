"""Shared buffer contents per relation and the usage-count histogram (pg_buffercache)."""

from __future__ import annotations

from pkbench.probes import Connection

EXTENSION = "pg_buffercache"


def per_relation(conn: Connection, schema: str, block_size: int) -> list[tuple[str, int, int]]:
    """(relation, buffers, bytes) for each relation of the schema, plus `other` and `unused`."""
    rows = conn.execute(
        """
        SELECT CASE WHEN b.relfilenode IS NULL THEN 'unused'
                    WHEN c.relname IS NULL THEN 'other'
                    ELSE c.relname END AS relation,
               count(*)
        FROM pg_buffercache b
        LEFT JOIN (SELECT c.relname, pg_relation_filenode(c.oid) AS filenode
                   FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
                   WHERE n.nspname = %s) c
          ON b.relfilenode = c.filenode
         AND b.reldatabase = (SELECT oid FROM pg_database WHERE datname = current_database())
        GROUP BY 1 ORDER BY 2 DESC
        """,
        (schema,),
    ).fetchall()
    return [(str(name), int(str(n)), int(str(n)) * block_size) for name, n in rows]


def usage_counts(conn: Connection, version_num: int) -> list[tuple[int, int]]:
    """(usage_count, buffers) for 0..5; unused buffers count as 0, as pg_buffercache_usage_counts() does."""
    if version_num >= 160000:
        # 16+: one pass without building a row per buffer.
        query = "SELECT usage_count, buffers FROM pg_buffercache_usage_counts() ORDER BY 1"
    else:
        query = "SELECT coalesce(usagecount, 0), count(*) FROM pg_buffercache GROUP BY 1 ORDER BY 1"
    counts = {int(str(u)): int(str(n)) for u, n in conn.execute(query).fetchall()}
    return [(u, counts.get(u, 0)) for u in range(6)]
