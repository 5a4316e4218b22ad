"""The bloat scenario at a tiny size: density before and after deleting the oldest half, VACUUM, COPY 4N."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from pkbench.run import runner
from pkbench.run.options import Options

N = 20000


@pytest.fixture(scope="module")
def bloat(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, dict[str, Any]]]:
    out = tmp_path_factory.mktemp("bloat") / "results"
    runner.execute(
        Options(
            report=False, scenario="bloat", strategies=["bigint", "uuid-v4"], parameters={"rows": N}, out=out
        )
    )
    data = json.loads((out / "results.json").read_text())
    return out, {s["name"]: s for s in data["strategies"]}


def pkey(strategy: dict[str, Any], stage: str) -> dict[str, Any]:
    figures: dict[str, Any] = strategy["density"][stage]["records_pkey"]
    return figures


def table(strategy: dict[str, Any], stage: str) -> dict[str, Any]:
    figures: dict[str, Any] = strategy["density"][stage]["records"]
    return figures


def test_every_stage_is_measured_and_timed(bloat: tuple[Path, dict[str, dict[str, Any]]]) -> None:
    out, strategies = bloat
    for name, strategy in strategies.items():
        assert strategy["status"] == "ok", (name, strategy["error"])
        assert list(strategy["density"]) == ["after-insert", "after-delete", "after-vacuum", "after-copy"]
        for step in ("insert", "delete-oldest-half", "vacuum", "copy-4n"):
            assert strategy["step_durations_s"][step] > 0
        report = (out / "steps" / name / "vacuum.log").read_text()
        assert f"tuples: {N // 2} removed" in report


def test_rows_are_where_the_steps_put_them(bloat: tuple[Path, dict[str, dict[str, Any]]]) -> None:
    for strategy in bloat[1].values():
        assert table(strategy, "after-insert")["tuple_count"] == N
        assert table(strategy, "after-delete")["tuple_count"] == N // 2
        assert table(strategy, "after-delete")["dead_tuple_count"] == N // 2
        assert table(strategy, "after-vacuum")["dead_tuple_count"] == 0
        assert table(strategy, "after-copy")["tuple_count"] == N // 2 + 4 * N


def test_deleting_the_oldest_half_empties_pages_of_ordered_keys_and_thins_random_ones(
    bloat: tuple[Path, dict[str, dict[str, Any]]],
) -> None:
    bigint, v4 = bloat[1]["bigint"], bloat[1]["uuid-v4"]
    assert pkey(bigint, "after-insert")["avg_leaf_density"] >= 0.85
    assert 0.55 <= pkey(v4, "after-insert")["avg_leaf_density"] <= 0.8
    # The oldest bigint keys fill the left half of the index: VACUUM deletes those pages whole.
    assert pkey(bigint, "after-vacuum")["deleted_pages"] >= 0.4 * pkey(bigint, "after-insert")["leaf_pages"]
    assert pkey(bigint, "after-vacuum")["avg_leaf_density"] >= 0.8
    # The oldest random keys are everywhere: every leaf keeps its page with half its entries.
    assert pkey(v4, "after-vacuum")["deleted_pages"] <= 2
    assert pkey(v4, "after-vacuum")["avg_leaf_density"] <= 0.6 * pkey(v4, "after-insert")["avg_leaf_density"]


def test_after_the_copy_the_random_index_stays_larger_and_looser(
    bloat: tuple[Path, dict[str, dict[str, Any]]],
) -> None:
    bigint, v4 = bloat[1]["bigint"], bloat[1]["uuid-v4"]
    assert pkey(v4, "after-copy")["index_bytes"] > 1.3 * pkey(bigint, "after-copy")["index_bytes"]
    assert pkey(v4, "after-copy")["avg_leaf_density"] < pkey(bigint, "after-copy")["avg_leaf_density"]
    assert pkey(v4, "after-copy")["avg_leaf_density"] > pkey(v4, "after-vacuum")["avg_leaf_density"]


def test_the_summary_shows_the_stages_and_no_pgbench(bloat: tuple[Path, dict[str, dict[str, Any]]]) -> None:
    out, _ = bloat
    lines = (out / "summary.md").read_text().splitlines()
    setup = lines[2]
    header = next(line for line in lines if line.startswith("| Strategy |"))
    # The scenario runs sequuid's virtual clock; the summary says so above the table.
    assert "Virtual clock: sequuid.clock_rate 10000" in lines[4]
    assert "pgbench" not in setup and "TPS" not in header
    for column in (
        f"Time to insert {N:,} rows",
        "Time of delete-oldest-half",
        "Time of vacuum",
        "Time of copy-4n",
    ):
        assert f"| {column} |" in header


# sequuid's virtual clock at its highest rate turns the tiny fill's real milliseconds into hours of virtual
# time: v1's keys come from many of its 429.5 s cycles, each sweeping the whole key space again. At a tenth of
# it a fill on an idle machine spanned too few cycles and v1's index came out only 1.11x v6's.
FAST_CLOCK = 1000000


@pytest.fixture(scope="module")
def v1_against_v6(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict[str, Any]]:
    out = tmp_path_factory.mktemp("bloat-v1") / "results"
    runner.execute(
        Options(
            report=False,
            scenario="bloat",
            strategies=["uuid-v1", "uuid-v6"],
            parameters={"rows": N},
            clock_rate=FAST_CLOCK,
            out=out,
        )
    )
    data = json.loads((out / "results.json").read_text())
    return {s["name"]: s for s in data["strategies"]}


def test_v1_over_many_cycles_bloats_where_v6_stays_packed(v1_against_v6: dict[str, dict[str, Any]]) -> None:
    v1, v6 = v1_against_v6["uuid-v1"], v1_against_v6["uuid-v6"]
    assert v1["generator_source"] == v6["generator_source"] == "extension sequuid"
    # v6 keys ascend: rightmost splits leave full pages; each new v1 cycle splits pages in the middle. How far
    # v1's mean density falls depends on how many cycles the fill spans, which a fast idle machine keeps few
    # (0.81 against v6's 0.90 in one fresh-clone run, an index 1.13x v6's in another), so the bounds here are
    # the direction with a margin; VACUUM's pages below carry the study's claim.
    assert pkey(v6, "after-insert")["avg_leaf_density"] >= 0.85
    assert pkey(v1, "after-insert")["avg_leaf_density"] <= pkey(v6, "after-insert")["avg_leaf_density"] - 0.05
    assert pkey(v1, "after-insert")["index_bytes"] > 1.05 * pkey(v6, "after-insert")["index_bytes"]
    # The oldest half of v6 is the left half of its index, freed whole; v1's oldest rows are on every page.
    assert pkey(v6, "after-vacuum")["deleted_pages"] >= 0.4 * pkey(v6, "after-insert")["leaf_pages"]
    assert pkey(v1, "after-vacuum")["deleted_pages"] <= 0.1 * pkey(v1, "after-insert")["leaf_pages"]
    assert pkey(v1, "after-vacuum")["avg_leaf_density"] < 0.6 * pkey(v6, "after-vacuum")["avg_leaf_density"]
    assert pkey(v1, "after-copy")["index_bytes"] > pkey(v6, "after-copy")["index_bytes"]
