"""Work per transaction: what a transaction costs the server, in units the machine's noise does not move.

TPS moves with everything else running on the machine; the buffers a transaction touches, the WAL it writes
and the CPU its backend burns do not, so they explain why TPS moved and agree between runs to a few percent.
Read a snapshot before a window and one after it (once pgbench's connections have closed), then divide the
difference by the window's transactions:

- shared buffers hit, read, dirtied and written: pg_stat_statements (every statement of the database, so the
  sampler's few catalog reads are in it too); without it, hit and read from pg_stat_database (every session
  of the database, autovacuum included) and no dirtied or written.
- WAL bytes and full-page images: pg_stat_statements (statements only), else pg_stat_wal (the whole cluster:
  checkpointer, autovacuum).
- backend CPU time and bytes read from the OS: the kernel adds a process's CPU time and I/O counts to its
  parent's when the parent reaps it, so the postmaster's /proc/PID/stat (cutime, cstime) and /proc/PID/io
  grow by exactly what each backend used once it has ended. pgbench's backends all end inside the window,
  so the difference is theirs, plus any autovacuum worker or other short connection that ended in the window.
  Only for a server on this machine whose /proc we can read.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass
from pathlib import Path

import psycopg

from pkbench.errors import first_line
from pkbench.probes import Connection
from pkbench.probes.machine import ProcessTimes, parse_process_stat, read_processes
from pkbench.results.model import Unavailable, WorkPerTransaction

PROC = Path("/proc")
ENDED_BACKENDS_TIMEOUT_S = 10.0

_STATEMENTS = """
SELECT coalesce(sum(shared_blks_hit), 0)::bigint, coalesce(sum(shared_blks_read), 0)::bigint,
       coalesce(sum(shared_blks_dirtied), 0)::bigint, coalesce(sum(shared_blks_written), 0)::bigint,
       coalesce(sum(wal_bytes), 0)::bigint, coalesce(sum(wal_fpi), 0)::bigint,
       coalesce(sum(total_exec_time), 0)
  FROM pg_stat_statements(false)
 WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database())
"""


@dataclass(frozen=True)
class StatementTotals:
    """Sums over pg_stat_statements for the database."""

    shared_blocks_hit: int
    shared_blocks_read: int
    shared_blocks_dirtied: int
    shared_blocks_written: int
    wal_bytes: int
    wal_fpi: int
    exec_time_ms: float
    deallocations: (
        int | None
    )  # entries evicted so far (pg_stat_statements_info): any in a window loses counts


@dataclass(frozen=True)
class EndedProcesses:
    """What the postmaster's ended children used, from its /proc entries."""

    cpu_ticks: int
    # rchar: bytes read through read system calls, page cache or not; each backend's start-up reads of the
    # relation cache files (about 0.3 MB per connection) are in it, a constant per window.
    read_chars: int | None
    storage_read_bytes: int | None  # read_bytes: bytes fetched from storage (page-cache misses)


@dataclass(frozen=True)
class WorkSnapshot:
    statements: StatementTotals | None
    database_blocks: tuple[int, int] | None  # pg_stat_database: (blks_hit, blks_read)
    cluster_wal: tuple[int, int] | None  # pg_stat_wal: (wal_bytes, wal_fpi)
    ended: EndedProcesses | None
    postmaster_pid: int | None
    children: frozenset[int]  # the postmaster's children at the snapshot
    unavailable: tuple[Unavailable, ...] = ()


