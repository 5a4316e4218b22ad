"""`sql` steps: statements run one by one in autocommit (so VACUUM and CHECKPOINT work)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

import psycopg
from pydantic import Field

from pkbench import schema
from pkbench.errors import first_line
from pkbench.results.model import Unavailable
from pkbench.steps.context import StepContext, seed_random


@dataclass(frozen=True)
class SqlStep:
    """Statements run one by one in autocommit (so VACUUM and CHECKPOINT work).

    `if_permitted` statements run afterwards and may be refused for lack of privilege (CHECKPOINT on a server
    given by --dsn); that is recorded as unavailable, not as a failure.
    """

    name: str
    statements: tuple[str, ...]
    if_permitted: tuple[str, ...] = ()

    def texts(self) -> list[str]:
        return [*self.statements, *self.if_permitted]


class Schema(schema.StepSchema):
    kind: Literal["sql"]
    statements: schema.SqlList = Field(default_factory=list)
    if_permitted: schema.SqlList = Field(default_factory=list)


def parse(where: str, table: Mapping[str, Any]) -> SqlStep:
    checked = schema.validate(Schema, where, table)
    schema.require_any(
        where,
        "'statements' must be a non-empty list of SQL strings",
        checked.statements,
        checked.if_permitted,
    )
    return SqlStep(checked.name, tuple(checked.statements), tuple(checked.if_permitted))


def run(ctx: StepContext, step: SqlStep) -> None:
    reports: list[str] = []
    with ctx.timed(step.name), ctx.connect() as conn:
        # What the server reports back (VACUUM VERBOSE, for one) is kept in the results directory.
        conn.add_notice_handler(lambda notice: reports.append(f"{notice.severity}: {notice.message_primary}"))
        # A random sample of keys, a random half deleted: the same draws for every strategy.
        seed_random(conn, step.name)
        for statement in step.statements:
            conn.execute(ctx.render(statement))
        for statement in step.if_permitted:
            try:
                conn.execute(ctx.render(statement))
            except psycopg.errors.InsufficientPrivilege as e:
                ctx.result.unavailable.append(Unavailable(f"{step.name}: {statement}", first_line(e)))
    if reports:
        folder = ctx.out_dir / "steps" / ctx.strategy_name
        folder.mkdir(parents=True, exist_ok=True)
        (folder / f"{step.name}{ctx.file_suffix}.log").write_text("\n".join(reports) + "\n")
