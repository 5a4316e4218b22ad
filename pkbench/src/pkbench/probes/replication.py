"""What a measured window costs the standby and the WAL archive.

On entry: the standby's sent position and the archive's contents (after a WAL switch, so the window starts a
segment). While pgbench runs, a thread samples the primary's pg_stat_replication lags. On a normal exit, the
moment pgbench ended: the primary's WAL position then, the time until the standby has replayed up to it
(asked of the standby itself, which knows it first), the WAL shipped meanwhile, and the segments the archive
gained up to a second WAL switch. A figure that cannot be read is None with its reason, never 0.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Sequence
from pathlib import Path
from types import TracebackType

import psycopg

from pkbench.errors import first_line
from pkbench.pgbench.output import percentile
from pkbench.results.model import ReplicationWindow, Unavailable
from pkbench.server.connection import ConnectionInfo
from pkbench.server.target import Replica

# Lags move within a second under load: sampled at most this far apart.
LAG_SAMPLE_INTERVAL_S = 0.25
CATCH_UP_TIMEOUT_S = 300.0
ARCHIVE_TIMEOUT_S = 120.0
# synchronous_commit levels that make a commit wait for a synchronous standby.
# The walsender row of the standby under measurement: the one whose slot the standby streams through, else
# the only one (a standby without a slot among several cannot be told apart).
_WALSENDER = """
SELECT r.sent_lsn, r.replay_lsn, r.sync_state,
       extract(epoch FROM r.write_lag) * 1000, extract(epoch FROM r.flush_lag) * 1000,
       extract(epoch FROM r.replay_lag) * 1000, pg_current_wal_lsn() - r.replay_lsn
FROM pg_stat_replication r
WHERE (%(slot)s::text IS NULL AND (SELECT count(*) FROM pg_stat_replication) = 1)
   OR r.pid = (SELECT active_pid FROM pg_replication_slots WHERE slot_name = %(slot)s)
   OR r.application_name = %(name)s
LIMIT 1
"""
_WAL_FILE_NAME_LENGTH = 24


class ArchiveStalled(Exception):
    """The archiver failed or fell behind: the archive's figures of this window are unavailable."""


def _lsn(value: object) -> int | None:
    """An LSN as a byte position (pg_lsn's text is two hex halves)."""
    if value is None:
        return None
    high, _, low = str(value).partition("/")
    return (int(high, 16) << 32) + int(low, 16)


def lag_summary(values: Sequence[float]) -> dict[str, float | None]:
    """p50, p99 and max of sampled lags (ms), rounded; None each when nothing was sampled."""
    ordered = sorted(values)
    if not ordered:
        return {"p50": None, "p99": None, "max": None}
    return {
        "p50": round(percentile(ordered, 0.50), 3),
        "p99": round(percentile(ordered, 0.99), 3),
        "max": round(ordered[-1], 3),
    }


def archived_files(directory: Path) -> dict[str, int]:
    """The completed WAL segments in an archive directory (basic_archive's temporary files left out)."""
    found = {}
    for entry in directory.iterdir():
        if len(entry.name) == _WAL_FILE_NAME_LENGTH and all(c in "0123456789ABCDEF" for c in entry.name):
            found[entry.name] = entry.stat().st_size
    return found


