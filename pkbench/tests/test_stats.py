"""Aggregation of repeated runs: medians in place, spread as [min, max], repeats kept, interleaving."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

import pytest

from pkbench import results
from pkbench.analysis.stats import aggregate, figures, interleaved_order, median, over_repeats, wilson
from pkbench.results import (
    PREFILL_SNAPSHOT,
    Prefill,
    RepeatedStrategy,
    RunResult,
    Sizes,
    StrategyResult,
    Unavailable,
    WorkloadResult,
)


def workload(tps: float, p99: float, fpi: int | None, insert_p50: float) -> dict[str, Any]:
    return {
        "name": "insert-only",
        "tps": tps,
        "transactions": int(tps * 10),
        "latency_ms": {"p50": 1.0, "p99": p99},
        "statements": [{"name": "insert", "sql": "INSERT ...", "latency_ms": {"p50": insert_p50}}],
        "wal_fpi": fpi,
        "hit_ratio": {"records": 0.99, "records_pkey": tps / 10000},
        "unavailable": [] if fpi is not None else [{"metric": "wal_fpi", "reason": "no privilege"}],
    }


def test_interleaves_strategies_within_each_repeat() -> None:
    assert interleaved_order(["a", "b", "c"], 2) == [
        (1, "a"), (1, "b"), (1, "c"), (2, "a"), (2, "b"), (2, "c"),
    ]  # fmt: skip
    assert interleaved_order(["a"], 1) == [(1, "a")]


def test_repeat_below_one_is_refused() -> None:
    with pytest.raises(ValueError, match="at least 1"):
        interleaved_order(["a"], 0)


def test_median_of_odd_and_even_counts() -> None:
    assert median([3, 1, 2]) == 2
    assert isinstance(median([3, 1, 2]), int)
    assert median([1, 2]) == 1.5
    assert median([2, 4]) == 3 and isinstance(median([2, 4]), int)
    assert median([1.0, 5.0, 2.0]) == 2.0


def test_every_number_becomes_the_median_and_gets_its_spread() -> None:
    runs = [workload(1000, 9.0, 40, 0.5), workload(1200, 7.0, 44, 0.4), workload(900, 12.0, 41, 0.6)]
    result = aggregate(runs)
    assert result["tps"] == 1000
    assert result["transactions"] == 10000
    assert result["latency_ms"] == {"p50": 1.0, "p99": 9.0}
    assert result["statements"][0]["latency_ms"]["p50"] == 0.5
    assert result["statements"][0]["sql"] == "INSERT ..."
    assert result["wal_fpi"] == 41
    assert result["hit_ratio"]["records_pkey"] == pytest.approx(0.1)
    spread = result["spread"]
    assert spread["tps"] == [900, 1200]
    assert spread["latency_ms.p99"] == [7.0, 12.0]
    assert spread["statements.insert.latency_ms.p50"] == [0.4, 0.6]
    assert spread["wal_fpi"] == [40, 44]
    # Every figure of the shape has a spread, under the name `figures` gives it.
    assert {name for name, _ in figures(runs[0])} == set(spread)


def test_repeats_are_kept_as_given_without_nested_aggregates() -> None:
    runs = [workload(1000, 9.0, 40, 0.5), workload(1100, 8.0, 42, 0.5)]
    result = aggregate(runs)
    assert result["repeats"] == runs
    assert result["tps"] == 1050
    again = aggregate([result, result])
    assert "spread" not in again["repeats"][0] and "repeats" not in again["repeats"][0]


def test_a_figure_missing_in_some_repeats_uses_the_others_and_all_missing_stays_null() -> None:
    runs = [workload(1000, 9.0, None, 0.5), workload(1100, 8.0, 50, 0.5), workload(1200, 7.0, 60, 0.5)]
    result = aggregate(runs)
    assert result["wal_fpi"] == 55
    assert result["spread"]["wal_fpi"] == [50, 60]
    none = aggregate([workload(1000, 9.0, None, 0.5), workload(1100, 8.0, None, 0.5)])
    assert none["wal_fpi"] is None
    assert "wal_fpi" not in none["spread"]
    assert none["unavailable"] == [{"metric": "wal_fpi", "reason": "no privilege"}]


def test_flags_and_text_are_not_figures() -> None:
    result = aggregate([{"ok": True, "status": "ok", "n": 1}, {"ok": False, "status": "ok", "n": 3}])
    assert result["ok"] is True
    assert result["status"] == "ok"
    assert set(result["spread"]) == {"n"}


def test_one_repeat_is_returned_unchanged() -> None:
    run = workload(1000, 9.0, 40, 0.5)
    assert aggregate([run]) == run


def test_no_repeats_is_an_error() -> None:
    with pytest.raises(ValueError, match="at least one"):
        aggregate([])


def repeat(tps: float, p99: float, status: str = "ok") -> StrategyResult:
    strategy = StrategyResult("uuid-v4", "random", "uuid", "gen_random_uuid()", status=status)
    strategy.prefill = Prefill(1000, 2.0 * tps / 1000, tps / 2)
    strategy.record_sizes(PREFILL_SNAPSHOT, Sizes(8192, 4096, 12288, {"records_pkey": 4096}))
    strategy.workloads.append(WorkloadResult("insert-only", "", tps=tps, latency_ms={"p50": 1.0, "p99": p99}))
    strategy.unavailable.append(Unavailable("wal_fpi", "no privilege"))
    return strategy


def test_repeats_combine_into_a_typed_strategy_written_as_their_aggregate(tmp_path: Path) -> None:
    runs = [repeat(1000.0, 9.0), repeat(1100.0, 8.0), repeat(900.0, 12.0)]
    combined = over_repeats(runs)
    assert isinstance(combined, RepeatedStrategy)
    assert combined.workloads[0].tps == 1000.0 and combined.workloads[0].latency_ms["p99"] == 9.0
    assert combined.spread["workloads.insert-only.tps"] == [900.0, 1100.0]
    assert combined.repeats == runs
    # results.json keeps its shape: the typed form writes exactly what the aggregate of the dicts was.
    expected = aggregate([dataclasses.asdict(r) for r in runs])
    assert json.dumps(dataclasses.asdict(combined)) == json.dumps(expected)
    run = RunResult(["pkbench", "run"], "2026-11-23T00:00:00+00:00", {}, {}, {}, {})
    run.strategies = [combined]
    results.write(tmp_path, run)
    assert results.load(tmp_path).strategies == [combined]


def test_a_repeat_that_failed_fails_the_combined_strategy() -> None:
    failed = repeat(1100.0, 8.0, status="failed")
    failed.error = "server closed the connection"
    combined = over_repeats([repeat(1000.0, 9.0), failed])
    assert (combined.status, combined.error) == ("failed", "server closed the connection")
    single = repeat(1000.0, 9.0)
    assert over_repeats([single]) is single


def test_the_wilson_interval_of_none_of_twenty_is_not_zero_wide() -> None:
    # No false positive in 20 A/A runs still allows a rate of up to 16% (the textbook value, 0.161).
    low, high = wilson(0, 20)
    assert low == 0.0 and high == pytest.approx(0.1611, abs=1e-4)
    low, high = wilson(1, 20)
    assert low == pytest.approx(0.0089, abs=1e-4) and high == pytest.approx(0.2361, abs=1e-4)
    assert wilson(20, 20)[1] == 1.0 and wilson(0, 0) == (0.0, 1.0)
