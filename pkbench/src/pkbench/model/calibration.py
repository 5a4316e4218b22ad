"""The model's few constants, fitted to committed runs, and how far its answers stray from what they measured.

WAL per transaction is the key's records (a constant per key: the heap and index records, the splits' share,
the commit) and its full-page images at their mean size. The images are btree.leaf_images for the key index's
leaves and, per checkpoint cycle, a few per writing client whatever the key (the heap pages each backend is
filling, the sequence, the rightmost leaf and its parents): `images_per_writer`, fitted over every window.
The records and the image size are each key's mean over the calibration windows; WAL compression's effect on
an image is the ratio of the mean image with it to the mean without, where the calibration runs measured one.

The spread of log(measured / predicted) over the calibration windows, each run's predicted by the constants
fitted to the others, gives each key's prediction interval. The rate's constants (model.rate) are fitted to
the grid's paired rounds.
"""

from __future__ import annotations

import functools
import math
import statistics
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from pkbench.errors import PkbenchError
from pkbench.model.btree import LAYOUTS, PAGE_BYTES, leaf_images
from pkbench.model.observations import Observation, observations
from pkbench.model.rate import RateFit, fit_buffer_share, fit_rate, pairs
from pkbench.model.spread import interval_factor

# The committed runs the constants are fitted to: the grid made for the model (the index's size against shared
# buffers and memory, the distance between checkpoints, WAL compression) and the wal runs made before it (16
# clients with checkpoints 1.875 s apart; no checkpoint inside a window), so that the spread is the model's
# across conditions, not within one. The rate's costs come from the grid alone: the older runs throttled the
# disk or ran other clients, and a cost per miss is the storage's. One run made for the check, at settings
# outside all of them, is kept out.
MODEL_GRID = ("model-grid-1", "model-grid-2", "model-grid-3", "model-grid-4")
CALIBRATION_RUNS = (*MODEL_GRID, "wal-keys", "wal-cap128", "wal-tiers-seed-004")
RATE_RUNS = MODEL_GRID
HELD_OUT_RUNS = ("model-held-out",)
# The rate's fit has three costs; it needs a few more pairs than that to say how far it strays.
MOST_CONSTANTS = 3
BASELINE = "bigint"


@dataclass(frozen=True)
class KeyFit:
    """One key's fitted constants and the spread of its calibration residuals."""

    record_bytes: float
    image_bytes: float
    compressed_image_share: float | None
    log_residual_sd: float
    windows: int

    def interval_factor(self) -> float:
        """How far, as a factor either way, a prediction's 95% interval reaches (model.spread)."""
        return interval_factor(self.log_residual_sd, self.windows, 1)


@dataclass(frozen=True)
class Fit:
    """The model's constants: images per writing client per checkpoint cycle, and each key's own."""

    images_per_writer: float
    keys: dict[str, KeyFit]
    runs: tuple[str, ...]
    buffer_share: float = 1.0
    rate: RateFit | None = None

    def key(self, strategy: str) -> KeyFit:
        found = self.keys.get(strategy)
        if found is None:
            raise PkbenchError(
                f"the model was not calibrated for {strategy!r} (it knows {', '.join(self.keys)})"
            )
        return found


def leaf_pages_at_start(observation: Observation) -> float:
    """The key index's leaves when the window began: those at its end less the ones its inserts added."""
    layout = LAYOUTS[observation.strategy]
    at_end = observation.index_bytes_at_end / PAGE_BYTES
    return max(1.0, at_end - observation.transactions / layout.rows_per_leaf)


def leaf_images_in(observation: Observation) -> float:
    """btree.leaf_images over each of the window's checkpoint cycles, the index growing cycle by cycle, the
    last cycle only as long as the window left it."""
    layout = LAYOUTS[observation.strategy]
    cycles = observation.cycles
    per_cycle = observation.transactions / cycles
    start = leaf_pages_at_start(observation)
    grown = per_cycle / layout.rows_per_leaf
    full = math.floor(cycles)
    images = sum(leaf_images(per_cycle, start + cycle * grown, layout) for cycle in range(full))
    if cycles > full:
        images += leaf_images(per_cycle * (cycles - full), start + full * grown, layout)
    return images


def predicted_images(observation: Observation, images_per_writer: float) -> float:
    return leaf_images_in(observation) + images_per_writer * observation.clients * observation.cycles


def predicted_wal_per_transaction(observation: Observation, fit: Fit) -> float:
    key = fit.key(observation.strategy)
    image = key.image_bytes * (key.compressed_image_share or 1.0 if observation.wal_compression else 1.0)
    images = predicted_images(observation, fit.images_per_writer)
    return key.record_bytes + images / observation.transactions * image


