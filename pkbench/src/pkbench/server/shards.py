"""Shards beside the embedded server: N embedded clusters of their own that the embedded server, as the
coordinator, reaches through postgres_fdw (the `shard` step creates the foreign partitions on them); or,
with --dsn, the existing servers named by --shard-dsn (shard_dsn.py).

Each shard is started like the standby (its own temporary directory, owner file, port and socket, run as the
server's OS user) and stops with its directory removed on every way out; the coordinator checks its shards
whenever it is checked itself, so a shard that dies stops the run.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

import psycopg
from psycopg import sql

from pkbench.reporting import Reporter
from pkbench.server import shard_dsn
from pkbench.server.embedded import EmbeddedCluster
from pkbench.server.existing import ExistingServer
from pkbench.server.topology import Topology
from pkbench.server.workspace import Workspace


class ShardCluster(EmbeddedCluster):
    """One shard: an initdb'd cluster with the coordinator's settings, outside its start wrapper (a
    --memory-limit caps the coordinator only)."""

    def __init__(self, coordinator: EmbeddedCluster, number: int) -> None:
        super().__init__(coordinator.bindir, coordinator.pgbench, coordinator.settings, keep=coordinator.keep)
        self.role = f"shard {number}"
        self.number = number

    def claim_schema(self, schema: str) -> None:
        # The cluster is pkbench's own and goes with the run: whatever is in it is the run's.
        with self.connection.connect() as conn:
            conn.execute(sql.SQL("CREATE SCHEMA IF NOT EXISTS {}").format(sql.Identifier(schema)))

    def foreign_server(self, coordinator: psycopg.Connection[Any]) -> str:
        name = f"pkbench_shard_{self.number}"
        params = self.connection.params
        coordinator.execute(
            sql.SQL(
                "CREATE SERVER IF NOT EXISTS {} FOREIGN DATA WRAPPER postgres_fdw"
                " OPTIONS (host {}, port {}, dbname {})"
            ).format(
                sql.Identifier(name),
                sql.Literal(params["host"]),
                sql.Literal(params["port"]),
                sql.Literal(params["dbname"]),
            )
        )
        coordinator.execute(
            sql.SQL("CREATE USER MAPPING IF NOT EXISTS FOR CURRENT_USER SERVER {} OPTIONS (user {})").format(
                sql.Identifier(name), sql.Literal(params["user"])
            )
        )
        return name


@contextlib.contextmanager
def attached(
    target: EmbeddedCluster | ExistingServer, topology: Topology, ws: Workspace, reporter: Reporter
) -> Iterator[None]:
    """TOPOLOGY's shards beside TARGET while the block runs (target.shards), none when it has none: started
    beside the embedded server, or the --shard-dsn servers behind the --dsn one, in WS's names."""
    if isinstance(target, ExistingServer):
        if topology.shard_dsns:
            with shard_dsn.attached(target, topology.shard_dsns, ws, reporter):
                yield
        else:
            yield
        return
    if topology.shards == 0:
        yield
        return
    with contextlib.ExitStack() as stack:
        try:
            for number in range(1, topology.shards + 1):
                shard = stack.enter_context(ShardCluster(target, number))
                if shard.keep:
                    reporter.info(f"pkbench: keeping shard {number} in {shard.directory}")
                target.shards.append(shard)
            yield
        finally:
            target.shards = []
