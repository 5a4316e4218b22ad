"""Step kinds: each module holds one kind's TOML schema (`parse`) and its execution (`run`).

Adding a step kind is a module here and one line in KINDS. A step sees the run only through
steps.context.StepContext, so nothing in this package imports the orchestrator.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel

from pkbench.steps import churn, copy, density, fill, pgbench, query, snapshot, sql
from pkbench.steps.churn import ChurnStep
from pkbench.steps.context import StepContext
from pkbench.steps.copy import CopyStep
from pkbench.steps.density import DensityStep
from pkbench.steps.fill import FillStep
from pkbench.steps.pgbench import PgbenchStep, Script
from pkbench.steps.query import QueryStep
from pkbench.steps.snapshot import SnapshotStep
from pkbench.steps.sql import SqlStep

Step = SqlStep | FillStep | SnapshotStep | PgbenchStep | DensityStep | CopyStep | ChurnStep | QueryStep
# Steps that produce figures of their own: a scenario needs at least one.
MEASURING_STEPS = (PgbenchStep, DensityStep, ChurnStep, QueryStep)
# Steps whose duration lands in step_durations_s.
TIMED_STEPS = (SqlStep, FillStep, CopyStep, ChurnStep)
# Steps whose statements take the rows of one transaction as {batch}.
BATCHED_STEPS = (FillStep, ChurnStep)


@dataclass(frozen=True)
class Kind:
    step_type: type
    schema: type[BaseModel]
    parse: Callable[[str, Mapping[str, Any]], Step]
    run: Callable[[StepContext, Any], None]


KINDS: dict[str, Kind] = {
    "sql": Kind(SqlStep, sql.Schema, sql.parse, sql.run),
    "fill": Kind(FillStep, fill.Schema, fill.parse, fill.run),
    "snapshot": Kind(SnapshotStep, snapshot.Schema, snapshot.parse, snapshot.run),
    "pgbench": Kind(PgbenchStep, pgbench.Schema, pgbench.parse, pgbench.run),
    "density": Kind(DensityStep, density.Schema, density.parse, density.run),
    "copy": Kind(CopyStep, copy.Schema, copy.parse, copy.run),
    "churn": Kind(ChurnStep, churn.Schema, churn.parse, churn.run),
    "query": Kind(QueryStep, query.Schema, query.parse, query.run),
}
_BY_TYPE = {kind.step_type: kind for kind in KINDS.values()}


def run(ctx: StepContext, step: Step) -> None:
    _BY_TYPE[type(step)].run(ctx, step)


__all__ = [
    "BATCHED_STEPS",
    "KINDS",
    "MEASURING_STEPS",
    "TIMED_STEPS",
    "ChurnStep",
    "CopyStep",
    "DensityStep",
    "FillStep",
    "PgbenchStep",
    "QueryStep",
    "Script",
    "SnapshotStep",
    "SqlStep",
    "Step",
    "StepContext",
    "run",
]
