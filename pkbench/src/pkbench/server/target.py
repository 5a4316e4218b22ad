"""What a run measures against, whichever kind it is: the Target interface, and what the server says about
itself (version, superuser, the settings results.json records)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

import psycopg

from pkbench.server.connection import ConnectionInfo


@dataclass(frozen=True)
class ServerInfo:
    version: str
    version_num: int
    superuser: bool
    embedded: bool
    settings: Mapping[str, str | None] = field(default_factory=dict)


# The settings results.json records: the ones that change what a primary key costs.
REPORTED_SETTINGS = (
    "shared_buffers",
    "max_wal_size",
    "checkpoint_timeout",
    "synchronous_commit",
    "full_page_writes",
    "wal_compression",
    "effective_cache_size",
    "work_mem",
    "maintenance_work_mem",
    "fsync",
    "wal_level",
    "autovacuum",
)


def describe(connection: ConnectionInfo, embedded: bool) -> ServerInfo:
    with connection.connect() as conn:
        row = conn.execute(
            "SELECT current_setting('server_version'), current_setting('server_version_num')::int,"
            " (SELECT rolsuper FROM pg_roles WHERE rolname = current_user)"
        ).fetchone()
        assert row is not None
        rows = conn.execute(
            "SELECT name, current_setting(name) FROM pg_settings WHERE name = ANY(%s)",
            (list(REPORTED_SETTINGS),),
        ).fetchall()
        settings = {str(name): str(value) for name, value in rows}
    version = str(row[0]).split(" ")[0]
    return ServerInfo(
        version,
        int(str(row[1])),
        bool(row[2]),
        embedded,
        {name: settings.get(name) for name in REPORTED_SETTINGS},
    )


class Replica(Protocol):
    """A standby streaming from the target: started by pkbench (topology.py) or named by --standby-dsn."""

    connection: ConnectionInfo
    # Only the standby pkbench started may be stopped, and only its primary may be reconfigured.
    owned: bool

    def check_alive(self) -> None: ...


class Shard(Protocol):
    """A server behind the target that holds part of a sharded table: started by pkbench (shards.py) or
    named by --shard-dsn (shard_dsn.py)."""

    connection: ConnectionInfo

    def check_alive(self) -> None: ...

    def claim_schema(self, schema: str) -> None:
        """SCHEMA on the shard, the run's own from now on (or one line why it may not be)."""

    def foreign_server(self, coordinator: psycopg.Connection[Any]) -> str:
        """The name of the coordinator's postgres_fdw server for this shard, there once this returns."""
        ...


class Target(Protocol):
    connection: ConnectionInfo
    server: ServerInfo
    pgbench: Path
    standby: Replica | None

    def check_alive(self) -> None: ...
