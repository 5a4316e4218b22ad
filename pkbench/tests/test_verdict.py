"""Verdicts over paired rounds, on recorded rounds: intervals, words, the precision rule, compare."""

from __future__ import annotations

import math

import pytest

from pkbench.analysis import family, judge, run_diff, verdict
from pkbench.analysis.verdict import LATENCY, TPS, WAL_PER_TRANSACTION
from pkbench.results import Sizes, StrategyResult, WorkloadResult

# TPS of seven paired rounds recorded on the 2-core machine (war, lookup-by-data): the machine drifted by 15%
# over the run, and both strategies drifted with it.
BIGINT_TPS = [2010.4, 1890.2, 1755.9, 1932.7, 2101.3, 1820.5, 1968.0]
UUID_V7_TPS = [1995.1, 1921.8, 1731.2, 1950.3, 2066.0, 1843.9, 1940.6]  # within 2% of bigint each round
UUID_V4_TPS = [1561.0, 1488.3, 1370.2, 1497.9, 1650.7, 1431.1, 1530.2]  # about 0.78 of bigint each round
SEED = 12345


def test_the_interval_includes_one_when_the_strategies_do_not_differ() -> None:
    result = verdict.ratio_verdict(UUID_V7_TPS, BIGINT_TPS, TPS, seed=SEED)
    assert result.interval is not None and result.interval.method == "t on log ratios"
    assert result.interval.includes(1.0)
    assert not result.resolved and result.better is None
    assert result.words.startswith("no difference resolved (")
    low, high = result.interval.low, result.interval.high
    # The interval's reach either side of the estimate: the smallest effect this verdict could have seen.
    width = result.half_width()
    assert width is not None and 0 < width < 0.095
    assert result.words == f"no difference resolved ({low:.2f}-{high:.2f}; ±{width:.1%})"


def test_the_interval_excludes_one_when_a_strategy_is_slower_every_round() -> None:
    result = verdict.ratio_verdict(UUID_V4_TPS, BIGINT_TPS, TPS, seed=SEED)
    assert result.interval is not None and not result.interval.includes(1.0)
    assert result.ratio is not None
    assert result.resolved and result.better is False
    assert result.ratio == pytest.approx(0.78, abs=0.01)
    # A ratio below 1 is said as the inverse factor, its interval inverted with it.
    assert result.words == (
        f"{1 / result.ratio:.2f}x slower ({1 / result.interval.high:.2f}-{1 / result.interval.low:.2f})"
    )
    assert result.interval.low <= result.ratio <= result.interval.high


def test_the_pairing_cancels_the_drift_the_raw_figures_carry() -> None:
    # The raw TPS spread (1756 to 2101) is far wider than the paired ratios' spread.
    raw_spread = max(BIGINT_TPS) / min(BIGINT_TPS) - 1
    result = verdict.ratio_verdict(UUID_V4_TPS, BIGINT_TPS, TPS, seed=SEED)
    half = result.half_width()
    assert half is not None and half < raw_spread / 3


def test_a_zero_ratio_among_five_rounds_or_more_is_judged_by_a_seeded_bootstrap_of_the_median() -> None:
    # No logarithm of a zero: the median of the ratios and its bootstrap interval, the same for the same seed.
    strategy, baseline = [0.0, 0.5, 0.6, 0.55, 0.52, 0.58], [1.0] * 6
    first = verdict.ratio_verdict(strategy, baseline, verdict.FPI_PER_TRANSACTION, seed=SEED)
    second = verdict.ratio_verdict(strategy, baseline, verdict.FPI_PER_TRANSACTION, seed=SEED)
    assert first.interval is not None and first.interval.method == "bootstrap"
    assert first.interval == second.interval
    assert first.ratio == pytest.approx(0.535)


def test_the_interval_excludes_one_exactly_when_the_familys_t_test_rejects() -> None:
    # The interval and the p-value Holm ranks are one test, so a verdict never resolves what its p-value does
    # not, nor the other way round.
    for scale in (0.97, 0.985, 0.99, 0.995, 1.0, 1.01, 1.02):
        result = verdict.ratio_verdict([t * scale for t in UUID_V7_TPS], BIGINT_TPS, TPS)
        p_value = family.log_ratio_p_value(result.per_round)
        assert p_value is not None and result.resolved == (p_value < 0.05)


