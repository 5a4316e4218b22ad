"""Work per transaction on a real cluster: physical facts of fixed pgbench windows (-t)."""

from __future__ import annotations

import dataclasses
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psycopg
import pytest

from pkbench.probes import machine, work
from pkbench.server.builds import find_pgbench, find_server_bindir
from pkbench.server.embedded import EmbeddedCluster

CLIENTS = 2
INSERT = "INSERT INTO work_probe (payload) VALUES (md5(random()::text));"
LOOKUP = "\\set id random(1, 20000)\nSELECT payload FROM work_probe WHERE id = :id;"


def _cluster(settings: dict[str, str]) -> EmbeddedCluster:
    return EmbeddedCluster(
        find_server_bindir(None), find_pgbench(None), {"shared_buffers": "32MB", **settings}
    )


@pytest.fixture(scope="module")
def preloaded() -> Iterator[EmbeddedCluster]:
    with _cluster({"shared_preload_libraries": "pg_stat_statements", "autovacuum": "off"}) as cluster:
        _prefill(cluster)
        yield cluster


def _prefill(cluster: EmbeddedCluster) -> None:
    with psycopg.connect(cluster.connection.conninfo(), autocommit=True) as conn:
        conn.execute("CREATE TABLE work_probe (id bigserial PRIMARY KEY, payload text NOT NULL)")
        conn.execute("INSERT INTO work_probe (payload) SELECT md5(g::text) FROM generate_series(1, 20000) g")
        conn.execute("VACUUM ANALYZE work_probe")
        conn.execute("CHECKPOINT")


