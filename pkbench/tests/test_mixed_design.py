"""The mixed design, without a server: which windows judge which figures, which windows keep paired rounds,
which design a run takes, how the summary names each verdict's design, and `compare` against the baseline,
on synthetic rounds."""

from __future__ import annotations

import math
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from pkbench.analysis import judge, run_diff
from pkbench.reporting import Silent
from pkbench.results import (
    RoundsRecord,
    RunResult,
    StrategyResult,
    WorkloadResult,
    WorkPerTransaction,
)
from pkbench.run import interleaved_rounds, runner
from pkbench.run.interleaved_rounds import MixedRounds
from pkbench.run.options import Options, _design
from pkbench.run.paired import Stage
from pkbench.server.topology import Topology
from pkbench.steps import PgbenchStep, Script, SqlStep, Step
from pkbench.summary import verdicts

ROUNDS = 6
# The machine's speed of each round: a paired window runs alone at it, and an interleaved window shares it.
SPEED = (1.0, 0.7, 1.2, 0.8, 1.1, 0.9)


def window(latency_ms: float, wal: float, interleaved: bool) -> WorkloadResult:
    """A window of one strategy: its latency, the TPS its latency gives ten clients, and its WAL."""
    return WorkloadResult(
        "lookup",
        "",
        transactions=1000,
        tps=10_000 / latency_ms,
        latency_ms={"mean": latency_ms, "p50": latency_ms, "p99": 3 * latency_ms},
        wal_bytes_per_transaction=wal,
        wal_fpi_per_transaction=wal / 1000,
        work_per_transaction=WorkPerTransaction(1000, wal_bytes=wal) if interleaved else None,
    )


def strategy(
    name: str, latency_ms: float, wal: float, slower: float = 1.0, shares: bool = True
) -> StrategyResult:
    """A strategy over ROUNDS mixed rounds: paired windows whose latency moves with the machine's speed and
    with a little of the strategy's own noise, interleaved shares that move with the machine alone; SLOWER
    multiplies its latency in every round, paired and interleaved."""
    own = (1.0, 1.02, 0.99, 1.01, 0.98, 1.0)
    paired = [window(latency_ms * slower / s * n, wal * n, False) for s, n in zip(SPEED, own, strict=True)]
    interleaved = [window(latency_ms * slower / s, wal, True) for s in SPEED]
    combined = WorkloadResult("lookup", "", rounds=paired, interleaved=interleaved if shares else [])
    return StrategyResult(name, "", "bigint", None, workloads=[combined])


def run_of(*strategies: StrategyResult, design: str = "mixed", baseline: str = "bigint") -> RunResult:
    run = RunResult(["pkbench", "run"], "2026-11-27T00:00:00", {}, {}, {}, {})
    run.strategies = list(strategies)
    run.rounds = RoundsRecord("paired", ROUNDS, baseline, count=ROUNDS, design=design)
    run.verdicts = judge.records(judge.judge(run.strategies, baseline, design), baseline)
    return run


def test_speed_is_judged_on_interleaved_windows_and_work_on_paired_ones() -> None:
    judged = judge.judge([strategy("bigint", 1.0, 100), strategy("uuid-v4", 1.1, 250)], "bigint", "mixed")
    designs = {j.metric.key: j.design for j in judged}
    assert designs == {
        "tps": "interleaved",
        "latency-mean": "interleaved",
        "wal": "paired",
        "fpi": "paired",
        "hit": "paired",
    }
    by_key = {j.metric.key: j.verdict for j in judged}
    # Interleaved shares hold the machine's speed in common: exactly 1.1 in every round, and TPS its inverse.
    assert by_key["latency-mean"].per_round == pytest.approx([1.1] * ROUNDS)
    assert by_key["tps"].ratio == pytest.approx(1 / 1.1) and by_key["tps"].resolved
    # The paired windows' WAL carries each window's own noise, its ratio too.
    assert by_key["wal"].ratio == pytest.approx(2.5, rel=0.01)
    assert judge.records(judged, "bigint")[0].design in ("interleaved", "paired")


def test_a_window_without_interleaved_shares_is_judged_on_its_paired_rounds_alone() -> None:
    paired_only = [strategy("bigint", 1.0, 100, shares=False), strategy("uuid-v4", 1.1, 250, shares=False)]
    judged = judge.judge(paired_only, "bigint", "mixed")
    assert {j.design for j in judged} == {"paired"}
    # Percentiles and raw TPS are back among the figures, from the paired windows.
    assert {"tps", "p50", "p99", "wal"} <= {j.metric.key for j in judged}


