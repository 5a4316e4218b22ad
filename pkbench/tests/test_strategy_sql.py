"""The SQL the catalog hands to the server: NEWSEQUENTIALID really keeps its time in the last bytes."""

from __future__ import annotations

import time
import uuid
from collections.abc import Iterator
from typing import Any

import psycopg
import pytest

from pkbench.server.builds import find_pgbench, find_server_bindir
from pkbench.server.embedded import EmbeddedCluster
from pkbench.strategies.catalog import Catalog
from pkbench.strategies.model import check_expression


@pytest.fixture(scope="module")
def conn() -> Iterator[psycopg.Connection[Any]]:
    cluster = EmbeddedCluster(find_server_bindir(None), find_pgbench(None), {"shared_buffers": "16MB"})
    with cluster, psycopg.connect(cluster.connection.conninfo(), autocommit=True) as connection:
        yield connection


def test_newsequentialid_puts_milliseconds_in_the_last_six_bytes(conn: psycopg.Connection[Any]) -> None:
    generator = Catalog().get("newsequentialid").generators[0]
    for statement in generator.prelude:
        conn.execute(statement)
    before_ms = int(time.time() * 1000)
    rows = conn.execute(f"SELECT {generator.expression} FROM generate_series(1, 200)").fetchall()
    after_ms = int(time.time() * 1000)
    values = [uuid.UUID(str(r[0])) for r in rows]
    assert len(set(values)) == len(values)
    for value in values:
        assert value.version == 8, "a custom layout is labelled version 8 (RFC 9562)"
        assert value.variant == uuid.RFC_4122
        assert before_ms - 5 <= int.from_bytes(value.bytes[10:], "big") <= after_ms + 5
    # The leading bytes, which PostgreSQL compares first, stay random: generation order is not index order.
    assert sorted(values, key=lambda v: v.bytes) != values


def test_every_core_strategy_default_gives_distinct_keys(conn: psycopg.Connection[Any]) -> None:
    for name in ("uuid-v4", "uuid-v4-text", "uuid-v4-char32"):
        strategy = Catalog().get(name)
        expression = strategy.generators[0].expression
        row = conn.execute(
            f"SELECT count(DISTINCT k), min(length(k::text))"
            f" FROM (SELECT ({expression})::{strategy.column_type} AS k FROM generate_series(1, 1000)) s"
        ).fetchone()
        assert row is not None
        assert row[0] == 1000
        assert row[1] == (32 if name == "uuid-v4-char32" else 36)


@pytest.mark.parametrize(
    ("expression", "column_type"),
    [
        ("gen_random_uuid()); DROP TABLE public.foo; --", "uuid"),
        ("gen_random_uuid())::uuid, (1", "uuid"),
        ("gen_random_uuid()", "uuid; DROP TABLE public.foo"),
        ("1", "uuid"),
        ("gen_random_uuid()", "no_such_type"),
    ],
)
def test_check_expression_refuses_anything_but_one_expression_of_the_type(
    conn: psycopg.Connection[Any], expression: str, column_type: str
) -> None:
    conn.execute("CREATE TABLE IF NOT EXISTS public.foo (x int)")
    assert check_expression(conn, expression, column_type) is not None
    assert conn.execute("SELECT to_regclass('public.foo') IS NOT NULL").fetchone() == (True,)


def test_check_expression_accepts_each_builtin_default(conn: psycopg.Connection[Any]) -> None:
    for name in ("uuid-v4", "uuid-v4-text", "uuid-v4-char32"):
        strategy = Catalog().get(name)
        assert check_expression(conn, strategy.generators[0].expression, strategy.column_type) is None
