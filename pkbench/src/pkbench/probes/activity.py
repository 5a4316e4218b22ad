"""Wait events of the benchmark's client backends, sampled from pg_stat_activity."""

from __future__ import annotations

from pkbench.probes import Connection


def wait_events(conn: Connection, application_name: str = "pgbench") -> list[tuple[str, str, int]]:
    """(wait_event_type, wait_event, backends) of the active backends; `CPU` when one waits on nothing."""
    rows = conn.execute(
        "SELECT coalesce(wait_event_type, 'CPU'), coalesce(wait_event, 'CPU'), count(*)"
        " FROM pg_stat_activity WHERE application_name = %s AND state = 'active' AND pid <> pg_backend_pid()"
        " AND datname = current_database() AND usename = current_user"
        " GROUP BY 1, 2 ORDER BY 1, 2",
        (application_name,),
    ).fetchall()
    return [(str(t), str(e), int(str(n))) for t, e, n in rows]
