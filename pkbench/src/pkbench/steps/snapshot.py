"""`snapshot` steps: the sizes of the scenario's table and its indexes, under the step's name."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from pkbench import schema
from pkbench.probes.sizes import table_sizes
from pkbench.steps.context import StepContext


@dataclass(frozen=True)
class SnapshotStep:
    """Record the sizes of the scenario's table and its indexes under this step's name."""

    name: str

    def texts(self) -> list[str]:
        return []


class Schema(schema.StepSchema):
    kind: Literal["snapshot"]


def parse(where: str, table: Mapping[str, Any]) -> SnapshotStep:
    return SnapshotStep(schema.validate(Schema, where, table).name)


def run(ctx: StepContext, step: SnapshotStep) -> None:
    with ctx.connect() as conn:
        ctx.result.record_sizes(step.name, table_sizes(conn, ctx.ws.schema, ctx.table))
