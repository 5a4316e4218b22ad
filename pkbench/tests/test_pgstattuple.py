"""Index density and table tuples from pgstattuple, on tiny tables where the answer is known."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import psycopg
import pytest
from conftest import SERVERS, embedded_connection, server_id

from pkbench.probes.pgstattuple import PgstattupleUnavailable, index_density, table_tuples


@pytest.fixture(scope="module", params=SERVERS, ids=server_id)
def conn(request: pytest.FixtureRequest) -> Iterator[psycopg.Connection[Any]]:
    with embedded_connection(request.param) as connection:
        connection.execute("CREATE TABLE ordered_keys (n int, id bigint PRIMARY KEY)")
        connection.execute("CREATE TABLE random_keys (n int, id uuid PRIMARY KEY)")
        connection.execute("INSERT INTO ordered_keys SELECT g, g FROM generate_series(1, 20000) g")
        connection.execute(
            "INSERT INTO random_keys SELECT g, gen_random_uuid() FROM generate_series(1, 20000) g"
        )
        yield connection


def test_right_edge_inserts_pack_leaves_and_random_inserts_leave_them_two_thirds_full(
    conn: psycopg.Connection[Any],
) -> None:
    ordered = index_density(conn, "ordered_keys_pkey")
    random = index_density(conn, "random_keys_pkey")
    # The rightmost leaf splits at the fillfactor (90%); a leaf split in the middle starts half full.
    assert 0.85 <= ordered["avg_leaf_density"] <= 0.92
    assert 0.55 <= random["avg_leaf_density"] <= 0.80
    assert random["leaf_pages"] > ordered["leaf_pages"]
    assert ordered["index_bytes"] == 8192 * (1 + ordered["internal_pages"] + ordered["leaf_pages"])
    assert ordered["deleted_pages"] == ordered["empty_pages"] == 0
    assert ordered["tree_level"] == 1


def test_deleting_the_oldest_half(conn: psycopg.Connection[Any]) -> None:
    before = {t: index_density(conn, f"{t}_pkey") for t in ("ordered_keys", "random_keys")}
    conn.execute("DELETE FROM ordered_keys WHERE n <= 10000")
    conn.execute("DELETE FROM random_keys WHERE n <= 10000")

    tuples = table_tuples(conn, "random_keys")
    assert tuples["tuple_count"] == 10000
    assert tuples["dead_tuple_count"] == 10000
    assert tuples["dead_tuple_fraction"] == pytest.approx(tuples["tuple_fraction"], rel=0.05)
    assert 0 <= tuples["free_fraction"] < 0.1

    conn.execute("VACUUM ordered_keys, random_keys")
    ordered = index_density(conn, "ordered_keys_pkey")
    random = index_density(conn, "random_keys_pkey")
    # Time-ordered keys: the old half of the index is whole pages, which VACUUM deletes; the rest stays full.
    assert ordered["deleted_pages"] >= 0.4 * before["ordered_keys"]["leaf_pages"]
    assert ordered["avg_leaf_density"] >= 0.85
    # Random keys: every leaf loses about half its entries and keeps its page; density halves.
    assert random["deleted_pages"] <= 0.05 * before["random_keys"]["leaf_pages"]
    assert random["avg_leaf_density"] <= 0.6 * before["random_keys"]["avg_leaf_density"]
    assert random["index_bytes"] == before["random_keys"]["index_bytes"], "VACUUM does not shrink the file"
    assert table_tuples(conn, "random_keys")["dead_tuple_count"] == 0


def test_an_empty_index_has_no_density(conn: psycopg.Connection[Any]) -> None:
    conn.execute("CREATE TABLE no_rows (id bigint PRIMARY KEY)")
    density = index_density(conn, "no_rows_pkey")
    assert density["avg_leaf_density"] is None
    assert density["leaf_pages"] == 0
    assert table_tuples(conn, "no_rows")["tuple_fraction"] == 0


def test_unknown_relation_is_unavailable(conn: psycopg.Connection[Any]) -> None:
    with pytest.raises(PgstattupleUnavailable, match="no_such_index"):
        index_density(conn, "no_such_index")
    with pytest.raises(PgstattupleUnavailable, match="no_such_table"):
        table_tuples(conn, "no_such_table")
