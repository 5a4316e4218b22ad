"""What a measured window waits for and starts from, in either design (steps/pgbench.py's paired or isolated
windows, run/interleaved_rounds.py's shared ones): no pgbench client of an earlier run still connected, no
autovacuum worker busy with another strategy's table, and a fresh checkpoint."""

from __future__ import annotations

import time

import psycopg

from pkbench.errors import first_line
from pkbench.results.model import Unavailable


def wait_until_none(
    conn: psycopg.Connection[tuple[object, ...]], backends: str, timeout_s: float, poll_s: float
) -> bool:
    """Poll pg_stat_activity until no backend of this database matches BACKENDS (a fixed SQL condition);
    False when some still did after TIMEOUT_S."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        row = conn.execute(
            f"SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND {backends}"
        ).fetchone()
        if row is None or int(str(row[0])) == 0:
            return True
        time.sleep(poll_s)
    return False


def wait_for_clients_to_leave(conn: psycopg.Connection[tuple[object, ...]], timeout_s: float = 10.0) -> None:
    """Backends flush their WAL and I/O counters when they exit; read the counters after that."""
    wait_until_none(conn, "application_name = 'pgbench' AND usename = current_user", timeout_s, 0.1)


def wait_for_autovacuum(conn: psycopg.Connection[tuple[object, ...]], timeout_s: float = 120.0) -> str | None:
    """Tables sharing the cluster are vacuumed when autovacuum decides; a window that starts while a worker
    runs would pay for another strategy's vacuum, so it waits (a while) for the workers to finish. Returns the
    warning to show when they did not."""
    if wait_until_none(conn, "backend_type = 'autovacuum worker'", timeout_s, 0.5):
        return None
    return f"  autovacuum still running after {timeout_s:.0f} s; the window starts anyway"


def checkpoint(conn: psycopg.Connection[tuple[object, ...]]) -> Unavailable | None:
    """Every window of a round starts right after a checkpoint, so each pays the full-page images of a fresh
    one; a role that may not checkpoint gets its window all the same, and the reason."""
    try:
        conn.execute("CHECKPOINT")
    except psycopg.errors.InsufficientPrivilege as e:
        return Unavailable("checkpoint before the window", first_line(e))
    return None