def read_snapshot(
    conn: Connection,
    *,
    local_server: bool,
    since: WorkSnapshot | None = None,
    create_extension: bool = False,
    application_name: str = "pgbench",
    proc: Path = PROC,
) -> WorkSnapshot:
    """The work counters now. For the snapshot after a window pass the one before as ``since``: this waits
    (up to ``ENDED_BACKENDS_TIMEOUT_S``) until every server process started since then that is no longer a
    session, or is a session of ``application_name`` (pgbench's backends, which end once pgbench has exited),
    has been reaped, so its CPU and I/O are in the postmaster's counters. Take it after pgbench has exited.

    ``create_extension`` runs CREATE EXTENSION pg_stat_statements when the library is loaded but the
    extension is not in the database (an embedded cluster; never on a server pkbench does not own).
    ``conn`` is in autocommit mode.
    """
    unavailable: list[Unavailable] = []
    postmaster, reason = _postmaster_pid(conn, proc) if local_server else (None, "the server is not local")
    children: frozenset[int] = frozenset()
    ended: EndedProcesses | None = None
    if postmaster is not None:
        children = _wait_for_ended_children(conn, postmaster, since, application_name, proc)
        ended = _ended_processes(postmaster, proc, unavailable)
    else:
        for metric in ("backend_cpu_ms", "os_read_bytes", "storage_read_bytes"):
            unavailable.append(Unavailable(metric, f"{reason}: /proc does not show its backends"))
    statements = _statement_totals(conn, create_extension, unavailable)
    return WorkSnapshot(
        statements=statements,
        database_blocks=_database_blocks(conn),
        cluster_wal=_cluster_wal(conn, unavailable),
        ended=ended,
        postmaster_pid=postmaster,
        children=children,
        unavailable=tuple(unavailable),
    )


def postmaster_pid(conn: Connection) -> int | None:
    """The postmaster of the server CONN is on, when /proc shows it (a server on this machine)."""
    return _postmaster_pid(conn, PROC)[0]


def _postmaster_pid(conn: Connection, proc: Path) -> tuple[int | None, str]:
    """The postmaster is the parent of this connection's backend, when /proc shows that backend."""
    row = conn.execute("SELECT pg_backend_pid()").fetchone()
    assert row is not None
    backend = int(str(row[0]))
    try:
        parent = parse_process_stat((proc / str(backend) / "stat").read_text()).parent
        (proc / str(parent) / "io").read_text()
    except OSError as error:
        return None, f"/proc of the server's processes cannot be read ({error.strerror})"
    except (ValueError, IndexError):
        return None, "/proc shows another process under the backend's pid"
    return parent, ""


def _children(postmaster: int, proc: Path) -> dict[int, ProcessTimes]:
    return {pid: times for pid, times in read_processes(proc).items() if times.parent == postmaster}


def _zombie(pid: int, proc: Path) -> bool:
    try:
        return (proc / str(pid) / "stat").read_text().rsplit(")", 1)[1].split()[0] == "Z"
    except (OSError, IndexError):
        return False


def _wait_for_ended_children(
    conn: Connection, postmaster: int, since: WorkSnapshot | None, application_name: str, proc: Path
) -> frozenset[int]:
    # A backend leaves pg_stat_activity before it exits, and its CPU reaches the postmaster's counters only
    # when the postmaster reaps it: wait for processes that are ending (zombies, and children born since the
    # last snapshot that are no session any more) to be gone.
    deadline = time.monotonic() + ENDED_BACKENDS_TIMEOUT_S
    while True:
        children = _children(postmaster, proc)
        rows = conn.execute("SELECT pid, application_name = %s FROM pg_stat_activity", (application_name,))
        sessions = {int(str(pid)): bool(is_client) for pid, is_client in rows.fetchall()}
        born = set(children) - (since.children if since is not None else set(children))
        # pgbench has exited by now, but its backends may not have noticed yet.
        ending = {pid for pid in born if sessions.get(pid, True)}
        ending |= {pid for pid in children if _zombie(pid, proc)}
        if not ending or time.monotonic() > deadline:
            return frozenset(children)
        time.sleep(0.02)


