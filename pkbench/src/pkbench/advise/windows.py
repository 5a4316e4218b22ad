"""The memory tiers as the model (pkbench.model) places them for the server the advice is for: how large the
middle tier's index is, how long each window runs and how far apart its checkpoints come.

Size. "Beyond shared buffers" means a random key's insert finds its leaf outside shared buffers most of the
time. The model says how often: 1 - share x shared_buffers / index, with the share of the buffers the key
index keeps fitted to the committed runs (model.rate). The middle tier's index is the size at which that is
two inserts in three, and a tier below one in three is left out rather than mislabelled.

Windows. A random key's WAL per insert is set by how many inserts land between two checkpoints against the
leaves of its index (model.btree): a window that starts after a checkpoint and runs 10 s measures the WAL of
a 10-s checkpoint cycle, however far apart the server's own checkpoints come. So the model is asked how long
the server's cycle is for the random key at the largest tier measured: checkpoint_timeout, or less where the
key's WAL reaches max_wal_size's trigger first, at the rate the model predicts for that tier on this machine.
A cycle shorter than the least window is measured as checkpoints that far apart inside each window (the wal
scenario's checkpoint_every_s); a longer one as one window from a checkpoint, as long as the cycle; a cycle
longer than the budget's windows allow as the longest window that fits, and the words give the model's ratio
at both.
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass
from pathlib import Path

from pkbench.errors import PkbenchError
from pkbench.model import calibration
from pkbench.model.prediction import Server as ModelServer
from pkbench.model.prediction import predict
from pkbench.server import sizing

RANDOM_KEY = "uuid-v4"
# The random key's predicted share of inserts that miss shared buffers: the middle tier's, and the least at
# which the tier still says what its name does.
MIDDLE_BUFFER_MISSES = 2 / 3
LEAST_BUFFER_MISSES = 1 / 3
# The server the advice is for, when it is the embedded cluster: PostgreSQL's defaults, which the wal
# scenario's own settings (no checkpoint inside a window) stand in for no server.
DEFAULT_CHECKPOINT_TIMEOUT_S = 300.0
DEFAULT_MAX_WAL_SIZE_BYTES = 1024**3
DEFAULT_COMPLETION_TARGET = 0.9
# Windows: at least this long (the fewest seconds whose rate is steady on a small machine), and checkpoints
# inside a window no closer than this (the calibration grid's closest).
LEAST_WINDOW_S = 10
LEAST_CHECKPOINT_S = 1.0
# The tiers' windows take at most this share of the budget (the loads and the other parts take the rest),
# and none runs longer than this.
WINDOWS_SHARE_OF_BUDGET = 0.35
MOST_WINDOW_S = 60
# What a window costs beyond its own seconds (its checkpoint, its snapshots).
WINDOW_OVERHEAD_S = 1


@dataclass(frozen=True)
class Checkpoints:
    """The checkpoint settings of the server the advice is for, and where they come from, in words."""

    timeout_s: float
    max_wal_size_bytes: int
    completion_target: float
    wal_compression: bool
    source: str


DEFAULT_CHECKPOINTS = Checkpoints(
    DEFAULT_CHECKPOINT_TIMEOUT_S,
    DEFAULT_MAX_WAL_SIZE_BYTES,
    DEFAULT_COMPLETION_TARGET,
    False,
    "PostgreSQL's defaults (checkpoint_timeout 5min, max_wal_size 1GB)",
)


@dataclass(frozen=True)
class Windows:
    """How the memory tiers are measured: each window's seconds, the checkpoints inside it (None: one, at its
    start), and how the model chose them, in words."""

    window_s: int
    checkpoint_every_s: float | None
    words: str


# Without the model (its runs are not where this pkbench looks): the fixed windows of the grid's first runs.
UNMODELLED = Windows(LEAST_WINDOW_S, None, f"windows of {LEAST_WINDOW_S} s, each from a checkpoint")


def index_over_shared_buffers(fit: calibration.Fit | None, misses: float) -> float:
    """The index, as a multiple of shared_buffers, whose random inserts miss the buffers MISSES of the time by
    the model (without one, all of shared_buffers is taken to hold the index)."""
    share = fit.buffer_share if fit is not None else 1.0
    return share / (1 - misses)


def size_tiers(server: sizing.Server, load_rows: int, fit: calibration.Fit | None) -> sizing.Tiers:
    """sizing.size_tiers, the middle tier at the model's two misses in three."""
    return sizing.size_tiers(
        server,
        load_rows,
        index_over_shared_buffers(fit, MIDDLE_BUFFER_MISSES),
        index_over_shared_buffers(fit, LEAST_BUFFER_MISSES),
    )


