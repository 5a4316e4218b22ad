"""Servers beside the target: a streaming standby pkbench starts from the embedded primary, or one named by
--standby-dsn and only read.

The standby pkbench starts is an embedded cluster of its own (its own temporary directory, owner file, port
and socket), filled by pg_basebackup through a physical replication slot instead of initdb; it stops and
its directory goes on every way out, and the slot is dropped while the primary still runs. The primary
checks the standby whenever it is checked itself, so a standby that dies stops the run.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import psycopg

from pkbench.errors import PkbenchError
from pkbench.reporting import Reporter
from pkbench.server.connection import ConnectionInfo, PrivateSecrets, parse, resolve
from pkbench.server.embedded import EmbeddedCluster
from pkbench.server.existing import ExistingServer
from pkbench.server.os_user import SERVER_USER
from pkbench.server.synchronous import STANDBY_NAME

# How long the standby may take to stream after it started (a base backup of a fresh cluster takes seconds).
STREAMING_TIMEOUT_S = 120.0
# Settings of the primary that would stop a standby copied from it from starting or following it.
_PRIMARY_ONLY = (
    "archive_mode",
    "archive_library",
    "archive_command",
    "basic_archive.archive_directory",
    "synchronous_standby_names",
)


@dataclass(frozen=True)
class Topology:
    """What runs beside the target: a standby pkbench starts (embedded), a WAL archive of the embedded
    primary, or an existing standby to read (--standby-dsn)."""

    standby: bool = False
    archive: bool = False
    standby_dsn: str | None = None
    # initdb's --wal-segsize for the embedded primary: smaller segments count archived WAL more finely.
    wal_segment_size_mb: int | None = None
    # Embedded servers pkbench starts beside the primary, which becomes their coordinator (server/shards.py).
    shards: int = 0
    # Existing servers the --dsn server coordinates instead (--shard-dsn, server/shard_dsn.py).
    shard_dsns: tuple[str, ...] = ()

    @property
    def any(self) -> bool:
        return self.standby or self.archive or self.standby_dsn is not None or self.shards > 0

    def initdb_options(self) -> list[str]:
        return [f"--wal-segsize={self.wal_segment_size_mb}"] if self.wal_segment_size_mb else []

    def to_json(self) -> dict[str, object]:
        return {
            "standby": "started by pkbench"
            if self.standby
            else "--standby-dsn"
            if self.standby_dsn
            else None,
            "archive": "basic_archive" if self.archive else None,
            "wal_segment_size_mb": self.wal_segment_size_mb,
            "shards": self.shards,
            # Never the DSNs themselves: they may carry passwords.
            "shard_servers": "--shard-dsn"
            if self.shard_dsns
            else "started by pkbench"
            if self.shards
            else None,
        }


def shard_count(given: int | None, shard_dsns: tuple[str, ...], asked: int, dsn: str | None) -> int:
    """--shards (GIVEN), else one per --shard-dsn (they replace the scenario's embedded shards), else the
    scenario's (ASKED); --shards with --shard-dsn is left for check() to refuse."""
    if given is not None:
        return given
    if shard_dsns:
        return len(shard_dsns)
    if asked and dsn is not None:
        raise PkbenchError(
            f"the scenario asks for {asked} shards: with --dsn name existing ones with --shard-dsn, "
            "once per shard"
        )
    return asked


def check(topology: Topology, dsn: str | None) -> None:
    """What cannot be combined, refused before anything starts."""
    if dsn is not None and topology.standby:
        raise PkbenchError(
            "--standby starts a standby of the embedded server; with --dsn name an existing one with "
            "--standby-dsn"
        )
    if dsn is not None and topology.archive:
        raise PkbenchError("--archive archives the embedded server's WAL; it does not apply with --dsn")
    if dsn is not None and topology.wal_segment_size_mb:
        raise PkbenchError(
            "the WAL segment size is chosen when the embedded cluster is created, not with --dsn"
        )
    if topology.standby_dsn is not None and dsn is None:
        raise PkbenchError("--standby-dsn names the standby of the --dsn server; give --dsn too")
    if topology.shard_dsns and dsn is None:
        raise PkbenchError("--shard-dsn names a shard of the --dsn coordinator; give --dsn too")
    if topology.shards and dsn is not None and not topology.shard_dsns:
        raise PkbenchError(
            "--shards starts shards beside the embedded server; with --dsn name existing ones with "
            "--shard-dsn, once per shard"
        )
    if topology.shard_dsns and topology.shards != len(topology.shard_dsns):
        raise PkbenchError("--shards starts embedded shards; with --shard-dsn the shards are the ones named")
    for number, shard_dsn in enumerate(topology.shard_dsns, 1):
        parse(shard_dsn, f"--shard-dsn number {number}")
    if not 0 <= topology.shards <= 16:
        raise PkbenchError(f"shards {topology.shards}: must be from 0 to 16")
    size = topology.wal_segment_size_mb
    if size is not None and (size < 1 or size > 1024 or size & (size - 1)):
        raise PkbenchError(f"wal_segment_size_mb {size}: must be a power of two from 1 to 1024")


class ArchivingCluster(EmbeddedCluster):
    """The embedded primary with basic_archive copying every completed WAL segment into `archive_directory`,
    inside the cluster's directory (and removed with it)."""

    @property
    def archive_directory(self) -> Path:
        assert self.directory is not None
        return self.directory / "archive"

    def _initialise(self) -> None:
        self.archive_directory.mkdir(mode=0o700)
        self._give_to_server_user(self.archive_directory)
        super()._initialise()
        self.settings.update(
            archive_mode="on",
            archive_library="basic_archive",
            **{"basic_archive.archive_directory": str(self.archive_directory)},
        )


def primary_class(topology: Topology) -> type[EmbeddedCluster]:
    """The embedded primary's class: with the archive when the topology asks for it."""
    return ArchivingCluster if topology.archive else EmbeddedCluster


class StandbyCluster(EmbeddedCluster):
    """A hot standby of PRIMARY: pg_basebackup through the slot, then streaming from the primary's socket."""

    role = "standby server"
    owned = True

    def __init__(self, primary: EmbeddedCluster) -> None:
        assert primary.directory is not None and primary.port is not None
        settings = {k: v for k, v in primary.settings.items() if k not in _PRIMARY_ONLY}
        primary_conninfo = (
            f"host={primary.directory} port={primary.port} user={SERVER_USER} application_name={STANDBY_NAME}"
        )
        super().__init__(
            primary.bindir,
            primary.pgbench,
            {
                **settings,
                "primary_conninfo": primary_conninfo,
                "primary_slot_name": STANDBY_NAME,
                "hot_standby": "on",
                # Replies at least every second, so the primary's lag columns stay current.
                "wal_receiver_status_interval": "1s",
            },
            # Outside the primary's start wrapper: a --memory-limit caps the server under test only.
            keep=primary.keep,
        )
        self.primary = primary

    def _initialise(self) -> None:
        assert self.primary.directory is not None
        self._run_server_program(
            "pg_basebackup",
            "--pgdata",
            str(self.data_dir),
            "--host",
            str(self.primary.directory),
            "--port",
            str(self.primary.port),
            f"--username={SERVER_USER}",
            "--wal-method=stream",
            f"--slot={STANDBY_NAME}",
            "--checkpoint=fast",
            "--no-sync",
        )
        signal_file = self.data_dir / "standby.signal"
        signal_file.touch()
        self._give_to_server_user(signal_file)


@dataclass
class ReadOnlyStandby:
    """A standby named by --standby-dsn: read with read-only queries, never changed, stopped or removed."""

    connection: ConnectionInfo
    owned: bool = False

    def check_alive(self) -> None:
        return None


@contextlib.contextmanager
def _read_only_standby(dsn: str) -> Iterator[ReadOnlyStandby]:
    """The --standby-dsn server, resolved once as --dsn is, once it says it is in recovery."""
    with PrivateSecrets(resolve(dsn)) as connection:
        with connection.connect() as conn:
            row = conn.execute("SELECT pg_is_in_recovery()").fetchone()
        if not row or not row[0]:
            raise PkbenchError(f"--standby-dsn {connection.redacted()}: that server is not a standby")
        yield ReadOnlyStandby(connection)


@contextlib.contextmanager
def attached(
    target: EmbeddedCluster | ExistingServer, topology: Topology, reporter: Reporter
) -> Iterator[None]:
    """The standby of TOPOLOGY beside TARGET while the block runs (target.standby), nothing when none."""
    if isinstance(target, EmbeddedCluster) and topology.standby:
        with _started_standby(target, reporter):
            yield
    elif topology.standby_dsn is not None:
        with _read_only_standby(topology.standby_dsn) as standby:
            target.standby = standby
            try:
                yield
            finally:
                target.standby = None
    else:
        yield


@contextlib.contextmanager
def _started_standby(primary: EmbeddedCluster, reporter: Reporter) -> Iterator[StandbyCluster]:
    with primary.connection.connect() as conn:
        conn.execute("SELECT pg_create_physical_replication_slot(%s, true)", (STANDBY_NAME,))
    try:
        standby = StandbyCluster(primary)
        with standby:
            if standby.keep:
                reporter.info(f"pkbench: keeping the standby in {standby.directory}")
            _wait_until_streaming(primary, standby)
            primary.standby = standby
            try:
                yield standby
            finally:
                primary.standby = None
    finally:
        _drop_slot(primary)


def _wait_until_streaming(primary: EmbeddedCluster, standby: StandbyCluster) -> None:
    deadline = time.monotonic() + STREAMING_TIMEOUT_S
    with primary.connection.connect() as conn:
        while True:
            standby.check_alive()
            row = conn.execute(
                "SELECT state FROM pg_stat_replication WHERE application_name = %s", (STANDBY_NAME,)
            ).fetchone()
            if row is not None and row[0] == "streaming":
                return
            if time.monotonic() > deadline:
                raise PkbenchError(
                    f"the standby did not stream from the primary within {STREAMING_TIMEOUT_S:.0f} s; "
                    f"see {standby.log_path}"
                )
            time.sleep(0.1)


def _drop_slot(primary: EmbeddedCluster, timeout_s: float = 10.0) -> None:
    """Drop the standby's slot once its walsender has gone; nothing to do when the primary is gone too."""
    deadline = time.monotonic() + timeout_s
    while True:
        try:
            with primary.connection.connect() as conn:
                conn.execute(
                    "SELECT pg_drop_replication_slot(slot_name) FROM pg_replication_slots"
                    " WHERE slot_name = %s AND NOT active",
                    (STANDBY_NAME,),
                )
                row = conn.execute(
                    "SELECT 1 FROM pg_replication_slots WHERE slot_name = %s", (STANDBY_NAME,)
                ).fetchone()
        except (PkbenchError, psycopg.Error):
            return
        if row is None or time.monotonic() > deadline:
            return
        time.sleep(0.1)
