"""The partitioned scenario at a tiny size: where the inserts land under range and hash partitioning, the
harness's range bounds against PostgreSQL's routing, drop against DELETE for retention, a round of every timed
window per layout, nothing left."""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import assert_nothing_left, run_cli

from pkbench.results.files import load_json
from pkbench.run.interleaved_rounds import paired_only
from pkbench.scenario import file as scenario_file
from pkbench.server.topology import Topology
from pkbench.steps import PgbenchStep
from pkbench.strategies.builtin import BUILTIN
from pkbench.strategies.model import time_kind
from pkbench.summary.partitioned import spread_verdict

ROWS = 40000
CLIENTS = 4
# Each layout's timed windows: the range-partitioned table's, then the hash-partitioned table's.
WINDOWS = (
    "range-insert",
    "range-lookup-by-key",
    "range-time-read",
    "range-drop-oldest",
    "hash-insert",
    "hash-lookup-by-key",
)


@pytest.fixture(scope="module")
def partitioned() -> Iterator[tuple[dict[str, dict[str, Any]], Path]]:
    server_tmpdir = Path(tempfile.mkdtemp(prefix="pkbench-test-"))
    server_tmpdir.chmod(0o755)
    out = server_tmpdir.parent / (server_tmpdir.name + "-out")
    # A slower clock than the default keeps a strategy's whole fill in an hour's partition, two at an hour's
    # edge: the retention compares dropping a partition of thousands of rows with deleting them. One paired
    # round of a hundred transactions per client in each window proves the windows' mechanics; their precision
    # is the committed run's.
    done = run_cli(
        "run", "--no-report", "partitioned", "--strategies", "bigint,uuid-v4,uuid-v7,ulid",
        "--rows", str(ROWS), "--set", "batch_rows=4000", "--clock-rate", "1000", "--out", str(out),
        "--paired", "--rounds", "1", "--transactions", "100", "--set", "warmup_s=0",
        "--set", f"clients={CLIENTS}", "--set", "jobs=2",
        tmpdir=server_tmpdir,
    )  # fmt: skip
    try:
        assert done.returncode == 0, done.stderr
        assert_nothing_left(server_tmpdir)
        yield {s["name"]: s for s in load_json(out)["strategies"]}, out
    finally:
        shutil.rmtree(server_tmpdir, ignore_errors=True)
        shutil.rmtree(out, ignore_errors=True)


def test_time_kind_names_the_keys_that_lead_with_their_time() -> None:
    kinds = {s.name: time_kind(s.column_type, s.generators[0]) for s in BUILTIN}
    assert kinds["uuid-v7"] == "v7" and kinds["ulid"] == "ulid" and kinds["uuid-v6"] == "v6"
    assert kinds["uuid-v4"] == kinds["bigint"] == kinds["uuid-v7-text"] == kinds["seq-time"] == ""


def test_time_ordered_keys_land_in_the_newest_range_partition_and_hash_spreads(
    partitioned: tuple[dict[str, dict[str, Any]], Path],
) -> None:
    strategies, _ = partitioned
    for name, strategy in strategies.items():
        assert strategy["status"] == "ok", (name, strategy["error"])
        spread = strategy["queries"]["spread"]
        # The newest 2,000 rows are minutes of virtual time: one hour's partition, two at an hour's edge.
        if name != "uuid-v4":
            assert spread["range"]["partitions_touched"] <= 2 and spread["range"]["hottest_share"] >= 0.5
        # Hash partitioning spreads every key over the 8 partitions, none far above 1/8.
        assert spread["hash"]["partitions_touched"] == 8 and spread["hash"]["hottest_share"] < 0.2, name
        # The fill spans minutes of virtual time: one hour's partition (two at an hour's edge) holds every
        # row, and the other range partitions' key indexes stay empty.
        sizes = spread["range-index-sizes"]
        assert 1 <= sizes["partitions_with_rows"] <= 2, (name, sizes)
        assert sizes["largest_index_bytes"] > 8192 * 10, (name, sizes)


def test_range_bounds_match_postgres_routing(partitioned: tuple[dict[str, dict[str, Any]], Path]) -> None:
    for name, strategy in partitioned[0].items():
        routing = strategy["queries"]["spread"]["range-routing"]
        assert routing == {"rows_checked": ROWS, "misplaced": 0}, name


