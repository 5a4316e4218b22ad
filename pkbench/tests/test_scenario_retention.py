"""The retention scenario at a tiny size: a sliding window of rows under autovacuum, the key's index followed
over time. Besides a random and a time-ordered key it runs a sequence prefix that wraps every 16,384 rows,
six times within the run, each time after the rows of its previous round have left the window."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from pkbench.run import runner
from pkbench.run.options import Options
from pkbench.scenario import file as scenario
from pkbench.summary.timeline import figures

WINDOW = 5000
THROUGH = 100000
WRAPPING = "seq-wrap-64x256"


@pytest.fixture(scope="module")
def retention(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, dict[str, Any]]]:
    base = tmp_path_factory.mktemp("retention")
    text = (Path(scenario.__file__).parent / "builtin" / "retention.toml").read_text()
    # The wrapping strategy's sequence, made by the schema step (a strategy of a config file has no prelude;
    # its default casts the name at run time, so the check before the schema step passes).
    text = text.replace(
        '"CREATE SEQUENCE records_n_seq",',
        '"CREATE SEQUENCE records_n_seq", "CREATE SEQUENCE records_key_seq",',
    )
    # VACUUM before each stretch as well as autovacuum: on a loaded machine autovacuum alone may fall behind a
    # run this short, and whether freed pages come back must not depend on that.
    text = text.replace("checkpoint = true", "checkpoint = true\nvacuum = true")
    (base / "retention.toml").write_text(text)
    (base / "strategies.toml").write_text(
        f'[[strategy]]\nname = "{WRAPPING}"\ntype = "uuid"\nextensions = ["sequuid"]\n'
        "default = \"uuid_sequence_nextval('records_key_seq'::text::regclass, 64, 256)\"\n"
        'order = "wrapping"\n'
    )
    out = base / "results"
    runner.execute(
        Options(
            report=False,
            scenario=str(base / "retention.toml"),
            strategies=["uuid-v4", "uuid-v7", WRAPPING],
            config=base / "strategies.toml",
            parameters={"rows": WINDOW, "churn_rows": THROUGH},
            out=out,
        )
    )
    data = json.loads((out / "results.json").read_text())
    return out, {s["name"]: s for s in data["strategies"]}


def samples(strategy: dict[str, Any]) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = strategy["timelines"]["retention"]
    return found


def test_every_stretch_is_sampled_and_the_window_holds(
    retention: tuple[Path, dict[str, dict[str, Any]]],
) -> None:
    _, strategies = retention
    for name, strategy in strategies.items():
        assert strategy["status"] == "ok", (name, strategy["error"])
        timeline = samples(strategy)
        assert [s["rows_inserted"] for s in timeline] == [THROUGH * i // 10 for i in range(11)]
        for stretch in timeline[1:]:
            assert stretch["inserts_per_s"] > 0
            assert stretch["page_splits"] >= 0 and stretch["pages_reused"] >= 0
            # A checkpoint opens every stretch: its first change to each page writes an image.
            assert stretch["wal_fpi_bytes_per_insert"] > 0
        assert timeline[-1]["autovacuums"] is not None
        assert strategy["snapshots"]["sizes_after_retention"]["table_bytes"] > 0


def test_random_keys_never_empty_a_page_time_ordered_keys_free_and_reuse_them(
    retention: tuple[Path, dict[str, dict[str, Any]]],
) -> None:
    v4, v7 = (figures(samples(retention[1][name])) for name in ("uuid-v4", "uuid-v7"))
    start_pages = samples(retention[1]["uuid-v7"])[0]["leaf_pages"]
    assert v4["pages_freed"] <= 2
    assert v4["pages_reused"] == 0
    assert v7["pages_freed"] >= start_pages
    # Once VACUUM's freed pages become reusable, splits of the time-ordered key take them.
    assert v7["late_reuse_share"] >= 0.8
    assert v7["density"] >= 0.8
    assert v4["density"] <= v7["density"] - 0.1


def test_a_prefix_that_wraps_after_its_rows_left_refills_freed_pages(
    retention: tuple[Path, dict[str, dict[str, Any]]],
) -> None:
    wrapping = figures(samples(retention[1][WRAPPING]))
    start_pages = samples(retention[1][WRAPPING])[0]["leaf_pages"]
    assert wrapping["pages_freed"] >= start_pages
    assert wrapping["late_reuse_share"] >= 0.8


def test_the_summary_answers_both_questions(retention: tuple[Path, dict[str, dict[str, Any]]]) -> None:
    text = (retention[0] / "summary.md").read_text()
    assert "## Over time: retention" in text
    assert (
        "**Prefixed keys: do they refill freed pages, or cost like random keys?**" in text
        and f"- {WRAPPING}: VACUUM freed " in text
    )
    assert "**Keys that never come back: how much does the index grow?**" in text and "- uuid-v7: " in text