def most_window_s(budget_s: float, windows: int) -> int:
    """The longest window WINDOWS of them may take within the budget's share."""
    fitting = WINDOWS_SHARE_OF_BUDGET * budget_s / max(windows, 1) - WINDOW_OVERHEAD_S
    return int(min(MOST_WINDOW_S, max(LEAST_WINDOW_S, fitting)))


def random_key_cycle(
    fit: calibration.Fit, rows: int, server: sizing.Server, checkpoints: Checkpoints
) -> tuple[float, float]:
    """The model's checkpoint cycle, in seconds, for the random key in an index of ROWS on SERVER with
    CHECKPOINTS, at the rate the model predicts for it on the machine its runs were made on; and that rate."""
    if fit.rate is None:
        raise PkbenchError("the model has no rate fitted")
    bigint_rate = 1 / fit.rate.bigint_insert_s
    modelled = ModelServer(
        rows=rows,
        insert_rate=bigint_rate,
        shared_buffers_bytes=server.shared_buffers_bytes,
        memory_bytes=server.memory_bytes,
        checkpoint_timeout_s=checkpoints.timeout_s,
        max_wal_size_bytes=checkpoints.max_wal_size_bytes,
        checkpoint_completion_target=checkpoints.completion_target,
        wal_compression=checkpoints.wal_compression,
    )
    ratio = predict(modelled, fit, (RANDOM_KEY,))[1].rate_against_bigint
    rate = bigint_rate * (ratio.value if ratio is not None else 1.0)
    cost = predict(dataclasses.replace(modelled, insert_rate=rate), fit, (RANDOM_KEY,))[1]
    return cost.cycle_s, rate


def wal_ratio(fit: calibration.Fit, rows: int, rate: float, server: sizing.Server, every_s: float) -> float:
    """The random key's WAL per insert over bigint's by the model, checkpoints EVERY_S apart."""
    modelled = ModelServer(
        rows=rows,
        insert_rate=rate,
        shared_buffers_bytes=server.shared_buffers_bytes,
        memory_bytes=server.memory_bytes,
        checkpoint_timeout_s=every_s,
        max_wal_size_bytes=2**62,
        checkpoint_every_s=every_s,
    )
    return predict(modelled, fit, (RANDOM_KEY,))[1].wal_against_bigint.value


