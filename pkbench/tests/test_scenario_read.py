"""The read scenario at a tiny size: every read workload runs by key; the figures are plausible."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from pkbench.run import runner
from pkbench.run.options import Options

ROWS = 20000
KEY_SAMPLE = 200  # a range scan then covers about ROWS / KEY_SAMPLE = 100 rows


@pytest.fixture(scope="module")
def read_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("read") / "results"
    options = Options(
        scenario="read",
        strategies=["bigint", "uuid-v4", "uuid-v4-text", "uuid-v7"],
        parameters={
            "rows": ROWS,
            "key_sample": KEY_SAMPLE,
            "duration_s": 1,
            # A fixed count per client rather than a second's worth: the figures read here are per
            # transaction (pages touched, hits), which a few hundred transactions give as well.
            "transactions": 250,
            "clients": 2,
            "jobs": 1,
            "brin_pages_per_range": 4,
        },
        interleave=False,
        out=out,
    )
    runner.execute(options)
    return out


@pytest.fixture(scope="module")
def read(read_dir: Path) -> dict[str, dict[str, Any]]:
    data = json.loads((read_dir / "results.json").read_text())
    return {s["name"]: s for s in data["strategies"]}


def workloads(strategy: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {w["name"]: w for w in strategy["workloads"]}


def test_every_read_workload_runs_for_every_strategy(read: dict[str, dict[str, Any]]) -> None:
    for name, strategy in read.items():
        assert strategy["status"] == "ok", (name, strategy["error"])
        measured = workloads(strategy)
        assert list(measured) == [
            "point-lookup",
            "range-scan",
            "pagination",
            "join",
            "point-lookup-fragmented",
            "range-scan-fragmented",
        ]
        for workload in measured.values():
            assert workload["transactions"] > 0 and workload["failed_transactions"] == 0
            assert workload["tps"] > 0
            assert workload["latency_ms"]["p50"] <= workload["latency_ms"]["p99"]
            # Reads by key go through the primary key, and the join through the child table's index.
            assert workload["hit_ratio"]["records_pkey"] is not None
        assert measured["join"]["hit_ratio"]["children_record_id_idx"] is not None


def test_indexes_grown_by_inserts_are_larger_for_wider_and_random_keys(
    read: dict[str, dict[str, Any]],
) -> None:
    pkey = {name: s["sizes_after_prefill"]["primary_key_bytes"] for name, s in read.items()}
    assert pkey["uuid-v4-text"] > pkey["uuid-v4"] > pkey["bigint"]
    assert (
        read["uuid-v4"]["sizes_after_prefill"]["table_bytes"]
        > read["bigint"]["sizes_after_prefill"]["table_bytes"]
    )


def heap_pages_per_transaction(strategy: dict[str, Any], workload: str) -> float:
    measured = workloads(strategy)[workload]
    return float(measured["blocks_accessed"]["records"]) / measured["transactions"]


def test_a_range_of_random_keys_is_scattered_over_the_table(read: dict[str, dict[str, Any]]) -> None:
    # 100 consecutive bigint keys sit on one or two heap pages; 100 consecutive random uuids on dozens.
    # Pages touched, not TPS: on a busy 2-core machine TPS of a 2-second window is noise.
    bigint = heap_pages_per_transaction(read["bigint"], "range-scan")
    random = heap_pages_per_transaction(read["uuid-v4"], "range-scan")
    assert bigint < 5
    assert random > 5 * bigint


def test_a_random_key_makes_the_merge_join_visit_the_heap_once_per_row(
    read: dict[str, dict[str, Any]],
) -> None:
    joins = {name: s["queries"]["bulk-join"] for name, s in read.items()}
    for name, plans in joins.items():
        assert plans["hash"]["row_node"] == "Hash Join", name
        assert plans["merge"]["row_node"] == "Merge Join", name
        assert plans["merge"]["indexes"] == ["records_pkey", "picks_record_id_idx"], name
        # About one record in five is picked.
        assert 0.15 * ROWS < plans["hash"]["rows"] == plans["merge"]["rows"] < 0.25 * ROWS, name
    # In key order, bigint's and v7's records sit on consecutive heap pages; v4's are anywhere, so the
    # merge join's walk in key order fetches a heap page for nearly every joined row.
    assert joins["uuid-v4"]["merge"]["blocks_per_row"] > 0.5
    assert joins["uuid-v4"]["merge"]["blocks_per_row"] > 10 * joins["bigint"]["merge"]["blocks_per_row"]
    assert joins["uuid-v4"]["merge"]["blocks_per_row"] > 10 * joins["uuid-v7"]["merge"]["blocks_per_row"]
    # The hash join scans both tables whole: wider keys mean more pages, whatever their order.
    assert joins["uuid-v4"]["hash"]["blocks_per_row"] > joins["bigint"]["hash"]["blocks_per_row"]
    assert joins["uuid-v4-text"]["hash"]["blocks_per_row"] > joins["uuid-v4"]["hash"]["blocks_per_row"]


def test_brin_on_an_ordered_key_is_tiny_and_reads_few_blocks(read: dict[str, dict[str, Any]]) -> None:
    for name in ("bigint", "uuid-v7"):
        indexes = read[name]["snapshots"]["sizes_with_brin"]["indexes"]
        assert indexes["records_id_brin"] < 0.1 * indexes["records_pkey"], (name, indexes)
        brin = read[name]["queries"]["brin"]
        for query in ("key-range-minmax", "key-range-minmax-multi"):
            assert brin[query]["indexes"][-1] == query.replace("key-range-minmax", "records_id_brin").replace(
                "-multi", "_multi"
            )
            # The middle rows / key_sample rows of the key order, whatever the key.
            assert brin[query]["rows"] == brin["key-range-btree"]["rows"]
            assert abs(brin[query]["rows"] - ROWS // KEY_SAMPLE) <= 1
            assert brin[query]["shared_blocks"] < 40, (name, query, brin[query])
    # On random keys every block range holds every key: the BRIN index leads to the whole table.
    v4 = read["uuid-v4"]["queries"]["brin"]
    # Serial plans: the same rows through every index.
    assert (
        v4["key-range-minmax"]["rows"]
        == v4["key-range-minmax-multi"]["rows"]
        == v4["key-range-btree"]["rows"]
    )
    heap_pages = read["uuid-v4"]["snapshots"]["sizes_with_brin"]["table_bytes"] / 8192
    assert v4["key-range-minmax"]["shared_blocks"] > 0.8 * heap_pages
    # minmax_multi exists for uuid, not for text: that query says so instead of measuring a scan.
    assert "skipped" in read["uuid-v4-text"]["queries"]["brin"]["key-range-minmax-multi"]
    # created_at follows insertion order for every key kind: its BRIN reads few blocks for all.
    for name, strategy in read.items():
        for query in ("time-range-minmax", "time-range-minmax-multi"):
            figures = strategy["queries"]["brin"][query]
            assert figures["row_node"] == "Bitmap Heap Scan" and 0 < figures["rows"] < 3 * ROWS / KEY_SAMPLE
            assert figures["shared_blocks"] < 40, (name, query, figures)


def test_rows_refilled_into_freed_space_scatter_an_ordered_key(read: dict[str, dict[str, Any]]) -> None:
    # Before: neighbouring keys share heap pages. After a random half is deleted and N/2 rows fill the
    # holes, both the survivors and the newcomers are spread thinner: a range touches more pages.
    for name in ("bigint", "uuid-v7"):
        before = heap_pages_per_transaction(read[name], "range-scan")
        after = heap_pages_per_transaction(read[name], "range-scan-fragmented")
        assert after > 1.2 * before, (name, before, after)


def test_the_report_draws_the_buffers_per_row_of_the_explained_queries(read_dir: Path) -> None:
    page = (read_dir / "report.html").read_text()
    assert 'id="chart-steps-query-blocks"' in page
    # text keys have no BRIN minmax_multi: the chart says so rather than drawing nothing for them.
    assert "brin key-range-minmax-multi: n/a for uuid-v4-text (only_if is not true" in page
