"""The WAL probe on a real server: FPI versus record bytes, page splits and distinct index blocks."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import psycopg
import pytest
from conftest import SERVERS, embedded_connection, server_id

from pkbench.probes.walinspect import WalInspectUnavailable, WalWindow


@pytest.fixture(scope="module", params=SERVERS, ids=server_id)
def conn(request: pytest.FixtureRequest) -> Iterator[psycopg.Connection[Any]]:
    with embedded_connection(request.param) as connection:
        yield connection


def slots(conn: psycopg.Connection[Any]) -> int:
    row = conn.execute("SELECT count(*) FROM pg_replication_slots").fetchone()
    assert row is not None
    return int(row[0])


def test_random_keys_touch_more_index_blocks_and_split_more_than_sequential(
    conn: psycopg.Connection[Any],
) -> None:
    conn.execute("CREATE TABLE random_keys (id uuid PRIMARY KEY)")
    conn.execute("CREATE TABLE ordered_keys (id bigint PRIMARY KEY)")
    # Both indexes start with 20000 keys; then 2000 more go in, after a checkpoint, so every first touch
    # of a page writes a full-page image.
    conn.execute("INSERT INTO random_keys SELECT gen_random_uuid() FROM generate_series(1, 20000)")
    conn.execute("INSERT INTO ordered_keys SELECT g FROM generate_series(1, 20000) g")
    conn.execute("CHECKPOINT")
    with WalWindow(conn) as window:
        assert slots(conn) == 1, "the window's WAL is held by a slot"
        conn.execute("INSERT INTO random_keys SELECT gen_random_uuid() FROM generate_series(1, 2000)")
        conn.execute("INSERT INTO ordered_keys SELECT g FROM generate_series(20001, 22000) g")
        inspection = window.inspect({"random": "random_keys_pkey", "ordered": "ordered_keys_pkey"})
    assert slots(conn) == 0, "the slot is dropped with the window"

    pages = conn.execute("SELECT pg_relation_size('random_keys_pkey') / 8192").fetchone()
    assert pages is not None
    # 2000 random keys over ~100 pages touch nearly all of them; 2000 ordered keys fill ~6 pages at the end.
    assert inspection.distinct_blocks["random"] >= 0.8 * pages[0]
    assert inspection.distinct_blocks["ordered"] <= 12
    assert inspection.distinct_blocks["random"] > 5 * inspection.distinct_blocks["ordered"]
    assert inspection.page_splits_by_relation["random"] > inspection.page_splits_by_relation["ordered"] >= 1
    assert inspection.page_splits >= sum(inspection.page_splits_by_relation.values())
    # Every random insert after the checkpoint lands on a page not yet imaged: FPIs dominate the WAL.
    assert inspection.fpi_bytes > 8192 * 0.5 * inspection.distinct_blocks["random"]
    assert inspection.record_bytes > 4000 * 50, "4000 heap and 4000 index insert records at least"
    assert inspection.wal_bytes == inspection.fpi_bytes + inspection.record_bytes
    assert inspection.records >= 8000


def test_figures_per_transaction(conn: psycopg.Connection[Any]) -> None:
    conn.execute("CREATE TABLE per_transaction (id bigint PRIMARY KEY)")
    with WalWindow(conn, slot_name="pkbench_test_figures") as window:
        for n in range(1, 101):
            conn.execute("INSERT INTO per_transaction VALUES (%s)", (n,))
        figures = window.inspect({"per_transaction_pkey": "per_transaction_pkey"}).figures(transactions=100)
    assert figures["wal_record_bytes"] == pytest.approx(100 * figures["wal_record_bytes_per_transaction"])
    # A heap insert, an index insert and a commit record: 150 to 1000 bytes each transaction.
    assert 150 < figures["wal_record_bytes_per_transaction"] < 1000
    # The first insert into an empty btree writes its root leaf and points the metapage at it.
    assert figures["wal_distinct_blocks"] == {"per_transaction_pkey": 2}
    assert figures["page_splits_by_relation"] == {"per_transaction_pkey": 0}
    assert window.inspect().figures(transactions=0)["page_splits_per_transaction"] is None


def test_a_window_without_writes_is_measured_not_refused(conn: psycopg.Connection[Any]) -> None:
    conn.execute("CREATE TABLE quiet (id bigint PRIMARY KEY)")
    with WalWindow(conn) as window:
        inspection = window.inspect({"quiet_pkey": "quiet_pkey"})
    # Only the server's own background records (a running-transactions snapshot) may fall in the window.
    assert inspection.records <= 2
    assert inspection.page_splits == 0
    assert inspection.distinct_blocks == {"quiet_pkey": 0}


def test_unknown_relation_is_reported_as_unavailable(conn: psycopg.Connection[Any]) -> None:
    with WalWindow(conn) as window, pytest.raises(WalInspectUnavailable, match="no_such_index"):
        window.inspect({"x": "no_such_index"})
    assert slots(conn) == 0


def test_without_privilege_the_window_is_unavailable(conn: psycopg.Connection[Any]) -> None:
    conn.execute("CREATE ROLE walinspect_nobody LOGIN")
    conn.execute("SET ROLE walinspect_nobody")
    try:
        with pytest.raises(WalInspectUnavailable, match="pg_walinspect window"), WalWindow(conn):
            pass
    finally:
        conn.execute("RESET ROLE")
