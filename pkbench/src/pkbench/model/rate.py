"""What a key's misses and full-page images add to an insert's time, against bigint's, and so its rate.

A random key's insert finds its leaf in shared buffers with the chance that the index's share held there
gives: shared_buffers over the index's size, scaled by the share of the buffers the index keeps against the
heap pages that stream through them (`buffer_share`, fitted to the pages pg_stat_statements saw read). Past
shared buffers the leaf comes from the page cache, past the memory from storage. Each miss and each extra
full-page image (a page the checkpointer writes, WAL to flush) costs time; the costs are fitted by
non-negative least squares to the paired rounds of the calibration runs, where each key ran beside bigint
under the same conditions, so they are this machine's costs: a server with other storage pays other ones.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass

from pkbench.model.btree import LAYOUTS
from pkbench.model.observations import Observation
from pkbench.model.spread import interval_factor


def buffer_misses(index_bytes: float, shared_buffers_bytes: float, share: float, ordered: bool) -> float:
    """Leaves missed in shared buffers per insert."""
    if ordered or index_bytes <= 0:
        return 0.0
    return max(0.0, 1 - share * shared_buffers_bytes / index_bytes)


def memory_misses(index_bytes: float, cache_bytes: float | None, ordered: bool) -> float:
    """Leaves missed in the page cache per insert (no cache given: none missed)."""
    if ordered or cache_bytes is None or index_bytes <= 0:
        return 0.0
    return max(0.0, 1 - cache_bytes / index_bytes)


def page_cache_bytes(observation: Observation) -> float | None:
    """The page cache a calibration window's server had: its memory cap less shared buffers (no cap: the
    machine's memory, more than any calibration index)."""
    if observation.memory_limit_bytes is None:
        return None
    return float(observation.memory_limit_bytes - observation.shared_buffers_bytes)


def fit_buffer_share(windows: Sequence[Observation]) -> float:
    """The share of shared buffers that holds the key index's leaves, fitted by least squares to the reads
    per insert measured in the random key's windows whose index outgrew the buffers."""
    points = [
        (o.shared_buffers_bytes / o.index_bytes_at_end, 1 - o.shared_blocks_read_per_transaction)
        for o in windows
        if not LAYOUTS[o.strategy].ordered
        and o.shared_blocks_read_per_transaction is not None
        and o.index_bytes_at_end > o.shared_buffers_bytes
    ]
    if not points:
        return 1.0
    return min(1.0, sum(x * y for x, y in points) / sum(x * x for x, _ in points))


@dataclass(frozen=True)
class RateFit:
    """Seconds an insert takes longer per miss in buffers, per miss in memory, per extra full-page image;
    bigint's own time per insert over the calibration windows; the spread of the fit's log residuals."""

    buffer_miss_s: float
    memory_miss_s: float
    image_s: float
    bigint_insert_s: float
    log_residual_sd: float
    pairs: int

    def added_s(self, buffer: float, memory: float, images: float) -> float:
        return self.buffer_miss_s * buffer + self.memory_miss_s * memory + self.image_s * images

    def ratio(self, added_s: float, bigint_insert_s: float | None = None) -> float:
        base = bigint_insert_s or self.bigint_insert_s
        return base / (base + added_s)

    def interval_factor(self) -> float:
        """How far, as a factor either way, a predicted rate's 95% interval reaches (model.spread)."""
        return interval_factor(self.log_residual_sd, self.pairs, 3)


@dataclass(frozen=True)
class Pair:
    """A key's window beside bigint's in the same round, with what the model says the key adds."""

    key: Observation
    bigint: Observation
    buffer: float
    memory: float
    images: float

    @property
    def added_s(self) -> float:
        return 1 / self.key.tps - 1 / self.bigint.tps


def pairs(windows: Sequence[Observation], share: float, images: dict[Observation, float]) -> list[Pair]:
    """Each non-bigint window with bigint's window of the same run, window and round; IMAGES gives each
    window's predicted full-page images per insert."""
    base = {(o.run, o.window, o.round): o for o in windows if o.strategy == "bigint"}
    found = []
    for o in windows:
        b = base.get((o.run, o.window, o.round))
        if o.strategy == "bigint" or b is None:
            continue
        ordered = LAYOUTS[o.strategy].ordered
        found.append(
            Pair(
                key=o,
                bigint=b,
                buffer=buffer_misses(o.index_bytes_at_end, o.shared_buffers_bytes, share, ordered),
                memory=memory_misses(o.index_bytes_at_end, page_cache_bytes(o), ordered),
                images=max(0.0, images[o] - images[b]),
            )
        )
    return found


def fit_rate(found: Sequence[Pair]) -> RateFit:
    """Non-negative least squares of each pair's added seconds per insert on its misses and images."""
    # scipy.optimize takes a second to import: paid by the processes that fit, not by every pkbench command.
    import numpy as np
    from scipy import optimize

    matrix = np.array([[p.buffer, p.memory, p.images] for p in found])
    added = np.array([p.added_s for p in found])
    (buffer_s, memory_s, image_s), _ = optimize.nnls(matrix, added)
    bigint_s = statistics.median(1 / p.bigint.tps for p in found)
    partial = RateFit(float(buffer_s), float(memory_s), float(image_s), bigint_s, 0.0, len(found))
    residuals = [
        math.log(
            (p.key.tps / p.bigint.tps)
            / partial.ratio(partial.added_s(p.buffer, p.memory, p.images), 1 / p.bigint.tps)
        )
        for p in found
    ]
    spread = statistics.stdev(residuals) if len(residuals) > 1 else math.inf
    return RateFit(float(buffer_s), float(memory_s), float(image_s), bigint_s, spread, len(found))
