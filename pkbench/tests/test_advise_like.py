"""`pkbench advise --like`: a table's shape read from a live server (read-only), the replica scaled to keep
its key index's share of shared_buffers and memory, the scenario files it writes, a tiny run of both on an
embedded cluster with the switch's cost, and its bad input in one line."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest
from conftest import READ_ONLY_STATEMENT, cli_in_process, pkbench_statements, run_cli

from pkbench.advise import like, like_files
from pkbench.advise import replica as replica_of
from pkbench.scenario import file as scenario_file
from pkbench.server import connection
from pkbench.server.builds import find_pgbench, find_server_bindir
from pkbench.server.embedded import EmbeddedCluster
from pkbench.survey import shape as table_shape
from pkbench.survey.names import split_qualified
from pkbench.survey.shape import ChildShape, Column, Index, TableShape

GB = 1024**3
MB = 1024**2


def _column(name: str, type_name: str, width: int, **more: object) -> Column:
    fields: dict[str, object] = {
        "typtype": "b",
        "category": "S",
        "null_share": 0.0,
        "correlation": None,
        "width_known": True,
        **more,
    }
    return Column(name, type_name, width=width, **fields)  # type: ignore[arg-type]


def _shape(**more: object) -> TableShape:
    fields: dict[str, object] = {
        "table": "public.orders",
        "server_version": "16.4",
        "shared_buffers": 128 * MB,
        "key": _column("id", "uuid", 16, category="U"),
        "key_source": "primary key",
        "key_index": "orders_pkey",
        "index_bytes": 40 * MB,
        "kind": "uuid-v4",
        "kind_words": "random UUIDs (v4)",
        "strategy": "uuid-v4",
        "generator": "gen_random_uuid()",
        "rows": 1_000_000,
        "heap_bytes": 100 * MB,
        "total_bytes": 200 * MB,
        "columns": (
            _column("email", "text", 25),
            _column("amount", "numeric(10,2)", 7, category="N"),
            _column("status", "order_status", 4, typtype="e", category="E"),
            _column("created_at", "timestamp with time zone", 8, category="D", correlation=0.99),
            _column("note", "character varying(200)", 40, null_share=0.3, width_known=False),
        ),
        "indexes": (
            Index("orders_email_key", "btree", True, ("email",), (), None, ("email",), None),
            Index("orders_status_idx", "btree", False, ("lower(status::text)",), (), None, ("status",), None),
            Index(
                "orders_note_trgm",
                "gin",
                False,
                ("note",),
                (),
                None,
                ("note",),
                "an operator class other than its type's default",
            ),
            Index(
                "orders_recent",
                "btree",
                False,
                ("created_at",),
                ("amount",),
                "amount > 0",
                ("amount", "created_at"),
                None,
            ),
        ),
        "children": (
            ChildShape("public.order_items", ("order_id",), 3_000_000, 40, True),
            ChildShape("public.payments", ("order_id",), 250_000, 0, False),
        ),
        "partitioned": None,
    }
    fields.update(more)
    return TableShape(**fields)  # type: ignore[arg-type]


def test_the_replica_keeps_the_key_index_s_share_of_shared_buffers_and_memory() -> None:
    # 100M rows whose 4 GB key index is half of 8 GB of shared_buffers, on a 64 GB server: 4M rows load in
    # the time, so f = 1/25, and shared_buffers and the memory cap shrink by it.
    scaled = replica_of.scale(100_000_000, 4 * GB, 8 * GB, 64 * GB, 256 * GB, True, 4_000_000)
    assert scaled.factor == pytest.approx(0.04) and scaled.rows == 4_000_000
    assert scaled.shared_buffers_bytes == pytest.approx(8 * GB * 0.04, rel=1e-4)
    assert scaled.memory_cap_bytes is not None
    assert scaled.memory_cap_bytes == pytest.approx(64 * GB * 0.04, abs=16 * MB)
    assert scaled.table_tier.condition == scaled.replica_tier.condition == "shared-buffers"
    assert scaled.replica_tier.over_shared_buffers == pytest.approx(0.5, rel=1e-3)
    assert scaled.notes == ()
    # Beyond RAM: a 100 GB index on the same server keeps its tier under a cap of f times the memory.
    beyond = replica_of.scale(1_000_000_000, 100 * GB, 8 * GB, 64 * GB, 256 * GB, True, 4_000_000)
    assert beyond.table_tier.condition == beyond.replica_tier.condition == "beyond-ram"
    assert beyond.replica_tier.over_memory == pytest.approx(100 / 64, rel=0.05)
    # Without root there is no cap: the replica's memory is this machine's, and the words say the tier moved.
    uncapped = replica_of.scale(1_000_000_000, 100 * GB, 8 * GB, 64 * GB, 256 * GB, False, 4_000_000)
    assert uncapped.memory_cap_bytes is None and uncapped.replica_tier.condition == "page-cache"
    assert any("needs root" in n for n in uncapped.notes)
    assert any("where yours is beyond RAM" in n for n in uncapped.notes)
    # A memory not known is said; a small table is measured at its own size.
    small = replica_of.scale(1000, 64 * 1024, 128 * MB, None, 256 * GB, True, 4_000_000)
    assert small.factor == 1 and small.rows == 1000 and small.memory_cap_bytes is None
    assert any("give --server-memory" in n for n in small.notes)
    # --rows gives the replica's rows; a shared_buffers too small to run is floored, and said.
    given = replica_of.scale(
        1_000_000, 40 * MB, 128 * MB, 64 * GB, 256 * GB, True, 4_000_000, rows_given=1000
    )
    assert given.rows == 1000 and given.shared_buffers_bytes == replica_of.LEAST_SHARED_BUFFERS
    assert any("the least the replica runs with" in n for n in given.notes)
    # Rather than a shared_buffers below the least, more rows than load in the time, said.
    floored = replica_of.scale(1_000_000_000, 40 * GB, 128 * MB, None, 256 * GB, True, 1_000_000)
    assert floored.shared_buffers_bytes == replica_of.LEAST_SHARED_BUFFERS
    assert floored.rows == pytest.approx(1_000_000_000 / 64, rel=1e-3)
    assert any("the load takes longer" in n for n in floored.notes)


def test_the_shape_becomes_a_replica_that_says_what_it_stands_in_for() -> None:
    shape = _shape()
    replica = replica_of.replica(shape)
    schema = replica.schema()
    assert schema[0] == (
        'CREATE TABLE records ("id" {key_type} PRIMARY KEY {key_default}, "email" text, '
        '"amount" numeric(10,2), "status" text, "created_at" timestamp with time zone, '
        '"note" character varying(200))'
    )
    # The plain btree (its UNIQUE dropped), and the partial one with its INCLUDE; the expression on the enum
    # stored as text and the trigram index are left out, each said.
    assert schema[1:3] == [
        "CREATE INDEX ON records USING btree (email)",
        "CREATE INDEX ON records USING btree (created_at) INCLUDE (amount) WHERE amount > 0",
    ]
    said = "\n".join(replica.said)
    assert "index orders_email_key is rebuilt without UNIQUE" in said
    assert "index orders_status_idx is not on the replica: it reads status, which the replica stores" in said
    assert "index orders_note_trgm is not on the replica: an operator class other than its" in said
    assert "column status: order_status stored as text of its width (4 bytes)" in said
    assert "column note: its width is not in pg_stats" in said
    assert "child_1 stands for public.order_items (order_id): 3.00 rows per row" in said
    assert "child_2 stands for public.payments (order_id): 0.25 rows per row" in said
    # One child's foreign key is indexed as the user's is; the other is not, except where keys are rewritten.
    assert "CREATE INDEX child_1_ref ON child_1 (ref)" in schema
    assert not any("child_2_ref" in s for s in schema)
    assert any("REFERENCES records ON UPDATE CASCADE" in s for s in replica.schema(cascade=True))
    assert "CREATE INDEX child_2_ref ON child_2 (ref)" in replica.schema(cascade=True)
    insert = replica.insert("{batch}")
    assert insert.startswith(
        'WITH p AS (INSERT INTO records ("email", "amount", "status", "created_at", "note")'
    )
    assert 'generate_series(1, {batch}) RETURNING "id" AS ref)' in insert
    assert "CASE WHEN random() < 0.300 THEN NULL ELSE" in insert
    assert "clock_timestamp()::timestamp with time zone" in insert
    assert "generate_series(1, 4) g WHERE g <= 3 OR random() < 0.0000" in insert
    assert "generate_series(1, 1) g WHERE g <= 0 OR random() < 0.2500" in insert
    assert insert.endswith(" SELECT count(*) FROM p")


def test_the_scenario_files_load_and_the_switch_is_a_random_uuid_key_s() -> None:
    shape = _shape()
    scaled = replica_of.scale(
        shape.rows, shape.index_bytes, shape.shared_buffers, 64 * GB, 256 * GB, True, 200_000
    )
    replica = replica_of.replica(shape)
    loaded = scenario_file.parse(
        like_files.replica_toml(shape, scaled, replica, ["bigint", "uuid-v4", "uuid-v7"], 10), "replica.toml"
    )
    assert [s.name for s in loaded.steps] == [
        "schema",
        "fill",
        "maintenance",
        "sizes_after_prefill",
        "insert",
    ]
    assert loaded.parameters["rows"] == 200_000
    assert loaded.settings["shared_buffers"] == f"{scaled.shared_buffers_bytes // 1024}kB"
    switch = scenario_file.parse(like_files.switch_toml(shape, scaled, replica), "switch.toml")
    names = [s.name for s in switch.steps]
    assert names[names.index("switch-default") - 1 : names.index("after-rewrite-keys") + 1] == [
        "before-switch-default",
        "switch-default",
        "after-switch-default",
        "checkpoint-before-rewrite",
        "before-rewrite-keys",
        "rewrite-keys",
        "after-rewrite-keys",
    ]
    assert replica_of.can_switch(shape) is None
    assert "not random" in str(
        replica_of.can_switch(_shape(kind="uuid-v7", kind_words="time-ordered UUIDs (v7)"))
    )
    assert "its key is bigint" in str(
        replica_of.can_switch(_shape(key=_column("id", "bigint", 8, category="N")))
    )
    common = ["--rounds", "2", "--warmup", "0"]
    plan = like.make_plan(600, Path("out"), ["bigint", "uuid-v4"], shape, scaled, True, common)
    # The replica's share leaves the switch its least time; the switch runs one pass, without rounds.
    assert plan.share_s(plan.parts[0]) == pytest.approx(600 - plan.parts[1].least_s)
    assert like.switch_arguments(plan, Path("out"))[1:] == [
        "--isolate",
        "--memory-limit",
        f"{scaled.memory_cap_bytes // MB}MB",  # type: ignore[operator]
        "--warmup",
        "0",
        "--no-report",
        "--out",
        "out/switch",
    ]
    assert split_qualified("sales.orders", "--like") == ("sales", "orders")


@pytest.mark.parametrize(
    ("words", "said"),
    [
        (["--like", "public.orders"], "--like public.orders: give --dsn"),
        (["--like", "orders", "--dsn", "host=/nowhere", "--resume", "x"], "--like measures a table's"),
        (["--like", "orders", "--dsn", "host=/nowhere", "--disk-budget", "1GB"], "--disk-budget sizes runs"),
        (["--like", "orders", "--dsn", "host=/nowhere", "--rows", "0"], "--rows: the replica needs"),
    ],
)
def test_bad_input_is_one_line(words: list[str], said: str, tmp_path: Path) -> None:
    done = cli_in_process("advise", *words)
    assert done.returncode != 0 and done.stdout == ""
    assert done.stderr.count("\n") == 1 and said in done.stderr, done.stderr


TABLES = """
CREATE TYPE order_status AS ENUM ('new', 'paid', 'sent');
CREATE TABLE orders (id uuid PRIMARY KEY DEFAULT gen_random_uuid(), email text NOT NULL,
                     status order_status NOT NULL DEFAULT 'new', note text,
                     created_at timestamptz NOT NULL DEFAULT clock_timestamp());