def choose(
    fit: calibration.Fit | None,
    rows: int,
    server: sizing.Server,
    checkpoints: Checkpoints,
    windows: int,
    budget_s: float,
    embedded: bool,
    factor: float = 1.0,
    checkpointed: bool = True,
) -> Windows:
    """The windows for the largest tier's ROWS on SERVER, WINDOWS of them in all within BUDGET_S. A replica
    scaled by FACTOR (advise --like: ROWS and SERVER are the user's table and server) has FACTOR times the
    leaves, so its checkpoints come FACTOR times as far apart for the same inserts per leaf between two. On
    a server given by --dsn the server makes its own checkpoints: the window is the cycle's length, none is
    added. CHECKPOINTED: the scenario checkpoints before each window (the wal scenario); where it does not
    (the replica's rounds follow each other), checkpoints inside the windows set every cycle."""
    if fit is None or fit.rate is None:
        return UNMODELLED
    if rows <= 0:
        words = f"{UNMODELLED.words} (no tier past shared buffers to place)"
        return dataclasses.replace(UNMODELLED, words=words)
    cycle_s, rate = random_key_cycle(fit, rows, server, checkpoints)
    scaled_s = cycle_s * factor
    most = most_window_s(budget_s, windows)
    said = (
        f"at {rows:,} rows {RANDOM_KEY} checkpoints every {cycle_s:,.0f} s by the model "
        f"({rate:,.0f} inserts/s, its rate on the machine its runs were made on; {checkpoints.source})"
    )
    if factor != 1.0:
        said += f", its replica every {scaled_s:,.2g} s"
    # Checkpoints inside the window where the cycle is shorter than the least window, or where nothing
    # checkpoints before each window; on a --dsn server its own.
    shorter = math.ceil(scaled_s) < LEAST_WINDOW_S
    if embedded and (shorter or (not checkpointed and scaled_s <= most)):
        every = max(LEAST_CHECKPOINT_S, round(scaled_s, 1))
        window = max(LEAST_WINDOW_S, math.ceil(scaled_s))
        words = f"{said}: windows of {window} s, a checkpoint every {every:g} s"
        if every > scaled_s * 1.05:
            measured = wal_ratio(fit, rows, rate, server, every / factor)
            own = wal_ratio(fit, rows, rate, server, cycle_s)
            words += (
                f" (the closest the runs allow; the model puts {RANDOM_KEY}'s WAL at {measured:.1f}x "
                f"bigint's there and {own:.1f}x at the server's own cycle)"
            )
        return Windows(window, every, words)
    if scaled_s <= most:
        window = max(LEAST_WINDOW_S, math.ceil(scaled_s))
        return Windows(window, None, f"{said}: windows of {window} s, each one cycle from a checkpoint")
    measured = wal_ratio(fit, rows, rate, server, most / factor)
    own = wal_ratio(fit, rows, rate, server, cycle_s)
    every_most = None if checkpointed or not embedded else float(most)
    return Windows(
        most,
        every_most,
        f"{said}: windows of {most} s, the longest the budget allows, each one cycle; the model puts "
        f"{RANDOM_KEY}'s WAL at {measured:.1f}x bigint's in them and {own:.1f}x at the server's own cycle",
    )


@dataclass(frozen=True)
class Model:
    """What the model places the memory tiers from: its fit (None where its runs are not here) and the
    checkpoint settings of the server the advice is for."""

    fit: calibration.Fit | None
    checkpoints: Checkpoints = DEFAULT_CHECKPOINTS


def placed(
    model: Model | None,
    rows: int,
    server: sizing.Server,
    windows: int,
    budget_s: float,
    embedded: bool = True,
    replica_factor: float | None = None,
) -> Windows:
    """`choose` with MODEL's fit and checkpoints; fixed windows without a model. A replica scaled by
    REPLICA_FACTOR is not checkpointed before each window."""
    if model is None:
        return UNMODELLED
    factor = replica_factor if replica_factor is not None else 1.0
    checkpointed = replica_factor is None
    return choose(
        model.fit, rows, server, model.checkpoints, windows, budget_s, embedded, factor, checkpointed
    )


def run_arguments(measured: Windows) -> tuple[str, ...]:
    """`pkbench run`'s words for MEASURED: each window's seconds, and the checkpoints inside it."""
    every = measured.checkpoint_every_s
    return (
        "--duration",
        str(measured.window_s),
        *(("--set", f"checkpoint_every_s={every:g}") if every is not None else ()),
    )


def committed_fit(runs_dir: Path) -> calibration.Fit | None:
    """The model fitted to the committed runs under RUNS_DIR, or None where they are not there."""
    return calibration.committed(runs_dir) if calibration.calibrated(runs_dir) else None
