"""Seed 002's freed pages: the bloat scenario's `--scale seed-002` preset, the deleted-pages share it is
scored on, and v1's cycles. The pure parts need no server; the last tests run the preset on tiny sizes."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from pkbench.results.files import load
from pkbench.run import runner
from pkbench.run.options import Options
from pkbench.scenario import file as scenario
from pkbench.scenario import published
from pkbench.scenario.figures import deleted_share
from pkbench.summary import document, pages

# The study's VACUUM VERBOSE: pages of each index and how many it had deleted.
STUDY_ROWS = 5_000_000
STUDY_PAGES = {"uuid-v1": (24991, 12111), "uuid-v6": (19253, 9624)}
COMMITTED_5M = Path(__file__).parents[1] / "docs" / "reproductions" / "bloat-5m"


def test_a_v1_cycle_is_two_to_the_32_ticks_of_100_ns() -> None:
    assert pytest.approx(429.4967296) == pages.V1_CYCLE_S
    assert pages.v1_cycles(429.4967296 / 3600) == pytest.approx(1)
    # 55.3 s at a rate of 1000 is 55,300 virtual seconds: 128.8 cycles.
    assert pages.v1_cycles(55.3 * 1000 / 3600) == pytest.approx(128.8, abs=0.1)


def density(leaf: int, internal: int, deleted: int) -> dict[str, Any]:
    return {"i": {"leaf_pages": leaf, "internal_pages": internal, "empty_pages": 0, "deleted_pages": deleted}}


def test_the_deleted_share_counts_every_page_as_vacuum_does() -> None:
    # pgstatindex leaves out the metapage; VACUUM VERBOSE's "pages in total" counts it.
    assert deleted_share(density(725, 7, 605), "i").value == pytest.approx(100 * 605 / 1338)
    assert deleted_share(density(10, 1, 0), "i").value == 0
    assert deleted_share(None, "i").value is None
    assert deleted_share(density(10, 1, 0), None).value is None
    assert deleted_share({"i": {"leaf_pages": 10}}, "i").value is None


def test_the_published_row_is_the_studys_counts_as_shares() -> None:
    (study,) = [p for p in published.of_builtin("bloat") if p.study == "002"]
    (row,) = [f for f in study.figures if f.metric == published.INDEX_PAGES_DELETED]
    assert row.share and row.step == "after-vacuum"
    for strategy, (total, deleted) in STUDY_PAGES.items():
        assert row.values[strategy] == pytest.approx(100 * deleted / total, abs=0.005)


def test_the_preset_keeps_the_studys_size_and_spans_one_cycle() -> None:
    preset = scenario.load("bloat").at_scale("seed-002")
    assert preset.int_parameter("rows") == STUDY_ROWS, "no size factor: the study's own N"
    assert preset.strategies == ("uuid-v1", "uuid-v6")
    assert preset.isolate, "v1 loads alone, so the clock runs only through its own fill"
    # The clock rate stands for the study's about one cycle on the 2-core machine of the committed runs: its
    # 5M-row v1 fill took this long there.
    committed = json.loads((COMMITTED_5M / "results.json").read_text())["clock"]
    fill_s = committed["virtual_hours_by_strategy"]["uuid-v1"]["steps"]["insert"] * 3600 / committed["rate"]
    rate = float(preset.parameters["clock_rate"])
    assert pages.v1_cycles(fill_s * rate / 3600) == pytest.approx(1, abs=0.1)


def run_v1(tmp: Path, rate: float) -> Path:
    out = tmp / f"rate-{rate:g}"
    runner.execute(
        Options(
            report=False,
            scenario="bloat",
            scale="seed-002",
            strategies=["uuid-v1"],
            parameters={"rows": 20000},
            clock_rate=rate,
            out=out,
        )
    )
    return out


def v1_after_vacuum(out: Path) -> dict[str, Any]:
    data = json.loads((out / "results.json").read_text())
    (strategy,) = data["strategies"]
    figures: dict[str, Any] = strategy["density"]["after-vacuum"]["records_pkey"]
    return figures


@pytest.fixture(scope="module")
def spans(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    tmp = tmp_path_factory.mktemp("seed-002")
    # A 20,000-row fill takes a fraction of a second: at 1000 it spans under one cycle, at 300,000 dozens
    # (fewer on a busy machine), as the default scale's committed run did.
    return {"one": run_v1(tmp, 1000), "many": run_v1(tmp, 300_000)}


def test_deleting_the_older_half_frees_whole_pages_only_within_about_a_cycle(spans: dict[str, Path]) -> None:
    one, many = v1_after_vacuum(spans["one"]), v1_after_vacuum(spans["many"])
    assert deleted_share({"k": one}, "k").value >= 30  # type: ignore[operator]
    assert deleted_share({"k": many}, "k").value <= 15  # type: ignore[operator]
    # This VACUUM deleted them: none is old enough yet for the free space map, as in the study's v1 VACUUM.
    assert one["reusable_pages"] == 0


def test_the_summary_shows_the_cycles_and_the_freed_pages(spans: dict[str, Path]) -> None:
    text = document.markdown(load(spans["many"]))
    assert "## Key index pages" in text
    line = next(x for x in text.splitlines() if x.startswith("Cycles of v1's low time bits"))
    cycles = float(line.split("uuid-v1 ")[1].split(".")[0].replace(",", "") or 0)
    assert cycles >= 10
    assert "| uuid-v1 | after-vacuum |" in text
    assert "Key index pages deleted by VACUUM, share of its pages" in text
