"""`shard` steps: a table on the coordinator partitioned by its key into foreign partitions, one on each
shard pkbench started (server/shards.py) or named by --shard-dsn (server/shard_dsn.py), through
postgres_fdw; and counts of what each shard received.

`action = "create"` makes TABLE from the rows of SOURCE (a local table of the same key, filled beforehand):
routed by hash of the key, or by range of the key with the shards holding consecutive ranges whose bounds
split SOURCE's keys into equal parts (ranges of the id for bigint, of the uuid space for a random uuid, of
time for a time-ordered uuid); the first range starts at MINVALUE and the last one ends at MAXVALUE, so a key
that keeps growing lands on the last shard. `action = "count"` records, for each shard, the rows inserted
into its part of TABLE (pg_stat_user_tables), its WAL position and its part's index size; the summary takes
the difference between a table's first and last count.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

import psycopg
from psycopg import sql

from pkbench import schema
from pkbench.errors import PkbenchError
from pkbench.server.target import Shard
from pkbench.steps.context import StepContext

ROUTINGS = ("hash", "range")


@dataclass(frozen=True)
class ShardStep:
    """Create TABLE on the shards (action "create", from SOURCE) or count what each shard holds ("count")."""

    name: str
    action: str
    table: str
    routing: str = "hash"
    source: str = ""

    def texts(self) -> list[str]:
        return []


class Schema(schema.StepSchema):
    kind: Literal["shard"]
    action: Literal["create", "count"]
    table: schema.Text
    routing: Literal["hash", "range"] = "hash"
    source: schema.Text = ""


def parse(where: str, table: Mapping[str, Any]) -> ShardStep:
    checked = schema.validate(Schema, where, table)
    if checked.action == "create" and not checked.source:
        raise PkbenchError(f"{where}: a 'create' shard step needs 'source', the local table to copy from")
    return ShardStep(checked.name, checked.action, checked.table, checked.routing, checked.source)


def shards_of(ctx: StepContext) -> list[Shard]:
    """The shards behind the target, or one line saying there are none."""
    found: list[Shard] = list(getattr(ctx.target, "shards", []))
    if not found:
        raise PkbenchError(
            "this step needs shards: give --shards N or [topology] shards = N, or with --dsn --shard-dsn"
        )
    return found


def run(ctx: StepContext, step: ShardStep) -> None:
    if step.action == "create":
        _create(ctx, step)
    else:
        _count(ctx, step)


def _create(ctx: StepContext, step: ShardStep) -> None:
    shards = shards_of(ctx)
    ctx.require_extension("postgres_fdw", step.name)
    key_type = ctx.render("{key_type}")
    own_schema = sql.Identifier(ctx.ws.schema)
    table = sql.Identifier(step.table)
    for shard in shards:
        shard.claim_schema(ctx.ws.schema)
        # The schema is the run's own on every shard: the table is made afresh for each strategy.
        with shard.connection.connect(autocommit=True) as conn:
            conn.execute(sql.SQL("DROP TABLE IF EXISTS {}.{}").format(own_schema, table))
            conn.execute(
                sql.SQL("CREATE TABLE {}.{} (id {} PRIMARY KEY, data bigint)").format(
                    own_schema, table, sql.SQL(key_type)
                )
            )
    with ctx.connect() as conn:
        conn.autocommit = True
        servers = [shard.foreign_server(conn) for shard in shards]
        bounds = _bounds(conn, step, len(shards))
        key = sql.SQL(ctx.render("id {key_type} {key_default}"))
        conn.execute(
            sql.SQL("CREATE TABLE {} ({}, data bigint) PARTITION BY {} (id)").format(
                table, key, sql.SQL(step.routing.upper())
            )
        )
        for number, (bound, server) in enumerate(zip(bounds, servers, strict=True), 1):
            conn.execute(
                sql.SQL(
                    "CREATE FOREIGN TABLE {} PARTITION OF {} FOR VALUES {} SERVER {}"
                    " OPTIONS (schema_name {}, table_name {})"
                ).format(
                    sql.Identifier(f"{step.table}_{number}"),
                    table,
                    bound,
                    sql.Identifier(server),
                    sql.Literal(ctx.ws.schema),
                    sql.Literal(step.table),
                )
            )
        conn.execute(
            sql.SQL("INSERT INTO {} OVERRIDING SYSTEM VALUE SELECT id, data FROM {}").format(
                table, sql.Identifier(step.source)
            )
        )
        # An identity or serial key goes on after the copied rows, as it would have in SOURCE.
        sequence = conn.execute("SELECT pg_get_serial_sequence(%s, 'id')", (step.table,)).fetchone()
        if sequence is not None and sequence[0] is not None:
            conn.execute(sql.SQL("SELECT setval(%s, (SELECT max(id) FROM {}))").format(table), (sequence[0],))


def _bounds(conn: psycopg.Connection[Any], step: ShardStep, count: int) -> list[sql.Composable]:
    """Each partition's FOR VALUES clause, in shard order."""
    if step.routing == "hash":
        return [sql.SQL("WITH (MODULUS {}, REMAINDER {})").format(count, r) for r in range(count)]
    # The smallest key of each of COUNT equal parts of SOURCE's keys, in key order.
    rows = conn.execute(
        sql.SQL(
            # DISTINCT ON, not min(): uuid has no min() in PostgreSQL 15.
            "SELECT DISTINCT ON (part) id::text FROM"
            " (SELECT id, ntile({}) OVER (ORDER BY id) AS part FROM {}) parts ORDER BY part, id"
        ).format(count, sql.Identifier(step.source))
    ).fetchall()
    if len(rows) < count:
        raise PkbenchError(f"{step.name}: {step.source} has fewer rows than there are shards")
    edges: list[sql.Composable] = [sql.SQL("MINVALUE")]
    edges += [sql.Literal(row[0]) for row in rows[1:]]
    edges.append(sql.SQL("MAXVALUE"))
    return [sql.SQL("FROM ({}) TO ({})").format(edges[i], edges[i + 1]) for i in range(count)]


def _count(ctx: StepContext, step: ShardStep) -> None:
    figures = []
    for shard in shards_of(ctx):
        with shard.connection.connect(autocommit=True) as conn:
            row = conn.execute(
                "SELECT coalesce((SELECT n_tup_ins FROM pg_stat_user_tables"
                "  WHERE schemaname = %(schema)s AND relname = %(table)s), 0),"
                " pg_current_wal_lsn() - '0/0',"
                " coalesce((SELECT pg_indexes_size(c.oid) FROM pg_class c JOIN pg_namespace n"
                "  ON n.oid = c.relnamespace WHERE n.nspname = %(schema)s AND c.relname = %(table)s), 0)",
                {"schema": ctx.ws.schema, "table": step.table},
            ).fetchone()
        assert row is not None
        inserted, wal_lsn, index_bytes = (int(str(value)) for value in row)
        figures.append({"inserted": inserted, "wal_lsn": wal_lsn, "index_bytes": index_bytes})
    ctx.result.shards[step.name] = {"table": step.table, "shards": figures}