CREATE INDEX ON orders (email);
CREATE TABLE order_items (id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
                          order_id uuid NOT NULL REFERENCES orders, sku text);
CREATE INDEX ON order_items (order_id);
CREATE TABLE pairs (a uuid, b bigint, PRIMARY KEY (a, b));
INSERT INTO orders (email, note) SELECT md5(i::text) || '@example.com', CASE WHEN i % 3 = 0 THEN 'x' END
  FROM generate_series(1, 600) i;
INSERT INTO order_items (order_id, sku) SELECT id, 'sku-' || n FROM orders, generate_series(1, 2) n;
ANALYZE;
CREATE ROLE monitor LOGIN;
GRANT pg_read_all_stats TO monitor;
GRANT SELECT ON order_items TO monitor;
GRANT SELECT (id, email, status, created_at) ON orders TO monitor;
"""


@pytest.fixture(scope="module")
def source() -> Iterator[EmbeddedCluster]:
    """The user's server: a table with a random key, a secondary index, an enum and a child table."""
    settings = {"shared_buffers": "8MB", "log_statement": "all", "log_line_prefix": "%a|%u|"}
    with EmbeddedCluster(find_server_bindir(None), find_pgbench(None), settings) as cluster:
        with psycopg.connect(cluster.connection.conninfo(), autocommit=True) as conn:
            conn.execute(TABLES)
        yield cluster


