"""`pkbench inspect` against a live database holding a table of each kind of key: every classification, the
placement in the committed which-key table, the outputs, read-only proven by the server's statement log and
an unchanged catalog, and a role with only pg_read_all_stats and SELECT."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psycopg
import pytest
from conftest import OTHER_MAJOR, READ_ONLY_STATEMENT, cli_in_process, pkbench_statements

from pkbench.advise import session
from pkbench.server.builds import find_pgbench, find_server_bindir, server_bindir
from pkbench.server.embedded import EmbeddedCluster

SMALL_ROWS = 1500
# The v4 table's index outgrows the 1 MB of shared_buffers: beyond shared buffers, within RAM.
LARGE_ROWS = 40_000
TABLES = f"""
CREATE EXTENSION sequuid;
CREATE EXTENSION "uuid-ossp";
CREATE EXTENSION pgstattuple;
CREATE EXTENSION pg_buffercache;
CREATE TABLE v4 (id uuid PRIMARY KEY DEFAULT gen_random_uuid(), data text);
INSERT INTO v4 (data) SELECT 'x' FROM generate_series(1, {LARGE_ROWS});
CREATE TABLE v7 (id uuid PRIMARY KEY DEFAULT uuid_generate_v7(), data text);
CREATE TABLE v1 (id uuid PRIMARY KEY DEFAULT uuid_generate_v1(), data text);
CREATE TABLE seq_time (id uuid PRIMARY KEY DEFAULT uuid_time_nextval(), data text);
CREATE SEQUENCE seq_prefix;
CREATE TABLE seq_seq (id uuid PRIMARY KEY DEFAULT uuid_sequence_nextval('seq_prefix', 16, 65536), data text);
CREATE TABLE ulid_uuid (id uuid PRIMARY KEY, data text);
CREATE TABLE ulid_text (id text PRIMARY KEY, data text);
CREATE TABLE uuid_text (id varchar(36) PRIMARY KEY, data text);
CREATE TABLE ids (id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, data text);
CREATE TABLE counters (id serial PRIMARY KEY, data text);
SELECT setval('counters_id_seq', (0.71 * 2147483647)::bigint);
CREATE TABLE pairs (a uuid, b bigint, data text, PRIMARY KEY (a, b));
CREATE TABLE heap (a int, data text);
CREATE TABLE events (id uuid PRIMARY KEY DEFAULT uuid_generate_v7(), data text) PARTITION BY HASH (id);
CREATE TABLE events_0 PARTITION OF events FOR VALUES WITH (MODULUS 2, REMAINDER 0);
CREATE TABLE events_1 PARTITION OF events FOR VALUES WITH (MODULUS 2, REMAINDER 1);
CREATE TABLE orders (id uuid PRIMARY KEY DEFAULT uuid_generate_v4(), data text);
CREATE TABLE order_items (id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
                          order_id uuid NOT NULL REFERENCES orders);
