"""Shards beside the embedded server: N embedded clusters of their own that the embedded server, as the
coordinator, reaches through postgres_fdw (the `shard` step creates the foreign partitions on them).

Each shard is started like the standby (its own temporary directory, owner file, port and socket, run as the
server's OS user) and stops with its directory removed on every way out; the coordinator checks its shards
whenever it is checked itself, so a shard that dies stops the run.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

from pkbench.reporting import Reporter
from pkbench.server.embedded import EmbeddedCluster
from pkbench.server.existing import ExistingServer
from pkbench.server.topology import Topology


class ShardCluster(EmbeddedCluster):
    """One shard: an initdb'd cluster with the coordinator's settings, outside its start wrapper (a
    --memory-limit caps the coordinator only)."""

    def __init__(self, coordinator: EmbeddedCluster, number: int) -> None:
        super().__init__(coordinator.bindir, coordinator.pgbench, coordinator.settings, keep=coordinator.keep)
        self.role = f"shard {number}"


@contextlib.contextmanager
def attached(
    target: EmbeddedCluster | ExistingServer, topology: Topology, reporter: Reporter
) -> Iterator[None]:
    """TOPOLOGY's shards started beside TARGET while the block runs (target.shards), none when it has none."""
    if not isinstance(target, EmbeddedCluster) or topology.shards == 0:
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
