"""The read scenario at a tiny size: every read workload runs by key; the figures are plausible."""

from __future__ import annotations

import json
from typing import Any

import pytest

from pkbench import runner

ROWS = 20000
KEY_SAMPLE = 200  # a range scan then covers about ROWS / KEY_SAMPLE = 100 rows


@pytest.fixture(scope="module")
def read(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict[str, Any]]:
    out = tmp_path_factory.mktemp("read") / "results"
    options = runner.Options(
        scenario="read",
        strategies=["bigint", "uuid-v4", "uuid-v4-text"],
        parameters={"rows": ROWS, "key_sample": KEY_SAMPLE, "duration_s": 2, "clients": 2, "jobs": 1},
        out=out,
    )
    runner.execute(options)
    data = json.loads((out / "results.json").read_text())
    return {s["name"]: s for s in data["strategies"]}


def workloads(strategy: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {w["name"]: w for w in strategy["workloads"]}


def test_every_read_workload_runs_for_every_strategy(read: dict[str, dict[str, Any]]) -> None:
    for name, strategy in read.items():
        assert strategy["status"] == "ok", (name, strategy["error"])
        measured = workloads(strategy)
        assert list(measured) == ["point-lookup", "range-scan", "pagination", "join"]
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
