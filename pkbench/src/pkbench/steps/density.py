"""`density` steps: pgstatindex of each index and pgstattuple of each table, under the step's name."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from pydantic import Field

from pkbench import schema
from pkbench.probes import pgstattuple
from pkbench.steps.context import StepContext


@dataclass(frozen=True)
class DensityStep:
    """Record pgstatindex of `indexes` and pgstattuple of `tables` under this step's name."""

    name: str
    indexes: tuple[str, ...]
    tables: tuple[str, ...]

    def texts(self) -> list[str]:
        return []


class Schema(schema.StepSchema):
    kind: Literal["density"]
    indexes: schema.RelationNames = Field(default_factory=list)
    tables: schema.RelationNames = Field(default_factory=list)


def parse(where: str, table: Mapping[str, Any]) -> DensityStep:
    checked = schema.validate(Schema, where, table)
    schema.require_any(where, "name at least one of 'indexes' or 'tables'", checked.indexes, checked.tables)
    return DensityStep(checked.name, tuple(checked.indexes), tuple(checked.tables))


def run(ctx: StepContext, step: DensityStep) -> None:
    ctx.require_extension(pgstattuple.EXTENSION, step.name)
    # Reusable pages are a figure more where the server has pg_freespacemap, not a condition of the step.
    freespace = ctx.ws.ensure_extension(pgstattuple.FREESPACE_EXTENSION) is None
    figures: dict[str, Any] = {}
    with ctx.connect() as conn, ctx.errors_named(step.name, pgstattuple.PgstattupleUnavailable):
        for index in step.indexes:
            figures[index] = pgstattuple.index_density(conn, ctx.render(index))
            if freespace:
                figures[index]["reusable_pages"] = pgstattuple.reusable_pages(conn, ctx.render(index))
        for table in step.tables:
            figures[table] = pgstattuple.table_tuples(conn, ctx.render(table))
    ctx.result.density[step.name] = figures
    ctx.report_figures(
        step.name,
        (
            f"{name} leaf density {values['avg_leaf_density']:.0%}"
            for name, values in figures.items()
            if values.get("avg_leaf_density") is not None
        ),
    )