def test_direction_words_for_a_figure_where_higher_is_better() -> None:
    faster = verdict.ratio_verdict([b * 1.28 for b in BIGINT_TPS], BIGINT_TPS, TPS, seed=SEED)
    assert faster.resolved and faster.better is True
    assert faster.words == "1.28x faster (1.28-1.28)"


def test_direction_words_for_figures_where_lower_is_better() -> None:
    wal_baseline = [412.0, 409.5, 415.2, 411.1, 410.8]
    wal_strategy = [453.1, 452.0, 455.9, 450.7, 452.2]  # about 1.10x each round
    more_wal = verdict.ratio_verdict(wal_strategy, wal_baseline, WAL_PER_TRANSACTION, seed=SEED)
    assert more_wal.resolved and more_wal.better is False
    assert more_wal.words.startswith("1.10x more WAL per transaction (")
    latency_baseline = [3.1, 3.3, 2.9, 3.2, 3.0, 3.4]
    latency_strategy = [v * 0.8 for v in latency_baseline]
    lower = verdict.ratio_verdict(latency_strategy, latency_baseline, LATENCY, seed=SEED)
    assert lower.resolved and lower.better is True
    assert lower.words.startswith("1.25x lower latency (")


def test_few_rounds_give_a_t_interval_of_the_geometric_mean() -> None:
    result = verdict.ratio_verdict(UUID_V4_TPS[:3], BIGINT_TPS[:3], TPS, seed=SEED)
    assert result.interval is not None and result.interval.method == "t on log ratios"
    assert result.interval.confidence == pytest.approx(0.95)
    ratios = result.per_round
    assert result.ratio == pytest.approx((ratios[0] * ratios[1] * ratios[2]) ** (1 / 3))
    assert result.interval.low < min(ratios) and max(ratios) < result.interval.high < 1
    assert result.resolved and result.better is False
    assert result.words.startswith(f"{1 / result.ratio:.2f}x slower (")
    one = verdict.ratio_verdict(UUID_V4_TPS[:1], BIGINT_TPS[:1], TPS)
    assert one.interval is None and one.words.endswith("(one round: no interval)")


def test_a_three_round_effect_far_on_one_side_is_resolved_though_the_rounds_scatter() -> None:
    # Example numbers, not a measurement: full-page images per transaction 12x, 180x and 243x the baseline's.
    baseline = [0.02, 0.01, 0.01]
    strategy = [0.24, 1.8075, 2.4345]
    result = verdict.ratio_verdict(strategy, baseline, verdict.FPI_PER_TRANSACTION)
    assert result.interval is not None and result.interval.method == "t on log ratios"
    assert result.resolved and result.better is False
    assert 1 < result.interval.low < 12 and result.interval.high > 243
    assert "x more full-page images per transaction (" in result.words


def test_a_t_interval_including_one_is_no_difference_resolved() -> None:
    baseline = [1000.0, 1000.0, 1000.0]
    result = verdict.ratio_verdict([1040.0, 970.0, 1010.0], baseline, TPS)
    assert result.interval is not None and result.interval.includes(1.0)
    assert not result.resolved and result.better is None
    low, high = result.interval.low, result.interval.high
    assert result.words.startswith(f"no difference resolved ({low:.2f}-{high:.2f}; ±")
    # Two rounds scattering as much have t(1) = 12.7 standard errors: wider still.
    two = verdict.ratio_verdict([1040.0, 970.0], baseline[:2], TPS)
    assert two.interval is not None and not two.resolved
    assert two.interval.high - two.interval.low > result.interval.high - result.interval.low


def test_a_round_with_a_zero_ratio_falls_back_to_the_range_and_no_verdict() -> None:
    result = verdict.ratio_verdict([0.0, 0.0, 0.1], [2.0, 2.0, 2.0], verdict.FPI_PER_TRANSACTION)
    assert result.interval is not None and result.interval.method == "range of rounds"
    assert result.interval.confidence == pytest.approx(0.75)
    assert not result.resolved
    assert "too few rounds to tell" in result.words and "over 3 rounds" in result.words


def test_a_figure_equal_to_the_baselines_in_every_round_is_no_verdict() -> None:
    assert verdict.same_in_every_round([100.0, 100.0, 100.0], [100.0, 100.0, 100.0])
    assert verdict.same_in_every_round([100.0, None], [100.0, 99.0])
    assert not verdict.same_in_every_round([100.0, 99.9], [100.0, 100.0])
    assert not verdict.same_in_every_round([None], [100.0])


