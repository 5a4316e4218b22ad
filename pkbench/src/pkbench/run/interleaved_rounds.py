"""`pkbench run --interleave`: the paired rounds' stages and setup, but each round's window measured once for
all strategies at the same instant (run.interleaved), so a slowdown of the machine falls on all of them.

Only a strategy's time per transaction says anything in such a window (pgbench picks scripts by weight), so
the window keeps that one figure, and the verdicts are on it: the latency mean of each strategy against the
baseline's from the same window, over the rounds.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from pathlib import Path
from typing import Protocol, runtime_checkable

from pkbench.analysis import judge, metrics, verdict
from pkbench.errors import PkbenchError
from pkbench.results import WorkloadResult
from pkbench.run import interleaved
from pkbench.run.paired import PairedRounds
from pkbench.server.target import Target
from pkbench.server.workspace import Workspace
from pkbench.steps import PgbenchStep
from pkbench.steps.context import StepContext

# The verdict of the interleaved design: the latency mean, which the paired design reports but does not judge.
MEAN_LATENCY = dataclasses.replace(
    next(m for m in metrics.WORKLOAD_METRICS if m.key == "latency-mean"), verdict=verdict.LATENCY
)


@runtime_checkable
class StrategyPass(Protocol):
    """What an interleaved window needs of a strategy's pass (run.strategy_pass.StrategyPass, not imported:
    the import chain from the CLI would grow past its limit): its schema, server and rendering context."""

    ws: Workspace
    target: Target
    context: StepContext | None


def window_sql(step: PgbenchStep, one_pass: StrategyPass) -> interleaved.Mix:
    """A strategy's scripts of a window with their weights, each in the strategy's own schema."""
    context = one_pass.context
    if context is None:
        raise PkbenchError(f"{one_pass.ws.schema} has no context to render {step.name}")
    path = one_pass.ws.search_path
    return [(s.name, s.weight, interleaved.scoped(context.render(s.sql), path)) for s in step.scripts]


def _once(
    first: StrategyPass, context: StepContext, sql: dict[str, interleaved.Mix], seconds: int, workdir: Path
) -> dict[str, interleaved.StrategyWindow]:
    """One interleaved window of SECONDS, on the server and database the strategies share."""
    return interleaved.measure_rounds(
        context.pgbench_path,
        first.ws.connection.pgbench_database(),
        first.ws.connection.environment(first.ws.search_path),
        sql,
        rounds=1,
        clients=context.int_parameter("clients"),
        jobs=context.int_parameter("jobs"),
        duration_s=seconds,
        workdir=workdir,
        check_alive=first.target.check_alive,
    )[0]


class InterleavedRounds(PairedRounds):
    """Paired rounds whose windows run every strategy's script in one pgbench run."""

    def _measure_round(self, windows: Sequence[PgbenchStep], order: Sequence[str], number: int) -> None:
        passes = {name: self.passes[name] for name in order}
        concrete = {name: p for name, p in passes.items() if isinstance(p, StrategyPass)}
        if not concrete:
            return
        first = next(iter(concrete.values()))
        context = first.context
        if context is None:
            return
        for window in windows:
            sql = {name: window_sql(window, p) for name, p in concrete.items()}
            self.reporter.info(f"  {window.name}: {' '.join(sql)} at once")
            workdir = context.out_dir / "pgbench" / "interleaved" / window.name / f"round-{number}"

            # As in a paired window, the warm-up loads every strategy's pages back and is not measured.
            warmup = int(context.parameters.get("warmup_s", 0) or 0)
            if warmup > 0:
                _once(first, context, sql, warmup, workdir / "warmup")
            measured = _once(first, context, sql, context.int_parameter("duration_s"), workdir / "window")
            for name, share in measured.items():
                self.windows[name].setdefault(window.name, []).append(
                    WorkloadResult(
                        window.name,
                        window.description,
                        duration_s=float(context.int_parameter("duration_s")),
                        transactions=share.transactions,
                        latency_ms={"mean": share.latency_ms_mean},
                    )
                )

    def _combine(self) -> None:
        super()._combine()
        # The paired design's figures were not measured in interleaved windows: only the load's stay.
        windows = {window for by_window in self.windows.values() for window in by_window}
        self.judged = [j for j in self.judged if j.workload not in windows]
        baseline = self.record.baseline
        if baseline is None or baseline not in self.windows:
            return
        base = self.windows[baseline]
        for name, by_window in self.windows.items():
            if name == baseline:
                continue
            for window, rounds in by_window.items():
                theirs = base.get(window, [])
                count = min(len(rounds), len(theirs))
                mine_ms = [r.latency_ms.get("mean") for r in rounds[:count]]
                base_ms = [r.latency_ms.get("mean") for r in theirs[:count]]
                found = verdict.ratio_verdict(mine_ms, base_ms, verdict.LATENCY, seed=judge.BOOTSTRAP_SEED)
                self.judged.append(judge.Judged(name, window, MEAN_LATENCY, found))
