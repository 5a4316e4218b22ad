"""insert-scaling at a tiny size: every index variant at every prefill size, with the fill times."""

from __future__ import annotations

import json
from typing import Any

import pytest

from pkbench import results
from pkbench.run import runner
from pkbench.run.options import Options
from pkbench.scenario import file as scenario
from pkbench.scenario import published
from pkbench.server import iolimit
from pkbench.steps import PgbenchStep

VARIANTS = ["pk", "unique", "btree", "noindex"]
INDEX_OF = {"pk": "records_pkey", "unique": "records_id_key", "btree": "records_id_idx"}


@pytest.fixture(scope="module")
def scaling_run(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    out = tmp_path_factory.mktemp("insert-scaling") / "results"
    options = Options(
        report=False,
        scenario="insert-scaling",
        strategies=["bigint", "uuid-v4-char32"],
        # rows_small well above what a window inserts: the fills top the table up to each size. A window
        # inserts a fixed 500 rows rather than a second's worth: what is read of it is per row or per size.
        parameters={
            "rows": 80000,
            "rows_small": 30000,
            "duration_s": 1,
            "transactions": 250,
            "clients": 2,
            "jobs": 1,
        },
        interleave=False,
        out=out,
    )
    runner.execute(options)
    data: dict[str, Any] = json.loads((out / "results.json").read_text())
    data["_summary_md"] = (out / "summary.md").read_text()
    data["_out"] = out
    return data


@pytest.fixture(scope="module")
def scaling(scaling_run: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {s["name"]: s for s in scaling_run["strategies"]}


def test_every_variant_is_measured_empty_small_and_large(scaling: dict[str, dict[str, Any]]) -> None:
    for name, strategy in scaling.items():
        assert strategy["status"] == "ok", (name, strategy["error"])
        names = [w["name"] for w in strategy["workloads"]]
        assert names == [f"{v}-{size}" for v in VARIANTS for size in ("empty", "small", "large")]
        for workload in strategy["workloads"]:
            assert workload["transactions"] > 0 and workload["failed_transactions"] == 0
            assert [s["sql"] for s in workload["statements"]] == ["INSERT INTO records DEFAULT VALUES;"]


def test_each_prefill_size_is_timed(scaling: dict[str, dict[str, Any]]) -> None:
    for strategy in scaling.values():
        durations = strategy["step_durations_s"]
        for variant in VARIANTS:
            assert durations[f"{variant}-fill-small"] > 0
            assert durations[f"{variant}-fill-large"] > durations[f"{variant}-fill-small"] / 10


def test_each_variant_has_exactly_its_index(scaling: dict[str, dict[str, Any]]) -> None:
    for strategy in scaling.values():
        for workload in strategy["workloads"]:
            variant = workload["name"].split("-")[0]
            indexes = workload["sizes_at_end"]["indexes"]
            assert set(indexes) == ({INDEX_OF[variant]} if variant in INDEX_OF else set())


def test_the_table_reaches_each_size(scaling: dict[str, dict[str, Any]]) -> None:
    # 80000 rows of a bigint column need about 350 heap pages, 30000 about 130; a window adds a few.
    for strategy in scaling.values():
        ends = {w["name"]: w["sizes_at_end"]["table_bytes"] for w in strategy["workloads"]}
        for variant in VARIANTS:
            assert ends[f"{variant}-empty"] < ends[f"{variant}-small"] < ends[f"{variant}-large"]


def test_random_char32_keys_make_a_larger_index_than_bigint(scaling: dict[str, dict[str, Any]]) -> None:
    def pkey_bytes_per_row(name: str) -> float:
        workload = next(w for w in scaling[name]["workloads"] if w["name"] == "pk-large")
        rows = 80000 + int(workload["transactions"])  # the fill's total, then one row per transaction
        return int(workload["sizes_at_end"]["indexes"]["records_pkey"]) / rows

    # A char(32) entry takes 52 bytes with its line pointer (48 aligned) against bigint's 20, in leaves that
    # random inserts split half full and fill to about 70%, where in-order inserts fill them to 90%: about
    # 3.3x per row. The bound leaves room for the small table's upper levels and partly filled last leaves.
    assert pkey_bytes_per_row("uuid-v4-char32") > 2.5 * pkey_bytes_per_row("bigint")


def test_the_summary_times_the_large_primary_key_fill_with_its_real_rows(scaling_run: dict[str, Any]) -> None:
    text = scaling_run["_summary_md"]
    for strategy in scaling_run["strategies"]:
        prefill = strategy["prefill"]
        assert prefill["step"] == "pk-fill-large"
        assert prefill["duration_s"] == strategy["step_durations_s"]["pk-fill-large"]
        # The small size and the window before it left fewer than 80000 - 30000 rows to insert.
        assert 0 < prefill["rows"] <= 50000
        assert f"{prefill['rows']:,} rows" in text
    assert "80,000 rows" not in text and "Size at sizes_after_prefill" in text


def test_the_slow_disk_preset_is_scaled_with_the_studys_disk_and_direct_io() -> None:
    slow = scenario.load("insert-scaling").at_scale("slow-disk")
    scaled = scenario.load("insert-scaling").at_scale("scaled")
    # The same points as `scaled` (the study's 1M and 10M rows at 16MB of shared_buffers), on a slow disk.
    for name in ("rows_small", "rows", "duration_s"):
        assert slow.parameters[name] == scaled.parameters[name]
    assert slow.settings["shared_buffers"] == scaled.settings["shared_buffers"] == "16MB"
    assert iolimit.write_iops(slow.parameters, embedded=True) == 100
    assert iolimit.write_iops(scaled.parameters, embedded=True) is None
    assert slow.settings["debug_io_direct"] == "data,wal"
    windows = [s.name for s in slow.steps if isinstance(s, PgbenchStep)]
    assert windows == [f"{v}-{size}" for v in ("pk", "noindex") for size in ("empty", "small", "large")]


def test_seed_001s_load_is_compared_at_its_stage_per_row(scaling_run: dict[str, Any]) -> None:
    # The study loaded 1M rows right after its empty-table window: our pk-fill-small, not the headline fill.
    study = next(p for p in published.of_builtin("insert-scaling") if p.study == "001")
    load = next(f for f in study.figures if f.metric == published.INSERT_PER_MILLION)
    assert load.step == "pk-fill-small"
    for strategy in results.load(scaling_run["_out"]).strategies:
        rows = strategy.step_rows["pk-fill-small"]
        # The table held the empty window's inserts; the fill topped it up to rows_small.
        assert 0 < rows < 30000
        assert strategy.step_rows["pk-fill-large"] == (strategy.prefill.rows if strategy.prefill else None)
        per_million = strategy.step_durations_s["pk-fill-small"] / rows * 1e6
        assert published.ours(load, strategy).value == pytest.approx(per_million)
