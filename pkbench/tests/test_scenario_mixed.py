"""The mixed scenario at a tiny size: three read/insert/update mixes, a latency per statement, HOT counted."""

from __future__ import annotations

import json
from typing import Any

import pytest

from pkbench.run import runner
from pkbench.run.options import Options
from pkbench.strategies import keygen_sql

ROWS = 20000
MIXES = ["read-90-insert-10", "read-10-insert-90", "read-50-insert-30-update-20"]


@pytest.fixture(scope="module")
def mixed(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict[str, Any]]:
    out = tmp_path_factory.mktemp("mixed") / "results"
    options = Options(
        report=False,
        scenario="mixed",
        strategies=["bigint", "snowflake"],
        # 1,000 transactions per client in each mix rather than two seconds' worth: the rarest statements
        # (the two updates, a tenth of a mix each) still run about 200 times, enough for their percentiles
        # and for the HOT share to sit near its half.
        parameters={
            "rows": ROWS,
            "key_sample": 500,
            "duration_s": 2,
            "transactions": 1000,
            "clients": 2,
            "jobs": 1,
        },
        interleave=False,
        out=out,
    )
    runner.execute(options)
    data = json.loads((out / "results.json").read_text())
    return {s["name"]: s for s in data["strategies"]}


def test_every_mix_runs_with_percentiles_per_statement(mixed: dict[str, dict[str, Any]]) -> None:
    for name, strategy in mixed.items():
        assert strategy["status"] == "ok", (name, strategy["error"])
        workloads = {w["name"]: w for w in strategy["workloads"]}
        assert list(workloads) == MIXES
        expected = {
            "read-90-insert-10": ["read", "insert"],
            "read-10-insert-90": ["read", "insert"],
            "read-50-insert-30-update-20": ["read", "insert", "update-hot", "update-indexed"],
        }
        for mix, statements in expected.items():
            workload = workloads[mix]
            assert workload["transactions"] > 0 and workload["failed_transactions"] == 0
            assert [s["name"] for s in workload["statements"]] == statements
            for statement in workload["statements"]:
                latency = statement["latency_ms"]
                assert 0 < latency["p50"] <= latency["p95"] <= latency["p99"] <= latency["max"], statement
        # The inserts of the mixes landed: the table grew past its prefill.
        size = workloads["read-50-insert-30-update-20"]["sizes_at_end"]["table_bytes"]
        assert size > strategy["sizes_after_prefill"]["table_bytes"]


def test_updates_of_an_unindexed_column_are_hot_and_of_an_indexed_one_are_not(
    mixed: dict[str, dict[str, Any]],
) -> None:
    for strategy in mixed.values():
        counted = strategy["queries"]["hot-updates"]["records"]
        assert counted["updates"] == counted["hot_updates"] + counted["non_hot_updates"]
        # Half the updates change data (HOT, with fillfactor's room on the page), half the indexed tag
        # (never HOT): about half of them are HOT, whichever the key.
        assert counted["updates"] > 20
        assert 0.25 < counted["hot_updates"] / counted["updates"] < 0.75, counted


def test_snowflake_runs_from_sql_created_in_the_schema(mixed: dict[str, dict[str, Any]]) -> None:
    snowflake = mixed["snowflake"]
    assert snowflake["generator_source"] == "SQL objects created in the run's schema"
    assert snowflake["default_expression"] == "pkbench_snowflake()"
    # Its layout and node are in the results with it.
    assert keygen_sql.SNOWFLAKE_LAYOUT in snowflake["description"]
