"""How many rows put the wal scenario's three memory tiers where their names say on a given server, and how
much disk a run of them writes.

A tier is a ratio to the server's memory, not a row count: "beyond shared buffers, within RAM" is an index
several times shared_buffers whose table and index still fit in the memory the server may use, "beyond RAM" a
table and index twice that memory, as seed 004's medium and large scales were. The functions that decide are
pure (settings in, rows out); reading a server's settings and the machine's memory is kept apart, below them.

Bytes per row were measured, not assumed: the committed wal-seed-004 run's uuid-v4 table held 6,000,000 rows
in 265,691,136 bytes of heap and 253,632,512 of unique index (44.3 + 42.3 bytes a row; 44.3 + 42.8 at
750,000 rows). A sequential uuid's index packs a little tighter (41 bytes a row), bigint's far tighter (about
56 bytes of table and index a row): sized by the random uuid, the tiers are what they say for every uuid key
and a little smaller (about two thirds) for bigint at the same row count.
"""

from __future__ import annotations

import math
import os
import shutil
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from pkbench.errors import PkbenchError
from pkbench.server import memcap
from pkbench.server.connection import ConnectionInfo

MIB = 1024**2
# Table and unique index of one row with a random uuid key, and the index's share of it (measured, above).
ROW_BYTES = 87
INDEX_BYTES_PER_ROW = 43
# "Beyond shared buffers": the index this many times shared_buffers (seed 004's medium was 2x; several
# times keeps a key's index pages from fitting by chance once the window's own inserts are counted out).
INDEX_OVER_SHARED_BUFFERS = 3
# Below this the medium tier is not clearly beyond shared buffers; it is left out rather than mislabelled.
LEAST_INDEX_OVER_SHARED_BUFFERS = 1.5
# "Within RAM": the medium tier's table and index at most this share of the memory, the rest for the
# server's own processes (16 clients' backends) and the page cache's other pages.
MEDIUM_SHARE_OF_MEMORY = 0.5
# "Beyond RAM": table and index this many times the memory (seed 004's large scale: 512 MB under 256 MB).
DATA_OVER_MEMORY = 2
# A cap is set in steps of this, and never below what a server and its clients need to start.
CAP_STEP_BYTES = 16 * MIB
LEAST_CAP_BYTES = 128 * MIB
# Load rates of this 2-core machine (wal-seed-004, under a 256 MB cap): a random key 50,000 rows a second as
# its index outgrows the cap, the sequential keys 237,000 (time prefix) to 310,000 (sequence prefix).
RANDOM_LOAD_ROWS_PER_S = 50_000
SEQUENTIAL_LOAD_ROWS_PER_S = 200_000
RANDOM_KEYS = frozenset({"uuid-v4", "uuid-v4-text"})
# The disk estimate: the fastest inserts a window of this machine made (wal-cap128: bigint 7,700 tps,
# seq-time 9,000) rounded up, the WAL a window writes a second at most (uuid-v4 beyond a cap writes a
# full-page image for nearly every insert: 2,800 tps x 8 kB), the WAL of one loaded row (a heap and an index
# record) besides the full-page images of the index each checkpointed part of a load writes, and a margin
# for what the estimate leaves out (the server's catalog, free space map, statistics, temporary files).
WINDOW_ROWS_PER_S = 10_000
WINDOW_WAL_BYTES_PER_S = 25 * MIB
WAL_BYTES_PER_LOADED_ROW = 140
DISK_MARGIN = 1.5


@dataclass(frozen=True)
class Server:
    """What the tiers are sized from: the server's shared_buffers, the memory it may use (None where not
    known: a server given by --dsn without --server-memory), and whether pkbench may cap that memory (the
    embedded cluster, as root)."""

    shared_buffers_bytes: int
    memory_bytes: int | None
    can_cap: bool


@dataclass(frozen=True)
class Tiers:
    """Rows of the wal scenario's three tiers (rows_small, rows_medium, rows), the memory cap to set (None:
    none), the memory "beyond RAM" is measured against, and why a tier is left out (None: it is measured).
    A left-out tier keeps the rows of the one before it, so that its load adds nothing."""

    rows_small: int
    rows_medium: int
    rows_large: int
    memory_cap_bytes: int | None
    memory_bytes: int | None
    medium_left_out: str | None = None
    large_left_out: str | None = None