def _ended_processes(postmaster: int, proc: Path, unavailable: list[Unavailable]) -> EndedProcesses | None:
    try:
        ticks = parse_process_stat((proc / str(postmaster) / "stat").read_text()).reaped_children_ticks
    except (OSError, ValueError, IndexError) as error:
        for metric in ("backend_cpu_ms", "os_read_bytes", "storage_read_bytes"):
            unavailable.append(Unavailable(metric, f"/proc/{postmaster}/stat: {first_line(error)}"))
        return None
    try:
        counters = dict(
            line.split(": ", 1) for line in (proc / str(postmaster) / "io").read_text().splitlines()
        )
        read_chars, storage = int(counters["rchar"]), int(counters["read_bytes"])
    except (OSError, KeyError, ValueError) as error:
        reason = f"/proc/{postmaster}/io: {first_line(error)}"
        unavailable += [Unavailable("os_read_bytes", reason), Unavailable("storage_read_bytes", reason)]
        return EndedProcesses(ticks, None, None)
    # The postmaster's own reads (its config files at start) are in these counters too, but do not grow.
    return EndedProcesses(ticks, read_chars, storage)


def statement_statistics(conn: Connection, create_extension: bool) -> str | None:
    """None when pg_stat_statements can be read in this database, else why not. ``create_extension`` creates
    it where the library is loaded but the extension is not (an embedded cluster; never on a server pkbench
    does not own)."""
    # pg_settings hides shared_preload_libraries from a user without pg_read_all_settings (NULL: unknown);
    # then querying the extension tells whether the library is loaded.
    row = conn.execute(
        "SELECT (SELECT 'pg_stat_statements' = ANY(string_to_array(replace(setting, ' ', ''), ','))"
        "          FROM pg_settings WHERE name = 'shared_preload_libraries'),"
        " EXISTS (SELECT FROM pg_extension WHERE extname = 'pg_stat_statements')"
    ).fetchone()
    assert row is not None
    loaded, installed = row[0] is not False, bool(row[1])
    if not loaded:
        return "pg_stat_statements is not in shared_preload_libraries"
    if not installed and create_extension:
        try:
            conn.execute("CREATE EXTENSION IF NOT EXISTS pg_stat_statements")
        except psycopg.Error as error:
            return f"CREATE EXTENSION pg_stat_statements: {first_line(error)}"
    elif not installed:
        return "the pg_stat_statements extension is not created in this database"
    return None


def _statement_totals(
    conn: Connection, create_extension: bool, unavailable: list[Unavailable]
) -> StatementTotals | None:
    reason = statement_statistics(conn, create_extension)
    if reason is None:
        try:
            totals = conn.execute(_STATEMENTS).fetchone()
            info = conn.execute("SELECT dealloc FROM pg_stat_statements_info").fetchone()
        except psycopg.Error as error:
            reason = f"pg_stat_statements: {first_line(error)}"
        else:
            assert totals is not None
            hit, read, dirtied, written, wal_bytes, wal_fpi = (int(str(v)) for v in totals[:6])
            deallocations = int(str(info[0])) if info else None
            return StatementTotals(
                hit, read, dirtied, written, wal_bytes, wal_fpi, float(str(totals[6])), deallocations
            )
    for metric in ("shared_blocks_dirtied", "shared_blocks_written", "statement_time_ms"):
        unavailable.append(Unavailable(metric, f"{reason}; pg_stat_database does not count them"))
    return None


def _database_blocks(conn: Connection) -> tuple[int, int]:
    row = conn.execute(
        "SELECT blks_hit, blks_read FROM pg_stat_database WHERE datname = current_database()"
    ).fetchone()
    assert row is not None
    return int(str(row[0])), int(str(row[1]))


def _cluster_wal(conn: Connection, unavailable: list[Unavailable]) -> tuple[int, int] | None:
    try:
        row = conn.execute("SELECT wal_bytes, wal_fpi FROM pg_stat_wal").fetchone()
    except psycopg.Error as error:
        unavailable.append(Unavailable("wal_bytes", f"pg_stat_wal: {first_line(error)}"))
        return None
    assert row is not None
    return int(str(row[0])), int(str(row[1]))


# ----------------------------------------------------------------------------------------- the difference