def test_the_t_interval_matches_the_textbook_formula() -> None:
    # Example: log ratios 0, ln 2, ln 4 have mean ln 2 and standard deviation ln 2; t(2, 0.975) = 4.3027.
    interval = verdict.log_t_interval([1.0, 2.0, 4.0])
    assert interval is not None
    half = 4.302653 * math.log(2) / math.sqrt(3)
    assert interval.low == pytest.approx(2 * math.exp(-half), rel=1e-5)
    assert interval.high == pytest.approx(2 * math.exp(half), rel=1e-5)
    assert verdict.log_t_interval([1.0]) is None and verdict.log_t_interval([0.0, 1.0]) is None


def test_rounds_missing_a_figure_are_left_out_of_the_pairs() -> None:
    result = verdict.ratio_verdict([None, 900.0, 1000.0], [1000.0, 0.0, 1000.0], TPS)
    assert result.per_round == (1.0,) and result.rounds == 3
    nothing = verdict.ratio_verdict([None], [1000.0], TPS)
    assert nothing.ratio is None and nothing.words == "not measured"
    with pytest.raises(ValueError, match="differ in number"):
        verdict.ratio_verdict([1.0, 2.0], [1.0], TPS)


def test_coefficient_of_variation() -> None:
    assert verdict.coefficient_of_variation([100.0, 100.0, 100.0]) == 0
    assert verdict.coefficient_of_variation([90.0, 110.0]) == pytest.approx(14.142 / 100, rel=1e-3)
    assert verdict.coefficient_of_variation([100.0, None]) is None
    assert verdict.coefficient_of_variation([0.0, 0.0]) is None


def test_precision_stops_only_when_every_interval_is_narrow_enough() -> None:
    tight = verdict.ratio_verdict(UUID_V4_TPS, BIGINT_TPS, TPS, seed=SEED)
    noisy = verdict.ratio_verdict(
        [b * f for b, f in zip(BIGINT_TPS, [0.8, 1.2, 0.9, 1.1, 1.0, 0.85, 1.15], strict=True)],
        BIGINT_TPS,
        TPS,
        seed=SEED,
    )
    few = verdict.ratio_verdict([0.0, 0.5, 0.6], [1.0, 1.0, 1.0], TPS)
    tight_width = tight.half_width()
    assert tight_width is not None and tight_width < 0.03
    assert verdict.precision_reached({"uuid-v4 tps": tight}, 0.03).reached
    mixed = verdict.precision_reached({"uuid-v4 tps": tight, "noisy tps": noisy}, 0.03)
    assert not mixed.reached and mixed.within == ("uuid-v4 tps",) and mixed.outside == ("noisy tps",)
    # A range of three rounds may look narrow, but it is no confidence interval.
    assert not verdict.precision_reached({"few": few}, 0.5).reached
    with pytest.raises(ValueError, match="precision"):
        verdict.precision_reached({}, 3.0)


def test_compare_calls_out_a_run_doctored_thirty_percent_slower() -> None:
    doctored = [v * 0.7 for v in BIGINT_TPS]
    change = run_diff.compare_rounds("bigint tps", BIGINT_TPS, doctored, TPS, seed=SEED)
    assert change.resolved
    assert change.ratio == pytest.approx(0.7)
    assert change.worse_by == pytest.approx(0.3)
    assert change.rank_test_p is not None and change.rank_test_p < 0.05
    assert change.words.startswith("1.43x slower (p=")
    assert run_diff.regressions([change], 10) == [change]
    assert run_diff.regressions([change], 35) == []


def test_compare_calls_out_nothing_for_an_identical_copy() -> None:
    change = run_diff.compare_rounds("bigint tps", BIGINT_TPS, list(BIGINT_TPS), TPS, seed=SEED)
    assert not change.resolved
    assert change.ratio == 1.0 and change.rank_test_p == pytest.approx(1.0)
    assert change.words == "no change resolved (1.00x, p=1.000)"
    assert run_diff.regressions([change], 0) == []


def test_compare_does_not_call_out_noise_a_fixed_threshold_would() -> None:
    # Medians 12% apart, but the rounds interleave: today's 10% rule would flag it, the rank test does not.
    old = [1000.0, 1400.0, 900.0, 1300.0, 1100.0]
    new = [1250.0, 850.0, 1300.0, 980.0, 1450.0]
    change = run_diff.compare_rounds("tps", old, new, TPS, seed=SEED)
    assert change.ratio is not None and abs(change.ratio - 1) > 0.1
    assert not change.resolved
    assert run_diff.regressions([change], 5) == []


