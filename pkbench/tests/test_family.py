"""A strategy's verdicts taken as one family (analysis.family): Holm's step-down over Student's t p-values
on the log ratios, and the line the summary says it in. Pure functions, no server."""

from __future__ import annotations

import dataclasses
import math

import pytest
from scipy import stats

from pkbench.analysis import family, judge
from pkbench.analysis.metrics import LOAD_METRIC
from pkbench.analysis.verdict import LOAD_TIME, ratio_verdict
from pkbench.results import RunResult, Verdict
from pkbench.summary import verdicts as verdict_tables


def test_holm_steps_down_and_stops_at_the_first_p_value_that_fails() -> None:
    # m = 4: thresholds 0.0125, 0.0167, 0.025, 0.05 in rank order.
    assert family.holm([0.01, 0.04, 0.015, 0.03]) == [True, False, True, False]
    # 0.012 passes 0.0125, then 0.02 fails 0.0167 and stops the walk, although 0.03 < 0.05.
    assert family.holm([0.03, 0.012, 0.02, 0.9]) == [False, True, False, False]
    # A missing p-value counts in m and is never rejected.
    assert family.holm([0.03, None]) == [False, False]
    assert family.holm([0.03]) == [True]
    assert family.holm([]) == []


def test_the_p_value_is_students_t_on_the_log_ratios() -> None:
    ratios = [1.02, 1.05, 0.99, 1.04, 1.03]
    expected = stats.ttest_1samp([math.log(r) for r in ratios], 0.0).pvalue
    assert family.log_ratio_p_value(ratios) == pytest.approx(expected)
    assert family.log_ratio_p_value([1.1]) is None
    assert family.log_ratio_p_value([1.1, 0.0]) is None
    assert family.log_ratio_p_value([1.1, 1.1, 1.1]) == 0.0
    assert family.log_ratio_p_value([1.0, 1.0]) == 1.0


def recorded(metric: str, ratios: list[float], strategy: str = "uuid-v4") -> Verdict:
    judged = judge.Judged(
        strategy,
        "w",
        dataclasses.replace(LOAD_METRIC, key=metric),
        ratio_verdict(ratios, [1.0] * len(ratios), LOAD_TIME, seed=1),
    )
    return judge.record(judged, "bigint")


def test_a_verdict_holds_in_its_family_only_where_holm_and_its_own_interval_agree() -> None:
    clear = recorded("tps", [1.30, 1.32, 1.29, 1.31, 1.30, 1.33])
    borderline = recorded("wal", [1.03, 1.00, 1.05, 1.04, 1.02, 1.03])
    noise = [recorded(f"f{i}", [1.01, 0.99, 1.02, 0.98, 1.00, 1.01]) for i in range(13)]
    other = recorded("tps", [1.0, 1.01, 0.99, 1.0, 1.02, 0.98], strategy="uuid-v7")
    assert clear.resolved and borderline.resolved and not any(v.resolved for v in noise)
    assert borderline.p_value is not None and 0.05 / 14 < borderline.p_value < 0.05
    marked = family.mark([clear, borderline, *noise, other])
    assert [v.familywise for v in marked[:2]] == [True, False]
    assert not any(v.familywise for v in marked[2:])
    # Resolved on its own interval but not in its family: the run states no difference, and says why.
    assert not marked[1].holds and marked[0].holds
    assert marked[1].resolved and marked[1].better is False
    assert (
        marked[1].words
        == f"no difference resolved among 15 figures ({borderline.low:.2f}-{borderline.high:.2f} alone)"
    )
    assert marked[0].words == clear.words
    # Judged alone (a family of one), the borderline verdict holds, in its own words.
    (single,) = family.mark([borderline])
    assert single.familywise is True and single.holds and single.words == borderline.words
    words = [verdict_tables.family_words(f) for f in family.families(marked)]
    assert words == [
        "uuid-v4: differs from bigint on 1 of its 15 figures (w TPS)",
        "uuid-v7: no difference from bigint resolved on any of its 1 figures",
    ]


def test_the_summary_says_each_family_and_leaves_out_verdicts_recorded_without_the_mark() -> None:
    marked = family.mark([recorded("tps", [1.30, 1.32, 1.29, 1.31, 1.30, 1.33])])
    run = RunResult(["pkbench", "run"], "2026-11-26T00:00:00", {}, {}, {}, {}, verdicts=marked)
    (line,) = verdict_tables.family_lines(run)
    assert line.startswith("Taken together, each strategy's verdicts at 5% familywise")
    assert line.endswith("uuid-v4: differs from bigint on 1 of its 1 figures (w TPS).")
    old = dataclasses.replace(marked[0], familywise=None)
    assert verdict_tables.family_lines(dataclasses.replace(run, verdicts=[old])) == []