def test_the_paired_design_reads_no_interleaved_share() -> None:
    judged = judge.judge([strategy("bigint", 1.0, 100), strategy("uuid-v4", 1.1, 250)], "bigint", "paired")
    assert {j.design for j in judged} == {"paired"}
    assert "latency-mean" not in {j.metric.key for j in judged}


def pgbench_step(name: str, synchronous_commit: str | None = None) -> PgbenchStep:
    return PgbenchStep(name, "", (Script("insert", 1, "SELECT 1"),), None, synchronous_commit)


def test_windows_that_keep_paired_rounds_and_why() -> None:
    steps = [
        SqlStep("schema", ("SELECT 1",)),
        pgbench_step("insert-async"),
        pgbench_step("insert-sync", "remote_apply"),
    ]
    with_standby = interleaved_rounds.paired_only(steps, Topology(standby=True), {})
    assert list(with_standby) == ["insert-sync"]
    assert "synchronous_commit remote_apply" in with_standby["insert-sync"]
    # Without a standby nothing waits for one, and a window that sets nothing of its own interleaves.
    assert interleaved_rounds.paired_only(steps[:2], Topology(), {"checkpoint_every_s": 0}) == {}
    sharded = interleaved_rounds.paired_only(steps, Topology(shards=3), {})
    assert set(sharded) == {"insert-async", "insert-sync"} and "shards" in sharded["insert-async"]
    # Checkpoints inside every window, and a write limit of the disk, are each strategy's own.
    split = interleaved_rounds.paired_only(steps, Topology(), {"checkpoint_every_s": 1.875})
    assert set(split) == {"insert-async", "insert-sync"} and "every 1.875 s" in split["insert-async"]
    limited = interleaved_rounds.paired_only(steps, Topology(), {"disk_write_iops": 250})
    assert "disk_write_iops 250" in limited["insert-async"]
    # Without a standby, a window's own synchronous_commit is still its paired windows' alone; and --rate
    # schedules each strategy's window by itself.
    alone = interleaved_rounds.paired_only(steps, Topology(), {})
    assert list(alone) == ["insert-sync"] and "which only its paired windows set" in alone["insert-sync"]
    rated = interleaved_rounds.paired_only(steps, Topology(), {"rate_tps": 500})
    assert "--rate 500" in rated["insert-async"]


def test_the_design_a_run_takes() -> None:
    resumed_paired = run_of(design="paired")
    assert _design(Options(), None) == "mixed"
    assert _design(Options(interleave=True), None) == "interleaved"
    assert _design(Options(interleave=False), None) == "paired"
    # A run resumed keeps the design it was started with, older paired runs included.
    assert _design(Options(), resumed_paired) == "paired"


def test_the_summary_names_each_verdicts_design() -> None:
    run = run_of(strategy("bigint", 1.0, 100), strategy("uuid-v4", 1.1, 250))
    (table,) = verdicts.tables(run)
    assert table.header[:3] == ["Strategy", "TPS (interleaved)", "latency mean (interleaved)"]
    assert "WAL bytes per transaction (paired)" in table.header
    heading = verdicts.heading(run)
    assert heading is not None and "speed is judged on the interleaved windows" in heading
    # A window the run measured in paired rounds only says why, under its table.
    run.rounds.paired_only = {"lookup": "synchronous_commit remote_apply: ..."}  # type: ignore[union-attr]
    assert verdicts.tables(run)[0].note.startswith("Measured in paired rounds only, speed included")


def test_compare_catches_a_strategy_ten_percent_slower_in_every_round_against_the_baseline() -> None:
    old = run_of(strategy("bigint", 1.0, 100), strategy("uuid-v7", 1.05, 110))
    slower = run_of(strategy("bigint", 1.0, 100), strategy("uuid-v7", 1.05, 110, slower=1 / 0.9))
    changes = run_diff.against_baseline(old, slower)
    worse = run_diff.worse_than(changes, 5)
    assert {(c.workload, c.metric.key) for c in worse} == {("lookup", "tps"), ("lookup", "latency-mean")}
    tps = next(c for c in worse if c.metric.key == "tps")
    assert tps.metric.title == "TPS over bigint" and math.isclose(tps.change.worse_by or 0, 0.1, rel_tol=1e-6)
    # The same run again changes nothing; nor does a run against another baseline compare ratios at all.
    assert run_diff.worse_than(run_diff.against_baseline(old, old), 0) == []
    assert run_diff.against_baseline(old, run_of(strategy("uuid-v7", 1.05, 110), baseline="uuid-v7")) == []


