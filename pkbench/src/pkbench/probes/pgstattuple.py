"""How densely an index and a table are packed, from the pgstattuple extension.

An index grown by random inserts settles around 70% leaf density (pages split in half and fill up slowly);
one grown at its right edge packs its pages to 90%. Deleting rows leaves pages half empty until VACUUM
deletes the pages that became empty, and only keys that fall into those ranges again reuse them. These are
the figures the bloat study compares. Both functions read every page of the relation: call them outside
measured windows.
"""

from __future__ import annotations

import math
from typing import Any

import psycopg

from pkbench.errors import first_line

EXTENSION = "pgstattuple"
# Which of an index's deleted pages a new split may take now: VACUUM hands a deleted page to the free space
# map only once no transaction can still reach it, so a page can be deleted and not yet reusable.
FREESPACE_EXTENSION = "pg_freespacemap"


class PgstattupleUnavailable(Exception):
    """pgstattuple cannot be used here (missing extension or no privilege)."""


def _percent_to_fraction(value: float | None) -> float | None:
    # pgstatindex reports NaN density for an index without leaf pages: not a figure, so null.
    if value is None or math.isnan(value):
        return None
    return round(value / 100.0, 6)


def _row(conn: psycopg.Connection[Any], sql: str, relation: str) -> dict[str, Any]:
    try:
        conn.execute("CREATE EXTENSION IF NOT EXISTS pgstattuple")
        cursor = conn.execute(sql, {"relation": relation})
    except psycopg.Error as error:
        raise PgstattupleUnavailable(f"pgstattuple on {relation}: {first_line(error)}") from error
    row = cursor.fetchone()
    assert row is not None and cursor.description is not None
    return {column.name: value for column, value in zip(cursor.description, row, strict=True)}


def index_density(conn: psycopg.Connection[Any], index: str) -> dict[str, Any]:
    """Leaf density and page counts of a btree index (``index`` is a name ``::regclass`` resolves)."""
    stats = _row(conn, "SELECT * FROM pgstatindex(%(relation)s::regclass)", index)
    return {
        "index_bytes": int(stats["index_size"]),
        "tree_level": int(stats["tree_level"]),
        "internal_pages": int(stats["internal_pages"]),
        "leaf_pages": int(stats["leaf_pages"]),
        "empty_pages": int(stats["empty_pages"]),
        "deleted_pages": int(stats["deleted_pages"]),
        "avg_leaf_density": _percent_to_fraction(stats["avg_leaf_density"]),
        "leaf_fragmentation": _percent_to_fraction(stats["leaf_fragmentation"]),
    }


def reusable_pages(conn: psycopg.Connection[Any], index: str) -> int:
    """Pages of an index that the free space map offers for reuse (pg_freespacemap)."""
    sql = "SELECT count(*) AS pages FROM pg_freespace(%(relation)s::regclass) WHERE avail > 0"
    row = _row(conn, sql, index)
    return int(row["pages"])


def table_tuples(conn: psycopg.Connection[Any], table: str) -> dict[str, Any]:
    """Live and dead tuples and free space of a table (``table`` is a name ``::regclass`` resolves)."""
    stats = _row(conn, "SELECT * FROM pgstattuple(%(relation)s::regclass)", table)
    return {
        "table_bytes": int(stats["table_len"]),
        "tuple_count": int(stats["tuple_count"]),
        "tuple_bytes": int(stats["tuple_len"]),
        "tuple_fraction": _percent_to_fraction(stats["tuple_percent"]),
        "dead_tuple_count": int(stats["dead_tuple_count"]),
        "dead_tuple_bytes": int(stats["dead_tuple_len"]),
        "dead_tuple_fraction": _percent_to_fraction(stats["dead_tuple_percent"]),
        "free_bytes": int(stats["free_space"]),
        "free_fraction": _percent_to_fraction(stats["free_percent"]),
    }