def test_a_range_query_on_a_time_ordered_key_prunes_partitions(
    partitioned: tuple[dict[str, dict[str, Any]], Path],
) -> None:
    for name in ("uuid-v7", "ulid"):
        queries = partitioned[0][name]["queries"]["time-range"]
        assert queries["range-by-key"]["rows"] == queries["none-by-key"]["rows"] > 0
        # Runtime pruning: of 96 partitions only those near the key range are in the plan (an index each).
        assert 1 <= len(queries["range-by-key"]["indexes"]) <= 8, queries["range-by-key"]
    assert partitioned[0]["uuid-v4"]["queries"]["time-range"]["range-by-key"].get("skipped")


def test_dropping_the_oldest_partition_beats_delete_and_vacuum_on_wal(
    partitioned: tuple[dict[str, dict[str, Any]], Path],
) -> None:
    for name, strategy in partitioned[0].items():
        rows = strategy["queries"]["oldest-partition"]["rows"]
        assert rows["partition_rows"] == rows["delete_rows"] > 1000, name
        retention = strategy["queries"]["retention"]["wal"]
        assert retention["copy_rows_after"] == ROWS - rows["delete_rows"]
        assert retention["drop_wal_bytes"] < retention["delete_vacuum_wal_bytes"], (name, retention)


def test_each_layouts_fill_wal_is_measured(partitioned: tuple[dict[str, dict[str, Any]], Path]) -> None:
    for name, strategy in partitioned[0].items():
        wal = strategy["queries"]["spread"]["insert-wal"]
        # Every row of a fill writes at least its heap tuple and its key index entry to WAL.
        for layout in ("range", "hash", "none"):
            assert wal[f"{layout}_wal_bytes"] > ROWS * 30, (name, wal)


def test_the_summary_says_per_layout_whether_the_key_concentrates_the_inserts(
    partitioned: tuple[dict[str, dict[str, Any]], Path],
) -> None:
    summary = (partitioned[1] / "summary.md").read_text()
    assert "## Partitioned: where the inserts land, and retention" in summary
    lines = summary.splitlines()
    assert any(line.startswith("| uuid-v7 | range on the key's time |") for line in lines)
    assert any(line.startswith("| uuid-v4 | range on created_at |") for line in lines)
    hash_rows = [line for line in lines if "| hash |" in line]
    assert len(hash_rows) == 4 and all("spread over 8 partitions" in line for line in hash_rows), hash_rows
    assert sum("| none |" in line and "every insert enters its one key index" in line for line in lines) == 4


def test_spread_verdict_needs_the_interval_above_the_bar() -> None:
    one = {"inserts": 2000, "hottest_inserts": 2000, "partitions_touched": 1}
    assert spread_verdict(one).startswith("concentrated: one partition received 100.0%")
    # 90% of 100 inserts: the interval reaches below 90%, so it is not called concentrated.
    few = {"inserts": 100, "hottest_inserts": 90, "partitions_touched": 2}
    assert spread_verdict(few).startswith("spread over 2 partitions: the hottest received 90.0% [")
    even = {"inserts": 800, "hottest_inserts": 110, "partitions_touched": 8}
    assert spread_verdict(even).startswith("spread over 8 partitions")
    none = {"inserts": 0, "hottest_inserts": 0, "partitions_touched": 0}
    assert spread_verdict(none) == "no inserts were counted"


def test_a_round_measures_every_layouts_windows(partitioned: tuple[dict[str, dict[str, Any]], Path]) -> None:
    for name, strategy in partitioned[0].items():
        windows = {w["name"]: w for w in strategy["workloads"]}
        assert tuple(windows) == WINDOWS, name
        for window in windows.values():
            assert len(window["rounds"]) == 1 and window["transactions"] > 0, (name, window["name"])
        # The window inserts landed: p_range took them in the partition made for every later row.
        assert windows["range-insert"]["tps"] > 0 and windows["hash-insert"]["tps"] > 0, name
        # Two drops per client, each of its own partition (none left undropped, none dropped twice: either
        # would end the window with an error).
        assert windows["range-drop-oldest"]["transactions"] == 2 * CLIENTS, name


def test_the_drop_window_keeps_paired_rounds_and_no_fill_is_cut_into_parts() -> None:
    scenario = scenario_file.load("partitioned")
    # Every fill runs whole in its strategy's turn: a range fill cut into parts alternating with the other
    # strategies' would outrun its partitions' hours and take their WAL into its own marks.
    assert scenario.summary.insert is None
    windows = [s for s in scenario.steps if isinstance(s, PgbenchStep)]
    assert tuple(w.name for w in windows) == WINDOWS
    # A shared window would drop partitions for as long as it lasts: the drops run as a fixed count, alone.
    only = paired_only(scenario.steps, Topology(), scenario.parameters)
    assert set(only) == {"range-drop-oldest"} and "2 transactions per client" in only["range-drop-oldest"]