def test_the_raw_figures_of_the_same_rounds_do_not_resolve_it() -> None:
    # The paired windows' TPS moves with the machine from round to round (SPEED), far more than 10%: the
    # raw comparison, which cannot pair the rounds of two runs, leaves the slowdown unresolved.
    old = run_of(strategy("bigint", 1.0, 100), strategy("uuid-v7", 1.05, 110))
    slower = run_of(strategy("bigint", 1.0, 100), strategy("uuid-v7", 1.05, 110, slower=1 / 0.9))
    raw = [c for c in run_diff.diff(old, slower) if c.strategy == "uuid-v7" and c.metric.key == "tps"]
    assert len(raw) == 1 and not raw[0].change.resolved


def test_markdown_of_the_changes_against_the_baseline(tmp_path: Path) -> None:
    old = run_of(strategy("bigint", 1.0, 100), strategy("uuid-v7", 1.05, 110))
    slower = run_of(strategy("bigint", 1.0, 100), strategy("uuid-v7", 1.05, 110, slower=1 / 0.9))
    found, _ = run_diff.against_first([("old", old), ("new", slower)], 5)
    assert "# pkbench compare: new against old, each strategy against the baseline" in found.full
    assert found.regressions == "2 resolved regressions"
    assert "uuid-v7 lookup TPS over bigint 1.11x slower" in found.named


def test_a_resumed_mixed_run_carries_both_kinds_of_windows() -> None:
    interrupted = run_of(strategy("bigint", 1.0, 100), strategy("uuid-v7", 1.05, 110))
    paired = runner._measured_before(interrupted)
    shares = runner._measured_before(interrupted, interleaved=True)
    assert [len(paired[name]["lookup"]) for name in ("bigint", "uuid-v7")] == [ROUNDS, ROUNDS]
    # Each strategy's shares of the interleaved windows, kept apart from its paired windows.
    assert shares["uuid-v7"]["lookup"] == interrupted.strategies[1].workloads[0].interleaved
    assert shares["uuid-v7"]["lookup"] != paired["uuid-v7"]["lookup"]


class TimedPass:
    """A strategy that runs TPS transactions a second: a window of the scenario's length (one second here)
    runs that many, a window given a count runs the count."""

    def __init__(self, name: str, tps: int) -> None:
        self.result = StrategyResult(name, "", "bigint", None)
        self.tps = tps
        self.asked: list[int | None] = []

    def run_steps(self, scenario_steps: Sequence[Step], **changes: Any) -> bool:
        count = changes.get("window_transactions")
        self.asked.append(count)
        changes["result"].workloads.append(
            WorkloadResult(scenario_steps[0].name, "", transactions=count or self.tps)
        )
        return True


def mixed_rounds(passes: dict[str, TimedPass], equal: bool, paired_only: dict[str, str]) -> MixedRounds:
    record = RoundsRecord("paired", 3, "bigint", design="mixed", paired_only=paired_only)
    record.equal_transactions = equal
    return MixedRounds(passes, record, Silent(), lambda judged: None)


def test_each_rounds_paired_windows_run_as_many_transactions_as_its_first_one() -> None:
    passes = {"bigint": TimedPass("bigint", 900), "uuid-v4": TimedPass("uuid-v4", 600)}
    design = mixed_rounds(passes, equal=True, paired_only={})
    design.run([Stage((), (pgbench_step("lookup"),))])
    # The order rotates: bigint opens rounds 1 and 3 with its own speed's count, uuid-v4 round 2 with its.
    assert passes["bigint"].asked == [None, 600, None]
    assert passes["uuid-v4"].asked == [900, None, 900]
    counts = [[w.transactions for w in p.result.workloads[0].rounds] for p in passes.values()]
    assert counts == [[900, 600, 900], [900, 600, 900]]


def test_windows_judged_paired_only_and_older_mixed_runs_keep_the_scenarios_length() -> None:
    for equal, paired_only in ((True, {"lookup": "--rate 500 schedules ..."}), (False, {})):
        passes = {"bigint": TimedPass("bigint", 900), "uuid-v4": TimedPass("uuid-v4", 600)}
        mixed_rounds(passes, equal, paired_only).run([Stage((), (pgbench_step("lookup"),))])
        assert passes["bigint"].asked == passes["uuid-v4"].asked == [None, None, None]
