"""The edges of the which-key rule (evidence.cell's margins, evidence.decision) and of the family and the
stopping rule it is judged with (analysis.family): a missing p-value, the margins' boundaries, one round,
zero variance, ties, repeated looks. Pure functions on constructed cells and verdicts, no server."""

from __future__ import annotations

import math
from types import SimpleNamespace
from typing import Any, cast

import pytest

from pkbench.advise import outcome as advise_outcome
from pkbench.analysis import family, verdict
from pkbench.evidence import advice_rows, advice_text, decision
from pkbench.evidence.cell import Cell, Work
from pkbench.reporting import Reporter
from pkbench.results import RoundsRecord, Verdict
from pkbench.run.paired import PairedRounds

ROWS = advice_rows.BY_KEY
BASE = Cell("baseline", run="run", window="w")


def speed(ratio: float, low: float, high: float, held: bool) -> Cell:
    return Cell("verdict", ratio, low, high, held, (ratio > 1) if held else None, "run", "w", 5)


def wal(ratio: float, low: float, high: float, held: bool) -> Cell:
    return Cell("verdict", 1.0, 0.99, 1.01, False, None, "run", "w", 5, work=Work(ratio, low, high, held))


@pytest.mark.parametrize(
    ("cell", "said"),
    [
        # A held direction whose estimate reaches the margin is slower; a hair inside it is not.
        (speed(0.90, 0.85, 0.95, held=True), "slower"),
        (speed(0.9001, 0.85, 0.95, held=True), "slower, within the margin"),
        (speed(0.99, 0.985, 0.995, held=True), "slower, within the margin"),
        (speed(1.10, 1.05, 1.15, held=True), "faster"),
        (speed(1.0999, 1.05, 1.15, held=True), "faster, within the margin"),
        # Level is the interval within the margin, its bounds on it included; a bound past it is not level.
        (speed(1.00, 0.90, 1.10, held=False), "level"),
        (speed(0.915, 0.83, 1.005, held=False), "unresolved"),
        (speed(1.00, 0.8999, 1.05, held=False), "unresolved"),
        # An interval wholly below 1 but not held in its family is no direction, and not level either.
        (speed(0.89, 0.81, 0.98, held=False), "unresolved"),
        # One round: no interval, so nothing is decided.
        (Cell("one round", 0.5, rounds=1), "unresolved"),
    ],
)
def test_the_rate_margin_boundaries(cell: Cell, said: str) -> None:
    assert cell.speed() == said


@pytest.mark.parametrize(
    ("cell", "said"),
    [
        (wal(1.26, 1.25, 1.27, held=True), "heavier"),
        (wal(1.26, 1.2499, 1.27, held=True), "unresolved"),
        # A point estimate past 1.25 is not enough: the interval's lower bound must reach it.
        (wal(1.26, 1.01, 1.57, held=True), "unresolved"),
        (wal(1.24, 1.20, 1.28, held=True), "unresolved"),
        (wal(1.21, 1.18, 1.23, held=True), "similar"),
        (wal(0.79, 0.70, 0.80, held=True), "lighter"),
        (wal(1.00, 0.80, 1.25, held=False), "similar"),
    ],
)
def test_the_wal_margin_boundaries(cell: Cell, said: str) -> None:
    assert decision.work_of(cell) == said
    found = decision.answer(ROWS["few-cores"], "uuid-v7", cell)
    assert found is not None and found.costs == (said == "heavier")


def _verdict(
    metric: str, p_value: float | None, resolved: bool = True, familywise: bool | None = None
) -> Verdict:
    return Verdict(
        "insert-range", metric, "uuid-v4", "bigint", 0.70, 0.62, 0.79, 0.95, "t on log ratios", 3, resolved,
        False if resolved else None, "", None, 0.12, p_value=p_value, familywise=familywise,
    )  # fmt: skip


def test_a_figure_without_a_p_value_is_left_out_of_the_family_not_voiding_it() -> None:
    # sharded-3: the router writes no WAL, so its WAL figure has no test; the rate, p = 0.006, still holds.
    rate, no_wal = _verdict("tps", 0.006), _verdict("wal", None, resolved=False)
    assert family.hold_together([rate, no_wal]) == [True, False]
    # Two tested figures: Holm's second threshold applies to the rate; the untested one does not count.
    assert family.hold_together([rate, _verdict("wal", 0.04), no_wal]) == [True, True, False]
    assert family.hold_together([_verdict("tps", 0.03), _verdict("wal", 0.04)]) == [False, False]
    # Results of a pkbench that recorded no p-value at all: each verdict holds as its run marked it.
    old = [_verdict("tps", None, familywise=True), _verdict("wal", None, familywise=False)]
    assert family.hold_together(old) == [True, False]


def test_zero_variance_is_certain_and_read_by_the_margin() -> None:
    assert family.log_ratio_p_value([0.9, 0.9, 0.9]) == 0.0
    assert family.log_ratio_p_value([1.0, 1.0]) == 1.0
    assert family.log_ratio_p_value([0.9]) is None
    steady = verdict.ratio_verdict([98, 98, 98], [100, 100, 100], verdict.TPS)
    assert steady.interval is not None and steady.interval.low == pytest.approx(steady.interval.high)
    held = speed(0.98, 0.98, 0.98, held=steady.resolved)
    assert held.speed() == "slower, within the margin" and held.within_margin
    found = decision.answer(ROWS["few-cores"], "uuid-v7", held)
    assert found is not None and found.level_or_better and not found.costs


