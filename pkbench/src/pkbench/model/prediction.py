"""Each key's WAL per insert and misses per insert on one server, from its settings and the table's size and
insert rate, with the calibration's intervals.

A checkpoint cycle ends at checkpoint_timeout, or sooner when the WAL written since the last one reaches
max_wal_size / (1 + checkpoint_completion_target), the point at which PostgreSQL asks for the next one; a
random key's WAL per insert falls as the cycle grows, so the cycle's length is found where the two meet. A
server that says how often it checkpoints (pg_stat_bgwriter, pg_stat_checkpointer) gives the cycle directly.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from pkbench.model.btree import LAYOUTS, PAGE_BYTES, KeyLayout, leaf_images, leaves
from pkbench.model.calibration import BASELINE, Fit
from pkbench.model.rate import buffer_misses, memory_misses

# An interval reaching past twice its estimate is said in words, not quoted, as the documents' rule says
# one (evidence.cell.TOO_WIDE: a reach of its estimate's size).
QUOTABLE_FACTOR = 2.0
# Backends inserting at once: each fills a heap page of its own, a few images per checkpoint cycle; at a
# production server's cycle of many thousands of inserts their share of the WAL is below a thousandth.
WRITERS = 16


@dataclass(frozen=True)
class Server:
    """What a key's cost depends on, of one server and one table."""

    rows: float
    insert_rate: float
    shared_buffers_bytes: int
    memory_bytes: int | None
    checkpoint_timeout_s: float
    max_wal_size_bytes: int
    checkpoint_completion_target: float = 0.9
    wal_compression: bool = False
    checkpoint_every_s: float | None = None


@dataclass(frozen=True)
class Estimate:
    """A figure and its 95% interval."""

    value: float
    low: float
    high: float


@dataclass(frozen=True)
class KeyCost:
    """One key's predicted cost on the server."""

    key: str
    leaf_pages: float
    inserts_per_cycle: float
    cycle_s: float
    cycle_ended_by: str
    images_per_insert: float
    wal_per_insert: Estimate
    wal_against_bigint: Estimate
    buffer_misses_per_insert: float
    memory_misses_per_insert: float | None
    added_us_per_insert: float | None
    rate_against_bigint: Estimate | None


def wal_per_insert(
    layout: KeyLayout, key: str, fit: Fit, leaf_pages: float, per_cycle: float, compressed: bool
) -> float:
    constants = fit.key(key)
    share = (constants.compressed_image_share or 1.0) if compressed else 1.0
    images = leaf_images(per_cycle, leaf_pages, layout) + fit.images_per_writer * WRITERS
    return constants.record_bytes + images / per_cycle * constants.image_bytes * share


def cycle(server: Server, layout: KeyLayout, key: str, fit: Fit, leaf_pages: float) -> tuple[float, str]:
    """Inserts per checkpoint cycle, and what ends the cycle."""
    if server.checkpoint_every_s is not None:
        return server.insert_rate * server.checkpoint_every_s, "the server's own checkpoints"
    by_time = server.insert_rate * server.checkpoint_timeout_s
    trigger = server.max_wal_size_bytes / (1 + server.checkpoint_completion_target)

    def wal_in(inserts: float) -> float:
        return inserts * wal_per_insert(layout, key, fit, leaf_pages, inserts, server.wal_compression)

    if wal_in(by_time) <= trigger:
        return by_time, "checkpoint_timeout"
    low, high = 1.0, by_time
    for _ in range(200):
        middle = math.sqrt(low * high)
        low, high = (middle, high) if wal_in(middle) <= trigger else (low, middle)
        if high / low < 1.0001:
            break
    return low, "max_wal_size"


def _widened(value: float, factor: float) -> Estimate:
    return Estimate(value, value / factor, value * factor)


def predict(server: Server, fit: Fit, keys: tuple[str, ...]) -> list[KeyCost]:
    """Each of KEYS (and bigint, which every other is put against) on SERVER."""
    shown = (BASELINE, *(k for k in keys if k != BASELINE))
    costs: dict[str, KeyCost] = {}
    for key in shown:
        layout = LAYOUTS[key]
        leaf_pages = leaves(server.rows, layout)
        per_cycle, ended_by = cycle(server, layout, key, fit, leaf_pages)
        per_cycle = max(per_cycle, 1.0)
        wal = wal_per_insert(layout, key, fit, leaf_pages, per_cycle, server.wal_compression)
        images = (leaf_images(per_cycle, leaf_pages, layout) + fit.images_per_writer * WRITERS) / per_cycle
        factor = fit.key(key).interval_factor()
        against = 1.0
        if key != BASELINE:
            base = costs[BASELINE]
            against_factor = math.exp(
                math.hypot(math.log(factor), math.log(fit.key(BASELINE).interval_factor()))
            )
            ratio = wal / base.wal_per_insert.value
        else:
            against_factor, ratio = 1.0, against
        index_bytes = leaf_pages * PAGE_BYTES
        buffers = buffer_misses(index_bytes, server.shared_buffers_bytes, fit.buffer_share, layout.ordered)
        memory = memory_misses(index_bytes, server.memory_bytes, layout.ordered)
        added, rate = None, None
        if fit.rate is not None:
            base_images = costs[BASELINE].images_per_insert if key != BASELINE else images
            added = fit.rate.added_s(buffers, memory, max(0.0, images - base_images))
            rate = _widened(fit.rate.ratio(added), fit.rate.interval_factor())
        costs[key] = KeyCost(
            key=key,
            leaf_pages=leaf_pages,
            inserts_per_cycle=per_cycle,
            cycle_s=per_cycle / server.insert_rate,
            cycle_ended_by=ended_by,
            images_per_insert=images,
            wal_per_insert=_widened(wal, factor),
            wal_against_bigint=_widened(ratio, against_factor),
            buffer_misses_per_insert=buffers,
            memory_misses_per_insert=memory if server.memory_bytes is not None else None,
            added_us_per_insert=added * 1e6 if added is not None else None,
            rate_against_bigint=rate,
        )
    return [costs[k] for k in shown]