def test_a_table_s_replica_is_measured_and_its_switch_costed_reading_the_server_only(
    source: EmbeddedCluster, tmp_path: Path
) -> None:
    out = tmp_path / "like"
    log_start = source.log_path.stat().st_size
    words = ["advise", "--like", "public.orders", "--dsn", source.connection.conninfo(), "--budget", "20s"]
    # A memory larger than this machine's: nothing to cap. Two rounds of one-second windows: the test is
    # about the advice, not its precision.
    words += [
        "--rows",
        "300",
        "--server-memory",
        "1000TB",
        "--strategies",
        "bigint,uuid-v4",
        "--duration",
        "1",
    ]
    done = run_cli(*words, "--out", str(out), "--", "--warmup", "0", "--rounds", "2", "--sample-every", "0")
    assert done.returncode == 0, done.stderr
    assert "advise --like 1/2: replica: starting" in done.stderr
    assert "Which key for public.orders?" in done.stdout
    written = (out / "advice.md").read_text()
    assert written.startswith("# Which key for public.orders? Measured on a replica of its shape")
    assert "The replica of public.orders was scaled by 1/2: 300 of its 600 rows" in written
    assert "child_1 stands for order_items (order_id): 2.00 rows per row" in written
    assert "column status: order_status stored as text of its width" in written
    row = next(line for line in written.splitlines() if line.startswith("| v4 |"))
    assert "(" in row or "not resolved" in row, row
    # The precision rule, per cell: reached, decided, or the budget ended first.
    cell = next(line for line in written.splitlines() if line.startswith("- public.orders ("))
    assert re.search(r"v4 (reached ±10%|decided|unresolved)", cell), cell
    # At least the two rounds asked for: --until-decided adds rounds while the share of the budget lasts.
    assert re.search(r"- replica: \d+ round\(s\) in ", written)
    switch = written.split("## What a switch to v7 would cost", 1)[1]
    assert re.search(r"\(a\) the default switched to v7 .*: [\d.]+ s, [\d.,]+ (B|KiB|MiB) of WAL", switch)
    rewritten = r"\(b\) the existing keys rewritten .*: [\d.]+ s, [\d.,]+ (KiB|MiB) of WAL, disk"
    assert re.search(rewritten, switch)
    assert "at your table's size, if it grows with the rows" in switch
    # Read-only on the user's server: its statement log holds nothing but reads from pkbench.
    statements = pkbench_statements(source, log_start)
    assert statements and [s for s in statements if not READ_ONLY_STATEMENT.match(s)] == []


