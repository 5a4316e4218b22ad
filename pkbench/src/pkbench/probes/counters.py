"""Cumulative counters read before and after a measured window: WAL, block hits and reads, checkpoints."""

from __future__ import annotations

from dataclasses import dataclass, field

import psycopg

from pkbench.errors import first_line
from pkbench.probes import Connection
from pkbench.results.model import Unavailable


@dataclass
class Snapshot:
    wal_bytes: int | None = None
    wal_records: int | None = None
    wal_fpi: int | None = None
    wal_lsn: str | None = None
    blocks: dict[str, tuple[int, int]] = field(default_factory=dict)  # relation → (hit, read)
    checkpoints_timed: int | None = None
    checkpoints_requested: int | None = None
    unavailable: list[Unavailable] = field(default_factory=list)


def read(conn: Connection, schema: str, version_num: int) -> Snapshot:
    snapshot = Snapshot()
    _read_wal(conn, snapshot)
    _read_blocks(conn, schema, snapshot)
    _read_checkpoints(conn, version_num, snapshot)
    return snapshot


def _read_wal(conn: Connection, snapshot: Snapshot) -> None:
    # pg_stat_wal exists from 14; the current LSN is the fallback for the byte count.
    try:
        row = conn.execute("SELECT wal_bytes, wal_records, wal_fpi FROM pg_stat_wal").fetchone()
        assert row is not None
        snapshot.wal_bytes, snapshot.wal_records, snapshot.wal_fpi = (int(str(v)) for v in row)
    except psycopg.Error as e:
        for metric in ("wal_records", "wal_fpi"):
            snapshot.unavailable.append(Unavailable(metric, f"pg_stat_wal: {first_line(e)}"))
    try:
        row = conn.execute("SELECT pg_current_wal_lsn()::text").fetchone()
        snapshot.wal_lsn = str(row[0]) if row else None
    except psycopg.Error as e:
        snapshot.unavailable.append(Unavailable("wal_lsn", f"pg_current_wal_lsn(): {e.diag.message_primary}"))


def _read_blocks(conn: Connection, schema: str, snapshot: Snapshot) -> None:
    rows = conn.execute(
        "SELECT relname, coalesce(heap_blks_hit, 0), coalesce(heap_blks_read, 0)"
        " FROM pg_statio_user_tables WHERE schemaname = %s"
        " UNION ALL SELECT indexrelname, coalesce(idx_blks_hit, 0), coalesce(idx_blks_read, 0)"
        " FROM pg_statio_user_indexes WHERE schemaname = %s",
        (schema, schema),
    ).fetchall()
    snapshot.blocks = {str(name): (int(str(hit)), int(str(read))) for name, hit, read in rows}


def _read_checkpoints(conn: Connection, version_num: int, snapshot: Snapshot) -> None:
    query = (
        "SELECT num_timed, num_requested FROM pg_stat_checkpointer"
        if version_num >= 170000
        else "SELECT checkpoints_timed, checkpoints_req FROM pg_stat_bgwriter"
    )
    row = conn.execute(query).fetchone()
    assert row is not None
    snapshot.checkpoints_timed, snapshot.checkpoints_requested = int(str(row[0])), int(str(row[1]))


@dataclass
class WindowFigures:
    wal_bytes: int | None
    wal_records: int | None
    wal_fpi: int | None
    hit_ratio: dict[str, float | None]
    blocks_accessed: dict[str, int]
    checkpoints: dict[str, int | None]
    unavailable: list[Unavailable]


def _difference(after: int | None, before: int | None) -> int | None:
    return after - before if after is not None and before is not None else None


def lsn_to_int(lsn: str) -> int:
    high, low = lsn.split("/")
    return (int(high, 16) << 32) | int(low, 16)


def window(before: Snapshot, after: Snapshot) -> WindowFigures:
    """What happened between two snapshots. A relation never read in the window has no hit ratio (null)."""
    unavailable = [*before.unavailable]
    wal_bytes = _difference(after.wal_bytes, before.wal_bytes)
    if wal_bytes is None and before.wal_lsn and after.wal_lsn:
        wal_bytes = lsn_to_int(after.wal_lsn) - lsn_to_int(before.wal_lsn)
    hit_ratio: dict[str, float | None] = {}
    blocks_accessed: dict[str, int] = {}
    for name, (hit_after, read_after) in after.blocks.items():
        hit_before, read_before = before.blocks.get(name, (0, 0))
        hits, reads = hit_after - hit_before, read_after - read_before
        blocks_accessed[name] = hits + reads
        hit_ratio[name] = round(hits / (hits + reads), 6) if hits + reads > 0 else None
    for name, ratio in hit_ratio.items():
        if ratio is None:
            unavailable.append(Unavailable(f"hit_ratio.{name}", "no block of it was accessed in the window"))
    return WindowFigures(
        wal_bytes=wal_bytes,
        wal_records=_difference(after.wal_records, before.wal_records),
        wal_fpi=_difference(after.wal_fpi, before.wal_fpi),
        hit_ratio=hit_ratio,
        blocks_accessed=blocks_accessed,
        checkpoints={
            "timed": _difference(after.checkpoints_timed, before.checkpoints_timed),
            "requested": _difference(after.checkpoints_requested, before.checkpoints_requested),
        },
        unavailable=unavailable,
    )
