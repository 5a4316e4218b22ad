"""The which-key decision rule (evidence.decision) on small synthetic cells, and the family it judges them in
(the figures the answer cites): pure functions, no server; one look at the committed runs."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import cast

import pytest

from pkbench.analysis import family, verdict
from pkbench.errors import PkbenchError
from pkbench.evidence import advice, advice_rows, decision
from pkbench.evidence.cell import Cell, Work
from pkbench.results import RunResult, Verdict

RUNS = Path(__file__).resolve().parents[1] / "docs" / "reproductions"
ROWS = advice_rows.BY_KEY


def rate(ratio: float, low: float, high: float, wal: tuple[float, float, float] | None, held: bool) -> Cell:
    """A window's cell: its rate with its interval (its direction held in the cited family where HELD and
    the interval excludes 1), and its WAL per transaction (held wherever its interval excludes 1)."""
    direction = held and not low <= 1 <= high
    work = Work(wal[0], wal[1], wal[2], not wal[1] <= 1 <= wal[2]) if wal is not None else None
    return Cell(
        "verdict", ratio, low, high, direction, (ratio > 1) if direction else None, "run", "w", 3, work=work
    )


BASE = Cell("baseline", run="run", window="w")


def keys(v4: Cell, v7: Cell) -> dict[str, Cell]:
    """One condition's row: bigint, and uuid-v4 and uuid-v7 against it."""
    return {"bigint": BASE, "uuid-v4": v4, "uuid-v7": v7}


def _busy_run(v7_tiers_level: bool) -> dict[advice_rows.Condition, dict[str, Cell]]:
    """A user's 15-minute run on a busy machine: v4 several times bigint's WAL beyond shared buffers and a
    rate of 0.57-0.79 beyond RAM, slightly slower on a tight interval with few cores; v7 similar in WAL, its
    rates in the memory tiers wide (or, where V7_TIERS_LEVEL, within the margin)."""
    v7_page = (1.02, 0.95, 1.08) if v7_tiers_level else (1.02, 0.88, 1.18)
    v7_ram = (0.98, 0.92, 1.05) if v7_tiers_level else (0.98, 0.80, 1.20)
    return {
        ROWS["shared-buffers"]: keys(
            rate(0.96, 0.92, 1.00, (1.42, 1.09, 1.84), held=False),
            rate(1.00, 0.85, 1.18, (1.01, 0.99, 1.03), held=False),
        ),
        ROWS["page-cache"]: keys(
            rate(0.90, 0.80, 1.01, (3.41, 3.14, 3.71), held=False),
            rate(*v7_page, (1.09, 1.05, 1.13), held=False),
        ),
        ROWS["beyond-ram"]: keys(
            rate(0.67, 0.57, 0.79, (12.13, 11.29, 13.03), held=True),
            rate(*v7_ram, (1.04, 1.00, 1.08), held=False),
        ),
        ROWS["few-cores"]: keys(
            rate(0.97, 0.95, 0.99, (1.63, 1.48, 1.79), held=True),
            rate(1.00, 0.95, 1.05, (1.00, 0.98, 1.02), held=False),
        ),
    }


def test_a_key_the_memory_tiers_leave_unresolved_is_not_named_to_start_with() -> None:
    cells = _busy_run(v7_tiers_level=False)
    found = decision.decide(cells)
    # v7 costs nowhere, but its rate answers in none of the tiers where keys differ: said, not chosen.
    assert found.start is None and found.untested == "uuid-v7"
    assert [c.key for c in found.untested_tiers] == ["page-cache", "beyond-ram"]
    assert [a.condition.key for a in found.avoid["uuid-v4"]] == ["page-cache", "beyond-ram", "few-cores"]
    by_row = {a.condition.key: a for a in found.avoid["uuid-v4"]}
    # A direction its interval holds is shown however wide; the sentence names the figures that decided.
    assert by_row["beyond-ram"].speed == "slower" and by_row["beyond-ram"].work == "heavier"
    assert cells[ROWS["beyond-ram"]]["uuid-v4"].word() == "slower"
    said = by_row["beyond-ram"].decided()
    assert said.startswith("slower 0.67\u00d7 (0.57\u20130.79; \u00b1")
    assert "12.13\u00d7 bigint's WAL per transaction (11.29\u201313.03)" in said
    # A held 3% with few cores is within the margin: said, no cost by itself; its WAL, 1.48x at least, is.
    few = by_row["few-cores"]
    assert few.speed == "slower, within the margin" and few.work == "heavier"
    assert few.decided().startswith("slower, within the margin 0.97\u00d7 (0.95\u20130.99)")
    # Level in rate, and 1.42x the WAL whose interval reaches down to 1.09: not heavier, unresolved.
    shared = decision.answer(ROWS["shared-buffers"], "uuid-v4", cells[ROWS["shared-buffers"]]["uuid-v4"])
    assert shared is not None and (shared.speed, shared.work, shared.costs) == ("level", "unresolved", False)


def test_a_key_level_in_the_memory_tiers_is_the_one_to_start_with() -> None:
    found = decision.decide(_busy_run(v7_tiers_level=True))
    assert found.start == "uuid-v7" and found.untested is None
    assert [a.condition.key for a in found.start_answers] == ["page-cache", "beyond-ram", "few-cores"]
    assert [a.condition.key for a in found.unresolved] == ["shared-buffers"]
    assert (found.tally.measured, found.tally.level_or_better, found.tally.costs) == (4, 3, 0)