def _mean_image(windows: Sequence[Observation]) -> float | None:
    measured = [(o.full_page_image_bytes, o.full_page_images) for o in windows if o.image_bytes]
    total = sum(n for _, n in measured)
    return sum(b for b, _ in measured if b) / total if total else None


def _key_constants(windows: Sequence[Observation]) -> tuple[float, float, float | None]:
    plain = [o for o in windows if not o.wal_compression]
    records = [r for o in plain if (r := o.record_bytes_per_transaction) is not None]
    image = _mean_image(plain)
    if not records or image is None:
        raise PkbenchError("the calibration runs hold no window that measured WAL records and images")
    compressed = _mean_image([o for o in windows if o.wal_compression])
    return statistics.fmean(records), image, (compressed / image if compressed else None)


def _constants(windows: Sequence[Observation], runs: Sequence[str]) -> Fit:
    """The constants from WINDOWS, without their spread."""
    writers = sum(o.clients * o.cycles for o in windows)
    leafless = sum(max(0.0, o.full_page_images - leaf_images_in(o)) for o in windows)
    images_per_writer = leafless / writers if writers else 0.0
    keys: dict[str, KeyFit] = {}
    for strategy in LAYOUTS:
        mine = [o for o in windows if o.strategy == strategy]
        if mine:
            record, image, share = _key_constants(mine)
            keys[strategy] = KeyFit(record, image, share, 0.0, len(mine))
    return Fit(images_per_writer, keys, tuple(runs))


def residuals(windows: Sequence[Observation], runs: Sequence[str]) -> dict[str, list[float]]:
    """Each key's log(measured / predicted) WAL per transaction, each run's windows predicted by the constants
    fitted to the other runs (leave one run out): the model's error on a run it has not seen, not its error
    on the runs it was fitted to. With one run there is no other: its own fit's residuals."""
    found: dict[str, list[float]] = {}
    names = sorted({o.run for o in windows})
    for run in names:
        others = [o for o in windows if o.run != run] if len(names) > 1 else list(windows)
        without = _constants(others, runs)
        for o in windows:
            key = without.keys.get(o.strategy)
            if o.run != run or key is None or (o.wal_compression and key.compressed_image_share is None):
                continue
            found.setdefault(o.strategy, []).append(
                math.log(o.wal_per_transaction / predicted_wal_per_transaction(o, without))
            )
    return found


def fit(windows: Iterable[Observation], runs: Sequence[str], rate_runs: Sequence[str] | None = None) -> Fit:
    """The constants from WINDOWS (the calibration runs' windows), each key's spread left one run out, and
    the rate's costs from the windows of RATE_RUNS (default: all)."""
    windows = list(windows)
    constants = _constants(windows, runs)
    spread = residuals(windows, runs)
    keys = {}
    for strategy, key in constants.keys.items():
        mine = spread.get(strategy, [])
        sd = statistics.stdev(mine) if len(mine) > 1 else math.inf
        keys[strategy] = KeyFit(key.record_bytes, key.image_bytes, key.compressed_image_share, sd, len(mine))
    timed = [o for o in windows if rate_runs is None or o.run in rate_runs]
    share = fit_buffer_share(timed)
    images = {o: predicted_images(o, constants.images_per_writer) / o.transactions for o in timed}
    paired = pairs(timed, share, images)
    rate = fit_rate(paired) if len(paired) >= MOST_CONSTANTS + 2 else None
    return Fit(constants.images_per_writer, keys, tuple(runs), share, rate)


def windows_of(runs_dir: Path, runs: Sequence[str]) -> list[Observation]:
    missing = [run for run in runs if not (runs_dir / run / "results.json").is_file()]
    if missing:
        raise PkbenchError(f"the model's runs are missing from {runs_dir}: {', '.join(missing)}")
    return [o for run in runs for o in observations(runs_dir / run)]


def calibrated(runs_dir: Path) -> bool:
    """Whether RUNS_DIR holds the runs the model is fitted to (a folder of other runs given to inspect may
    not)."""
    return all((runs_dir / run / "results.json").is_file() for run in CALIBRATION_RUNS)


@functools.cache
def committed(runs_dir: Path) -> Fit:
    """The model fitted to the committed calibration runs under RUNS_DIR."""
    return fit(windows_of(runs_dir, CALIBRATION_RUNS), CALIBRATION_RUNS, RATE_RUNS)