def _pgbench(cluster: EmbeddedCluster, script: str, transactions_per_client: int, workdir: Path) -> int:
    (workdir / "script.sql").write_text(script + "\n")
    result = subprocess.run(
        [
            str(cluster.pgbench),
            "--no-vacuum",
            f"--client={CLIENTS}",
            f"--transactions={transactions_per_client}",
            "--file=script.sql",
            cluster.connection.pgbench_database(),
        ],
        cwd=workdir,
        env=cluster.connection.environment(),
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr
    return CLIENTS * transactions_per_client


def _window(
    cluster: EmbeddedCluster, script: str, transactions_per_client: int, workdir: Path, **options: Any
) -> work.WorkPerTransaction:
    with psycopg.connect(cluster.connection.conninfo(), autocommit=True) as probe:
        before = work.read_snapshot(probe, local_server=True, create_extension=True, **options)
        transactions = _pgbench(cluster, script, transactions_per_client, workdir)
        after = work.read_snapshot(probe, local_server=True, since=before, **options)
    return work.per_transaction(before, after, transactions)


def test_an_insert_writes_wal_repeatably_and_costs_cpu(preloaded: EmbeddedCluster, tmp_path: Path) -> None:
    _window(preloaded, INSERT, 500, tmp_path)  # warm the caches and the statement entries
    first = _window(preloaded, INSERT, 3000, tmp_path)
    second = _window(preloaded, INSERT, 3000, tmp_path)
    for figures in (first, second):
        assert figures.transactions == 6000
        assert figures.sources["wal_bytes"].startswith("pg_stat_statements")
        # A heap tuple and a btree entry: over 100 bytes of WAL, and far below a page per insert.
        assert figures.wal_bytes is not None and 100 < figures.wal_bytes < 2000
        assert figures.shared_blocks_hit is not None and figures.shared_blocks_hit >= 2
        assert figures.shared_blocks_dirtied is not None
        assert figures.backend_cpu_ms is not None and figures.backend_cpu_ms > 0
        assert figures.statement_time_ms is not None and figures.statement_time_ms > 0
        assert figures.sources["statement_time_ms"].startswith("pg_stat_statements")
        assert figures.os_read_bytes is not None and figures.storage_read_bytes is not None
        assert figures.unavailable == []
    assert first.wal_bytes is not None and second.wal_bytes is not None
    assert second.wal_bytes == pytest.approx(first.wal_bytes, rel=0.05)
    assert first.shared_blocks_hit is not None and second.shared_blocks_hit is not None
    assert second.shared_blocks_hit == pytest.approx(first.shared_blocks_hit, rel=0.05)


def test_a_read_only_window_dirties_and_writes_nothing(preloaded: EmbeddedCluster, tmp_path: Path) -> None:
    _window(preloaded, LOOKUP, 500, tmp_path)
    figures = _window(preloaded, LOOKUP, 3000, tmp_path)
    assert figures.shared_blocks_dirtied is not None and figures.shared_blocks_dirtied < 0.01
    assert figures.wal_bytes is not None and figures.wal_bytes < 1
    # A lookup by primary key: the btree's root and leaf, and the heap page (a little more for the root's
    # level above the leaves once the index has several leaves).
    assert figures.shared_blocks_hit is not None and 2 <= figures.shared_blocks_hit < 6
    assert figures.backend_cpu_ms is not None and figures.backend_cpu_ms > 0


def test_without_pg_stat_statements_the_database_counts_and_reasons(tmp_path: Path) -> None:
    # Left empty, the embedded cluster's default (pg_stat_statements) is not preloaded.
    with _cluster({"autovacuum": "off", "shared_preload_libraries": ""}) as cluster:
        _prefill(cluster)
        figures = _window(cluster, INSERT, 1000, tmp_path)
    assert figures.sources["shared_blocks_hit"].startswith("pg_stat_database")
    assert figures.sources["wal_bytes"].startswith("pg_stat_wal")
    assert figures.shared_blocks_hit is not None and figures.shared_blocks_hit > 0
    assert figures.wal_bytes is not None and figures.wal_bytes > 100
    assert figures.shared_blocks_dirtied is None and figures.shared_blocks_written is None
    reasons = {u.metric: u.reason for u in figures.unavailable}
    assert "pg_stat_statements is not in shared_preload_libraries" in reasons["shared_blocks_dirtied"]
    assert figures.statement_time_ms is None and "pg_stat_statements" in reasons["statement_time_ms"]


def test_a_server_that_is_not_local_says_so(preloaded: EmbeddedCluster) -> None:
    with psycopg.connect(preloaded.connection.conninfo(), autocommit=True) as probe:
        before = work.read_snapshot(probe, local_server=False)
        after = work.read_snapshot(probe, local_server=False, since=before)
    figures = work.per_transaction(before, after, 1)
    assert figures.backend_cpu_ms is None and figures.os_read_bytes is None
    reasons = {u.metric: u.reason for u in figures.unavailable}
    assert reasons["backend_cpu_ms"].startswith("the server is not local")
    with pytest.raises(ValueError, match="needs transactions"):
        work.per_transaction(before, after, 0)


def test_as_json_names_every_figure(preloaded: EmbeddedCluster, tmp_path: Path) -> None:
    figures = _window(preloaded, INSERT, 100, tmp_path)
    document = dataclasses.asdict(figures)
    assert document["transactions"] == 200
    assert set(figures.figures()) <= set(document)
    assert document["sources"]["backend_cpu_ms"].startswith("the postmaster's ended children")


def test_the_machine_probe_counts_the_server_and_pgbench_as_ours(
    preloaded: EmbeddedCluster, tmp_path: Path
) -> None:
    with psycopg.connect(preloaded.connection.conninfo(), autocommit=True) as probe:
        before = work.read_snapshot(probe, local_server=True)
        assert before.postmaster_pid is not None
        machine_before = machine.snapshot([before.postmaster_pid])
        _pgbench(preloaded, INSERT, 2000, tmp_path)
        after = work.read_snapshot(probe, local_server=True, since=before)
        machine_after = machine.snapshot([before.postmaster_pid])
    assert before.ended is not None and after.ended is not None
    assert machine_before is not None and machine_after is not None
    backend_ticks = after.ended.cpu_ticks - before.ended.cpu_ticks
    # Ours is the backends, plus pgbench itself and the server's other processes.
    assert machine_after.own_ticks - machine_before.own_ticks > backend_ticks > 0
    assert machine.window(machine_before, machine_after).own_fraction > 0