def test_a_table_it_cannot_replicate_is_one_line(source: EmbeddedCluster, tmp_path: Path) -> None:
    dsn = source.connection.conninfo()
    for words, said in (
        (["public.nowhere"], "--like public.nowhere: no such table in database"),
        (["pairs"], "--like public.pairs: its key (a, b) has several columns"),
        (["orders", "--strategies", "bigint,uuid-v9"], "uuid-v9"),
    ):
        done = cli_in_process("advise", "--like", *words, "--dsn", dsn, "--out", str(tmp_path / "x"))
        assert done.returncode != 0 and done.stderr.count("\n") == 1 and said in done.stderr, done.stderr
        assert not (tmp_path / "x").exists()


def test_a_role_with_only_pg_read_all_stats_and_select_reads_the_shape(source: EmbeddedCluster) -> None:
    """The shape needs no more than inspect does: a column the role may not read is assumed, and said."""
    info = connection.resolve(source.connection.conninfo(user="monitor"))
    shape = table_shape.read(info, "orders")
    assert (shape.table, shape.kind, shape.rows) == ("public.orders", "uuid-v4", 600)
    widths = {c.name: c.width_known for c in shape.columns}
    assert widths == {"email": True, "status": True, "note": False, "created_at": True}
    assert [i.keys for i in shape.indexes] == [("email",)]
    assert [(c.table, c.columns, c.rows, c.indexed) for c in shape.children] == [
        ("order_items", ("order_id",), 1200, True)
    ]
    said = replica_of.replica(shape).said
    assert any(s.startswith("column note: its width is not in pg_stats") for s in said)
