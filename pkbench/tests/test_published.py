"""The studies' published figures in the scenario files: parsed, mapped onto strategies and metrics, and
compared with ours by the agreement rule."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from pkbench.errors import PkbenchError
from pkbench.results import Prefill, Sizes, StrategyResult, WorkloadResult
from pkbench.scenario import file as scenario
from pkbench.scenario import published
from pkbench.scenario.published import (
    LARGER,
    NOT_MEASURED,
    NOT_REPRODUCED,
    REPRODUCED,
    SMALLER,
    agreement,
    share_agreement,
)

SEEDS = {
    "war": ["000"],
    "insert-scaling": ["001", "001"],
    "bloat": ["002"],
    "wal": ["004", "003", "004", "003"],
}


@pytest.mark.parametrize(("name", "seeds"), SEEDS.items())
def test_each_study_scenario_carries_its_study(name: str, seeds: list[str]) -> None:
    studies = scenario.load(name).published
    assert [s.study for s in studies] == seeds
    for study in studies:
        for item in study.figures:
            # A direction (a study whose results are charts) names the strategies it compares instead.
            assert item.share or item.relative_to in item.values or bool(item.direction)
            assert published.unit_of(item)


def test_seed_000_is_its_results_summary() -> None:
    (war,) = scenario.load("war").published
    by_label = {f.label: f for f in war.figures}
    rate = by_label["Average rate"]
    assert dict(rate.values) == {"uuid-v4-text": 2421, "uuid-v4": 2670, "uuid-v7": 3420, "bigint": 3480}
    assert rate.workload == "insert-one-million"
    assert war.name_of("uuid-v4-text") == "uuid::text"
    assert by_label["Time to insert one million rows"].metric == published.WINDOW_TIME


BASE = """
name = "t"
[parameters]
rows = 10
clients = 1
jobs = 1
duration_s = 1
batch_rows = 10

[[steps]]
kind = "sql"
name = "schema"
statements = ["CREATE TABLE records (id {key_type} PRIMARY KEY {key_default})"]

[[steps]]
kind = "pgbench"
name = "window"
scripts = [{ name = "insert", sql = "INSERT INTO records DEFAULT VALUES;" }]

[[published]]
study = "x"
title = "a study"
source = "somewhere"
hardware = "a machine"
version = "PostgreSQL 10"
command = "pgbench"

