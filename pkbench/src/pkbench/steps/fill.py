"""`fill` steps: a batched INSERT repeated until `rows` rows are in; timed, and headlined as the prefill."""

from __future__ import annotations

import threading
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from pkbench import schema
from pkbench.results import Prefill
from pkbench.steps.context import StepContext, Stopwatch


@dataclass(frozen=True)
class FillStep:
    """A batched INSERT repeated until `rows` rows are in, with a progress bar; timed as the prefill."""

    name: str
    rows_parameter: str
    batch_parameter: str
    statement: str
    # When set, `rows` is the table's size after the step, not the rows it adds: successive fills then
    # read as the sizes a study measures at (0, 1M, 5M ...), and a --rows override moves only the last.
    total: bool = False
    # The parameter holding how many sessions insert batches at once (None: one). The indexes are in place
    # either way, so they grow by inserts as a study's did; several sessions only use more cores.
    workers_parameter: str | None = None

    def texts(self) -> list[str]:
        return [self.statement]


class Schema(schema.StepSchema):
    kind: Literal["fill"]
    # The parameters that hold the row count and the batch size.
    rows: schema.Text = "rows"
    batch_rows: schema.Text = "batch_rows"
    statement: schema.Text
    total: schema.Boolean = False
    workers: schema.Text | None = None


def parse(where: str, table: Mapping[str, Any]) -> FillStep:
    checked = schema.validate(Schema, where, table)
    return FillStep(
        checked.name, checked.rows, checked.batch_rows, checked.statement, checked.total, checked.workers
    )


def run(ctx: StepContext, step: FillStep) -> None:
    total = ctx.int_parameter(step.rows_parameter)
    batch = ctx.int_parameter(step.batch_parameter)
    workers = ctx.int_parameter(step.workers_parameter) if step.workers_parameter else 1
    if step.total:
        with ctx.connect() as conn:
            row = conn.execute(f'SELECT count(*) FROM "{ctx.table}"').fetchone()
        already = int(str(row[0])) if row else 0
        total = max(0, total - already)
    with (
        ctx.timed(step.name) as took,
        ctx.reporter.progress(f"  {step.name} {ctx.strategy_name}", total) as bar,
    ):
        _insert(ctx, step, total, batch, max(1, workers), lambda done: _shown(bar, done, took))
    duration = took.seconds
    if step.name == ctx.insert_step:
        ctx.result.prefill = Prefill(
            total, round(duration, 3), round(total / duration, 1) if duration else None, step.name
        )
    ctx.reporter.info(
        f"  {step.name}: {total:,} rows in {duration:.1f} s"
        + (f" ({total / duration:,.0f} rows/s, {workers} sessions)" if workers > 1 and duration else "")
    )


def _shown(bar: Any, done: int, took: Stopwatch) -> None:
    elapsed = took.elapsed()
    bar.update(done, f"{done / elapsed:,.0f} rows/s" if elapsed > 0 else "")


def _insert(ctx: StepContext, step: FillStep, total: int, batch: int, workers: int, shown: Any) -> None:
    """Insert TOTAL rows in batches, from WORKERS sessions at once, each taking the next batch when done."""
    lock = threading.Lock()
    claimed = [0, 0]  # rows handed out, rows inserted
    errors: list[BaseException] = []

    def claim() -> int:
        with lock:
            n = 0 if errors else min(batch, total - claimed[0])
            claimed[0] += n
            return n

    def insert() -> None:
        try:
            with ctx.connect() as conn:
                while (n := claim()) > 0:
                    conn.execute(ctx.render(step.statement, batch=n))
                    with lock:
                        claimed[1] += n
        except BaseException as e:  # the first error stops every session and is raised below
            with lock:
                errors.append(e)

    sessions = [threading.Thread(target=insert, daemon=True) for _ in range(workers)]
    for session in sessions:
        session.start()
    for session in sessions:
        while session.is_alive():
            session.join(0.5)
            shown(claimed[1])
    if errors:
        raise errors[0]
