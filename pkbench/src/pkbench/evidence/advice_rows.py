"""The rows and columns of the "which key?" table, and the runs that answer each row: what answers a row is
data, not code. A condition names the runs, windows and figures that answer it (`Source`), in the order they
are tried; the documents' table reads the committed runs (`COMMITTED`, and the fleet sweep's row,
`committed`); `pkbench advise` gives its own sources for the runs it made. evidence.advice reads the cells."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from pkbench.summary import fleet

# A Source's figure: a verdict's metric (the rate of a window, or the load's time per row), or the size.
Figure = Literal["tps", "load", "size"]
TPS: Figure = "tps"
LOAD: Figure = "load"
SIZE: Figure = "size"


@dataclass(frozen=True)
class Column:
    strategy: str
    heading: str
    # Keys the load driver's clients make (summary.fleet): pgbench has no clock, so each statement builds its
    # key in SQL, a cost an application pays in its own process; their rates carry it, their work does not.
    made_by_clients: bool = False


COLUMNS = (
    Column("bigint", "bigint"),
    Column("uuid-v4", "v4"),
    Column("uuid-v4-text", "v4 as text"),
    Column("uuid-v7", "v7"),
    Column("app-v7-random", "v7 made by app servers, random sub-ms bits", made_by_clients=True),
    Column("app-v7-counter", "v7 made by app servers, a counter", made_by_clients=True),
    Column("seq-time", "time prefix"),
    Column("seq-seq-256", "sequence prefix"),
    Column("uuid-striped", "striped"),
)


@dataclass(frozen=True)
class Condition:
    key: str
    group: str
    label: str
    # Among the rows people ask about most: the README's short table shows them.
    asked: bool = False
    # The keys of the conditions merged into this row, when one measurement answers several.
    merged: tuple[str, ...] = ()

    @property
    def keys(self) -> tuple[str, ...]:
        return (self.key, *self.merged)


CONDITIONS = (
    Condition("shared-buffers", "data", "within shared buffers"),
    Condition("page-cache", "data", "beyond shared buffers, within RAM", asked=True),
    Condition("beyond-ram", "data", "beyond RAM (a memory cap)", asked=True),
    Condition("one-writer", "clients", "one writer"),
    Condition("few-cores", "clients", "many clients on few cores", asked=True),
    Condition("many-cores", "clients", "many clients on many cores, asynchronous commit", asked=True),
    Condition("many-cores-durable", "clients", "many clients on many cores, durable commit"),
    Condition("durable", "commit", "durable commit"),
    Condition("asynchronous", "commit", "asynchronous commit"),
    Condition("one-table", "layout", "one table"),
    Condition("range-partitioned", "layout", "range-partitioned by time"),
    Condition("hash-partitioned", "layout", "hash-partitioned"),
    Condition("sharded-range", "layout", "sharded by range"),
    Condition("sharded-hash", "layout", "sharded by hash"),
    Condition("sync-standby", "replication", "with a synchronous standby"),
    Condition("bulk-load", "load", "bulk load", asked=True),
    Condition("storage-size", "size", "storage size", asked=True),
)
BY_KEY = {c.key: c for c in CONDITIONS}


@dataclass(frozen=True)
class Source:
    """Where a condition's cells come from: a results directory (relative to the folder of runs), the window
    or load step whose verdict answers (None: the first the run judged on FIGURE), and the figure."""

    run: str
    window: str | None
    figure: Figure


Sources = Mapping[str, Sequence[Source]]

# The committed runs under pkbench/docs/reproductions that answer each condition, tried in order for each key
# (the run with the narrower intervals first). The memory tiers: seed 004's scale (16MB shared_buffers, a
# 256MB cap, 750k and 6M rows), five paired rounds of 30-s windows; wal-keys, smaller and on a busier machine,
# adds the sequential prefixes. A condition left out is "not measured" in every column. Many cores: 64
# clients on 16 cores, where the right edge's lock held most backends; asynchronous commit from the five-round
# sweep, durable from the other.
COMMITTED: Sources = {
    "shared-buffers": [
        Source("wal-tiers-seed-004", "tier-1-shared-buffers", TPS),
        Source("wal-keys", "tier-1-shared-buffers", TPS),
    ],
    "page-cache": [
        Source("wal-tiers-seed-004", "tier-2-page-cache", TPS),
        Source("wal-keys", "tier-2-page-cache", TPS),
    ],
    "beyond-ram": [
        Source("wal-tiers-seed-004", "tier-3-beyond-memory", TPS),
        Source("wal-keys", "tier-3-beyond-memory", TPS),
    ],
    "one-writer": [
        Source("war-one-writer-six-rounds", "lookup-by-data", TPS),
        Source("war-one-writer", "lookup-by-data", TPS),
    ],
    "few-cores": [Source("war-default", "lookup-by-data", TPS)],
    "many-cores": [Source("contention-16-cores-async/clients-64", "insert-async", TPS)],
    "many-cores-durable": [Source("contention-16-cores-sync/clients-64", "insert-sync", TPS)],
    "durable": [Source("war-default", "lookup-by-data", TPS)],
    "asynchronous": [
        Source("war-async-commit-six-rounds", "lookup-by-data", TPS),
        Source("war-async-commit", "lookup-by-data", TPS),
    ],
    "one-table": [Source("war-default", "lookup-by-data", TPS)],
    "range-partitioned": [Source("partitioned-windows", "range-insert", TPS)],
    "hash-partitioned": [Source("partitioned-windows", "hash-insert", TPS)],
    "sharded-range": [Source("sharded-3", "insert-range", TPS)],
    "sharded-hash": [Source("sharded-3", "insert-hash", TPS)],
    "sync-standby": [Source("designs-by-scenario/replication/paired", "insert-sync", TPS)],
    "bulk-load": [Source("war-default", None, LOAD), Source("war-one-writer", None, LOAD)],
    "storage-size": [Source("war-default", None, SIZE), Source("war-one-writer", None, SIZE)],
}


# Keys made by application servers: the fleet sweep's point at the smallest clock skew where a key the
# clients make stops behaving like server-side v7 (summary.fleet decides), else its largest skew.
FLEET_RUN = "fleet-skew"
FLEET_WINDOW = "insert-lookup"


def fleet_row(runs_dir: Path) -> tuple[Condition, Source] | None:
    """The fleet row and the point that answers it, from the committed sweep; None while it is not there."""
    sweep = runs_dir / FLEET_RUN / "sweep.json"
    if not sweep.is_file():
        return None
    recorded = json.loads(sweep.read_text())
    points, _ = fleet.read(runs_dir / FLEET_RUN, recorded)
    if not points:
        return None
    departed = [p for s in fleet.APP_STRATEGIES if (p := fleet.first_departure(points, s)) is not None]
    skew = min(p.skew_ms for p in departed) if departed else max(p.skew_ms for p in points)
    directory = next(point["directory"] for point in recorded["points"] if point["value"] == skew)
    label = f"keys made by application servers, clocks {fleet.skew_words(skew)} apart"
    return Condition("app-fleet", "keys made outside", label, asked=True), Source(
        f"{FLEET_RUN}/{directory}", FLEET_WINDOW, TPS
    )


def committed(runs_dir: Path) -> tuple[Sources, tuple[Condition, ...]]:
    """The committed table's sources and conditions, the fleet row among them once its sweep is there."""
    found = fleet_row(runs_dir)
    if found is None:
        return COMMITTED, CONDITIONS
    condition, source = found
    at = next(i for i, c in enumerate(CONDITIONS) if c.key == "bulk-load")
    return {**COMMITTED, condition.key: [source]}, (*CONDITIONS[:at], condition, *CONDITIONS[at:])
