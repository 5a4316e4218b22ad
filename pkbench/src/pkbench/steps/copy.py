"""`copy` steps: rows streamed from a query into a table (COPY ... FROM STDIN) through the client; timed."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Annotated, Any, Literal

from pydantic import BeforeValidator

from pkbench import schema
from pkbench.steps.context import StepContext


@dataclass(frozen=True)
class CopyStep:
    """COPY rows into a table from the client (the rows come from `source`, a query); timed."""

    name: str
    source: str
    target: str

    def texts(self) -> list[str]:
        return [self.source, self.target]


def _copy_from_stdin(value: object) -> object:
    if not isinstance(value, str) or not re.match(r"(?is)^\s*COPY\s.*\sFROM\s+STDIN\b", value):
        raise ValueError("must be a COPY ... FROM STDIN statement")
    return value


class Schema(schema.StepSchema):
    kind: Literal["copy"]
    # A query whose rows are copied.
    source: schema.Text
    target: Annotated[str, BeforeValidator(_copy_from_stdin)]


def parse(where: str, table: Mapping[str, Any]) -> CopyStep:
    checked = schema.validate(Schema, where, table)
    return CopyStep(checked.name, checked.source, checked.target)


def run(ctx: StepContext, step: CopyStep) -> None:
    rows = 0
    with (
        ctx.timed(step.name) as took,
        ctx.connect() as source,
        ctx.connect() as target,
        source.cursor().copy(f"COPY ({ctx.render(step.source)}) TO STDOUT") as out,
        target.cursor().copy(ctx.render(step.target)) as into,
    ):
        for chunk in out:
            into.write(chunk)
            rows += bytes(chunk).count(b"\n")
    ctx.reporter.info(f"  {step.name}: {rows:,} rows copied in {took.seconds:.1f} s")