def test_a_tie_goes_to_the_key_listed_first_and_a_key_untried_in_the_tiers_is_never_chosen() -> None:
    level = speed(1.0, 0.97, 1.03, held=False)
    cells = {
        ROWS["page-cache"]: {"bigint": BASE, "uuid-v7": level, "seq-time": level},
        ROWS["beyond-ram"]: {"bigint": BASE, "uuid-v7": level, "seq-time": level},
    }
    assert decision.decide(cells).start == "uuid-v7"
    assert decision.decide(cells, ["seq-time", "uuid-v7"]).start == "seq-time"
    # A busy machine's advise: v7 wide in the tiers, seq-seq-256 measured only with many clients (level in
    # three conditions there). No key is named to start with, and the answer says why.
    wide = speed(1.0, 0.80, 1.25, held=False)
    busy = {
        ROWS["page-cache"]: {"bigint": BASE, "uuid-v7": wide, "seq-seq-256": Cell("not measured")},
        ROWS["beyond-ram"]: {"bigint": BASE, "uuid-v7": wide, "seq-seq-256": Cell("not measured")},
        ROWS["few-cores"]: {"bigint": BASE, "uuid-v7": level, "seq-seq-256": level},
        ROWS["asynchronous"]: {"bigint": BASE, "uuid-v7": wide, "seq-seq-256": level},
        ROWS["bulk-load"]: {"bigint": BASE, "uuid-v7": level, "seq-seq-256": level},
    }
    found = decision.decide(busy)
    assert found.start is None and found.untested == "seq-seq-256"
    assert [c.key for c in found.untested_tiers] == ["page-cache", "beyond-ram"]
    said = advice_text.start_words(found)
    assert said.startswith("no key to start with can be named: **seq-seq-256**")
    assert "beyond shared buffers, within RAM; beyond RAM (a memory cap)" in said
    # With v7 level in the tiers it is the one, though seq-seq-256 is level in as many conditions.
    busy[ROWS["page-cache"]]["uuid-v7"] = level
    busy[ROWS["beyond-ram"]]["uuid-v7"] = level
    assert decision.decide(busy).start == "uuid-v7"


def test_repeated_looks_spend_the_five_percent() -> None:
    # p about 0.02: decided at one look's 5%, not at a share of it over the planned looks.
    slower = verdict.ratio_verdict([92, 96, 94, 90, 97], [100, 99, 101, 100, 100], verdict.TPS)
    p_value = family.log_ratio_p_value(slower.per_round)
    assert p_value is not None and family.LOOK_ALPHA < p_value < family.FAMILYWISE_ALPHA
    assert family.decided({"rate": slower}, 0.01).reached
    assert not family.decided({"rate": slower}, 0.01, family.LOOK_ALPHA).reached
    assert pytest.approx(family.FAMILYWISE_ALPHA) == family.LOOK_ALPHA * family.PLANNED_LOOKS
    # The interval at one look's confidence is wider, about the same centre.
    low, high = family.widened(0.9, 1.1, 5, 0.95, 1 - family.LOOK_ALPHA)
    assert low < 0.9 and high > 1.1 and math.sqrt(low * high) == pytest.approx(math.sqrt(0.9 * 1.1))
    assert family.widened(0.9, 1.1, 1, 0.95, 0.99) == (0.9, 1.1)


def test_rounds_needed_reads_the_t_quantile() -> None:
    assert advise_outcome.rounds_needed(3, 0.20) == 5
    # Two rounds' interval is wide for t(1) = 12.7 more than for their scatter: ±50% needs only four.
    assert advise_outcome.rounds_needed(2, 0.50) == 4
    assert advise_outcome.rounds_needed(3, 0.50) > advise_outcome.rounds_needed(3, 0.20)
    # Already within: one more round, the least a look can add.
    assert advise_outcome.rounds_needed(4, 0.05) == 5
    assert advise_outcome.rounds_needed(1, 0.30) == 2
    # A 99% interval (a run's cells judged at one look's share) at ±20% holds a smaller scatter than a 95%
    # one: fewer rounds bring it within ±10% at 99%.
    assert advise_outcome.rounds_needed(3, 0.20, confidence=0.99) == 4


def test_until_decided_stops_at_its_last_planned_look() -> None:
    # A rate that stays level and wide never decides: the stage looks at the rounds asked for and after each
    # round past them, and stops at its fifth look rather than looking on until its time is spent.
    record = RoundsRecord("paired", requested=3, precision=0.10, until_decided=True)
    rounds = PairedRounds({}, record, cast(Reporter, SimpleNamespace()), lambda _: None)
    wide = verdict.ratio_verdict([80, 120, 100], [100, 100, 100], verdict.TPS)
    metric = SimpleNamespace(key="tps", title="rate")
    judged = SimpleNamespace(strategy="uuid-v7", workload="w", metric=metric, verdict=wide)
    rounds.judged = [cast(Any, judged)]
    windows = [cast(Any, SimpleNamespace(name="w"))]
    looked = [rounds._enough(windows, number, 0.0, None) for number in range(3, 9)]
    assert looked == [False, False, False, False, True, True]
    assert record.stopped == "planned looks spent" and record.requested + family.PLANNED_LOOKS - 1 == 7
