"""The WAL a measured window wrote, read back with pg_walinspect (PostgreSQL 15+).

pg_stat_wal counts bytes and full-page images; pg_walinspect says what those bytes were: how much of the WAL
is full-page images versus the records themselves, how many btree page splits happened, and how many distinct
blocks of each index the WAL touched (a random key spreads its inserts over the whole index, a time-ordered
key keeps hitting the same rightmost pages).

The window's WAL is held by a temporary physical replication slot, so a checkpoint during the window cannot
recycle it before it is read; the slot goes when the window closes (or with the session, if pkbench dies).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import TracebackType
from typing import Any

import psycopg

from pkbench.errors import first_line

# nbtree's split records, by pg_walinspect's record_type name; the same names from PostgreSQL 15 to 18.
BTREE_SPLIT_RECORDS = ("SPLIT_L", "SPLIT_R")

# Per relation: distinct main-fork blocks the WAL mentions, and btree split records on it. PostgreSQL 16 has
# one row per block reference; 15 only has block_ref text per record
# ("blkref #0: rel 1663/5/16403 fork main blk 1 (FPW); hole: ..."), parsed here.
_BLOCKS_BY_RELATION_16 = """
SELECT relfilenode::bigint,
       count(DISTINCT relblocknumber),
       count(DISTINCT start_lsn) FILTER (WHERE resource_manager = 'Btree' AND record_type = ANY(%(splits)s))
  FROM pg_get_wal_block_info(%(start)s, %(end)s, false)
 WHERE reldatabase = (SELECT oid FROM pg_database WHERE datname = current_database())
   AND relforknumber = 0
   AND relfilenode = ANY(%(filenodes)s::oid[])
 GROUP BY relfilenode
"""
_BLOCKS_BY_RELATION_15 = """
SELECT ref[2]::bigint,
       count(DISTINCT ref[4]::bigint),
       count(DISTINCT r.start_lsn)
           FILTER (WHERE r.resource_manager = 'Btree' AND r.record_type = ANY(%(splits)s))
  FROM pg_get_wal_records_info(%(start)s, %(end)s) AS r,
       regexp_matches(r.block_ref, 'rel \\d+/(\\d+)/(\\d+) (?:fork (\\w+) )?blk (\\d+)', 'g') AS ref
 WHERE ref[1]::oid = (SELECT oid FROM pg_database WHERE datname = current_database())
   AND coalesce(ref[3], 'main') = 'main'
   AND ref[2]::oid = ANY(%(filenodes)s::oid[])
 GROUP BY 1
"""
_STATS = """
SELECT coalesce(sum(count), 0)::bigint,
       coalesce(sum(record_size), 0)::bigint,
       coalesce(sum(fpi_size), 0)::bigint,
       coalesce(sum(count) FILTER (WHERE "resource_manager/record_type" = ANY(%(split_names)s)), 0)::bigint
  FROM pg_get_wal_stats(%(start)s, %(end)s, true)
