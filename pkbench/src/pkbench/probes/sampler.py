"""The sampler: a thread that reads the time-series probes at an interval during a measured window."""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Sequence
from pathlib import Path
from types import TracebackType

import psycopg

from pkbench.errors import first_line
from pkbench.probes import activity, buffercache, sizes
from pkbench.results.model import Unavailable
from pkbench.server.connection import ConnectionInfo

# Wait events are cheap to read and bursty, so they are sampled more often than the buffer cache.
WAIT_EVENT_INTERVAL_S = 1.0


class Sampler:
    """Collects rows for timeseries/*.csv: buffercache, usagecount, wait_events, sizes (elapsed_s first)."""

    def __init__(
        self,
        connection: ConnectionInfo,
        schema: str,
        version_num: int,
        interval_s: float,
        buffercache_available: bool,
        *,
        local_server: bool = False,
        shards: Sequence[ConnectionInfo] = (),
        wait_interval_s: float = WAIT_EVENT_INTERVAL_S,
    ) -> None:
        self.connection = connection
        self.schema = schema
        self.version_num = version_num
        self.interval_s = interval_s
        self.wait_interval_s = wait_interval_s
        self.buffercache_available = buffercache_available
        self.local_server = local_server
        self.rows: dict[str, list[tuple[object, ...]]] = {
            "buffercache": [],
            "usagecount": [],
            "wait_events": [],
            "sizes": [],
            "shard_inserts": [],
        }
        self.shards = shards
        self._shard_conns: list[psycopg.Connection[tuple[object, ...]]] = []
        self._shard_start: list[int] = []
        self.unavailable: list[Unavailable] = []
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._started = 0.0
        # Wall time spent in sampling queries: what the sampling cost the server, at most.
        self.busy_s = 0.0
        # CPU the sampling used: this thread's, plus its server backend's when the server is local.
        self.cpu_s: float | None = None
        self._thread_cpu_s = 0.0
        self._backend_pid: int | None = None
        self._backend_cpu_start: float | None = None
        self._conn: psycopg.Connection[tuple[object, ...]] | None = None

    def __enter__(self) -> Sampler:
        if self.interval_s <= 0:
            return self
        self._conn = self.connection.connect()
        row = self._conn.execute("SELECT current_setting('block_size')::int").fetchone()
        self._block_size = int(str(row[0])) if row else 8192
        pid_row = self._conn.execute("SELECT pg_backend_pid()").fetchone()
        self._backend_pid = int(str(pid_row[0])) if pid_row else None
        self._backend_cpu_start = _process_cpu_s(self._backend_pid) if self.local_server else None
        self._shard_conns = [shard.connect(autocommit=True) for shard in self.shards]
        self._shard_start = [_inserted(conn, self.schema) for conn in self._shard_conns]
        self._started = time.monotonic()
        self._thread = threading.Thread(target=self._loop, name="pkbench-sampler", daemon=True)
        self._thread.start()
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=30)
        backend_cpu_end = _process_cpu_s(self._backend_pid) if self._backend_cpu_start is not None else None
        if self._backend_cpu_start is not None and backend_cpu_end is not None:
            self.cpu_s = round(self._thread_cpu_s + backend_cpu_end - self._backend_cpu_start, 3)
        if self._conn is not None:
            self._conn.close()
        for conn in self._shard_conns:
            conn.close()

    def _loop(self) -> None:
        started_cpu = time.thread_time()
        try:
            self._sample_until_stopped()
        finally:
            self._thread_cpu_s = time.thread_time() - started_cpu

    def _sample_until_stopped(self) -> None:
        next_full = 0.0
        while not self._stop.is_set():
            now = time.monotonic()
            elapsed = round(now - self._started, 3)
            try:
                self._sample_waits(elapsed)
                if elapsed >= next_full:
                    self._sample_full(elapsed)
                    next_full += self.interval_s
                self.busy_s += time.monotonic() - now
            except psycopg.Error as e:
                # The server went away or refused: the runner notices and reports; stop quietly here.
                self.unavailable.append(Unavailable("timeseries", f"sampling stopped: {first_line(e)}"))
                return
            self._stop.wait(min(self.wait_interval_s, self.interval_s))

    def _sample_waits(self, elapsed: float) -> None:
        assert self._conn is not None
        for wait_type, event, backends in activity.wait_events(self._conn):
            self.rows["wait_events"].append((elapsed, wait_type, event, backends))

    def _sample_full(self, elapsed: float) -> None:
        assert self._conn is not None
        for name, size in sizes.schema_relations(self._conn, self.schema):
            self.rows["sizes"].append((elapsed, name, size))
        # Rows each shard received since the window began: one table takes the window's inserts, so the
        # schema's total is that table's. A shard's backends flush these counters about once a second.
        for number, (conn, start) in enumerate(zip(self._shard_conns, self._shard_start, strict=True), 1):
            self.rows["shard_inserts"].append((elapsed, number, _inserted(conn, self.schema) - start))
        if not self.buffercache_available:
            return
        for name, buffers, size in buffercache.per_relation(self._conn, self.schema, self._block_size):
            self.rows["buffercache"].append((elapsed, name, buffers, size))
        for usage, buffers in buffercache.usage_counts(self._conn, self.version_num):
            self.rows["usagecount"].append((elapsed, usage, buffers))


def _inserted(conn: psycopg.Connection[tuple[object, ...]], schema: str) -> int:
    """Rows inserted so far into SCHEMA's tables on one server, as pg_stat_user_tables counts them."""
    row = conn.execute(
        "SELECT coalesce(sum(n_tup_ins), 0) FROM pg_stat_user_tables WHERE schemaname = %s", (schema,)
    ).fetchone()
    return int(str(row[0])) if row else 0


def _process_cpu_s(pid: int | None) -> float | None:
    """User + system CPU seconds of a local process (None when it is not visible here)."""
    if pid is None:
        return None
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return None
    # After the command name: state is field 3, utime and stime are fields 14 and 15 (proc(5)).
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
