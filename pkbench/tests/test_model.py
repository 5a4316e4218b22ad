"""The model of a key's cost (pkbench.model) without a server: the b-tree's and the checkpointer's arithmetic,
the fit recovering constants it was given, and a server's settings moving the answer the way PostgreSQL
would."""

from __future__ import annotations

import dataclasses
import math
from pathlib import Path

import pytest

from pkbench.model import btree, calibration, prediction, rate
from pkbench.model.calibration import Fit, KeyFit
from pkbench.model.observations import Observation, observations

RUNS = Path(__file__).parent.parent / "docs" / "reproductions"
MIB = 1024**2


def test_first_changes_count_each_insert_until_the_leaves_are_all_changed() -> None:
    assert btree.first_changes(10, 1_000_000) == pytest.approx(10, rel=1e-4)
    assert btree.first_changes(10_000_000, 1000) == pytest.approx(1000)
    assert btree.first_changes(0, 1000) == 0
    counts = [btree.first_changes(n, 5000) for n in (100, 1000, 10_000, 100_000)]
    assert counts == sorted(counts) and counts[-1] <= 5000


def test_a_random_key_leaves_its_leaves_emptier_than_an_ordered_one() -> None:
    bigint, v7, v4 = (btree.LAYOUTS[k] for k in ("bigint", "uuid-v7", "uuid-v4"))
    assert bigint.item_bytes == 20 and v7.item_bytes == 28
    assert v4.rows_per_leaf == pytest.approx(v7.rows_per_leaf * math.log(2) / 0.9)
    assert btree.leaves(1_000_000, v4) > btree.leaves(1_000_000, v7) > btree.leaves(1_000_000, bigint)
    assert btree.rows_in(btree.leaves(1_000_000, v4) * btree.PAGE_BYTES, v4) == pytest.approx(1_000_000)
    assert btree.leaf_images(1000, 50, bigint) == 0


def _window(
    strategy: str, index_mib: float, transactions: int, checkpoints: int, **changes: object
) -> Observation:
    found = Observation(
        run="synthetic",
        strategy=strategy,
        window=f"w{index_mib}-{checkpoints}",
        round=0,
        clients=4,
        shared_buffers_bytes=16 * MIB,
        memory_limit_bytes=None,
        wal_compression=False,
        transactions=transactions,
        duration_s=10.0,
        checkpoints=checkpoints,
        checkpoint_every_s=None,
        index_bytes_at_end=int(index_mib * MIB),
        wal_bytes=0.0,
        full_page_images=0.0,
        full_page_image_bytes=None,
        tps=transactions / 10,
        shared_blocks_read_per_transaction=None,
    )
    return dataclasses.replace(found, **changes)  # type: ignore[arg-type]


GIVEN = Fit(
    images_per_writer=0.8,
    keys={
        "bigint": KeyFit(166.0, 4300.0, None, 0.0, 0),
        "uuid-v7": KeyFit(180.0, 4200.0, None, 0.0, 0),
        "uuid-v4": KeyFit(190.0, 5800.0, None, 0.0, 0),
    },
    runs=("synthetic",),
)


def _as_measured(window: Observation, fit: Fit) -> Observation:
    """WINDOW with the WAL and images FIT predicts for it, as a run would have measured them."""
    key = fit.key(window.strategy)
    images = calibration.predicted_images(window, fit.images_per_writer)
    return dataclasses.replace(
        window,
        wal_bytes=window.transactions * key.record_bytes + images * key.image_bytes,
        full_page_images=images,
        full_page_image_bytes=images * key.image_bytes,
    )


def test_the_fit_recovers_the_constants_the_windows_were_made_with() -> None:
    shapes = [(mib, tx, cp) for mib in (1, 30, 200) for tx, cp in ((5000, 0), (20_000, 9), (60_000, 3))]
    windows = [_as_measured(_window(k, *shape), GIVEN) for k in GIVEN.keys for shape in shapes]
    fit = calibration.fit(windows, ("synthetic",))
    assert fit.images_per_writer == pytest.approx(GIVEN.images_per_writer)
    for key, given in GIVEN.keys.items():
        found = fit.key(key)
        assert (found.record_bytes, found.image_bytes) == pytest.approx(
            (given.record_bytes, given.image_bytes)
        )
        assert found.log_residual_sd == pytest.approx(0, abs=1e-9)
        assert found.interval_factor() == pytest.approx(1.0)


def test_a_key_the_model_was_not_fitted_to_is_refused_by_name() -> None:
    with pytest.raises(Exception, match="not calibrated for 'seq-seq-256'"):
        GIVEN.key("seq-seq-256")


def test_a_window_cut_short_by_its_end_counts_the_cycles_it_had() -> None:
    window = _window("uuid-v4", 1, 3000, 3, checkpoint_every_s=1.0, duration_s=3.0)
    assert window.cycles == 3
    assert _window("uuid-v4", 1, 3000, 3, checkpoint_every_s=1.0, duration_s=3.5).cycles == 3.5
    assert _window("uuid-v4", 1, 3000, 0).cycles == 1


SERVER = prediction.Server(
    rows=100_000_000,
    insert_rate=1000,
    shared_buffers_bytes=8 * 1024 * MIB,
    memory_bytes=64 * 1024 * MIB,
    checkpoint_timeout_s=300,
    max_wal_size_bytes=64 * 1024 * MIB,
)


