"""inspect's footprint on a server does not grow with the number of tables: surveying six times as many
tables holds no more locks at once, sends a few statements for the catalog and a few per table, and reads
in a short transaction per table, none spanning the survey. The locks are counted from a second session at
the end of every read transaction (the survey's observer), while that transaction's locks are all held."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import datetime

import psycopg
import pytest
from conftest import READ_ONLY_STATEMENT, pkbench_statements

from pkbench.server.builds import find_pgbench, find_server_bindir
from pkbench.server.embedded import EmbeddedCluster
from pkbench.survey import catalog
from pkbench.survey.facts import Options

# One of each shape a database holds: a uuid key with a child whose foreign key is indexed, a serial key,
# and a table of three partitions.
UNIT = """
CREATE TABLE {s}.parent_{n} (id uuid PRIMARY KEY DEFAULT gen_random_uuid(), note text);
CREATE TABLE {s}.child_{n} (id bigserial PRIMARY KEY, parent_id uuid REFERENCES {s}.parent_{n});
CREATE INDEX ON {s}.child_{n} (parent_id);
CREATE TABLE {s}.serial_{n} (id serial PRIMARY KEY, note text);
CREATE TABLE {s}.parts_{n} (id bigint GENERATED ALWAYS AS IDENTITY, at int NOT NULL, PRIMARY KEY (id, at))
    PARTITION BY RANGE (at);
CREATE TABLE {s}.parts_{n}_a PARTITION OF {s}.parts_{n} FOR VALUES FROM (0) TO (10);
CREATE TABLE {s}.parts_{n}_b PARTITION OF {s}.parts_{n} FOR VALUES FROM (10) TO (20);
CREATE TABLE {s}.parts_{n}_c PARTITION OF {s}.parts_{n} FOR VALUES FROM (20) TO (30);
INSERT INTO {s}.parent_{n} (note) SELECT 'x' FROM generate_series(1, 50);
INSERT INTO {s}.child_{n} (parent_id) SELECT id FROM {s}.parent_{n};
INSERT INTO {s}.serial_{n} (note) SELECT 'x' FROM generate_series(1, 50);
INSERT INTO {s}.parts_{n} (at) SELECT i % 30 FROM generate_series(1, 90) i;
"""
TABLES_A_UNIT = 4
SMALL, LARGE = 3, 15


@pytest.fixture(scope="module")
def server() -> Iterator[EmbeddedCluster]:
    settings = {"shared_buffers": "16MB", "log_statement": "all", "log_line_prefix": "%a|%u|"}
    with EmbeddedCluster(find_server_bindir(None), find_pgbench(None), settings) as cluster:
        with psycopg.connect(cluster.connection.conninfo(), autocommit=True) as conn:
            for schema, units in (("small", SMALL), ("large", LARGE)):
                conn.execute(f"CREATE SCHEMA {schema}")
                for n in range(units):
                    conn.execute(UNIT.format(s=schema, n=n))
            conn.execute("ANALYZE")
        yield cluster


@dataclass
class Footprint:
    tables: int = 0
    most_locks: int = 0
    transactions: list[tuple[str, datetime]] = field(default_factory=list)
    statements: list[str] = field(default_factory=list)


def _survey(cluster: EmbeddedCluster, schema: str) -> Footprint:
    found = Footprint()
    with psycopg.connect(cluster.connection.conninfo(), autocommit=True) as watcher:

        def observe(pid: int, what: str) -> None:
            row = watcher.execute(
                "SELECT (SELECT count(*) FROM pg_locks WHERE pid = %s), "
                "(SELECT xact_start FROM pg_stat_activity WHERE pid = %s)",
                (pid, pid),
            ).fetchone()
            assert row is not None and row[1] is not None, "read outside a transaction"
            found.most_locks = max(found.most_locks, row[0])
            found.transactions.append((what, row[1]))

        log_start = cluster.log_path.stat().st_size
        _, tables = catalog.survey(cluster.connection, Options(schema=schema, observe=observe))
        found.statements = pkbench_statements(cluster, log_start)
    found.tables = len(tables)
    return found


def test_locks_statements_and_transactions_do_not_grow_with_the_tables(server: EmbeddedCluster) -> None:
    small, large = _survey(server, "small"), _survey(server, "large")
    assert (small.tables, large.tables) == (SMALL * TABLES_A_UNIT, LARGE * TABLES_A_UNIT)
    # Five times the tables, the same locks at once: a table's (and its indexes'), never the survey's.
    assert small.most_locks > 0
    assert large.most_locks <= small.most_locks + 5, (small.most_locks, large.most_locks)
    # A transaction per table at least, each begun afresh: none spans the survey.
    for footprint in (small, large):
        starts = [start for _, start in footprint.transactions]
        assert len(set(starts)) == len(starts), "a transaction was observed twice"
        assert starts == sorted(starts)
        assert sum(what.startswith("table ") for what, _ in footprint.transactions) >= footprint.tables
        assert footprint.transactions[0][0] == "catalog: tables"
    # A few statements for the catalog, a few a table: 48 tables more cost at most 8 statements each.
    extra = len(large.statements) - len(small.statements)
    assert 0 < extra <= 8 * (large.tables - small.tables), (len(small.statements), len(large.statements))
    catalog_statements = len(small.statements) - 8 * small.tables
    assert catalog_statements <= 40
    for footprint in (small, large):
        assert [s for s in footprint.statements if not READ_ONLY_STATEMENT.match(s)] == []
        # Every read inside a transaction of its own: nothing runs between them.
        inside = False
        for statement in footprint.statements:
            if statement.startswith("BEGIN"):
                assert not inside
                inside = True
            elif statement.startswith("ROLLBACK"):
                inside = False
            else:
                assert inside, f"outside a transaction: {statement}"
        assert not any(s.startswith(("SAVEPOINT", "RELEASE")) for s in footprint.statements)