def size_tiers(
    server: Server,
    load_rows: int,
    index_over_shared_buffers: float = INDEX_OVER_SHARED_BUFFERS,
    least_index_over_shared_buffers: float = LEAST_INDEX_OVER_SHARED_BUFFERS,
) -> Tiers:
    """The tiers for SERVER, none of them loading more than LOAD_ROWS rows a strategy (what loads in the time
    the plan allows), the middle tier's index INDEX_OVER_SHARED_BUFFERS times shared_buffers, and left out
    below LEAST_INDEX_OVER_SHARED_BUFFERS times."""
    shared_buffers = server.shared_buffers_bytes
    rows_medium = math.ceil(index_over_shared_buffers * shared_buffers / INDEX_BYTES_PER_ROW)
    medium_why: str | None = None
    cap: int | None = None
    memory = server.memory_bytes
    if server.can_cap:
        wanted = _round_up(max(LEAST_CAP_BYTES, rows_medium * ROW_BYTES / MEDIUM_SHARE_OF_MEMORY))
        if memory is None or wanted < memory:
            cap = memory = wanted
    # Fewer rows than asked for still show the tier while the index stays clearly beyond shared_buffers.
    limits = [(load_rows, f"more than load in the time allowed ({load_rows:,})")]
    if memory is not None:
        limits.append(
            (int(MEDIUM_SHARE_OF_MEMORY * memory / ROW_BYTES), f"more than fit in half of {_size(memory)}")
        )
    least = math.ceil(least_index_over_shared_buffers * shared_buffers / INDEX_BYTES_PER_ROW)
    for most, why in limits:
        rows_medium = min(rows_medium, most)
        if most < least and medium_why is None:
            medium_why = (
                f"an index {least_index_over_shared_buffers:.2g}x shared_buffers ({_size(shared_buffers)}) "
                f"takes {least:,} rows, {why}"
            )
    if medium_why is not None:
        rows_medium = 0
    rows_large = rows_medium
    large_why: str | None = None
    if memory is None:
        large_why = "the server's memory is not known (give --server-memory)"
    else:
        wanted_rows = math.ceil(DATA_OVER_MEMORY * memory / ROW_BYTES)
        if wanted_rows > load_rows:
            large_why = (
                f"{DATA_OVER_MEMORY}x the server's memory ({_size(memory)}) takes {wanted_rows:,} rows, more "
                f"than load in the time allowed ({load_rows:,})"
            )
        else:
            rows_large = max(wanted_rows, rows_medium)
    return Tiers(0, rows_medium, rows_large, cap, memory, medium_why, large_why)


def in_words(server: Server, tiers: Tiers) -> str:
    """What the memory tiers were sized from and to, with the factors that place them."""
    shared = server.shared_buffers_bytes
    memory = (
        f"capped at {tiers.memory_cap_bytes // MIB:,} MB (it may use "
        f"{(server.memory_bytes or 0) / 1024**3:,.1f} GB)"
        if tiers.memory_cap_bytes is not None
        else f"{tiers.memory_bytes / 1024**3:,.1f} GB"
        if tiers.memory_bytes is not None
        else "not known"
    )
    index = tiers.rows_medium * INDEX_BYTES_PER_ROW / shared
    data = (
        f"; table and index {tiers.rows_large * ROW_BYTES / tiers.memory_bytes:.1f}x the memory"
        if tiers.memory_bytes and tiers.large_left_out is None
        else ""
    )
    return (
        f"memory tiers sized to shared_buffers {shared // MIB:,} MB and memory {memory}, at "
        f"{ROW_BYTES} bytes of table and index a row ({INDEX_BYTES_PER_ROW} of them the "
        "index): "
        f"{tiers.rows_small:,} / {tiers.rows_medium:,} / {tiers.rows_large:,} rows (the middle tier's index "
        f"{index:.1f}x shared_buffers{data})"
    )