def test_a_key_faster_for_more_wal_is_a_trade_not_an_avoid() -> None:
    cells = {
        ROWS["many-cores"]: keys(
            rate(1.47, 1.40, 1.54, (2.24, 1.76, 2.86), held=True),
            rate(1.01, 0.95, 1.07, (1.13, 1.12, 1.14), held=False),
        ),
        ROWS["few-cores"]: keys(
            rate(0.96, 0.95, 0.98, (2.13, 2.11, 2.15), held=True),
            rate(1.00, 0.99, 1.01, (1.00, 1.00, 1.01), held=False),
        ),
    }
    found = decision.decide(cells)
    assert found.start == "uuid-v7"
    (faster,) = found.faster[ROWS["many-cores"]]
    assert faster.key == "uuid-v4" and "2.24\u00d7 bigint's WAL" in faster.decided()
    assert [a.condition.key for a in found.avoid["uuid-v4"]] == ["few-cores"]
    # v7 writes 1.13x bigint's WAL: within a quarter, so no cost.
    assert decision.work_of(cells[ROWS["many-cores"]]["uuid-v7"]) == "similar"


def test_no_key_to_start_with_where_every_key_costs_or_none_answers_twice() -> None:
    cells = {
        ROWS["few-cores"]: keys(
            rate(0.96, 0.95, 0.98, None, held=True), rate(0.97, 0.95, 0.99, None, held=True)
        ),
        ROWS["beyond-ram"]: keys(
            rate(0.50, 0.40, 0.60, None, held=True), rate(1.00, 0.60, 1.60, None, held=False)
        ),
    }
    assert decision.decide(cells).start is None
    only_once = {ROWS["few-cores"]: {"bigint": BASE, "uuid-v7": rate(1.0, 0.99, 1.01, None, held=False)}}
    assert decision.decide(only_once).start is None


def _verdict(metric: str, workload: str, p_value: float, resolved: bool = True) -> Verdict:
    return Verdict(
        workload, metric, "uuid-v4", "bigint", 0.7, 0.6, 0.8, 0.95, "t on log ratios", 3, resolved,
        False if resolved else None, "", None, 0.14, p_value=p_value, familywise=False,
    )  # fmt: skip


def test_the_family_is_the_cited_figures_not_every_figure_a_window_records() -> None:
    # A rate at p = 0.004 beside WAL at p = 0.001 holds between the two figures cited, not among nineteen.
    cited = [_verdict("tps", "tier-3", 0.004), _verdict("wal", "tier-3", 0.001)]
    others = [_verdict(f"p{k}", "tier-3", 0.5, resolved=False) for k in range(17)]
    assert [v.familywise for v in family.mark([*cited, *others])][:2] == [False, True]
    assert family.hold_together(cited) == [True, True]
    run = cast(RunResult, SimpleNamespace(verdicts=[*cited, *others], rounds=None))
    source = advice_rows.Source("run", "tier-3", advice_rows.TPS)
    figures = advice.cited_figures({"beyond-ram": [source]})
    assert figures == {"run": frozenset({("tps", "tier-3"), ("wal", "tier-3")})}
    assert advice.holding(run, "uuid-v4", figures["run"]) == {
        ("tps", "tier-3"): True,
        ("wal", "tier-3"): True,
    }


def test_the_committed_answer_for_one_condition_and_key() -> None:
    beyond = advice.committed_answer("beyond-ram", "uuid-v4", RUNS)
    assert beyond is not None and (beyond.speed, beyond.work) == ("slower", "heavier")
    v7 = advice.committed_answer("beyond-ram", "uuid-v7", RUNS)
    assert v7 is not None and not v7.costs
    # A condition merged into another row answers with that row.
    merged = advice.committed_answer("one-table", "uuid-v4", RUNS)
    assert merged is not None and merged.condition.key == "few-cores"
    with pytest.raises(PkbenchError, match="condition 'nowhere'"):
        advice.committed_answer("nowhere", "uuid-v4", RUNS)
    with pytest.raises(PkbenchError, match="key 'uuid-v9'"):
        advice.committed_answer("beyond-ram", "uuid-v9", RUNS)


def test_until_decided_takes_a_direction_that_holds_as_done_however_wide() -> None:
    # Three rounds: a rate 0.55-0.80 (about ±18%) holds its direction beside WAL twelve times bigint's; a
    # level rate as wide is not decided, and neither would the first be under the plain precision rule.
    slower = verdict.ratio_verdict([60, 70, 65], [100, 101, 99], verdict.TPS)
    heavier = verdict.ratio_verdict([1210, 1230, 1200], [100, 101, 99], verdict.WAL_PER_TRANSACTION)
    level = verdict.ratio_verdict([90, 110, 100], [100, 100, 100], verdict.TPS)
    found = family.decided({"rate": slower, "wal": heavier}, 0.10)
    assert found.reached and set(found.within) == {"rate", "wal"}
    assert not verdict.precision_reached({"rate": slower, "wal": heavier}, 0.10).reached
    wide = family.decided({"rate": level, "wal": heavier}, 0.10)
    assert not wide.reached and wide.outside == ("rate",)
