"""A live server's settings that a key's cost depends on, and how often it has actually checkpointed: one
read-only statement."""

from __future__ import annotations

from dataclasses import dataclass

from pkbench.server.connection import ConnectionInfo
from pkbench.survey.facts import read_only

# Fewer checkpoints than this since the statistics began say little of how far apart they come.
FEWEST_CHECKPOINTS = 3


@dataclass(frozen=True)
class CheckpointSettings:
    shared_buffers_bytes: int
    checkpoint_timeout_s: float
    max_wal_size_bytes: int
    checkpoint_completion_target: float
    wal_compression: bool
    # Seconds between checkpoints since the statistics began, where they began and enough came since.
    measured_every_s: float | None
    checkpoints: int


def read(connection: ConnectionInfo) -> CheckpointSettings:
    """The settings, and checkpoints counted by pg_stat_checkpointer (17 on) or pg_stat_bgwriter."""
    with read_only(connection) as reader:
        (version,) = reader.one("SELECT current_setting('server_version_num')::int")
        counts = (
            "SELECT num_timed + num_requested, stats_reset FROM pg_catalog.pg_stat_checkpointer"
            if version >= 170000
            else "SELECT checkpoints_timed + checkpoints_req, stats_reset FROM pg_catalog.pg_stat_bgwriter"
        )
        (shared, timeout, wal_size, target, compression, count, seconds) = reader.one(
            "SELECT pg_catalog.pg_size_bytes(pg_catalog.current_setting('shared_buffers')), "
            "pg_catalog.current_setting('checkpoint_timeout'), "
            "pg_catalog.pg_size_bytes(pg_catalog.current_setting('max_wal_size')), "
            "pg_catalog.current_setting('checkpoint_completion_target')::float8, "
            "pg_catalog.current_setting('wal_compression'), c.n, "
            "extract(epoch FROM pg_catalog.now() - c.reset)::float8 "
            f"FROM ({counts}) AS c(n, reset)"
        )
        (timeout_s,) = reader.one("SELECT extract(epoch FROM %s::interval)::float8", timeout)
    every = seconds / count if seconds is not None and count >= FEWEST_CHECKPOINTS else None
    return CheckpointSettings(
        shared_buffers_bytes=int(shared),
        checkpoint_timeout_s=float(timeout_s),
        max_wal_size_bytes=int(wal_size),
        checkpoint_completion_target=float(target),
        wal_compression=str(compression).lower() not in ("off", "false", "0", "no"),
        measured_every_s=every,
        checkpoints=int(count),
    )
