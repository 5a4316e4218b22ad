"""Paired rounds: every strategy's tables in one cluster, each measured window run for every strategy, round
after round, in an order that rotates, so that the machine's drift falls on all of them alike.

A scenario's steps fall into stages: the steps that build or change the tables (run once per strategy), then
the pgbench windows that follow them (run in rounds). A strategy's window in round r is paired with the
baseline's window in the same round; pkbench.analysis.judge turns the pairs into verdicts.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from pkbench.analysis import family, judge, stats
from pkbench.analysis.verdict import MIN_BOOTSTRAP_ROUNDS, precision_reached
from pkbench.reporting import Reporter
from pkbench.results import RoundsRecord, StrategyResult, WorkloadResult, typed
from pkbench.steps import FillStep, PgbenchStep, Step

# Parts the load is cut into: enough pairs that the t quantile of the load's interval has come down from
# its few-pair heights (12.7 at two, 2.78 at five), and no more. Each part starts after a CHECKPOINT, so each
# writes a full-page image of every index page it touches, the whole of a random key's index, and more parts
# make a longer load.
LOAD_PARTS = 5
# The figures --until-decided waits for: what the which-key answer cites of a window (evidence.advice).
DECIDING_METRICS = ("tps", "wal")


class StrategyPass(Protocol):
    """What the rounds ask of one strategy's pass (run.strategy_pass.StrategyPass): its result so far, and
    to run some of the scenario's steps."""

    result: StrategyResult

    def run_steps(self, scenario_steps: Sequence[Step], **changes: Any) -> bool: ...


@dataclass(frozen=True)
class Stage:
    """Steps that prepare the tables, then the windows measured on them."""

    setup: tuple[Step, ...]
    windows: tuple[PgbenchStep, ...]


def stages(steps: Sequence[Step]) -> list[Stage]:
    """The scenario cut before each step that is not a window and follows one."""
    found: list[Stage] = []
    setup: list[Step] = []
    windows: list[PgbenchStep] = []
    for step in steps:
        if isinstance(step, PgbenchStep):
            windows.append(step)
            continue
        if windows:
            found.append(Stage(tuple(setup), tuple(windows)))
            setup, windows = [], []
        setup.append(step)
    if setup or windows:
        found.append(Stage(tuple(setup), tuple(windows)))
    return found


def rotation(names: Sequence[str], round_number: int) -> list[str]:
    """Round 1 runs NAMES in order, round 2 starts from the second, and so on: over len(NAMES) rounds every
    strategy runs once in every position."""
    if not names:
        return []
    shift = (round_number - 1) % len(names)
    return [*names[shift:], *names[:shift]]


def combine(rounds: Sequence[WorkloadResult]) -> WorkloadResult:
    """One window's figures over its rounds: each number the median, with its spread and every round kept."""
    if len(rounds) == 1:
        return dataclasses.replace(rounds[0], rounds=list(rounds))
    merged = stats.aggregate([dataclasses.asdict(r) for r in rounds])
    spread = merged.pop("spread")
    merged.pop("repeats")
    combined: WorkloadResult = typed(WorkloadResult, merged)
    combined.spread = {name: [float(low), float(high)] for name, (low, high) in spread.items()}
    combined.rounds = list(rounds)
    return combined