CREATE INDEX ON order_items (order_id);
CREATE TABLE payments (id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, order_id uuid REFERENCES orders);
CREATE TABLE hidden (id uuid PRIMARY KEY DEFAULT gen_random_uuid());
CREATE TABLE "Mixed Case" ("Key" serial PRIMARY KEY);
CREATE SCHEMA private;
CREATE TABLE private.secrets (id uuid PRIMARY KEY DEFAULT gen_random_uuid());
"""
FILL = f"""
INSERT INTO v7 (data) SELECT 'x' FROM generate_series(1, {SMALL_ROWS});
INSERT INTO v1 (data) SELECT 'x' FROM generate_series(1, {SMALL_ROWS});
INSERT INTO seq_time (data) SELECT 'x' FROM generate_series(1, {SMALL_ROWS});
INSERT INTO seq_seq (data) SELECT 'x' FROM generate_series(1, {SMALL_ROWS});
INSERT INTO ulid_uuid SELECT uuid_generate_ulid(), 'x' FROM generate_series(1, {SMALL_ROWS});
INSERT INTO ulid_text SELECT uuid_to_ulid(uuid_generate_ulid()), 'x' FROM generate_series(1, {SMALL_ROWS});
INSERT INTO uuid_text SELECT gen_random_uuid()::text, 'x' FROM generate_series(1, {SMALL_ROWS});
INSERT INTO ids (data) SELECT 'x' FROM generate_series(1, {SMALL_ROWS});
INSERT INTO counters (data) SELECT 'x' FROM generate_series(1, {SMALL_ROWS});
INSERT INTO pairs SELECT gen_random_uuid(), i, 'x' FROM generate_series(1, {SMALL_ROWS}) i;
INSERT INTO heap SELECT i, 'x' FROM generate_series(1, {SMALL_ROWS}) i;
INSERT INTO "Mixed Case" SELECT FROM generate_series(1, 10);
INSERT INTO events (data) SELECT 'x' FROM generate_series(1, {SMALL_ROWS});
INSERT INTO orders (data) SELECT 'x' FROM generate_series(1, {SMALL_ROWS});
INSERT INTO order_items (order_id) SELECT id FROM orders;
INSERT INTO payments (order_id) SELECT id FROM orders;
"""
LEAST_PRIVILEGE = """
CREATE ROLE monitor LOGIN;
GRANT pg_read_all_stats TO monitor;
GRANT SELECT ON ALL TABLES IN SCHEMA public TO monitor;
REVOKE SELECT ON hidden FROM monitor;
GRANT SELECT ON private.secrets TO monitor;
"""


@pytest.fixture(scope="module")
def server() -> Iterator[EmbeddedCluster]:
    settings = {
        "shared_buffers": "1MB",
        "max_connections": "20",
        "log_statement": "all",
        "log_line_prefix": "%a|%u|",
    }
    with EmbeddedCluster(find_server_bindir(None), find_pgbench(None), settings) as cluster:
        with psycopg.connect(cluster.connection.conninfo(), autocommit=True) as conn:
            conn.execute(TABLES)
            conn.execute(FILL)
            conn.execute(LEAST_PRIVILEGE)
            conn.execute("ANALYZE")
        yield cluster


def _dsn(cluster: EmbeddedCluster, user: str | None = None) -> str:
    return cluster.connection.conninfo(**({"user": user} if user else {}))


def _inspect(cluster: EmbeddedCluster, *args: str, user: str | None = None) -> dict[str, Any]:
    found = cli_in_process("inspect", "--dsn", _dsn(cluster, user), "--format", "json", *args)
    assert found.returncode == 0, found.stderr
    document: dict[str, Any] = json.loads(found.stdout)
    return document


def _by_table(document: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {t["table"].removeprefix("public."): t for t in document["tables"]}


def _catalog(cluster: EmbeddedCluster) -> list[Any]:
    with psycopg.connect(cluster.connection.conninfo(), autocommit=True) as conn:
        return [
            conn.execute(query).fetchall()
            for query in (
                "SELECT oid, relname, relkind FROM pg_class ORDER BY oid",
                "SELECT count(*) FROM pg_proc",
                "SELECT extname FROM pg_extension ORDER BY 1",
                "SELECT nspname FROM pg_namespace ORDER BY 1",
                "SELECT stats_reset FROM pg_stat_database ORDER BY datid",
            )
        ]


def test_every_kind_of_key_is_named_read_only(server: EmbeddedCluster) -> None:
    before = _catalog(server)
    log_start = server.log_path.stat().st_size
    document = _inspect(server)
    assert (document["schema"], document["version"]) == ("pkbench-inspect", 1)
    tables = _by_table(document)
    kinds = {name: t["kind"] for name, t in tables.items()}
    assert kinds == {
        "v4": "uuid-v4",
        "v7": "uuid-v7",
        "v1": "uuid-v1",
        "seq_time": "seq-time",
        "seq_seq": "seq-seq",
        "ulid_uuid": "ulid-uuid",
        "ulid_text": "ulid-text",
        "uuid_text": "uuid-v4-text",
        "ids": "bigint",
        "counters": "integer",
        "pairs": "composite",
        "heap": "no-key",
        "events": "uuid-v7",
        "orders": "uuid-v4",
        "order_items": "bigint",
        "payments": "bigint",
        "hidden": "uuid-v4",
        "private.secrets": "uuid-v4",
        "Mixed Case": "integer",
    }, {name: (t["values"], t["unknown"]) for name, t in tables.items()}
    assert tables["v4"]["generator"] == "gen_random_uuid()"
    assert tables["orders"]["generator"] == "uuid-ossp's uuid_generate_v4()"
    assert tables["v1"]["generator"] == "uuid-ossp's uuid_generate_v1()"
    assert tables["ids"]["generator"] == "identity (GENERATED ALWAYS)"
    assert tables["counters"]["generator"] == "a sequence (serial, nextval)"
    assert tables["ulid_uuid"]["generator"] == "made by the application (no default)"
    assert tables["v4"]["versions"] == {"v4": 1.0} and tables["v7"]["versions"] == {"v7": 1.0}
    assert tables["v1"]["versions"] == {"v1": 1.0}
    assert tables["ulid_uuid"]["ulid_share"] == 1.0 and tables["ulid_text"]["ulid_share"] == 1.0
    # Ordering: the time-ordered keys rise with insertion order, v4 lands anywhere; the sequence prefix
    # (blocks of 16) rises too.
    assert tables["v7"]["ordering"] > 0.95 and tables["ulid_uuid"]["ordering"] > 0.95
    assert tables["seq_seq"]["ordering"] > 0.9 and tables["ids"]["ordering"] == pytest.approx(1.0)
    assert abs(tables["v4"]["ordering"]) < 0.2 and tables["v4"]["ordering_words"] == "random"
    # The large table is sampled, not read whole: block ranges holding about the bound's rows, spread over
    # the whole heap, the last blocks included; a small table is read whole.
    assert "about 5.00% of the blocks" in tables["v4"]["ordering_how"]
    assert "last blocks included" in tables["v4"]["ordering_how"]
    sampled = int(tables["v4"]["values"].split(" ")[0].replace(",", ""))
    assert 1500 <= sampled <= 2600 and tables["v4"]["values"].endswith("sampled: v4 100%")
    assert tables["v7"]["values"] == f"{SMALL_ROWS:,} sampled: v7 100%"
    assert tables["v4"]["pg_stats_correlation"] is not None
    # The int4 serial at 71% of its range is flagged; bigint's share is tiny.
    assert tables["counters"]["range_used"] == pytest.approx(0.71, abs=0.001)
    assert tables["counters"]["status"] == "flagged"
    assert tables["ids"]["range_used"] < 1e-10
    # The partitioned table is one row, its two partitions rolled up, placed in the hash layout too.
    assert "events_0" not in tables and tables["events"]["partitions"] == 2
    assert tables["events"]["partitioned"] == "hash"
    assert [p["condition"] for p in tables["events"]["placements"]][1:] == ["hash-partitioned"]
    # The child tables that repeat the key, with whether their foreign key is indexed.
    children = {c["table"]: c["indexed"] for c in tables["orders"]["children"]}
    assert children == {"order_items": True, "payments": False}
    # Memory tiers against 1 MB of shared_buffers: v4's index is beyond them, the small ones within.
    assert tables["v4"]["index_over_shared_buffers"] > 1
    assert tables["v4"]["placements"][0]["condition"] == "page-cache"
    assert tables["v4"]["placements"][0]["run"] == "wal-tiers-seed-004"
    assert tables["v4"]["status"] == "costs" and "v4 against bigint: slower 0." in tables["v4"]["summary"]
    assert tables["ids"]["placements"][0]["condition"] == "shared-buffers"
    assert tables["heap"]["status"] == "not placed"
    # A composite key is placed by its leading column, where its inserts land.
    assert tables["pairs"]["leading_kind"] == "uuid-v4"
    assert tables["pairs"]["kind_words"] == "a composite key led by random UUIDs (v4)"
    assert tables["pairs"]["placements"][0]["strategy"] == "uuid-v4"
    assert tables["Mixed Case"]["range_used"] == pytest.approx(10 / (2**31 - 1))
    assert tables["ulid_text"]["status"] == "not placed"
    # A superuser may use pgstattuple and pg_buffercache; pg_walinspect's block info needs PostgreSQL 16.
    assert 0 < tables["v4"]["leaf_density"] <= 1 and tables["v4"]["cached_share"] is not None
    assert "full-page image share" in tables["v4"]["unknown"]
    # Ranked: the integer key near its end, then the table whose key costs.
    assert [t["table"] for t in document["tables"][:2]] == ["public.counters", "public.v4"]

    statements = pkbench_statements(server, log_start)
    assert statements, server.log_path.read_text(errors="replace")[-2000:]
    assert [s for s in statements if not READ_ONLY_STATEMENT.match(s)] == []
    assert statements[0].startswith("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
    assert any("FROM ONLY" in s and "ctid >= " in s for s in statements)
    assert _catalog(server) == before


def test_a_role_with_only_pg_read_all_stats_and_select_gets_unknown_cells(server: EmbeddedCluster) -> None:
    tables = _by_table(_inspect(server, user="monitor"))
    assert tables["v4"]["kind"] == "uuid-v4" and tables["v4"]["versions"] == {"v4": 1.0}
    assert tables["v4"]["unknown"]["leaf density"] == "EXECUTE on pgstattuple's pgstatindex()"
    assert tables["v4"]["unknown"]["cached share"] == "EXECUTE on pg_buffercache's pg_buffercache_pages()"
    hidden = tables["hidden"]
    assert hidden["unknown"]["values"] == "SELECT on public.hidden (id)"
    assert hidden["kind"] == "uuid-v4", "the generator still names the key"
    assert tables["counters"]["range_used"] == pytest.approx(0.71, abs=0.001)
    # SELECT on a table in a schema the role may not use is not enough: it says so.
    assert tables["private.secrets"]["unknown"]["values"] == "USAGE on schema private"
    shown = cli_in_process("inspect", "--dsn", _dsn(server, "monitor"), "--table", "hidden")
    assert shown.returncode == 0, shown.stderr
    assert "unknown (needs SELECT on public.hidden (id))" in shown.stdout


def test_markdown_terminal_and_the_ci_check(server: EmbeddedCluster, tmp_path: Path) -> None:
    out = tmp_path / "keys.md"
    made = cli_in_process(
        "inspect", "--dsn", _dsn(server), "--schema", "public", "--format", "md", "--out", str(out)
    )
    assert made.returncode == 0, made.stderr
    text = out.read_text()
    assert text.startswith("# Keys of database postgres")
    assert "- **public.v4** (costs): random UUIDs (v4) from gen_random_uuid()" in text
    assert "| table | key | kind |" in text
    terminal = cli_in_process("inspect", "--dsn", _dsn(server), "--table", "public.counters")
    assert terminal.returncode == 0, terminal.stderr
    assert "integer key at 71% of its type's range" in terminal.stdout
    failed = cli_in_process("inspect", "--dsn", _dsn(server), "--format", "json", "--fail-on", "random-keys")
    assert failed.returncode == 6
    assert json.loads(failed.stdout)["tables"], "the output is written before the check fails"
    # One table a line, then the line that says the check failed.
    lines = failed.stderr.splitlines()
    assert lines[0].startswith("public.v4 has random UUIDs (v4)")
    assert lines[-1] == f"pkbench: error: {len(lines) - 1} table(s) failed --fail-on random-keys"
    passed = cli_in_process(
        "inspect",
        "--dsn",
        _dsn(server),
        "--table",
        "ids",
        "--fail-on",
        "random-keys",
        "--fail-on",
        "range-end",
    )
    assert passed.returncode == 0, passed.stderr
    watched = _by_table(_inspect(server, "--table", "ids", "--watch", "1s"))["ids"]
    assert watched["inserts_per_s"] == 0 and watched["inserts_how"] == "over 1 s watched"
    assert "insert rate" not in watched["unknown"]


def test_a_table_locked_by_ddl_is_left_after_one_wait(server: EmbeddedCluster) -> None:
    with psycopg.connect(server.connection.conninfo()) as ddl:
        ddl.execute("LOCK TABLE v7 IN ACCESS EXCLUSIVE MODE")
        found = cli_in_process("inspect", "--dsn", _dsn(server), "--format", "json", "--schema", "public")
        ddl.rollback()
    assert found.returncode == 0, found.stderr
    tables = _by_table(json.loads(found.stdout))
    locked = tables["v7"]
    # Its key comes from the catalog, which takes no lock on the table: it is not "no key".
    assert (locked["kind"], locked["key"]) == ("uuid-v7", ["id"])
    assert "values" not in locked["unknown"] and locked["values"] is None
    # Its answer is not known, and the cause is named: never "fine" or "not placed".
    assert locked["status"] == "unknown" and locked["cause"].startswith("a lock held by another session")
    assert locked["summary"].endswith(f"not known: {locked['cause']}")
    assert tables["v4"]["status"] == "costs", "the other tables are read as before"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--table", "nosuch"), "--table nosuch: no such table in database postgres"),
        (("--watch", "soon"), "--watch 'soon': expected a duration such as 60s or 2m"),
        (("--server-memory", "lots"), "--server-memory 'lots': expected a size"),
        (("--runs", "/nonexistent"), "--runs /nonexistent: no folder of runs there"),
        (("--out", "x.md"), "--out writes the json or md output: give --format json or --format md"),
        (("--fail-above", "1GB"), "--fail-above sizes the random-keys check: give --fail-on random-keys"),
        (("--table", "other.v4", "--schema", "public"), "--table other.v4 is not in --schema public"),
    ],
)
def test_bad_input_is_one_line(server: EmbeddedCluster, args: tuple[str, ...], message: str) -> None:
    found = cli_in_process("inspect", "--dsn", _dsn(server), *args)
    assert found.returncode == 1
    assert found.stderr.count("\n") == 1 and message in found.stderr, found.stderr


def test_a_server_that_is_not_there_is_one_line() -> None:
    found = cli_in_process("inspect", "--dsn", "host=127.0.0.1 port=1 connect_timeout=2")
    assert found.returncode == 1 and found.stderr.startswith("pkbench: error: cannot connect to")
    assert found.stderr.count("\n") == 1


def test_on_postgresql_18_the_key_index_share_of_full_page_images() -> None:
    """pg_walinspect's block info (PostgreSQL 16 and later) read for the superuser, refused in words for a
    role without pg_read_server_files; uuidv7() named as PostgreSQL 18's own generator."""
    settings = {"shared_buffers": "16MB", "max_connections": "20"}
    bindir = find_server_bindir(server_bindir(OTHER_MAJOR))
    with EmbeddedCluster(bindir, find_pgbench(None), settings) as cluster:
        with psycopg.connect(cluster.connection.conninfo(), autocommit=True) as conn:
            conn.execute(
                "CREATE EXTENSION pg_walinspect;"
                "CREATE TABLE v4 (id uuid PRIMARY KEY DEFAULT gen_random_uuid(), data text);"
                "CREATE TABLE v7 (id uuid PRIMARY KEY DEFAULT uuidv7(), data text);"
                "CREATE ROLE monitor LOGIN; GRANT pg_read_all_stats TO monitor;"
                "GRANT SELECT ON ALL TABLES IN SCHEMA public TO monitor;"
                "INSERT INTO v4 (data) SELECT 'x' FROM generate_series(1, 3000);"
                "INSERT INTO v7 (data) SELECT 'x' FROM generate_series(1, 3000);"
            )
            # A page's first change after a checkpoint writes its image: a random key's inserts touch the
            # index's pages all over, a rising key's only its right edge.
            conn.execute("CHECKPOINT")
            conn.execute("INSERT INTO v4 (data) SELECT 'x' FROM generate_series(1, 300)")
            conn.execute("INSERT INTO v7 (data) SELECT 'x' FROM generate_series(1, 300)")
        tables = _by_table(_inspect(cluster))
        assert tables["v7"]["generator"] == "uuidv7()" and tables["v7"]["kind"] == "uuid-v7"
        shares = [tables[name]["fpi_share"] for name in ("v4", "v7")]
        assert all(share is not None and 0 < share < 1 for share in shares), tables["v4"]["unknown"]
        assert shares[0] > 5 * shares[1]
        limited = _by_table(_inspect(cluster, user="monitor"))
        assert limited["v4"]["unknown"]["full-page image share"] == (
            "EXECUTE on pg_walinspect's pg_get_wal_block_info()"
        )
        assert limited["v4"]["unknown"]["leaf density"] == "the pgstattuple extension"


