"""Each strategy's share of an interleaved window's statements (probes.statements): scripts tagged command by
command, and pg_stat_statements snapshots subtracted and attributed, pure."""

from __future__ import annotations

from pkbench.probes import statements
from pkbench.probes.statements import Entry, Snapshot


def test_every_sql_command_is_tagged_and_meta_commands_are_not() -> None:
    script = (
        "\\set n random(1, 10)\n"
        "-- a comment line\n"
        "INSERT INTO records (data)\n  VALUES (:n);\n"
        "SELECT ';' AS semi, \"a;b\" /* ; */ FROM records WHERE data = :n; SELECT 1;\n"
        "\\sleep 1 ms \\\n  \n"
    )
    tagged, commands = statements.tagged(script, "uuid-v4")
    tag = statements.tag("uuid-v4")
    assert commands == 3
    assert tagged == (
        "\\set n random(1, 10)\n"
        "-- a comment line\n"
        f"{tag}INSERT INTO records (data)\n  VALUES (:n);\n"
        f"{tag}SELECT ';' AS semi, \"a;b\" /* ; */ FROM records WHERE data = :n; {tag}SELECT 1;\n"
        "\\sleep 1 ms \\\n  \n"
    )
    assert statements.strategy_of(f"{tag}SELECT $1") == "uuid-v4"
    assert statements.strategy_of("SELECT $1") is None


def entry(strategy: str | None, calls: int, wal: int, time_ms: float = 1.0) -> Entry:
    return Entry(strategy, calls, time_ms, 10 * calls, calls, 2 * calls, 0, wal, calls // 10)


def test_each_strategy_gets_its_own_entries_growth_per_transaction() -> None:
    before = Snapshot({(10, 1, True): entry("bigint", 5, 500), (10, 9, True): entry("gone", 1, 1)}, 0)
    after = Snapshot(
        {
            (10, 1, True): entry("bigint", 105, 10_500, 3.0),
            (10, 2, True): entry("uuid-v4", 200, 40_000, 8.0),
            (10, 3, True): entry("uuid-v4", 100, 0, 2.0),
        },
        0,
    )
    found = statements.per_strategy(
        before, after, {"bigint": 100, "uuid-v4": 100}, {"bigint": 1, "uuid-v4": 3}, clients=2
    )
    bigint, uuid = found["bigint"], found["uuid-v4"]
    assert bigint.wal_bytes == 100.0 and bigint.statement_time_ms == 0.02
    assert bigint.shared_blocks_hit == 10.0 and bigint.shared_blocks_dirtied == 2.0
    assert uuid.wal_bytes == 400.0 and uuid.statement_time_ms == 0.1 and uuid.wal_fpi == 0.3
    assert uuid.sources["wal_bytes"] == statements.SOURCE and not uuid.unavailable
    # The statements of the transactions the two clients had under way at the window's end ran, and pgbench
    # did not count those transactions: still this strategy's own entries.
    in_flight = Snapshot({(10, 1, True): entry("bigint", 102, 10_200)}, 0)
    found = statements.per_strategy(Snapshot({}, 0), in_flight, {"bigint": 100}, {"bigint": 1}, clients=2)
    assert found["bigint"].wal_bytes == 102.0


def test_shared_entries_evictions_and_resets_leave_the_figures_unavailable() -> None:
    empty = Snapshot({}, 0)
    # Both strategies' statements under one query id (PostgreSQL 18): more calls than bigint's transactions
    # could make, and none at all for the other.
    merged = Snapshot({(10, 1, True): entry("bigint", 200, 100)}, 0)
    found = statements.per_strategy(
        empty, merged, {"bigint": 100, "uuid-v4": 100}, {"bigint": 1, "uuid-v4": 1}, clients=2
    )
    assert found["bigint"].wal_bytes is None and found["uuid-v4"].wal_bytes is None
    assert "share pg_stat_statements entries" in found["bigint"].unavailable[0].reason
    assert "no statement of this strategy's" in found["uuid-v4"].unavailable[0].reason
    evicted = Snapshot({(10, 1, True): entry("bigint", 100, 100)}, 3)
    found = statements.per_strategy(empty, evicted, {"bigint": 100}, {"bigint": 1}, clients=2)
    assert "evicted entries" in found["bigint"].unavailable[0].reason
    reset = statements.per_strategy(
        merged, Snapshot({(10, 1, True): entry("bigint", 5, 1)}, 0), {"bigint": 5}, {"bigint": 1}, clients=2
    )
    assert "reset" in reset["bigint"].unavailable[0].reason
    assert {u.metric for u in reset["bigint"].unavailable} == set(statements.FIGURES)


def test_an_entry_whose_text_was_unreadable_in_one_snapshot_keeps_its_strategy() -> None:
    # pg_stat_statements returns a NULL text while it garbage-collects its text file: the entry's counts still
    # belong to the strategy the other snapshot's text names, whichever snapshot missed it.
    for old, new in (("bigint", None), (None, "bigint")):
        before = Snapshot({(10, 1, True): entry(old, 5, 500)}, 0)
        after = Snapshot({(10, 1, True): entry(new, 105, 10_500)}, 0)
        found = statements.per_strategy(before, after, {"bigint": 100}, {"bigint": 1}, clients=2)
        assert found["bigint"].wal_bytes == 100.0 and not found["bigint"].unavailable