def loadable_rows(seconds: float, strategies: Sequence[str]) -> int:
    """Rows a strategy each of STRATEGIES loads in SECONDS all together, at this machine's load rates."""
    per_row = sum(
        1 / (RANDOM_LOAD_ROWS_PER_S if name in RANDOM_KEYS else SEQUENTIAL_LOAD_ROWS_PER_S)
        for name in strategies
    )
    return int(seconds / per_row) if per_row else 0


def disk_bytes(
    strategies: int,
    rows: int,
    seconds: float,
    window_s: float,
    row_bytes: int = ROW_BYTES,
    load_parts: int = 5,
) -> int:
    """What a run of STRATEGIES tables of ROWS rows each, measured for SECONDS in all in windows of
    WINDOW_S, writes at most: its tables and indexes (the windows' inserts too), and the WAL between two
    checkpoints twice over (a checkpoint starts every window and every part of a load, and PostgreSQL keeps
    the segments it recycles), with a margin."""
    data = strategies * rows * row_bytes + seconds * WINDOW_ROWS_PER_S * row_bytes
    load_part_wal = rows / load_parts * WAL_BYTES_PER_LOADED_ROW + rows * INDEX_BYTES_PER_ROW
    window_wal = WINDOW_WAL_BYTES_PER_S * window_s
    return math.ceil(DISK_MARGIN * (data + 2 * max(load_part_wal, window_wal)))


def check_disk(part: str, needed: int, free: int, where: str) -> None:
    """Refuse, in one line, a run whose estimate does not fit in FREE bytes (of WHERE)."""
    if needed > free:
        raise PkbenchError(
            f"the {part} run would write about {_size(needed)} and {where} has {_size(free)}: not started; "
            "free some space, or give a smaller --budget or --rows"
        )


def _round_up(size: float) -> int:
    return math.ceil(size / CAP_STEP_BYTES) * CAP_STEP_BYTES


def _size(size: float) -> str:
    return f"{size / 1024**3:,.1f} GB" if size >= 1024**3 else f"{size / MIB:,.0f} MB"


# ---- Reading the server and the machine (not pure) ----


def machine_memory_bytes() -> int | None:
    """The memory this process may use: the machine's RAM, or the memory cgroup's limit when lower."""
    ram: int | None = None
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemTotal:"):
                ram = int(line.split()[1]) * 1024
    except (OSError, ValueError):
        pass
    limit = _cgroup_limit()
    return min(x for x in (ram, limit) if x is not None) if ram or limit else None


def _cgroup_limit() -> int | None:
    try:
        hierarchy = memcap.find_hierarchy(
            Path("/proc/self/cgroup").read_text(), Path("/proc/self/mountinfo").read_text()
        )
        text = (hierarchy.directory / hierarchy.limit_file).read_text().strip()
    except (OSError, PkbenchError):
        return None
    # cgroup v2 says "max" for no limit; v1 a number near 2^63.
    return int(text) if text.isdigit() and int(text) < 2**62 else None


def can_cap_memory() -> bool:
    """Whether `--memory-limit` can work here: root, and a memory cgroup to make a child of."""
    if os.geteuid() != 0:
        return False
    try:
        memcap.find_hierarchy(Path("/proc/self/cgroup").read_text(), Path("/proc/self/mountinfo").read_text())
    except (OSError, PkbenchError):
        return False
    return True


def read_shared_buffers(connection: ConnectionInfo) -> int:
    """The server's shared_buffers, in bytes."""
    with connection.connect() as conn:
        row = conn.execute("SELECT pg_size_bytes(current_setting('shared_buffers'))").fetchone()
    if row is None or not isinstance(row[0], int):
        raise PkbenchError(f"{connection.redacted()}: cannot read shared_buffers")
    return row[0]


def free_bytes(directory: Path) -> int:
    """Free space of the file system DIRECTORY (or its nearest existing parent) is on."""
    while not directory.exists() and directory != directory.parent:
        directory = directory.parent
    return shutil.disk_usage(directory).free
