"""The wal scenario at a tiny size, inside a real memory cap: WAL split, splits, blocks and hit ratios."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from conftest import run_cli

from pkbench.run import runner
from pkbench.run.options import Options
from pkbench.server import memcap

MB = 1024**2
ROWS = 50000
TIERS = ["tier-1-shared-buffers", "tier-2-page-cache", "tier-3-beyond-memory"]


@pytest.fixture(scope="module")
def wal(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    if os.geteuid() != 0:
        pytest.skip("the memory tier needs root")
    out = tmp_path_factory.mktemp("wal") / "results"
    options = Options(
        report=False,
        scenario="wal",
        strategies=["bigint", "uuid-v4", "uuid-v7"],
        # Indexes of a hundred pages and more: a window's random inserts land on most of them, a time-ordered
        # window's on a few. A fixed count rather than three seconds' worth: the figures compared are per
        # insert, and every strategy's window then holds as many.
        parameters={
            "rows": ROWS,
            "rows_medium": 25000,
            "rows_small": 5000,
            "duration_s": 3,
            "transactions": 500,
            "clients": 2,
        },
        out=out,
        memory_limit_bytes=256 * MB,
        interleave=False,
    )
    runner.execute(options)
    data: dict[str, Any] = json.loads((out / "results.json").read_text())
    return data


def per_transaction(workload: dict[str, Any], figure: str) -> float:
    value = workload[figure]
    if isinstance(value, dict):
        value = value["records_id_key"]
    return float(value) / workload["transactions"]


def tier(data: dict[str, Any], strategy: str, name: str) -> dict[str, Any]:
    found = next(s for s in data["strategies"] if s["name"] == strategy)
    assert found["status"] == "ok", found["error"]
    return next(w for w in found["workloads"] if w["name"] == name)


def test_the_run_records_its_memory_limit(wal: dict[str, Any]) -> None:
    assert wal["machine"]["memory_limit_bytes"] == 256 * MB
    assert wal["scenario"]["parameters"]["rows"] == ROWS


def test_every_tier_has_the_wal_figures(wal: dict[str, Any]) -> None:
    for strategy in ("bigint", "uuid-v4", "uuid-v7"):
        for name in TIERS:
            workload = tier(wal, strategy, name)
            assert workload["transactions"] > 0
            assert workload["wal_fpi_bytes"] is not None and workload["wal_record_bytes"] > 0
            # A one-row insert and its commit: the records alone are 100 to 400 bytes.
            assert 100 < workload["wal_record_bytes_per_transaction"] < 400
            assert workload["wal_fpi_bytes_per_transaction"] >= 0
            assert workload["page_splits"] >= workload["page_splits_by_relation"]["records_id_key"] >= 0
            assert workload["wal_distinct_blocks"]["records_id_key"] >= 1
            assert 0 < workload["hit_ratio"]["records_id_key"] <= 1
            assert not {u["metric"] for u in workload["unavailable"]} & {"wal_fpi_bytes", "page_splits"}


def test_random_keys_write_more_wal_per_insert_than_time_ordered_ones(wal: dict[str, Any]) -> None:
    for name in TIERS[1:]:
        v4, v7, bigint = (tier(wal, s, name) for s in ("uuid-v4", "uuid-v7", "bigint"))
        total = {
            label: w["wal_fpi_bytes_per_transaction"] + w["wal_record_bytes_per_transaction"]
            for label, w in (("v4", v4), ("v7", v7), ("bigint", bigint))
        }
        # Each index page's first change after the checkpoint costs a full-page image; the more inserts the
        # window holds, the more of them find their page imaged already: the ratio is not fixed, the order is.
        assert total["v4"] > 1.3 * total["v7"]
        assert total["v4"] > 1.3 * total["bigint"]
        # The difference is full-page images: a random insert after the checkpoint mostly finds its page not
        # imaged yet, a time-ordered one keeps writing the same few rightmost pages (totals: a slow window
        # raises a per-transaction figure of the few images v7 writes).
        assert v4["wal_fpi_bytes"] > 10 * max(v7["wal_fpi_bytes"], 8192)
        assert v4["wal_distinct_blocks"]["records_id_key"] > 3 * v7["wal_distinct_blocks"]["records_id_key"]
        assert per_transaction(v4, "wal_distinct_blocks") > per_transaction(v7, "wal_distinct_blocks")


def test_the_random_index_grows_with_each_tier(wal: dict[str, Any]) -> None:
    sizes = [tier(wal, "uuid-v4", name)["sizes_at_end"]["indexes"]["records_id_key"] for name in TIERS]
    assert sizes == sorted(sizes) and sizes[0] < sizes[-1]
    v7_end = tier(wal, "uuid-v7", TIERS[-1])["sizes_at_end"]["indexes"]["records_id_key"]
    assert sizes[-1] > v7_end, "half-full random leaves make the larger index"


def test_memory_limit_is_refused_with_dsn(tmp_path: Path) -> None:
    result = run_cli(
        "run", "wal", "--memory-limit", "200MB", "--dsn", "host=/nonexistent", "--out", str(tmp_path / "o")
    )
    assert result.returncode != 0
    assert result.stderr.strip().splitlines() == [
        "pkbench: error: --memory-limit applies to the embedded server only, not with --dsn"
    ]


def test_memory_limit_that_is_not_a_size_is_one_line(tmp_path: Path) -> None:
    result = run_cli("run", "wal", "--memory-limit", "lots", "--out", str(tmp_path / "o"))
    assert result.returncode != 0
    assert result.stderr.strip().splitlines() == [
        "pkbench: error: memory limit 'lots' is not a size such as 700MB or 2GB"
    ]


def test_memory_limit_without_root_is_one_error(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(os, "geteuid", lambda: 1000)
    options = Options(scenario="wal", out=tmp_path / "o", memory_limit_bytes=200 * MB)
    with pytest.raises(memcap.MemoryCapError, match="needs root"):
        runner.execute(options)
    assert not (tmp_path / "o").exists()
