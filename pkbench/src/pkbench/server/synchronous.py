"""The standby pkbench started made synchronous for a window whose sessions commit at a remote level, and
asynchronous again after it: what a measured window needs of the standby, apart from starting it
(topology.py)."""

from __future__ import annotations

import contextlib
import time
from collections.abc import Iterator

import psycopg
from psycopg import sql

from pkbench.errors import PkbenchError
from pkbench.server.connection import ConnectionInfo
from pkbench.server.target import Target

# The standby's application_name (how the primary lists it) and its replication slot's name.
STANDBY_NAME = "pkbench_standby"
# The synchronous_commit levels that wait for a standby.
REMOTE_LEVELS = ("remote_write", "on", "remote_apply")


@contextlib.contextmanager
def synchronous(target: Target, synchronous_commit: str | None) -> Iterator[None]:
    """The standby pkbench started made synchronous while sessions commit at a remote level."""
    standby = target.standby
    if synchronous_commit not in REMOTE_LEVELS or standby is None or not standby.owned:
        yield
        return
    _set_synchronous_standby(target.connection, f'"{STANDBY_NAME}"')
    try:
        yield
    finally:
        with contextlib.suppress(PkbenchError, psycopg.Error):
            _set_synchronous_standby(target.connection, "")


def _set_synchronous_standby(primary: ConnectionInfo, names: str, timeout_s: float = 30.0) -> None:
    """synchronous_standby_names of the embedded primary, in force for new sessions when this returns."""
    with primary.connect() as conn:
        conn.execute(sql.SQL("ALTER SYSTEM SET synchronous_standby_names = {}").format(sql.Literal(names)))
        conn.execute("SELECT pg_reload_conf()")
    deadline = time.monotonic() + timeout_s
    while True:
        with primary.connect() as conn:
            shown = conn.execute("SHOW synchronous_standby_names").fetchone()
            state = conn.execute(
                "SELECT sync_state FROM pg_stat_replication WHERE application_name = %s", (STANDBY_NAME,)
            ).fetchone()
        # Back to asynchronous, the standby may be gone already (that is why the window ended).
        synchronous = state is not None and state[0] == "sync"
        if shown is not None and shown[0] == names and (synchronous or not names):
            return
        if time.monotonic() > deadline:
            raise PkbenchError(f"the standby did not become synchronous within {timeout_s:.0f} s")
        time.sleep(0.05)
