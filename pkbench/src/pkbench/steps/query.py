"""`query` steps: single queries whose figures are recorded, read from their one row or from their plan.

A query with `explain = true` runs serially (no parallel workers, no JIT) under EXPLAIN (ANALYZE, BUFFERS,
TIMING OFF) twice, the first run loading its pages into the cache, and the second's figures are kept: its
execution time, the buffers it touched and the rows it produced (the rows of its first node below
aggregates, so a count(*) of a join reports the joined rows), and the plan's node types and indexes.
Without it, the query's one row is recorded column by column.

`within` statements run first in the same transaction, which is then rolled back: a planner setting (SET
LOCAL enable_hashjoin = off) or an index hidden for one query (DROP INDEX, so the planner must take
another) leaves nothing behind. A query whose `only_if` (SQL giving one boolean) is not true records why
under `skipped` instead: a BRIN minmax_multi operator class exists for some key types only.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from decimal import Decimal
from typing import Annotated, Any, Literal

import psycopg
from pydantic import Field

from pkbench import schema
from pkbench.errors import PkbenchError
from pkbench.steps.context import StepContext

# Nodes that pass their input's rows on (or fold them into one): the rows of interest lie below them.
_PASS_THROUGH = ("Aggregate", "Limit", "Gather", "Gather Merge", "Result", "Sort", "Materialize")
# Children that compute a value the node uses (a scalar subquery), not its input rows.
_SUBQUERIES = ("InitPlan", "SubPlan")


@dataclass(frozen=True)
class Query:
    name: str
    sql: str
    explain: bool = False
    within: tuple[str, ...] = ()
    only_if: str | None = None


@dataclass(frozen=True)
class QueryStep:
    """Queries run one by one, each in a transaction rolled back afterwards; their figures recorded."""

    name: str
    queries: tuple[Query, ...]

    def texts(self) -> list[str]:
        return [
            text
            for query in self.queries
            for text in (*query.within, query.sql, *([query.only_if] if query.only_if else []))
        ]


class QuerySchema(schema.Strict):
    name: schema.StepName
    sql: schema.Text
    explain: schema.Boolean = False
    within: schema.SqlList = Field(default_factory=list)
    only_if: schema.Text | None = None


class Schema(schema.StepSchema):
    kind: Literal["query"]
    queries: Annotated[list[QuerySchema], schema.non_empty_tables("name, sql, explain, within, only_if")]


def parse(where: str, table: Mapping[str, Any]) -> QueryStep:
    checked = schema.validate(Schema, where, table)
    queries = tuple(Query(q.name, q.sql, q.explain, tuple(q.within), q.only_if) for q in checked.queries)
    if len({q.name for q in queries}) != len(queries):
        raise PkbenchError(f"{where}: query names must differ")
    return QueryStep(checked.name, queries)


def plan_figures(explained: Any) -> dict[str, Any]:
    """The figures of one EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) result (pure)."""
    document = explained[0] if isinstance(explained, list) else explained
    top = document["Plan"]
    hit, read = int(top.get("Shared Hit Blocks", 0)), int(top.get("Shared Read Blocks", 0))
    node = top
    while node["Node Type"] in _PASS_THROUGH:
        inputs = [p for p in node.get("Plans", []) if p.get("Parent Relationship") not in _SUBQUERIES]
        if not inputs:
            break
        node = inputs[0]
    rows = int(node.get("Actual Rows", 0)) * int(node.get("Actual Loops", 1))
    nodes: list[str] = []
    indexes: list[str] = []

    def walk(plan: Mapping[str, Any]) -> None:
        nodes.append(str(plan["Node Type"]))
        if "Index Name" in plan and plan["Index Name"] not in indexes:
            indexes.append(str(plan["Index Name"]))
        for child in plan.get("Plans", []):
            walk(child)

    walk(top)
    return {
        "execution_ms": round(float(document.get("Execution Time", 0.0)), 3),
        "planning_ms": round(float(document.get("Planning Time", 0.0)), 3),
        "shared_blocks_hit": hit,
        "shared_blocks_read": read,
        "shared_blocks": hit + read,
        "rows": rows,
        "blocks_per_row": round((hit + read) / rows, 4) if rows else None,
        "row_node": str(node["Node Type"]),
        "nodes": nodes,
        "indexes": indexes,
    }


def _plain(value: object) -> object:
    """A column value as JSON can hold it."""
    if isinstance(value, Decimal):
        return float(value)
    if value is None or isinstance(value, int | float | str | bool):
        return value
    return str(value)


def _run_one(ctx: StepContext, conn: psycopg.Connection[tuple[object, ...]], query: Query) -> dict[str, Any]:
    figures: dict[str, Any] = {}
    if query.only_if is not None:
        condition = conn.execute(ctx.render(query.only_if)).fetchone()
        if not condition or condition[0] is not True:
            return {"skipped": f"only_if is not true: {ctx.render(query.only_if)}"}
    with conn.transaction(force_rollback=True):
        for statement in query.within:
            conn.execute(ctx.render(statement))
        text = ctx.render(query.sql)
        if query.explain:
            # A plan made costly by enable_* = off would be JIT-compiled, and its compile time measured; a
            # parallel plan reports its rows per worker as a rounded average.
            conn.execute("SET LOCAL jit = off")
            conn.execute("SET LOCAL max_parallel_workers_per_gather = 0")
            explain = f"EXPLAIN (ANALYZE, BUFFERS, TIMING OFF, FORMAT JSON) {text}"
            conn.execute(explain)
            row = conn.execute(explain).fetchone()
            explained = row[0] if row else None
            figures = plan_figures(json.loads(explained) if isinstance(explained, str) else explained)
        else:
            cursor = conn.execute(text)
            found = cursor.fetchone()
            if found is None or cursor.description is None:
                raise PkbenchError(f"query {query.name}: returned no row")
            figures = {
                column.name: _plain(value) for column, value in zip(cursor.description, found, strict=True)
            }
    return figures


def run(ctx: StepContext, step: QueryStep) -> None:
    recorded: dict[str, dict[str, Any]] = {}
    with ctx.connect() as conn:
        for query in step.queries:
            with ctx.errors_named(f"{step.name}, query {query.name}", psycopg.Error):
                recorded[query.name] = _run_one(ctx, conn, query)
    ctx.result.queries[step.name] = recorded
    ctx.report_figures(
        step.name,
        (
            f"{name} {figures['shared_blocks']:,} buffers / {figures['rows']:,} rows"
            for name, figures in recorded.items()
            if "shared_blocks" in figures
        ),
    )