_FROM_STATEMENTS = "pg_stat_statements, statements of this database"
_FROM_DATABASE = "pg_stat_database, every session of this database (autovacuum included)"
_FROM_CLUSTER_WAL = "pg_stat_wal, the whole cluster (checkpointer and autovacuum included)"
_FROM_ENDED = "the postmaster's ended children in /proc: pgbench's backends and any other that ended"


def per_transaction(before: WorkSnapshot, after: WorkSnapshot, transactions: int) -> WorkPerTransaction:
    """The work between two snapshots per transaction (``transactions`` as pgbench counted them)."""
    if transactions <= 0:
        raise ValueError(f"work per transaction needs transactions, got {transactions}")
    values: dict[str, float | None] = {}
    sources: dict[str, str] = {}
    unavailable = list(after.unavailable)

    def put(name: str, difference: int, source: str) -> None:
        values[name] = round(difference / transactions, 6)
        sources[name] = source

    if before.statements is not None and after.statements is not None:
        old, new = before.statements, after.statements
        if old.deallocations is not None and new.deallocations != old.deallocations:
            for name in ("shared_blocks_dirtied", "shared_blocks_written", "statement_time_ms"):
                unavailable.append(
                    Unavailable(name, "pg_stat_statements evicted entries in the window (raise its max)")
                )
        else:
            put("shared_blocks_hit", new.shared_blocks_hit - old.shared_blocks_hit, _FROM_STATEMENTS)
            put("shared_blocks_read", new.shared_blocks_read - old.shared_blocks_read, _FROM_STATEMENTS)
            put(
                "shared_blocks_dirtied",
                new.shared_blocks_dirtied - old.shared_blocks_dirtied,
                _FROM_STATEMENTS,
            )
            put(
                "shared_blocks_written",
                new.shared_blocks_written - old.shared_blocks_written,
                _FROM_STATEMENTS,
            )
            put("wal_bytes", new.wal_bytes - old.wal_bytes, _FROM_STATEMENTS)
            put("wal_fpi", new.wal_fpi - old.wal_fpi, _FROM_STATEMENTS)
            values["statement_time_ms"] = round((new.exec_time_ms - old.exec_time_ms) / transactions, 6)
            sources["statement_time_ms"] = _FROM_STATEMENTS
    if "shared_blocks_hit" not in values and before.database_blocks and after.database_blocks:
        put("shared_blocks_hit", after.database_blocks[0] - before.database_blocks[0], _FROM_DATABASE)
        put("shared_blocks_read", after.database_blocks[1] - before.database_blocks[1], _FROM_DATABASE)
    if "wal_bytes" not in values and before.cluster_wal and after.cluster_wal:
        put("wal_bytes", after.cluster_wal[0] - before.cluster_wal[0], _FROM_CLUSTER_WAL)
        put("wal_fpi", after.cluster_wal[1] - before.cluster_wal[1], _FROM_CLUSTER_WAL)
    if before.ended is not None and after.ended is not None:
        if before.postmaster_pid != after.postmaster_pid:
            unavailable.append(Unavailable("backend_cpu_ms", "the server restarted during the window"))
        else:
            ticks = after.ended.cpu_ticks - before.ended.cpu_ticks
            values["backend_cpu_ms"] = round(ticks * 1000 / os.sysconf("SC_CLK_TCK") / transactions, 6)
            sources["backend_cpu_ms"] = _FROM_ENDED
            if before.ended.read_chars is not None and after.ended.read_chars is not None:
                put("os_read_bytes", after.ended.read_chars - before.ended.read_chars, _FROM_ENDED)
            if before.ended.storage_read_bytes is not None and after.ended.storage_read_bytes is not None:
                put(
                    "storage_read_bytes",
                    after.ended.storage_read_bytes - before.ended.storage_read_bytes,
                    _FROM_ENDED,
                )
    return WorkPerTransaction(transactions=transactions, **values, sources=sources, unavailable=unavailable)
