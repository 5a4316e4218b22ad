"""The migrate scenario at a tiny size: a table of uuid v4 keys whose default switches to v7, against a table
that was v7 from the start. After the switch both insert v7 keys; the migrated table's insertion point sits
inside its index rather than at its right edge, so its pages split in half instead of filling up."""

from __future__ import annotations

import json
from typing import Any

import pytest

from pkbench.run import runner
from pkbench.run.options import Options

N = 20000


@pytest.fixture(scope="module")
def migrate(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict[str, Any]]:
    out = tmp_path_factory.mktemp("migrate") / "results"
    runner.execute(
        Options(
            report=False,
            scenario="migrate",
            # 5,000 inserts after the switch rather than three seconds' worth: splits and pages are counted
            # per insert, and 5,000 still split a few dozen pages in each index.
            parameters={"rows": N, "duration_s": 3, "transactions": 2500, "clients": 2},
            interleave=False,
            out=out,
        )
    )
    data = json.loads((out / "results.json").read_text())
    return {s["name"]: s for s in data["strategies"]}


def after_switch(strategy: dict[str, Any]) -> dict[str, Any]:
    found: dict[str, Any] = strategy["workloads"][0]
    assert found["name"] == "after-switch"
    return found


def pkey(strategy: dict[str, Any], stage: str) -> dict[str, Any]:
    figures: dict[str, Any] = strategy["density"][stage]["records_pkey"]
    return figures


def test_both_tables_take_v7_keys_after_the_switch(migrate: dict[str, dict[str, Any]]) -> None:
    for name, strategy in migrate.items():
        assert strategy["status"] == "ok", (name, strategy["error"])
        assert after_switch(strategy)["transactions"] > 100
        assert strategy["sizes_after_prefill"]["primary_key_bytes"] > 0
    assert pkey(migrate["uuid-v4-to-v7"], "before-switch")["avg_leaf_density"] <= 0.8
    assert pkey(migrate["uuid-v7"], "before-switch")["avg_leaf_density"] >= 0.85


def test_the_migrated_index_splits_pages_in_half_and_grows_faster(migrate: dict[str, dict[str, Any]]) -> None:
    migrated, native = migrate["uuid-v4-to-v7"], migrate["uuid-v7"]

    def splits_per_insert(strategy: dict[str, Any]) -> float:
        window = after_switch(strategy)
        splits: float = window["page_splits_by_relation"]["records_pkey"] / window["transactions"]
        return splits

    def pages_per_insert(strategy: dict[str, Any]) -> float:
        grown = pkey(strategy, "after-switch")["leaf_pages"] - pkey(strategy, "before-switch")["leaf_pages"]
        return grown / after_switch(strategy)["transactions"]

    # At the right edge a page fills to 90% before it splits; inside the index it splits half full.
    assert splits_per_insert(migrated) > 1.5 * splits_per_insert(native)
    assert pages_per_insert(migrated) > 1.4 * pages_per_insert(native)
    assert pkey(native, "after-switch")["avg_leaf_density"] >= 0.85