def test_an_improvement_is_no_regression() -> None:
    wal_old = [410.0, 412.0, 409.0, 411.0, 413.0]
    wal_new = [v * 0.8 for v in wal_old]
    change = run_diff.compare_rounds("wal", wal_old, wal_new, WAL_PER_TRANSACTION, seed=SEED)
    assert change.resolved and change.worse_by == pytest.approx(-0.2)
    assert run_diff.regressions([change], 10) == []
    worse = run_diff.compare_rounds("wal", wal_old, [v * 1.2 for v in wal_old], WAL_PER_TRANSACTION)
    assert run_diff.regressions([worse], 10) == [worse]
    with pytest.raises(ValueError, match="fail-on-regression"):
        run_diff.regressions([worse], -1)


def test_the_verdict_carries_the_raw_medians_and_their_variation() -> None:
    result = verdict.ratio_verdict(UUID_V4_TPS, BIGINT_TPS, TPS, seed=SEED)
    assert result.strategy_median == 1497.9 and result.baseline_median == 1932.7
    assert result.strategy_cv == verdict.coefficient_of_variation(UUID_V4_TPS)
    assert result.strategy_cv is not None and 0.03 < result.strategy_cv < 0.1


def test_a_figure_of_zero_against_a_baseline_with_some_is_said_in_words() -> None:
    one_round = verdict.ratio_verdict([0.0], [2.0], verdict.FPI_PER_TRANSACTION)
    assert one_round.ratio == 0 and one_round.words.startswith("none where the baseline had some")
    rounds = verdict.ratio_verdict([0.0, 0.0, 0.1], [2.0, 2.0, 2.0], verdict.FPI_PER_TRANSACTION)
    assert "too few rounds" in rounds.words


def test_compare_resolves_three_rounds_forty_percent_lower_by_the_t_test() -> None:
    old = BIGINT_TPS[:3]
    change = run_diff.compare_rounds("tps", old, [v * 0.6 for v in old], TPS, seed=SEED)
    # Three against three: the rank test's smallest p is 0.1, so it alone never resolves this.
    assert change.rank_test_p is not None and change.rank_test_p >= 0.1
    assert change.t_test_p is not None and change.t_test_p < 0.05
    assert change.resolved and change.words.startswith("1.67x slower (p=") and "t on logs" in change.words
    assert run_diff.regressions([change], 10) == [change]
    same = run_diff.compare_rounds("tps", old, list(old), TPS, seed=SEED)
    assert not same.resolved and same.t_test_p == pytest.approx(1.0)
    assert run_diff.regressions([same], 0) == []


def test_compare_does_not_resolve_three_rounds_that_overlap() -> None:
    change = run_diff.compare_rounds("tps", [1000.0, 1200.0, 900.0], [950.0, 1150.0, 1050.0], TPS)
    assert change.t_test_p is not None and change.t_test_p > 0.05 and not change.resolved


def test_judge_leaves_out_a_figure_equal_to_the_baselines_in_every_round() -> None:
    def strategy(name: str, tps: list[float]) -> StrategyResult:
        # Example numbers: three rounds, the key index wholly in cache (hit ratio 1.0) in each.
        rounds = [WorkloadResult("w", "", tps=t, hit_ratio={"records_pkey": 1.0}) for t in tps]
        sizes = Sizes(0, 0, 0, indexes={"records_pkey": 0})
        return StrategyResult(
            name,
            "",
            "uuid",
            None,
            sizes_after_prefill=sizes,
            workloads=[WorkloadResult("w", "", rounds=rounds)],
        )

    found = judge.judge([strategy("bigint", BIGINT_TPS[:3]), strategy("uuid-v4", UUID_V4_TPS[:3])], "bigint")
    keys = {j.metric.key for j in found}
    assert "tps" in keys and "hit" not in keys
    tps = next(j.verdict for j in found if j.metric.key == "tps")
    assert tps.resolved and tps.interval is not None and tps.interval.method == "t on log ratios"


def test_a_difference_resolved_under_half_a_percent_is_said_with_a_third_digit() -> None:
    # Example: a hit ratio of 99.6% against 99.9% in each of three rounds.
    result = verdict.ratio_verdict([99.6, 99.61, 99.59], [99.9, 99.9, 99.9], verdict.HIT_RATIO)
    assert result.resolved and result.better is False
    assert result.words.startswith("1.003x lower hit ratio (1.00")
    assert "1.00x" not in result.words
