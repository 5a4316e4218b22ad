"""`fill` steps: a batched INSERT repeated until `rows` rows are in; timed, and headlined as the prefill."""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from pkbench.results import Prefill
from pkbench.steps import schema
from pkbench.steps.context import StepContext


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

    def texts(self) -> list[str]:
        return [self.statement]


class Schema(schema.StepSchema):
    kind: Literal["fill"]
    # The parameters that hold the row count and the batch size.
    rows: schema.Text = "rows"
    batch_rows: schema.Text = "batch_rows"
    statement: schema.Text
    total: schema.Boolean = False


def parse(where: str, table: Mapping[str, Any]) -> FillStep:
    checked = schema.validate(Schema, where, table)
    return FillStep(checked.name, checked.rows, checked.batch_rows, checked.statement, checked.total)


def run(ctx: StepContext, step: FillStep) -> None:
    total = ctx.int_parameter(step.rows_parameter)
    batch = ctx.int_parameter(step.batch_parameter)
    done = 0
    with ctx.connect() as conn:
        if step.total:
            row = conn.execute(f'SELECT count(*) FROM "{ctx.table}"').fetchone()
            already = int(str(row[0])) if row else 0
            total = max(0, total - already)
        with ctx.reporter.progress(f"  {step.name} {ctx.strategy_name}", total) as bar:
            started = time.monotonic()
            while done < total:
                n = min(batch, total - done)
                conn.execute(ctx.render(step.statement, batch=n))
                done += n
                elapsed = time.monotonic() - started
                bar.update(done, f"{done / elapsed:,.0f} rows/s" if elapsed > 0 else "")
            duration = time.monotonic() - started
    ctx.result.step_durations_s[step.name] = round(duration, 3)
    if step.name == ctx.insert_step:
        ctx.result.prefill = Prefill(
            total, round(duration, 3), round(total / duration, 1) if duration else None, step.name
        )
    ctx.reporter.info(f"  {step.name}: {total:,} rows in {duration:.1f} s")