def _costs(server: prediction.Server) -> dict[str, prediction.KeyCost]:
    return {c.key: c for c in prediction.predict(server, GIVEN, ("uuid-v7", "uuid-v4"))}


def test_a_random_key_writes_less_wal_per_insert_the_further_apart_its_checkpoints() -> None:
    ratios = [
        _costs(dataclasses.replace(SERVER, checkpoint_timeout_s=s))["uuid-v4"].wal_against_bigint.value
        for s in (60, 300, 900, 3600)
    ]
    assert ratios == sorted(ratios, reverse=True)
    assert ratios[0] > 20 and ratios[-1] < ratios[0] / 2
    ordered = [
        _costs(dataclasses.replace(SERVER, rows=r))["uuid-v7"].wal_per_insert.value for r in (1e5, 1e9)
    ]
    assert ordered[0] == pytest.approx(ordered[1], rel=1e-6)


def test_max_wal_size_ends_a_random_keys_cycle_where_its_wal_reaches_the_trigger() -> None:
    small = dataclasses.replace(SERVER, max_wal_size_bytes=2048 * MIB, checkpoint_timeout_s=3600)
    costs = _costs(small)
    v4, bigint = costs["uuid-v4"], costs["bigint"]
    assert v4.cycle_ended_by == "max_wal_size" and bigint.cycle_ended_by == "checkpoint_timeout"
    trigger = small.max_wal_size_bytes / (1 + small.checkpoint_completion_target)
    assert v4.inserts_per_cycle * v4.wal_per_insert.value == pytest.approx(trigger, rel=1e-3)
    measured = _costs(dataclasses.replace(small, checkpoint_every_s=30))["uuid-v4"]
    assert measured.cycle_ended_by == "the server's own checkpoints" and measured.inserts_per_cycle == 30_000


def test_misses_come_from_the_share_of_the_index_that_fits() -> None:
    assert rate.buffer_misses(100 * MIB, 25 * MIB, 1.0, ordered=False) == pytest.approx(0.75)
    assert rate.buffer_misses(100 * MIB, 25 * MIB, 0.5, ordered=False) == pytest.approx(0.875)
    assert rate.buffer_misses(10 * MIB, 25 * MIB, 1.0, ordered=False) == 0
    assert rate.buffer_misses(100 * MIB, 25 * MIB, 1.0, ordered=True) == 0
    assert rate.memory_misses(100 * MIB, None, ordered=False) == 0
    assert rate.memory_misses(100 * MIB, 40 * MIB, ordered=False) == pytest.approx(0.6)
    costs = _costs(dataclasses.replace(SERVER, rows=10_000_000_000, memory_bytes=None))
    assert costs["uuid-v4"].buffer_misses_per_insert > 0.9 and costs["uuid-v7"].buffer_misses_per_insert == 0
    assert costs["uuid-v4"].memory_misses_per_insert is None


def test_the_buffer_share_and_the_rates_costs_are_recovered_from_windows_made_with_them() -> None:
    share, costs = 0.6, (20e-6, 300e-6, 50e-6)
    windows = []
    for index, (mib, memory) in enumerate(
        ((8, None), (40, None), (100, 60 * MIB), (300, 120 * MIB), (64, 50 * MIB))
    ):
        key = _window("uuid-v4", mib, 4000, 0, window="w", round=index, memory_limit_bytes=memory)
        bigint = _window(
            "bigint", mib / 2, 4000, 0, window="w", round=index, memory_limit_bytes=memory, tps=2000.0
        )
        buffer = rate.buffer_misses(key.index_bytes_at_end, key.shared_buffers_bytes, share, False)
        memory_missed = rate.memory_misses(key.index_bytes_at_end, rate.page_cache_bytes(key), False)
        images = 0.1 * index
        added = costs[0] * buffer + costs[1] * memory_missed + costs[2] * images
        key = dataclasses.replace(key, tps=1 / (1 / 2000 + added), shared_blocks_read_per_transaction=buffer)
        windows += [key, bigint]
    assert rate.fit_buffer_share(windows) == pytest.approx(share)
    images_of = {o: (0.1 * o.round if o.strategy == "uuid-v4" else 0.0) for o in windows}
    fitted = rate.fit_rate(rate.pairs(windows, share, images_of))
    assert (fitted.buffer_miss_s, fitted.memory_miss_s, fitted.image_s) == pytest.approx(costs, rel=1e-6)
    assert fitted.bigint_insert_s == pytest.approx(1 / 2000)
    assert fitted.ratio(fitted.added_s(0, 0, 0)) == 1


def test_a_committed_run_gives_one_observation_per_key_window_and_round() -> None:
    found = list(observations(RUNS / "wal-keys"))
    assert {o.strategy for o in found} == {"bigint", "uuid-v7", "uuid-v4"}
    assert {o.window for o in found} == {"tier-1-shared-buffers", "tier-2-page-cache", "tier-3-beyond-memory"}
    assert len(found) == 3 * 3 * 3
    assert all(o.transactions > 0 and o.index_bytes_at_end > 0 and o.cycles == 1 for o in found)
    # a window with other statements or other indexes than the key's is left out: war's windows have both
    assert list(observations(RUNS / "war-default")) == []
