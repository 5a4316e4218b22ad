"""The sampler's wait events on a real cluster: a pgbench backend caught waiting is counted by its wait, the
sampling session itself never."""

from __future__ import annotations

import contextlib
import threading
import time

import psycopg
from conftest import embedded_connection

from pkbench.probes import activity


def test_a_waiting_pgbench_backend_is_sampled_by_its_wait() -> None:
    with embedded_connection(None) as conn:
        assert activity.wait_events(conn) == []
        sleeper = psycopg.connect(conn.info.dsn, autocommit=True, application_name="pgbench")

        def sleep() -> None:
            with contextlib.suppress(psycopg.errors.QueryCanceled):
                sleeper.execute("SELECT pg_sleep(60)")

        thread = threading.Thread(target=sleep)
        thread.start()
        try:
            # until the sleep has started: a state, not a time, is awaited
            deadline = time.monotonic() + 60
            while not conn.execute(
                "SELECT 1 FROM pg_stat_activity WHERE application_name = 'pgbench' AND wait_event = 'PgSleep'"
            ).fetchall():
                assert time.monotonic() < deadline, "the sleep never started"
                time.sleep(0.05)
            assert activity.wait_events(conn) == [("Timeout", "PgSleep", 1)]
            assert activity.wait_events(conn, "someone-else") == []
        finally:
            sleeper.cancel_safe()
            thread.join()
            sleeper.close()
