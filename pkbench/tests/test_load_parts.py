"""The load in parts, as pure functions: the parts add up to the prefill, part k is paired with part k, and
the Results Summary's speed comparison follows the load's verdict rather than one timing each."""

from __future__ import annotations

import pytest

from pkbench.analysis import judge
from pkbench.results import Prefill, StrategyResult
from pkbench.steps.fill import FillStep, _prefill, batch_key
from pkbench.summary.headline import SAME_SPEED, _speed, relative

LOAD = FillStep("prefill", "rows", "batch_rows", "INSERT ...")
WHOLE = (("a", 2.0), ("b", 1.0))  # seconds of two loads timed in one piece


def loaded(name: str, seconds: list[float], rows: int = 1000) -> StrategyResult:
    """A strategy whose load took SECONDS part by part, ROWS rows each (example numbers)."""
    prefill: Prefill | None = None
    for number, part_seconds in enumerate(seconds, 1):
        step = FillStep(**{**LOAD.__dict__, "part": (number, len(seconds))})
        prefill = _prefill(step, prefill, rows, part_seconds)
    return StrategyResult(name, "", "bigint", None, prefill=prefill)


def test_the_parts_add_up_to_the_prefill() -> None:
    strategy = loaded("bigint", [1.0, 1.5, 2.0, 2.5])
    prefill = strategy.prefill
    assert prefill is not None
    assert prefill.rows == 4000 and prefill.duration_s == pytest.approx(7.0)
    assert prefill.parts_rows == [1000] * 4 and prefill.parts_s == [1.0, 1.5, 2.0, 2.5]
    assert prefill.rows_per_s == pytest.approx(4000 / 7.0, abs=0.1)
    whole = _prefill(LOAD, None, 4000, 7.0)
    assert whole.parts_s is None and whole.duration_s == 7.0


def test_a_strategy_slower_in_every_part_is_resolved_against_the_baseline() -> None:
    base = loaded("bigint", [1.0, 1.2, 1.4, 1.3, 1.6, 1.5, 1.8, 1.7])
    factors = [1, 1.02, 0.98, 1, 1.02, 0.98, 1, 1.02]
    parts = base.prefill.parts_s if base.prefill else None
    slower = loaded("uuid-v4", [s * 1.5 * f for s, f in zip(parts or [], factors, strict=True)])
    (found,) = judge.judge_load(slower, base)
    assert found.workload == "prefill" and found.metric.key == "load"
    assert found.verdict.rounds == 8 and found.verdict.interval is not None
    assert found.verdict.interval.method == "t on log ratios"
    assert found.verdict.resolved and found.verdict.better is False
    assert found.verdict.words.startswith("1.50x slower to load (")
    # The parts drift (later parts go into a larger table); the pairing leaves the ratio alone.
    assert found.verdict.half_width() is not None and (found.verdict.half_width() or 1) < 0.05


def test_an_identical_load_is_no_verdict_and_one_part_that_drifts_is_no_difference() -> None:
    base = loaded("bigint", [1.0, 1.2, 1.4, 1.3, 1.6, 1.5, 1.8, 1.7])
    assert judge.judge_load(loaded("int4", list(base.prefill.parts_s or [])), base) == []
    # Example: the strategies alternate being faster by 10% from part to part.
    mixed = [s * f for s, f in zip(base.prefill.parts_s or [], [1.1, 0.9] * 4, strict=True)]
    (found,) = judge.judge_load(loaded("int4", mixed), base)
    assert not found.verdict.resolved and found.verdict.words.startswith("no difference resolved (")


def test_the_summary_says_same_speed_where_the_parts_resolve_no_difference() -> None:
    base = loaded("bigint", [1.0, 1.2, 1.4, 1.3, 1.6, 1.5, 1.8, 1.7])
    # One part took a tenth of bigint's (a checkpoint that fell on bigint's part, say): the totals differ by
    # 8%, which one timing each would call "8% faster"; the other seven parts say the loads are the same.
    factors = [0.1, 1.1, 0.9, 1.0, 1.02, 0.98, 1.01, 0.99]
    lucky = loaded("uuid-v7", [s * f for s, f in zip(base.prefill.parts_s or [], factors, strict=True)])
    assert lucky.prefill is not None and base.prefill is not None
    totals = lucky.prefill.duration_s / base.prefill.duration_s
    assert relative(totals, 1.0, "faster", "slower", SAME_SPEED, noun="time") == "8% faster"
    assert _speed(lucky, base, totals) == SAME_SPEED
    slower = loaded("uuid-v4", [s * 1.5 for s in base.prefill.parts_s or []])
    assert _speed(slower, base, 1.5) == "1.5\u00d7 the time"
    # Loaded in one piece each: the one timing is all there is.
    a, b = (StrategyResult(n, "", "bigint", None, prefill=_prefill(LOAD, None, 1000, t)) for n, t in WHOLE)
    assert _speed(a, b, 2.0) == "2.0\u00d7 the time"


def test_the_load_is_left_alone_outside_its_parts() -> None:
    assert judge.load_parts(StrategyResult("a", "", "bigint", None)) == []
    assert judge.judge_load(loaded("a", [2.0]), StrategyResult("b", "", "bigint", None)) == []


def test_every_batch_of_the_load_has_its_own_seed_and_every_strategy_the_same_ones() -> None:
    parts = [FillStep(**{**LOAD.__dict__, "part": (number, 8)}) for number in range(1, 9)]
    keys = [batch_key(step, offset) for step in [LOAD, *parts] for offset in (0, 250_000, 500_000)]
    assert len(set(keys)) == len(keys)
    # Nothing of the strategy or the run goes in: the same step and batch give the same key again.
    assert batch_key(parts[3], 250_000) == batch_key(FillStep(**{**parts[3].__dict__}), 250_000)
    other = FillStep(**{**LOAD.__dict__, "name": "children"})
    assert batch_key(other, 0) != batch_key(LOAD, 0)
