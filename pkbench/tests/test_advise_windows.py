"""advise's memory tiers placed by the model (advise.windows): the middle tier's size from the buffer share
it fitted, each window as long as the server's checkpoint cycle the model predicts for the random key
(checkpoints inside the windows where the cycle is short, the longest window the budget allows where it is
long), a replica's checkpoints scaled with it, and fixed windows where the model's runs are not there. Pure:
no server."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from pkbench.advise import plan as advise
from pkbench.advise import session, windows
from pkbench.model import calibration
from pkbench.model.calibration import KeyFit
from pkbench.model.rate import RateFit, buffer_misses
from pkbench.server import sizing

HERE = sizing.Server(16 * sizing.MIB, 25_276_514_304, can_cap=True)
# A server whose memory is not capped: the tiers are limited by the load alone.
UNCAPPED = sizing.Server(16 * sizing.MIB, 64 * 1024**3, can_cap=False)
ROWS = 5_000_000


def fit(share: float = 0.9) -> calibration.Fit:
    """A model with round constants: 4,000 bigint inserts a second, 8 kB images, 100-byte records."""
    key = KeyFit(100.0, 8000.0, None, 0.05, 20)
    return calibration.Fit(
        images_per_writer=1.0,
        keys={"bigint": key, "uuid-v4": KeyFit(110.0, 8000.0, None, 0.05, 20), "uuid-v7": key},
        runs=("grid",),
        buffer_share=share,
        rate=RateFit(1e-4, 0.0, 8e-5, 2.5e-4, 0.1, 40),
    )


def checkpoints(timeout_s: float = 300, max_wal_size: int = 1024**3) -> windows.Checkpoints:
    return windows.Checkpoints(timeout_s, max_wal_size, 0.9, False, "given")


def test_the_middle_tier_is_where_the_model_s_random_key_misses_shared_buffers_two_inserts_in_three() -> None:
    for share in (0.9, 0.5):
        tiers = windows.size_tiers(UNCAPPED, 10**9, fit(share))
        index = tiers.rows_medium * sizing.INDEX_BYTES_PER_ROW
        assert index == pytest.approx(share / (1 / 3) * 16 * sizing.MIB, rel=1e-4)
        assert buffer_misses(index, 16 * sizing.MIB, share, ordered=False) == pytest.approx(2 / 3, abs=1e-4)
    # Fewer rows load than that: the tier keeps what loads while the model still misses one insert in three,
    # and is left out below, saying the size it would take.
    least_rows = 0.9 / (2 / 3) * 16 * sizing.MIB / sizing.INDEX_BYTES_PER_ROW
    kept = windows.size_tiers(UNCAPPED, int(least_rows * 1.2), fit())
    assert kept.medium_left_out is None and kept.rows_medium == int(least_rows * 1.2)
    dropped = windows.size_tiers(UNCAPPED, int(least_rows * 0.8), fit())
    assert dropped.medium_left_out is not None
    assert f"shared_buffers (16 MB) takes {math.ceil(least_rows):,} rows" in dropped.medium_left_out


def test_a_short_checkpoint_cycle_is_measured_as_checkpoints_inside_each_window() -> None:
    # A 32 MB max_wal_size: the random key's WAL reaches the trigger within seconds.
    short = checkpoints(max_wal_size=32 * sizing.MIB)
    cycle_s, rate = windows.random_key_cycle(fit(), ROWS, HERE, short)
    assert cycle_s * 2 <= windows.LEAST_WINDOW_S and 2000 < rate < 4000
    chosen = windows.choose(fit(), ROWS, HERE, short, 27, 1800, embedded=True)
    assert chosen.window_s == windows.LEAST_WINDOW_S
    assert chosen.checkpoint_every_s == pytest.approx(max(1.0, cycle_s), abs=0.06)
    assert "max_wal_size" not in chosen.words and f"a checkpoint every {chosen.checkpoint_every_s:g} s" in (
        chosen.words
    )
    model = windows.Model(fit(), short)
    part, tiers, measured = advise.memory_part(advise.STRATEGIES, HERE, model, 1800)
    assert measured == windows.choose(fit(), tiers.rows_large, HERE, short, 27, 1800, embedded=True)
    words = list(part.arguments)
    assert words[words.index("--duration") + 1] == str(measured.window_s)
    assert f"checkpoint_every_s={measured.checkpoint_every_s:g}" in words
    # On a server given by --dsn the server makes its own checkpoints: none is added.
    on_dsn = windows.choose(fit(), ROWS, HERE, short, 27, 1800, embedded=False)
    assert on_dsn.checkpoint_every_s is None and on_dsn.window_s == windows.LEAST_WINDOW_S


def test_a_cycle_within_the_budget_is_one_window_from_a_checkpoint() -> None:
    # checkpoint_timeout ends the cycle (a WAL trigger far off), 20 s: one window of 20 s.
    twenty = checkpoints(timeout_s=20, max_wal_size=64 * 1024**3)
    chosen = windows.choose(fit(), ROWS, HERE, twenty, 27, 3600, embedded=True)
    assert (chosen.window_s, chosen.checkpoint_every_s) == (20, None)
    assert "each one cycle from a checkpoint" in chosen.words
    # Shorter than the least window: that window, with the cycle's checkpoints inside it.
    seven = windows.choose(fit(), ROWS, HERE, checkpoints(7, 64 * 1024**3), 27, 3600, embedded=True)
    assert (seven.window_s, seven.checkpoint_every_s) == (windows.LEAST_WINDOW_S, 7)
    # A longer budget, a longer window, up to the cycle and no further.
    assert windows.most_window_s(900, 27) == windows.LEAST_WINDOW_S
    assert windows.most_window_s(1800, 27) < windows.most_window_s(3600, 27) <= windows.MOST_WINDOW_S


def test_a_cycle_longer_than_the_budget_allows_says_what_the_model_puts_at_both() -> None:
    chosen = windows.choose(fit(), ROWS, HERE, checkpoints(), 27, 900, embedded=True)
    assert (chosen.window_s, chosen.checkpoint_every_s) == (windows.LEAST_WINDOW_S, None)
    cycle_s, rate = windows.random_key_cycle(fit(), ROWS, HERE, checkpoints())
    in_window = windows.wal_ratio(fit(), ROWS, rate, HERE, chosen.window_s)
    own = windows.wal_ratio(fit(), ROWS, rate, HERE, cycle_s)
    # Fewer inserts per leaf between checkpoints in a short window: more full-page images per insert.
    assert in_window > own > 1
    assert f"{in_window:.1f}x bigint's in them and {own:.1f}x at the server's own cycle" in chosen.words


def test_a_replica_s_checkpoints_come_as_much_closer_as_it_is_smaller() -> None:
    long_budget = 4 * 3600
    whole = windows.choose(fit(), ROWS, HERE, checkpoints(timeout_s=40), 9, long_budget, True, 1.0, False)
    tenth = windows.choose(fit(), ROWS, HERE, checkpoints(timeout_s=40), 9, long_budget, True, 0.1, False)
    assert whole.checkpoint_every_s is not None and tenth.checkpoint_every_s is not None
    assert tenth.checkpoint_every_s == pytest.approx(whole.checkpoint_every_s / 10, abs=0.06)
    assert "its replica every 4 s" in tenth.words
    # Closer than the runs allow: the closest, and what the model says that changes.
    hundredth = windows.choose(
        fit(), ROWS, HERE, checkpoints(timeout_s=40), 9, long_budget, True, 0.01, False
    )
    assert hundredth.checkpoint_every_s == windows.LEAST_CHECKPOINT_S
    assert "the closest the runs allow" in hundredth.words


def test_without_the_model_s_runs_the_windows_are_fixed() -> None:
    assert windows.committed_fit(Path("/nonexistent")) is None
    assert windows.choose(None, ROWS, HERE, checkpoints(), 27, 900, True) == windows.UNMODELLED
    part, _, measured = advise.memory_part(advise.STRATEGIES, HERE, windows.Model(None), 900)
    assert measured == windows.UNMODELLED and "checkpoint_every_s" not in " ".join(part.arguments)


def test_the_committed_model_places_a_fifteen_minute_advice_s_tiers() -> None:
    model = session.model(None)
    assert model.fit is not None and model.checkpoints == windows.DEFAULT_CHECKPOINTS
    plan = advise.make_plan(15 * 60, advise.STRATEGIES, 2, HERE, model=model)
    wal = plan.parts[0]
    assert wal.name == "wal" and wal.rows == ("shared-buffers", "page-cache", "beyond-ram")
    assert "checkpoints every" in plan.sizing and "PostgreSQL's defaults" in plan.sizing
    words = list(wal.arguments)
    assert int(words[words.index("--duration") + 1]) == wal.window_s >= windows.LEAST_WINDOW_S


def test_a_replica_is_checkpointed_inside_its_windows_even_unscaled() -> None:
    # The replica's rounds follow each other with no checkpoint between: the cycle is set inside the window.
    model = windows.Model(fit(), checkpoints(timeout_s=40))
    whole = windows.placed(model, ROWS, HERE, 9, 4 * 3600, replica_factor=1.0)
    cycle_s, _ = windows.random_key_cycle(fit(), ROWS, HERE, checkpoints(timeout_s=40))
    assert whole.checkpoint_every_s == pytest.approx(cycle_s, abs=0.06) and whole.window_s == math.ceil(
        cycle_s
    )
    assert windows.run_arguments(whole) == (
        "--duration",
        str(whole.window_s),
        "--set",
        f"checkpoint_every_s={whole.checkpoint_every_s:g}",
    )
    assert windows.placed(None, ROWS, HERE, 9, 900, replica_factor=0.1) == windows.UNMODELLED
