"""What the survey reads is true or says why not: the values decide a key's kind over a default the
application never calls; row-level security, a missing privilege, a lock held elsewhere, a table dropped
mid-survey and an unlogged table each named as the table's cause; a sample that reaches the newest pages;
an inheritance parent read without its children; and the DBA's checks, each on a table made for it."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime

import psycopg
import pytest

from pkbench.server.builds import find_pgbench, find_server_bindir
from pkbench.server.connection import resolve
from pkbench.server.embedded import EmbeddedCluster
from pkbench.survey import catalog, checks, classify
from pkbench.survey.facts import Leaf, Options, Sequence, ServerFacts, TableFacts

OLD_V4_ROWS = 30_000
NEW_V7_ROWS = 1_500
TABLES = f"""
CREATE EXTENSION sequuid;
CREATE EXTENSION pgstattuple;
CREATE TABLE app_v7 (id uuid PRIMARY KEY DEFAULT gen_random_uuid(), v text);
INSERT INTO app_v7 SELECT uuid_generate_v7(), 'x' FROM generate_series(1, 500);
CREATE TABLE migrating (id uuid PRIMARY KEY DEFAULT uuid_generate_v7(), v text);
INSERT INTO migrating SELECT gen_random_uuid(), 'x' FROM generate_series(1, {OLD_V4_ROWS});
INSERT INTO migrating (v) SELECT 'x' FROM generate_series(1, {NEW_V7_ROWS});
CREATE TABLE guarded (id uuid PRIMARY KEY DEFAULT gen_random_uuid(), owner_name text);
INSERT INTO guarded (owner_name) SELECT 'someone' FROM generate_series(1, 500);
ALTER TABLE guarded ENABLE ROW LEVEL SECURITY;
CREATE POLICY own ON guarded USING (owner_name = current_user);
CREATE TABLE edits (id serial PRIMARY KEY, v text);
SELECT setval('edits_id_seq', (0.85 * 2147483647)::bigint);
CREATE TABLE edits_closed (id serial PRIMARY KEY, v text);
INSERT INTO edits_closed (v) SELECT 'x' FROM generate_series(1, 100);
CREATE TABLE random_ids (id bigint PRIMARY KEY, v text);
INSERT INTO random_ids SELECT (random() * 9e18)::bigint, 'x' FROM generate_series(1, 500);
CREATE TABLE base (id bigint PRIMARY KEY, v text);
CREATE TABLE derived () INHERITS (base);
INSERT INTO base SELECT i, 'x' FROM generate_series(1, 100) i;
INSERT INTO derived SELECT i, 'x' FROM generate_series(1000, 1099) i;
CREATE UNLOGGED TABLE scratch (id uuid PRIMARY KEY DEFAULT gen_random_uuid());
CREATE UNLOGGED TABLE scratch_ids (id bigserial PRIMARY KEY);
CREATE TABLE doomed (id bigserial PRIMARY KEY);
CREATE TABLE big (id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY);
CREATE TABLE big_refs (id bigserial PRIMARY KEY, big_id integer REFERENCES big);
CREATE TABLE widened (id serial PRIMARY KEY);
ALTER TABLE widened ALTER COLUMN id TYPE bigint;
SELECT setval('widened_id_seq', 1500000000);
CREATE SEQUENCE shared_ids;
CREATE TABLE shares_a (id bigint PRIMARY KEY DEFAULT nextval('shared_ids'));
CREATE TABLE shares_b (id bigint PRIMARY KEY DEFAULT nextval('shared_ids'));
CREATE TABLE doubled (id uuid PRIMARY KEY DEFAULT gen_random_uuid());
CREATE UNIQUE INDEX doubled_again ON doubled (id);
CREATE TABLE half_built (id bigserial PRIMARY KEY, v int);
INSERT INTO half_built (v) SELECT 1 FROM generate_series(1, 10);
CREATE TABLE hollow (id bigserial PRIMARY KEY, v text);
INSERT INTO hollow (v) SELECT 'x' FROM generate_series(1, 50000);
DELETE FROM hollow WHERE id % 10 <> 0;
CREATE TABLE orders (id uuid PRIMARY KEY DEFAULT gen_random_uuid());
CREATE TABLE order_lines (id bigserial PRIMARY KEY, order_id uuid REFERENCES orders);
CREATE INDEX order_lines_order ON order_lines (order_id);
INSERT INTO orders SELECT gen_random_uuid() FROM generate_series(1, 200);
INSERT INTO order_lines (order_id) SELECT id FROM orders;
CREATE ROLE reader LOGIN;
GRANT pg_read_all_stats TO reader;
GRANT SELECT ON ALL TABLES IN SCHEMA public TO reader;
REVOKE SELECT ON edits, edits_closed FROM reader;
GRANT USAGE ON SEQUENCE edits_id_seq TO reader;
"""


@pytest.fixture(scope="module")
def server() -> Iterator[EmbeddedCluster]:
    settings = {"shared_buffers": "16MB", "max_connections": "20"}
    with EmbeddedCluster(find_server_bindir(None), find_pgbench(None), settings) as cluster:
        with psycopg.connect(cluster.connection.conninfo(), autocommit=True) as conn:
            conn.execute(TABLES)
            # A CREATE INDEX CONCURRENTLY that fails leaves its index behind, invalid.
            with pytest.raises(psycopg.errors.DivisionByZero):
                conn.execute("CREATE INDEX CONCURRENTLY half_built_broken ON half_built (id, (1 / (v - v)))")
            conn.execute("VACUUM ANALYZE")
        yield cluster


def _survey(cluster: EmbeddedCluster, user: str | None = None, **options: object) -> dict[str, TableFacts]:
    info = resolve(cluster.connection.conninfo(**({"user": user} if user else {})))
    _, tables = catalog.survey(info, Options(schema="public", **options))  # type: ignore[arg-type]
    return {t.name: t for t in tables}


def _kind(facts: TableFacts) -> classify.KeyKind:
    return classify.key_kind(
        facts.key_types, facts.default, facts.identity, facts.sample, facts.sample_newest
    )


def _checks(facts: TableFacts) -> dict[str, str]:
    return {c.kind: c.words for c in facts.checks}


@pytest.fixture(scope="module")
def surveyed(server: EmbeddedCluster) -> dict[str, TableFacts]:
    return _survey(server)


def test_the_values_decide_the_kind_and_a_default_never_called_is_a_finding(
    surveyed: dict[str, TableFacts],
) -> None:
    facts = surveyed["app_v7"]
    assert (_kind(facts).kind, facts.default_kind) == ("uuid-v7", "uuid-v4")
    assert _checks(facts)["default-unused"] == "default gen_random_uuid() never used: 500 sampled: v7 100%"
    assert facts.cause is None


def test_the_sample_reaches_the_newest_pages_and_a_table_mid_migration_is_gated(
    surveyed: dict[str, TableFacts],
) -> None:
    facts = surveyed["migrating"]
    sampled = sum(len(group) for group in facts.sample or [])
    assert 1_500 <= sampled <= 2_600, "about --sample-rows, not the whole table"
    assert "last blocks included" in facts.sample_how
    newest = classify.shape(facts.sample_newest or [], False)
    assert newest.versions == {7: 1.0}, "the rows appended last are read"
    kind = _kind(facts)
    assert kind.kind == "uuid-mixed" and kind.kind in classify.GATED_KINDS
    assert "the newest pages: " in _checks(facts)["mid-migration"]
    assert "uuid-v1" in classify.RANDOM_KINDS


def test_an_integer_key_filled_at_random_is_flagged(surveyed: dict[str, TableFacts]) -> None:
    found = {c.kind: c for c in surveyed["random_ids"].checks}["random-integer-key"]
    assert found.urgency >= classify.RANGE_FLAG, "flagged, as an integer key at half its range is"
    assert "random-integer-key" not in _checks(surveyed["hollow"]), "a sequence's keys are not random"


def test_an_inheritance_parent_is_read_without_its_children(surveyed: dict[str, TableFacts]) -> None:
    facts = surveyed["base"]
    assert sum(len(group) for group in facts.sample or []) == 100
    assert facts.largest == 100


def test_unlogged_tables_say_the_committed_cells_do_not_answer_for_them(
    surveyed: dict[str, TableFacts],
) -> None:
    assert surveyed["scratch"].persistence == "u"
    assert (surveyed["scratch"].cause or "").startswith("an unlogged table writes no WAL")
    assert surveyed["scratch_ids"].cause is None, "an integer key's range is still true"
    assert surveyed["doomed"].persistence == "p" and surveyed["doomed"].cause is None


def test_row_level_security_and_missing_privileges_are_causes_never_fine(server: EmbeddedCluster) -> None:
    tables = _survey(server, user="reader")
    guarded = tables["guarded"]
    assert guarded.row_security and guarded.cause == (
        "row-level security hides the rows from this role (0 of ~500 rows seen)"
    )
    # Without SELECT, an int4 key's range comes from its sequence where the role may read it...
    edits = tables["edits"]
    assert edits.largest == round(0.85 * 2147483647) and edits.cause is None
    assert classify.range_used("integer", edits.largest) == pytest.approx(0.85)
    # ...and is unknown, with its cause, where nothing says it.
    closed = tables["edits_closed"]
    assert closed.largest is None and closed.key_columns == ("id",)
    assert closed.cause == (
        "the range its integer key has used was not read (needs SELECT on public.edits_closed (id), or USAGE "
        "on its sequence)"
    )
    assert tables["app_v7"].cause is None


def test_a_lock_held_elsewhere_names_the_session_and_keeps_the_key(server: EmbeddedCluster) -> None:
    with psycopg.connect(server.connection.conninfo()) as ddl:
        ddl.execute("LOCK TABLE orders IN ACCESS EXCLUSIVE MODE")
        pid = ddl.info.backend_pid
        tables = _survey(server)
        ddl.rollback()
    orders = tables["orders"]
    assert orders.cause == f"a lock held by another session (pid {pid}, AccessExclusiveLock)"
    assert orders.key_columns == ("id",) and _kind(orders).kind == "uuid-v4"
    assert tables["order_lines"].cause is None


def test_a_table_dropped_mid_survey_is_left_saying_so(server: EmbeddedCluster) -> None:
    with psycopg.connect(server.connection.conninfo(), autocommit=True) as other:
        other.execute("CREATE TABLE vanishing (id bigserial PRIMARY KEY)")

        def drop_after_the_catalog(pid: int, what: str) -> None:
            if what == "catalog: tables":
                other.execute("DROP TABLE vanishing")

        tables = _survey(server, observe=drop_after_the_catalog)
    assert tables["vanishing"].cause == "the table was dropped or renamed while the survey ran"
    assert tables["doomed"].cause is None


def test_the_dba_checks_each_on_its_table(surveyed: dict[str, TableFacts]) -> None:
    assert (
        "big_refs (big_id) is integer referencing this bigint key"
        in _checks(surveyed["big"])["int4-fk-to-bigint"]
    )
    widened = _checks(surveyed["widened"])["sequence-max-below-type"]
    assert widened.startswith("sequence public.widened_id_seq stops at 2,147,483,647 (integer)")
    assert "(70% used)" in widened
    shared = _checks(surveyed["shares_a"])
    assert shared["sequence-shared"].startswith("sequence public.shared_ids feeds 2 columns' defaults")
    assert shared["sequence-not-owned"].startswith("sequence public.shared_ids is owned by no column")
    assert "sequence-not-owned" not in _checks(surveyed["edits"])
    assert _checks(surveyed["doubled"])["duplicate-key-index"].startswith("index doubled_again (")
    assert _checks(surveyed["half_built"])["invalid-key-index"].startswith("index half_built_broken on (id,")
    hollow = surveyed["hollow"]
    assert hollow.leaf_density is not None and hollow.leaf_density < 0.5
    assert "key-index-bloat" in _checks(hollow)
    assert "key-index-bloat" not in _checks(surveyed["order_lines"])
    lines = _checks(surveyed["orders"])["child-random-fk-index"]
    assert lines.startswith("order_lines's index on (order_id, ")


def test_days_left_at_the_insert_rate() -> None:
    facts = TableFacts(1, "public", "t", None, 0, 0, None, key_types=("integer",), key_columns=("id",))
    facts.largest, facts.inserts, facts.inserts_over_s = 2**31 - 1 - 864_000, 864_000, 86_400.0
    facts.inserts_since = "over 60 s watched"
    assert checks.days_left(facts) == pytest.approx(1.0)
    facts.sequences = [Sequence(2, "s", "integer", 2**31 - 1, 2, False, None, True, 1, True)]
    assert checks.days_left(facts) == pytest.approx(0.5), (
        "a sequence stepping by 2 uses the range twice as fast"
    )
    checks.attach([facts])
    assert facts.checks[0].kind == "runs-out" and facts.checks[0].urgency == 1.0
    assert "in about 12.0 hours" in facts.checks[0].words
    facts.inserts = None
    assert checks.days_left(facts) is None


V4 = ["0b7e6a4c-2d7f-4c1e-9a3b-5f2e8d1c0a9b", "7f3c1e2a-9b8d-4e6f-a1c2-3d4e5f6a7b8c"] * 20
V7 = ["018f2a3b-4c5d-7e6f-8a9b-0c1d2e3f4a5b", "018f2a3b-4c5e-7a6f-9a9b-0c1d2e3f4a5c"] * 20


def test_the_values_decide_the_kind_but_a_generator_without_a_version_of_its_own_is_named() -> None:
    assert classify.key_kind(["uuid"], "gen_random_uuid()", "", [V7]).kind == "uuid-v7"
    assert classify.key_kind(["uuid"], "gen_random_uuid()", "", None).kind == "uuid-v4"
    assert classify.key_kind(["uuid"], "gen_random_uuid()", "", [[]]).kind == "uuid-v4", (
        "no rows: the default"
    )
    assert classify.key_kind(["uuid"], "uuid_time_nextval()", "", [V4]).kind == "seq-time"
    assert classify.key_kind(["text"], "gen_random_uuid()::text", "", [V7]).kind == "uuid-v7-text"
    # Mostly v4, the newest pages v7: mid-way through a migration.
    mixed = classify.key_kind(["uuid"], "uuid_generate_v7()", "", [V4 * 20 + V7], newest=V7)
    assert (mixed.kind, mixed.leading) == ("uuid-mixed", "uuid-mixed")
    same = classify.key_kind(["uuid"], "gen_random_uuid()", "", [V4], newest=V4)
    assert same.kind == "uuid-v4"


class _Counts:
    """A reader whose pg_stat_user_tables holds ROWS."""

    def __init__(self, rows: list[tuple[int, int]]) -> None:
        self.rows = rows

    def all(self, query: str, *params: object) -> list[tuple[int, int]]:
        return self.rows


def test_on_a_standby_the_insert_rate_is_unknown_and_says_why() -> None:
    """A standby's n_tup_ins counts no replayed rows: no rate is made of it, and the figure says so."""
    read_at, reset = datetime(2026, 1, 2, tzinfo=UTC), datetime(2026, 1, 1, tzinfo=UTC)
    for recovery, rate in ((True, None), (False, 86_400.0)):
        facts = TableFacts(1, "public", "t", None, 0, 0, None)
        facts.leaves = [Leaf(1, "public", "t", 10, 100.0)]
        server = ServerFacts(150000, "15", "db", 0, recovery, reset, read_at, True, (), {})
        catalog._inserts(_Counts([(1, 7)]), server, [facts])  # type: ignore[arg-type]
        assert facts.inserts_over_s == rate and facts.inserted_total == 7
        standby = facts.needs.get("insert rate", "")
        assert standby.startswith("a primary: a standby counts no inserts") == recovery