"""

WALINSPECT_EXTENSION = "pg_walinspect"
# The workload fields only pg_walinspect fills (WalInspection.figures names them all).
WALINSPECT_FIGURES = ("wal_fpi_bytes", "page_splits")


class WalInspectUnavailable(Exception):
    """pg_walinspect cannot be used here (missing extension, no privilege, no replication slots)."""


@dataclass(frozen=True)
class WalInspection:
    """What the WAL between two LSNs was made of."""

    start_lsn: str
    end_lsn: str
    records: int
    record_bytes: int  # record headers and data, full-page images excluded
    fpi_bytes: int
    page_splits: int  # every btree in the database
    distinct_blocks: dict[str, int] = field(default_factory=dict)  # relation label → blocks
    page_splits_by_relation: dict[str, int] = field(default_factory=dict)

    @property
    def wal_bytes(self) -> int:
        return self.record_bytes + self.fpi_bytes

    def figures(self, transactions: int) -> dict[str, Any]:
        """The workload fields docs/results.md names, per window and per transaction."""

        def per_transaction(value: int) -> float | None:
            return value / transactions if transactions > 0 else None

        return {
            "wal_fpi_bytes": self.fpi_bytes,
            "wal_record_bytes": self.record_bytes,
            "wal_fpi_bytes_per_transaction": per_transaction(self.fpi_bytes),
            "wal_record_bytes_per_transaction": per_transaction(self.record_bytes),
            "page_splits": self.page_splits,
            "page_splits_per_transaction": per_transaction(self.page_splits),
            "page_splits_by_relation": dict(self.page_splits_by_relation),
            "wal_distinct_blocks": dict(self.distinct_blocks),
        }


def _scalar(conn: psycopg.Connection[Any], sql: str, params: Mapping[str, Any] | None = None) -> Any:
    row = conn.execute(sql, params).fetchone()
    assert row is not None
    return row[0]


class WalWindow:
    """Hold the WAL from ``__enter__`` on; ``inspect()`` reads it; ``__exit__`` releases it.

    ``conn`` must stay open for the whole window (the slot is temporary, tied to its session), be a superuser
    or a member of pg_read_server_files with REPLICATION, and be in autocommit mode so the slot outlives the
    statements around it.
    """

    def __init__(self, conn: psycopg.Connection[Any], slot_name: str | None = None) -> None:
        self.conn = conn
        self.slot_name = slot_name or f"pkbench_wal_{os.getpid()}"
        self.start_lsn: str | None = None
        self._slot_held = False

    def __enter__(self) -> WalWindow:
        try:
            self.conn.execute("CREATE EXTENSION IF NOT EXISTS pg_walinspect")
            self.conn.execute("SELECT pg_create_physical_replication_slot(%s, true, true)", (self.slot_name,))
        except psycopg.Error as error:
            raise WalInspectUnavailable(f"pg_walinspect window: {first_line(error)}") from error
        self._slot_held = True
        self.start_lsn = str(_scalar(self.conn, "SELECT pg_current_wal_lsn()"))
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        if not self._slot_held or self.conn.closed:
            return
        self._slot_held = False
        self.conn.execute(
            "SELECT pg_drop_replication_slot(slot_name) FROM pg_replication_slots WHERE slot_name = %s",
            (self.slot_name,),
        )

    def inspect(self, relations: Mapping[str, str] | None = None) -> WalInspection:
        """The WAL from the start of the window to what is flushed now.

        ``relations`` maps a label (as results.json names the relation) to a name ``::regclass`` resolves;
        for each, the distinct blocks and the split records on it are counted.
        """
        if self.start_lsn is None:
            raise RuntimeError("inspect() is for inside the with block")
        relations = dict(relations or {})
        row = self.conn.execute(
            "SELECT pg_current_wal_flush_lsn(), pg_current_wal_flush_lsn() > %s::pg_lsn", (self.start_lsn,)
        ).fetchone()
        assert row is not None
        end_lsn, any_wal = str(row[0]), bool(row[1])
        bounds = {"start": self.start_lsn, "end": end_lsn}
        try:
            label_by_filenode = self._filenodes(relations)
            if not any_wal:
                # PostgreSQL 15 refuses a range that starts at the flush position.
                empty = dict.fromkeys(relations, 0)
                return WalInspection(self.start_lsn, end_lsn, 0, 0, 0, 0, empty, dict(empty))
            row = self.conn.execute(
                _STATS, {**bounds, "split_names": [f"Btree/{name}" for name in BTREE_SPLIT_RECORDS]}
            ).fetchone()
            assert row is not None
            records, record_bytes, fpi_bytes, splits = row
            blocks, splits_by_relation = self._per_relation(bounds, label_by_filenode)
        except psycopg.Error as error:
            raise WalInspectUnavailable(f"pg_walinspect: {first_line(error)}") from error
        return WalInspection(
            start_lsn=self.start_lsn,
            end_lsn=end_lsn,
            records=records,
            record_bytes=record_bytes,
            fpi_bytes=fpi_bytes,
            page_splits=splits,
            distinct_blocks=blocks,
            page_splits_by_relation=splits_by_relation,
        )

    def _filenodes(self, relations: Mapping[str, str]) -> dict[int, str]:
        label_by_filenode: dict[int, str] = {}
        for label, name in relations.items():
            filenode = _scalar(self.conn, "SELECT pg_relation_filenode(%(name)s::regclass)", {"name": name})
            label_by_filenode[int(filenode)] = label
        return label_by_filenode

    def _per_relation(
        self, bounds: Mapping[str, str], label_by_filenode: Mapping[int, str]
    ) -> tuple[dict[str, int], dict[str, int]]:
        if not label_by_filenode:
            return {}, {}
        version = int(_scalar(self.conn, "SELECT current_setting('server_version_num')"))
        sql = _BLOCKS_BY_RELATION_16 if version >= 160000 else _BLOCKS_BY_RELATION_15
        rows = self.conn.execute(
            sql, {**bounds, "splits": list(BTREE_SPLIT_RECORDS), "filenodes": list(label_by_filenode)}
        ).fetchall()
        blocks = dict.fromkeys(label_by_filenode.values(), 0)
        splits = dict.fromkeys(label_by_filenode.values(), 0)
        for filenode, block_count, split_count in rows:
            blocks[label_by_filenode[filenode]] = block_count
            splits[label_by_filenode[filenode]] = split_count
        return blocks, splits
