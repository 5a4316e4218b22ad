"""The `work-by-count` block: how a paired window's work per transaction against the baseline's follows the
two windows' transaction counts, round by round. Synthetic rounds, no server."""

from __future__ import annotations

import math

import pytest

from pkbench.evidence import work_by_count
from pkbench.results import RoundsRecord, RunResult, Sizes, StrategyResult, Verdict, WorkloadResult


def strategy(name: str, counts: list[int], images: list[float]) -> StrategyResult:
    rounds = [
        WorkloadResult(
            "lookup", "", transactions=n, wal_fpi_per_transaction=f, wal_bytes_per_transaction=f * 8000
        )
        for n, f in zip(counts, images, strict=True)
    ]
    return StrategyResult(name, "", "bigint", None, workloads=[WorkloadResult("lookup", "", rounds=rounds)])


def run_of(*strategies: StrategyResult) -> RunResult:
    run = RunResult(["pkbench", "run"], "2026-11-27T00:00:00", {}, {}, {}, {})
    run.strategies = list(strategies)
    run.rounds = RoundsRecord("paired", 4, "bigint", design="mixed")
    return run


def test_a_ratio_that_falls_as_the_counts_rise_is_measured_round_to_round() -> None:
    # uuid-v4 writes twice bigint's images at equal counts, and each round its images per transaction fall
    # by the square root of its count over bigint's.
    base = [1000, 1000, 1000, 1000]
    mine = [800, 1000, 1250, 1100]
    images = [2 * (n / 1000) ** -0.5 for n in mine]
    run = run_of(strategy("bigint", base, [1.0] * 4), strategy("uuid-v4", mine, images))
    (fpi, wal) = work_by_count.lines(run)
    assert fpi.startswith("Full-page images per transaction, over 4 rounds")
    assert "differed by up to 25.0%" in fpi and "-0.50 times the counts' ratio" in fpi
    assert "correlation -1.00" in fpi and wal.startswith("WAL bytes per transaction")


def test_equal_counts_are_said_as_such() -> None:
    base = [10000, 12000, 9000, 10000]
    # A window of a given count runs it per client, rounded up: ten clients, one more each at most.
    mine = [n + 5 for n in base]
    run = run_of(strategy("bigint", base, [1.0] * 4), strategy("uuid-v4", mine, [2.0, 2.1, 1.9, 2.0]))
    (fpi, _) = work_by_count.lines(run)
    assert "ran the same count of transactions, to within 0.06%, in every round" in fpi
    assert work_by_count.pairs(run, "wal_fpi_per_transaction")[0][0].counts == pytest.approx(math.log(1.0005))


def test_too_few_rounds_say_nothing() -> None:
    run = run_of(strategy("bigint", [1000, 900], [1.0, 1.0]), strategy("uuid-v4", [800, 950], [2.0, 2.0]))
    assert work_by_count.lines(run) == []


def aa_run(data_index: int, wal_ratio: float) -> RunResult:
    """An A/A run: the copy's data index came out DATA_INDEX bytes, its WAL WAL_RATIO times the baseline's."""
    run = run_of()
    for name, size in (("bigint", 1000), ("bigint-copy", data_index)):
        strategy = StrategyResult(name, "", "bigint", None)
        strategy.sizes_after_prefill = Sizes(5000, 800, 6800, {"records_pkey": 800, "records_data_idx": size})
        run.strategies.append(strategy)
    run.verdicts = [
        Verdict(
            "lookup",
            metric,
            "bigint-copy",
            "bigint",
            r,
            r * 0.99,
            r * 1.01,
            0.95,
            None,
            4,
            False,
            None,
            "",
            None,
            None,
        )
        for metric, r in (("wal", wal_ratio), ("tps", 1.0))
    ]
    return run


def test_what_two_loads_leave_different_is_the_index_whose_size_varies() -> None:
    # A fuller data index (a smaller one) leaves smaller holes: its images, and the WAL, grow.
    runs = [aa_run(size, (size / 1000) ** -0.7) for size in (980, 1000, 1010, 990)]
    (sizes, wal) = work_by_count.by_load(runs)
    assert sizes == (
        "Over the 4 A/A runs the copy's records_data_idx came out 0.980-1.010x the size of the baseline's "
        "after the load."
    )
    assert wal.startswith("lookup: the copy's WAL per transaction over the baseline's moved -0.70 times")
    assert wal.endswith("(correlation -1.00).")
    alike = [aa_run(1000, ratio) for ratio in (1.0, 1.01, 0.99)]
    assert work_by_count.by_load(alike) == [
        "Over the 3 A/A runs every index of the copy came out as large as the baseline's."
    ]