def test_predict_reads_the_settings_and_the_table_read_only_and_an_option_wins(
    server: EmbeddedCluster,
) -> None:
    before = _catalog(server)
    log_start = server.log_path.stat().st_size
    args = ("predict", "--dsn", _dsn(server), "--table", "ids", "--insert-rate", "50", "--format", "json")
    found = cli_in_process(*args)
    assert found.returncode == 0, found.stderr
    shape = json.loads(found.stdout)["server"]
    assert shape["shared_buffers_bytes"] == 1024**2 and shape["checkpoint_timeout_s"] == 300
    assert shape["rows"] == SMALL_ROWS and shape["insert_rate"] == 50
    statements = pkbench_statements(server, log_start)
    assert statements and [s for s in statements if not READ_ONLY_STATEMENT.match(s)] == []
    assert _catalog(server) == before
    given = cli_in_process(*args, "--shared-buffers", "2GB", "--checkpoint-timeout", "15min")
    shape = json.loads(given.stdout)["server"]
    assert shape["shared_buffers_bytes"] == 2 * 1024**3 and shape["checkpoint_timeout_s"] == 900


def test_advise_on_a_dsn_places_its_tiers_for_the_server_s_own_checkpoints_read_only(
    server: EmbeddedCluster,
) -> None:
    log_start = server.log_path.stat().st_size
    model = session.model(_dsn(server))
    assert model.fit is not None
    assert (model.checkpoints.timeout_s, model.checkpoints.max_wal_size_bytes) == (300, 1024**3)
    assert model.checkpoints.source == "the server's own checkpoint settings"
    statements = pkbench_statements(server, log_start)
    assert statements and [s for s in statements if not READ_ONLY_STATEMENT.match(s)] == []


def test_each_table_gets_the_models_answer_or_what_it_needs(server: EmbeddedCluster) -> None:
    tables = _by_table(_inspect(server))
    # a fresh cluster's statistics record no start: no insert rate is known without --watch
    assert tables["v4"]["model"] == {
        "key": "uuid-v4",
        "words": "needs an insert rate (--watch 60s): none is known",
    }
    assert tables["v1"]["model"] is None