class ReplicationProbe:
    """One window's replication figures into `result`, its lag samples into `rows` (elapsed_s first)."""

    def __init__(
        self,
        primary: ConnectionInfo,
        standby: Replica | None,
        archive_directory: Path | None,
        synchronous_commit: str | None,
        sample_interval_s: float,
        name: str,
    ) -> None:
        self.primary = primary
        self.standby = standby
        self.archive_directory = archive_directory
        self.sample_interval_s = min(LAG_SAMPLE_INTERVAL_S, sample_interval_s)
        self.name = name
        self.result = ReplicationWindow(synchronous_commit=synchronous_commit)
        self.unavailable: list[Unavailable] = []
        self.rows: list[tuple[object, ...]] = []
        self._lags: dict[str, list[float]] = {"write": [], "flush": [], "replay": []}
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._conn: psycopg.Connection[tuple[object, ...]] | None = None
        self._slot: str | None = None
        self._sent_start: int | None = None
        self._replayed_start: int | None = None
        self._archived_before: dict[str, int] = {}
        self._started = 0.0

    def __enter__(self) -> ReplicationProbe:
        self._conn = self.primary.connect()
        if self.archive_directory is not None:
            try:
                self._switch_and_wait_archived()
                self._archived_before = archived_files(self.archive_directory)
            except ArchiveStalled as error:
                self._missing(("archived_segments", "archived_bytes"), str(error))
                self.archive_directory = None
        if self.standby is not None:
            self._slot = self._standby_slot()
            # The window starts with the standby level with the primary (past the switch above, too).
            self._wait_replayed(time.monotonic())
            row = self._walsender()
            self._sent_start = _lsn(row[0]) if row else None
            self._replayed_start = self._standby_replayed()
        self._started = time.monotonic()
        if self.standby is not None and self.sample_interval_s > 0:
            self._thread = threading.Thread(target=self._sample, name="pkbench-replication", daemon=True)
            self._thread.start()
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        ended = time.monotonic()
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=30)
        try:
            if exc_type is None:
                self._finish(ended)
        except psycopg.Error as error:
            self._missing(("wal_shipped_bytes", "catch_up_s", "archived_segments"), first_line(error))
        finally:
            if self._conn is not None:
                self._conn.close()

    def _finish(self, ended: float) -> None:
        if self.standby is not None:
            self._catch_up(ended)
            self.result.write_lag_ms = lag_summary(self._lags["write"])
            self.result.flush_lag_ms = lag_summary(self._lags["flush"])
            self.result.replay_lag_ms = lag_summary(self._lags["replay"])
            self.result.lag_samples = len(self._lags["replay"])
            if self.sample_interval_s <= 0:
                self._missing(("write_lag_ms", "flush_lag_ms", "replay_lag_ms"), "sampling is off")
        else:
            self._missing(
                ("wal_shipped_bytes", "replay_lag_ms", "catch_up_s"),
                "no standby (--standby, or --standby-dsn with --dsn)",
            )
        if self.archive_directory is not None and not self._archive_failed():
            gained = {
                name: size
                for name, size in archived_files(self.archive_directory).items()
                if name not in self._archived_before
            }
            self.result.archived_segments = len(gained)
            self.result.archived_bytes = sum(gained.values())
        elif self.archive_directory is None and not self._archive_reason():
            self._missing(("archived_segments", "archived_bytes"), "no WAL archive (--archive)")

    def _archive_reason(self) -> bool:
        return any(u.metric == "replication.archived_segments" for u in self.unavailable)

    def _archive_failed(self) -> bool:
        try:
            self._switch_and_wait_archived()
        except ArchiveStalled as error:
            self._missing(("archived_segments", "archived_bytes"), str(error))
            return True
        return False

    def _wait_replayed(self, since: float) -> int | None:
        """Wait until the standby has replayed the primary's current WAL position; the replayed position,
        None (and why) when it cannot be asked or does not get there."""
        assert self._conn is not None and self.standby is not None
        row = self._conn.execute("SELECT pg_current_wal_lsn()").fetchone()
        target = _lsn(row[0]) if row else None
        replayed = self._standby_replayed()
        while target is not None and replayed is not None and replayed < target:
            if time.monotonic() > since + CATCH_UP_TIMEOUT_S:
                self._missing(
                    ("catch_up_s",), f"the standby did not catch up within {CATCH_UP_TIMEOUT_S:.0f} s"
                )
                return None
            time.sleep(0.02)
            self.standby.check_alive()
            replayed = self._standby_replayed()
        if replayed is None:
            self._missing(("catch_up_s",), "the standby cannot be asked for its replayed position")
        return replayed

    def _catch_up(self, ended: float) -> None:
        replayed = self._wait_replayed(ended)
        if replayed is not None:
            self.result.catch_up_s = round(time.monotonic() - ended, 3)
        walsender = self._walsender()
        if walsender is None or self._sent_start is None:
            reason = "the primary shows this user no walsender of the standby, or not its positions"
            self._missing(("wal_shipped_bytes", "write_lag_ms", "flush_lag_ms", "replay_lag_ms"), reason)
        else:
            sent = _lsn(walsender[0])
            self.result.wal_shipped_bytes = None if sent is None else sent - self._sent_start
            self.result.sync_state = str(walsender[2]) if walsender[2] is not None else None
        if replayed is not None and self._replayed_start is not None:
            elapsed = time.monotonic() - self._started
            self.result.replay_rate_bytes_per_s = round((replayed - self._replayed_start) / elapsed, 1)

    def _sample(self) -> None:
        try:
            with self.primary.connect() as conn:
                # The first sample after one interval: before the window's first reply from the standby,
                # pg_stat_replication still shows the lags of earlier work.
                while not self._stop.wait(self.sample_interval_s):
                    row = self._walsender(conn)
                    elapsed = round(time.monotonic() - self._started, 3)
                    if row is not None:
                        lags = [None if v is None else float(str(v)) for v in row[3:6]]
                        for kind, lag in zip(("write", "flush", "replay"), lags, strict=True):
                            if lag is not None:
                                self._lags[kind].append(lag)
                        behind = int(str(row[6])) if row[6] is not None else None
                        self.rows.append((elapsed, *lags, behind))
        except (psycopg.Error, OSError) as error:
            self._missing(("replay_lag_ms",), f"sampling stopped: {first_line(error)}")

    def _walsender(
        self, conn: psycopg.Connection[tuple[object, ...]] | None = None
    ) -> tuple[object, ...] | None:
        conn = conn or self._conn
        assert conn is not None
        return conn.execute(_WALSENDER, {"slot": self._slot, "name": self.name}).fetchone()

    def _standby_slot(self) -> str | None:
        assert self.standby is not None
        with self.standby.connection.connect() as conn:
            row = conn.execute("SELECT slot_name FROM pg_stat_wal_receiver").fetchone()
        return str(row[0]) if row and row[0] is not None else None

    def _standby_replayed(self) -> int | None:
        assert self.standby is not None
        try:
            with self.standby.connection.connect() as conn:
                row = conn.execute("SELECT pg_last_wal_replay_lsn()").fetchone()
        except (psycopg.Error, OSError):
            return None
        return _lsn(row[0]) if row else None

    def _switch_and_wait_archived(self) -> None:
        """Close the current segment and wait until the archiver has copied it (or says it failed)."""
        assert self._conn is not None
        row = self._conn.execute(
            "SELECT pg_walfile_name(pg_switch_wal()), failed_count FROM pg_stat_archiver"
        ).fetchone()
        assert row is not None
        segment, failed_before = str(row[0]), int(str(row[1]))
        deadline = time.monotonic() + ARCHIVE_TIMEOUT_S
        while time.monotonic() < deadline:
            state = self._conn.execute(
                "SELECT coalesce(last_archived_wal, ''), failed_count, last_failed_wal FROM pg_stat_archiver"
            ).fetchone()
            assert state is not None
            if str(state[0]) >= segment:
                return
            if int(str(state[1])) > failed_before:
                raise ArchiveStalled(f"archiving {state[2]} failed; see the server log")
            time.sleep(0.05)
        raise ArchiveStalled(f"{segment} was not archived within {ARCHIVE_TIMEOUT_S:.0f} s")

    def _missing(self, figures: Sequence[str], reason: str) -> None:
        self.unavailable += [Unavailable(f"replication.{figure}", reason) for figure in figures]
