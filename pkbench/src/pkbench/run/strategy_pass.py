"""One strategy's pass over the scenario's steps: its generator chosen, a fresh table, each step in turn."""

from __future__ import annotations

import contextlib
import dataclasses
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import psycopg

from pkbench import results, steps
from pkbench.errors import PkbenchError, ServerDied, first_line
from pkbench.probes import machine
from pkbench.reporting import Reporter
from pkbench.scenario.file import Scenario
from pkbench.server.target import Target
from pkbench.server.workspace import Workspace
from pkbench.steps import StepContext
from pkbench.strategies.binding import client_key_placeholders, layout_placeholders
from pkbench.strategies.model import Generator, Strategy, time_kind


def choose_generator(strategy: Strategy, ws: Workspace, version_num: int) -> tuple[Generator | None, str]:
    """The first generator this server can run, or None and why none can."""
    reasons = []
    for generator in strategy.generators:
        if version_num < generator.min_server_version:
            reasons.append(
                f"{generator.expression} needs PostgreSQL {generator.min_server_version // 10000}+"
            )
            continue
        missing_extension = next(
            (r for r in (ws.ensure_extension(e) for e in generator.extensions) if r is not None), None
        )
        if missing_extension:
            reasons.append(missing_extension)
            continue
        missing = ws.missing_functions(generator.functions)
        if missing:
            where = f" (extension {', '.join(generator.extensions)})" if generator.extensions else ""
            reasons.append(f"function {', '.join(m + '()' for m in missing)} not found{where}")
            continue
        return generator, ""
    return None, "; ".join(reasons)


@dataclass
class StrategyPass:
    """One strategy's pass over the scenario's steps (one repeat of it)."""

    scenario: Scenario
    pgbench_path: Path
    out_dir: Path
    target: Target
    ws: Workspace
    strategy: Strategy
    run_result: results.RunResult
    buffercache_reason: str | None
    reporter: Reporter
    repeat: int
    # Entered around each step, told whether it measures (the disk's write limit while a step measures).
    step_guard: Callable[[bool], contextlib.AbstractContextManager[None]] = lambda measuring: (
        contextlib.nullcontext()
    )

    def __post_init__(self) -> None:
        self.result = results.StrategyResult(
            self.strategy.name,
            self.strategy.description,
            self.strategy.column_type,
            None,
            order=self.strategy.order,
        )
        self.context: StepContext | None = None

    def run(self) -> results.StrategyResult:
        """Every step of the scenario, in a fresh schema."""
        if self.begin():
            self.run_steps(self.scenario.steps)
        return self.result

    def begin(self) -> bool:
        """The generator chosen, an empty schema, the generator's prelude; False when the strategy cannot run
        here (skipped) or failed, as its result says."""
        strategy, ws = self.strategy, self.ws
        with self._failures():
            # An empty schema first: a port the generator needs is installed into it (strategies that share
            # the cluster each have a schema of their own, and each needs its own copy of the port).
            ws.reset()
            generator, reason = choose_generator(strategy, ws, self.target.server.version_num)
            if generator is None:
                self.result.status, self.result.error = "skipped", reason
                return False
            self.result.default_expression = generator.expression
            self.result.generator_source = ws.generator_source(generator)
            self.context = self._context(generator, self.result)
            with self.context.connect() as conn:
                for statement in generator.prelude:
                    conn.execute(statement)
            return True
        return False

    def run_steps(self, scenario_steps: Sequence[steps.Step], **changes: Any) -> bool:
        """These steps in turn, on the context with CHANGES (another result to fill, a round number);
        False when one failed (the result says why)."""
        if self.context is None or self.result.status != "ok":
            return False
        context = dataclasses.replace(self.context, **changes)
        with self._failures():
            for step in scenario_steps:
                self.target.check_alive()
                with self.step_guard(steps.kind_of(step).measuring):
                    steps.run(context, step)
            return True
        return False

    @contextlib.contextmanager
    def _failures(self) -> Iterator[None]:
        """A database or pkbench error fails this strategy, not the run; a dead server ends the run."""
        try:
            yield
        except ServerDied:
            raise
        except (PkbenchError, psycopg.Error) as e:
            self.target.check_alive()
            self.result.status, self.result.error = "failed", first_line(e)

    def _context(self, generator: Generator, result: results.StrategyResult) -> StepContext:
        scenario = self.scenario

        def render(text: str, **extra: int | float | str) -> str:
            # A scenario may shape its schema by how the keys arrive (partitioned: by the key or by a column).
            kind = time_kind(self.strategy.column_type, generator)
            keys = {
                "key_order": self.strategy.order,
                "key_time_kind": kind,
                **layout_placeholders(self.strategy, scenario.parameters, machine.cores()),
                **client_key_placeholders(self.strategy),
            }
            return scenario.render(text, self.strategy.column_type, generator.column_clause, **keys, **extra)

        return StepContext(
            target=self.target,
            ws=self.ws,
            pgbench_path=self.pgbench_path,
            out_dir=self.out_dir,
            strategy_name=self.strategy.name,
            table=scenario.table,
            parameters=scenario.parameters,
            insert_step=scenario.summary.insert,
            render=render,
            buffercache_reason=self.buffercache_reason,
            result=result,
            series=self.run_result.series,
            reporter=self.reporter,
            repeat=self.repeat,
        )
