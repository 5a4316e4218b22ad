"""Step kinds: each module holds one kind's TOML schema (`parse`) and its execution (`run`).

Adding a step kind is a module here and one line in KINDS. A step sees the run only through
steps.context.StepContext, so nothing in this package imports the orchestrator.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel

from pkbench.steps import churn, copy, density, fill, pgbench, query, shard, snapshot, sql
from pkbench.steps.churn import ChurnStep
from pkbench.steps.context import StepContext
from pkbench.steps.copy import CopyStep
from pkbench.steps.density import DensityStep
from pkbench.steps.fill import FillStep
from pkbench.steps.pgbench import PgbenchStep, Script
from pkbench.steps.query import QueryStep
from pkbench.steps.shard import ShardStep
from pkbench.steps.snapshot import SnapshotStep
from pkbench.steps.sql import SqlStep

Step = (
    SqlStep
    | FillStep
    | SnapshotStep
    | PgbenchStep
    | DensityStep
    | CopyStep
    | ChurnStep
    | QueryStep
    | ShardStep
)


@dataclass(frozen=True)
class Kind:
    """A step kind, and what the rest of the harness may ask of it without knowing the kind."""

    step_type: type
    schema: type[BaseModel]
    parse: Callable[[str, Mapping[str, Any]], Step]
    run: Callable[[StepContext, Any], None]
    # makes figures of its own: a scenario needs one such step, and a disk limit applies while it runs
    measuring: bool = False
    # its duration lands in step_durations_s and can be a "Time of <step>" column
    timed: bool = False
    # its statements take the rows of one transaction as {batch}
    batched: bool = False


KINDS: dict[str, Kind] = {
    "sql": Kind(SqlStep, sql.Schema, sql.parse, sql.run, timed=True),
    "fill": Kind(FillStep, fill.Schema, fill.parse, fill.run, timed=True, batched=True),
    "snapshot": Kind(SnapshotStep, snapshot.Schema, snapshot.parse, snapshot.run),
    "pgbench": Kind(PgbenchStep, pgbench.Schema, pgbench.parse, pgbench.run, measuring=True),
    "density": Kind(DensityStep, density.Schema, density.parse, density.run, measuring=True),
    "copy": Kind(CopyStep, copy.Schema, copy.parse, copy.run, timed=True),
    "churn": Kind(ChurnStep, churn.Schema, churn.parse, churn.run, measuring=True, timed=True, batched=True),
    "query": Kind(QueryStep, query.Schema, query.parse, query.run, measuring=True),
    "shard": Kind(ShardStep, shard.Schema, shard.parse, shard.run),
}
_BY_TYPE = {kind.step_type: kind for kind in KINDS.values()}


def kind_of(step: Step) -> Kind:
    return _BY_TYPE[type(step)]


def kind_names(flag: str) -> str:
    """The names of the kinds with FLAG set, for messages: "'pgbench', 'density' or 'churn'"."""
    names = [f"'{name}'" for name, kind in KINDS.items() if getattr(kind, flag)]
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} or {names[-1]}"


def run(ctx: StepContext, step: Step) -> None:
    kind_of(step).run(ctx, step)


__all__ = [
    "KINDS",
    "ChurnStep",
    "CopyStep",
    "DensityStep",
    "FillStep",
    "PgbenchStep",
    "QueryStep",
    "Script",
    "ShardStep",
    "SnapshotStep",
    "SqlStep",
    "Step",
    "StepContext",
    "kind_names",
    "kind_of",
    "run",
]