[[published.figures]]
label = "TPS"
unit = "tps"
"""


GOOD_FIGURE = 'metric = "tps"\nworkload = "window"\nvalues = { bigint = 1 }\n'


def load(tmp_path: Path, figure: str, base: str = BASE) -> scenario.Scenario:
    path = tmp_path / "t.toml"
    path.write_text(base + figure)
    return scenario.load(str(path))


def test_a_well_formed_figure_loads(tmp_path: Path) -> None:
    loaded = load(tmp_path, 'metric = "tps"\nworkload = "window"\nvalues = { bigint = 2, uuid-v4 = 1 }\n')
    (item,) = loaded.published[0].figures
    assert (item.metric, item.workload, item.relative_to) == ("tps", "window", "bigint")


@pytest.mark.parametrize(
    ("figure", "message"),
    [
        ('metric = "tsp"\nworkload = "window"\nvalues = { bigint = 1 }', "unknown metric 'tsp'"),
        ('metric = "tps"\nworkload = "window"\nvalues = { bigint = 1, uuid-v5 = 2 }', "unknown strategy"),
        ('metric = "tps"\nworkload = "windw"\nvalues = { bigint = 1 }', "workload 'windw' is not a pgbench"),
        ('metric = "tps"\nvalues = { bigint = 1 }', "metric 'tps' needs a workload"),
        ('metric = "tps"\nworkload = "window"\nvalues = { uuid-v4 = 1 }', "relative_to 'bigint'"),
        ('metric = "step-time"\nstep = "window"\nvalues = { bigint = 1 }', "step 'window' is not a sql"),
        ('metric = "prefill"\nworkload = "window"\nvalues = { bigint = 1 }', "takes no workload"),
        ('metric = "tps"\nworkload = "window"\nvalues = { bigint = 0 }', "must not be 0"),
        (
            'metric = "tps"\nworkload = "window"\nvalues = { bigint = 1 }\nvalue = 1',
            "unknown key 'value'",
        ),
    ],
)
def test_a_typo_fails_loudly(tmp_path: Path, figure: str, message: str) -> None:
    with pytest.raises(PkbenchError, match="published, #1") as error:
        load(tmp_path, figure + "\n")
    assert message in str(error.value)


def test_a_study_name_for_an_unknown_strategy_is_refused(tmp_path: Path) -> None:
    text = BASE.replace('command = "pgbench"', 'command = "pgbench"\nnames = { bigint2 = "sequence" }')
    with pytest.raises(PkbenchError, match="names: unknown strategy 'bigint2'"):
        load(tmp_path, GOOD_FIGURE, text)


@pytest.mark.parametrize(
    ("theirs", "mine", "word"),
    [
        (0.77, 0.80, REPRODUCED),  # v4 TPS / bigint: 23% slower there, 20% here
        (0.77, 0.60, REPRODUCED),  # ln 0.60 = -0.51 is 1.96x ln 0.77 = -0.26: within a factor of 2
        (0.77, 0.50, LARGER),  # ln 0.50 = -0.69 is 2.65x the study's effect
        (0.77, 0.90, SMALLER),  # ln 0.90 = -0.11 is 0.40x the study's effect
        (0.77, 0.97, NOT_REPRODUCED),  # within 5%: no difference here
        (0.77, 1.20, NOT_REPRODUCED),  # the other way
        (1.00, 1.03, REPRODUCED),  # no difference there, none here
        (0.98, 0.85, NOT_REPRODUCED),  # none there, one here
        (2.19, 1.60, REPRODUCED),  # ln 1.60 = 0.47 is 0.60x ln 2.19 = 0.78
        (2.19, 1.30, SMALLER),  # ln 1.30 = 0.26 is 0.34x
        (4.43, 22.82, LARGER),  # seed 001's load time: ln 22.8 = 3.13 is 2.1x ln 4.43 = 1.49
        (3.12, 6.48, REPRODUCED),  # ln 6.48 = 1.87 is 1.64x ln 3.12 = 1.14
        (10.56, 0.78, NOT_REPRODUCED),
        (0.77, None, NOT_MEASURED),
    ],
)
def test_agreement_rule_on_fixed_inputs(theirs: float, mine: float | None, word: str) -> None:
    assert agreement(theirs, mine) == word


def test_agreement_is_symmetric_on_the_log_scale() -> None:
    # An effect twice the study's and one half of it are both at the edge of "reproduced", for a slowdown
    # and for a speed-up alike.
    for theirs in (0.5, 2.0, 1.3, 1 / 1.3):
        effect = math.log(theirs)
        assert agreement(theirs, math.exp(effect * 1.99)) == REPRODUCED
        assert agreement(theirs, math.exp(effect * 0.51)) == REPRODUCED
        assert agreement(theirs, math.exp(effect * 2.01)) == LARGER
        assert agreement(theirs, math.exp(effect * 0.49)) == SMALLER


@pytest.mark.parametrize(
    ("theirs", "mine", "word"),
    [
        (82.5, 57.5, REPRODUCED),  # seed 003: 75-90% of WAL as full-page images, ours 57.5%
        (95.0, 57.5, REPRODUCED),
        (82.5, 30.0, SMALLER),
        (10.0, 25.0, LARGER),
        (82.5, 0.0, NOT_REPRODUCED),
        (82.5, None, NOT_MEASURED),
    ],
)
def test_a_stated_share_is_compared_as_it_is(theirs: float, mine: float | None, word: str) -> None:
    assert share_agreement(theirs, mine) == word


def test_seed_003_states_shares_of_the_wal_and_of_the_small_scale_rate() -> None:
    (_, ssd, *_) = scenario.load("wal").published
    assert ssd.study == "003"
    assert {f.metric for f in ssd.figures} == {published.FPI_SHARE, "tps"}
    assert all(f.share and f.unit == "%" for f in ssd.figures)
    rate = next(f for f in ssd.figures if f.metric == "tps")
    assert rate.base_workload == "tier-1-shared-buffers"
    strategy = StrategyResult(
        "uuid-v4",
        "",
        "uuid",
        None,
        workloads=[
            WorkloadResult("tier-1-shared-buffers", "", tps=1000.0),
            WorkloadResult("tier-3-beyond-memory", "", tps=400.0, wal_fpi_bytes=75, wal_record_bytes=25),
        ],
    )
    rows = {f.label: published.compare(f, {"uuid-v4": strategy})[0] for f in ssd.figures}
    assert rows[rate.label].ours.value == pytest.approx(40.0)
    assert rows[rate.label].word == REPRODUCED  # 0.40 of its rate against the study's 0.50
    fpi = next(f for f in ssd.figures if f.metric == published.FPI_SHARE)
    assert rows[fpi.label].ours.value == pytest.approx(75.0)
    assert rows[fpi.label].word == REPRODUCED


def test_comparison_reads_ours_as_ratios_to_the_baseline() -> None:
    item = published.PublishedFigure(
        "TPS", "tps", "tps", {"uuid-v4": 260.0, "bigint": 1300.0}, "bigint", workload="w"
    )
    strategies = {
        "bigint": StrategyResult("bigint", "", "", None, workloads=[WorkloadResult("w", "", tps=1000.0)]),
        "uuid-v4": StrategyResult("uuid-v4", "", "", None, workloads=[WorkloadResult("w", "", tps=700.0)]),
    }
    rows = {row.strategy: row for row in published.compare(item, strategies)}
    assert rows["uuid-v4"].theirs_ratio == pytest.approx(0.2)
    assert rows["uuid-v4"].ours_ratio == pytest.approx(0.7)
    assert rows["uuid-v4"].word == SMALLER
    assert rows["bigint"].word is None
    missing = published.compare(item, {"bigint": strategies["bigint"]})
    assert [r.word for r in missing if r.strategy == "uuid-v4"] == [NOT_MEASURED]


def test_a_step_time_and_a_key_index_size_are_read_from_their_places() -> None:
    strategy = StrategyResult(
        "bigint",
        "",
        "",
        None,
        step_durations_s={"vacuum": 2.5},
        sizes_after_prefill=Sizes(0, None, 0, {"records_pkey": 10 * 2**20}),
        snapshots={"sizes_after_copy": Sizes(0, None, 0, {"records_pkey": 30 * 2**20})},
    )
    vacuum = published.PublishedFigure("VACUUM", "step-time", "s", {"bigint": 1.0}, "bigint", step="vacuum")
    after = published.PublishedFigure(
        "size", "key-index-size", "MiB", {"bigint": 1.0}, "bigint", snapshot="sizes_after_copy"
    )
    assert published.ours(vacuum, strategy).value == 2.5
    assert published.ours(after, strategy).value == 30.0
    per_million = published.PublishedFigure("fill", "insert-time-per-million", "s", {"bigint": 1.0}, "bigint")
    strategy.prefill = Prefill(250_000, 2.0, None)
    assert published.ours(per_million, strategy).value == 8.0
    strategy.prefill = Prefill(0, 0.0, None)
    assert published.ours(per_million, strategy).value is None


def test_scales_pick_parameters_settings_and_steps() -> None:
    war = scenario.load("war")
    study = war.at_scale("study")
    assert (study.parameters["rows"], study.parameters["transactions"]) == (20_000_000, 100_000)
    assert study.settings["shared_buffers"] == "1GB"
    assert [s.name for s in study.steps if isinstance(s, scenario.PgbenchStep)] == ["insert-one-million"]
    assert "insert-one-million" not in [s.name for s in war.steps], "a study-only step stays out by default"
    with pytest.raises(PkbenchError, match="--scale huge: scenario war has no such scale"):
        war.at_scale("huge")


def test_a_step_naming_an_unknown_scale_is_refused(tmp_path: Path) -> None:
    text = BASE.replace('name = "window"\n', 'name = "window"\nscales = ["studdy"]\n')
    with pytest.raises(PkbenchError, match="unknown scale 'studdy'"):
        load(tmp_path, GOOD_FIGURE, text)