@dataclass
class PairedRounds:
    """Runs the stages for every strategy's pass; rounds and precision as planned."""

    passes: Mapping[str, StrategyPass]  # in the scenario's order of strategies
    record: RoundsRecord
    reporter: Reporter
    # Called after every stage's setup and every round: the results so far are rewritten.
    on_progress: Callable[[list[judge.Judged]], None]
    deadline: float | None = None  # time.monotonic() by which no new round starts (--max-time)
    # A resumed run's windows measured before the interruption: strategy -> window -> its rounds so far.
    measured: Mapping[str, Mapping[str, list[WorkloadResult]]] = dataclasses.field(default_factory=dict)
    # The fill step headlined as the load ([summary] insert): loaded in LOAD_PARTS alternating parts.
    load_step: str | None = None

    def __post_init__(self) -> None:
        self.windows: dict[str, dict[str, list[WorkloadResult]]] = {
            name: {window: list(rounds) for window, rounds in self.measured.get(name, {}).items()}
            for name in self.passes
        }
        # Rounds of each stage measured before an interruption (none on a fresh run).
        self.done_before = list(self.record.completed)
        self.record.completed = []
        # The verdicts of the rounds so far, judged once per round for the results and the precision rule.
        self.judged: list[judge.Judged] = []
        # Each stage's figures still wider than --precision, keyed by its windows; the record lists them all.
        self.unresolved: dict[tuple[str, ...], list[str]] = {}

    def run(self, scenario_stages: Sequence[Stage]) -> None:
        with_windows = sum(1 for stage in scenario_stages if stage.windows)
        for stage in scenario_stages:
            self._setup(stage.setup)
            self.on_progress(self.judged)
            if stage.windows:
                stage_deadline = self._stage_deadline(with_windows)
                with_windows -= 1
                stage_number = len(self.record.completed)
                done = self.done_before[stage_number] if stage_number < len(self.done_before) else 0
                self.record.completed.append(done)
                self._rounds(stage.windows, stage_deadline, done)

    def _setup(self, setup: Sequence[Step]) -> None:
        """Each strategy's setup steps in turn, but the load in parts that alternate between strategies (in
        an order that rotates): the first strategy's load would otherwise pay alone for what the first load
        of a cluster costs (new WAL segments, a cold cache), and a single timing has no interval."""
        loads = [i for i, s in enumerate(setup) if isinstance(s, FillStep) and s.name == self.load_step]
        load = setup[loads[0]] if loads else None
        if not isinstance(load, FillStep) or len(self.passes) < 2:
            self._each(setup)
            return
        at = loads[0]
        self._each(setup[:at])
        for number in range(1, LOAD_PARTS + 1):
            running = [name for name, p in self.passes.items() if p.result.status == "ok"]
            for position, name in enumerate(rotation(running, number)):
                part = dataclasses.replace(
                    load, part=(number, LOAD_PARTS), warm_wal=number == 1 and position == 0
                )
                self.passes[name].run_steps([part])
        self._each(setup[at + 1 :])

    def _each(self, setup: Sequence[Step]) -> None:
        for name, one_pass in self.passes.items():
            if setup and one_pass.run_steps(setup):
                self.reporter.info(f"  {name}: {', '.join(step.name for step in setup)} done")

    def _stage_deadline(self, stages_left: int) -> float | None:
        """An equal share of the time left for each stage that still has windows to measure."""
        if self.deadline is None:
            return None
        now = time.monotonic()
        return now + max(0.0, self.deadline - now) / max(1, stages_left)

    def _rounds(self, windows: Sequence[PgbenchStep], deadline: float | None, done: int) -> None:
        """Rounds of one stage's windows, after the DONE rounds an interrupted run measured already."""
        number = done
        started = time.monotonic()
        if done:
            self._combine(judging=True)
            if self._enough(windows, done, 0, deadline):
                self.record.count = max(self.record.count, done)
                return
        while True:
            number += 1
            running = [name for name, p in self.passes.items() if p.result.status == "ok"]
            order = rotation(running, number)
            self.record.orders.append(order)
            self.reporter.info(f"round {number}: {' '.join(order)}")
            self._measure_round(windows, order, number)
            # A bootstrap per verdict costs seconds of a 2-core machine between two windows: judged after
            # every round only where --precision reads the verdicts, else once the stage has its rounds.
            self._combine(judging=self.record.precision is not None or number >= self.record.requested)
            self.record.completed[-1] = number
            self.on_progress(self.judged)
            if self._enough(windows, number, (time.monotonic() - started) / (number - done), deadline):
                break
        self.record.count = max(self.record.count, number)

    def _measure_round(self, windows: Sequence[PgbenchStep], order: Sequence[str], number: int) -> None:
        """One round: each window for every strategy in ORDER, one after the other (the interleaved design
        runs them at once instead)."""
        for window in windows:
            count: int | None = None
            for name in order:
                measured = self._window(name, window, number, count)
                if count is None and measured is not None and self._equal_counts(window):
                    count = measured.transactions or None

    def _equal_counts(self, window: PgbenchStep) -> bool:
        """Whether WINDOW's later runs in a round match the first one's transactions (the mixed design's
        paired windows, run.interleaved_rounds): a window's full-page images per transaction fall as its
        transactions come back to pages the checkpoint before it already imaged, so two strategies' work
        per transaction compares only at equal counts. A window judged on its speed keeps its length."""
        return self.record.equal_transactions and window.name not in self.record.paired_only

    def _window(
        self, name: str, window: PgbenchStep, number: int, transactions: int | None = None
    ) -> WorkloadResult | None:
        """STRATEGY's WINDOW in round NUMBER (of TRANSACTIONS, where given, else of the scenario's length):
        what it measured, None when it failed or the strategy had failed before."""
        one_pass = self.passes[name]
        if one_pass.result.status != "ok":
            return None
        scratch = StrategyResult(name, one_pass.result.description, one_pass.result.column_type, None)
        self.reporter.info(f"  {name}")
        measured = one_pass.run_steps(
            [window],
            result=scratch,
            repeat=number,
            iteration="round",
            checkpoint_before_window=True,
            window_transactions=transactions,
        )
        if measured:
            self.windows[name].setdefault(window.name, []).extend(scratch.workloads)
        known = {(u.metric, u.reason) for u in one_pass.result.unavailable}
        one_pass.result.unavailable += [u for u in scratch.unavailable if (u.metric, u.reason) not in known]
        return scratch.workloads[-1] if measured and scratch.workloads else None

    def _combine(self, judging: bool) -> None:
        for name, by_window in self.windows.items():
            self.passes[name].result.workloads = [
                self._combined(name, rounds) for rounds in by_window.values() if rounds
            ]
        if judging:
            self.judged = judge.judge(
                [p.result for p in self.passes.values()], self.record.baseline, self.record.design
            )

    def _combined(self, name: str, rounds: Sequence[WorkloadResult]) -> WorkloadResult:
        """One of a strategy's windows over its rounds."""
        return combine(rounds)

    def _enough(
        self, windows: Sequence[PgbenchStep], number: int, per_round: float, deadline: float | None
    ) -> bool:
        """Whether this stage has its rounds: the number asked for, and with a precision target, every
        headline ratio within it (or the time spent, PER_ROUND seconds a round)."""
        if number < self.record.requested:
            return False
        target = self.record.precision
        if target is None:
            self.record.stopped = "rounds asked for"
            return True
        names = {w.name for w in windows}
        verdicts = {
            f"{j.strategy} {j.workload} {j.metric.title}": j.verdict
            for j in self.judged
            if j.workload in names
        }
        if self.record.until_decided:
            cited = {
                f"{j.strategy} {j.workload} {j.metric.title}": j.verdict
                for j in self.judged
                if j.workload in names and j.metric.key in DECIDING_METRICS
            }
            # Each round from the rounds asked for on is a look, at its share of the 5% (family.LOOK_ALPHA).
            reached = family.decided(cited, target, family.LOOK_ALPHA) if cited else None
            # t intervals hold from two rounds: only a bootstrap of the median needs five.
            done = reached is not None and reached.reached
        else:
            reached = precision_reached(verdicts, target) if verdicts else None
            done = reached is not None and reached.reached and number >= MIN_BOOTSTRAP_ROUNDS
        self.unresolved[tuple(sorted(names))] = [] if done or reached is None else list(reached.outside)
        self.record.unresolved = [figure for stage in self.unresolved.values() for figure in stage]
        if done:
            self.record.stopped = "precision reached"
            return True
        if self.record.until_decided and number - self.record.requested + 1 >= family.PLANNED_LOOKS:
            self.record.stopped = "planned looks spent"
            return True
        if deadline is not None and time.monotonic() + per_round > deadline:
            self.record.stopped = "time spent (--max-time)"
            return True
        return False
