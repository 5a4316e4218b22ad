"""insert-scaling's `--scale slow-disk-large`: seed 001's 50M and 100M points, scaled by the rule the scenario
file documents (rows_ours = rows_study x our shared_buffers / 128MB), and scored against those points'
figures, not the 10M point's. Each test recomputes a study figure from the preset and the stated factor; only
the last runs a server (the preset's steps at a tiny size)."""

from __future__ import annotations

import json
import re
import tempfile
from dataclasses import replace
from pathlib import Path

import pytest
from conftest import OTHER_MAJOR
from test_iolimit import real_blkio

from pkbench import results
from pkbench.evidence import tables as evidence_tables
from pkbench.results import StrategyResult
from pkbench.run import runner
from pkbench.run.options import Options
from pkbench.scenario import file as scenario
from pkbench.scenario import published
from pkbench.scenario.published import Published
from pkbench.server import iolimit
from pkbench.steps import FillStep, PgbenchStep, SqlStep
from pkbench.summary import reproductions

LARGE = "slow-disk-large"
REPRODUCTIONS = Path(__file__).resolve().parents[1] / "docs" / "reproductions"
# A committed seed-001 run, read back as if it had run at another scale.
COMMITTED = REPRODUCTIONS / "insert-scaling-slow-disk-2"

# Seed 001's setup: PostgreSQL 10's defaults, which the study does not say it changed.
STUDY_SHARED_BUFFERS = "128MB"
STUDY_MAINTENANCE_WORK_MEM = "64MB"
# wal_buffers = -1 is 1/32 of shared_buffers.
STUDY_WAL_BUFFERS = "4MB"
STUDY_POINTS = {"pk-small": 50_000_000, "pk-large": 100_000_000}
# The study's TPS at those points, and its 50M no-key load and ADD PRIMARY KEY, from its text.
STUDY_TPS = {
    "pk-small": {"uuid-v4-char32": 163, "seq-time": 883, "bigint": 1220},
    "pk-large": {"uuid-v4-char32": 131, "seq-time": 834, "bigint": 1139},
}
STUDY_LOAD_S = {"uuid-v4-char32": 1159.689, "seq-time": 453.985, "bigint": 352.206}
STUDY_ADD_KEY_S = {"uuid-v4-char32": 845.199, "seq-time": 932.151, "bigint": 148.139}


def parse_size(text: str) -> int:
    """Bytes in PostgreSQL's way of writing a size (4MB, 1GB): powers of 1024."""
    number, unit = re.fullmatch(r"(\d+)([kMG]B)", text).groups()  # type: ignore[union-attr]
    return int(number) * {"kB": 2**10, "MB": 2**20, "GB": 2**30}[unit]


@pytest.fixture(scope="module")
def large() -> scenario.Scenario:
    return scenario.load("insert-scaling").at_scale(LARGE)


def factor(preset: scenario.Scenario) -> float:
    return parse_size(preset.settings["shared_buffers"]) / parse_size(STUDY_SHARED_BUFFERS)


def test_the_points_are_the_studys_times_our_shared_buffers_over_128mb(large: scenario.Scenario) -> None:
    assert factor(large) == 1 / 32
    assert large.int_parameter("rows_small") == STUDY_POINTS["pk-small"] * factor(large) == 1_562_500
    assert large.int_parameter("rows") == STUDY_POINTS["pk-large"] * factor(large) == 3_125_000


def test_the_sort_memory_shrinks_by_the_factor_and_the_wal_buffers_do_not(large: scenario.Scenario) -> None:
    memory = parse_size(large.settings["maintenance_work_mem"])
    assert memory == parse_size(STUDY_MAINTENANCE_WORK_MEM) * factor(large)
    assert large.settings["max_parallel_maintenance_workers"] == "0", "PostgreSQL 10 built in one process"
    assert parse_size(large.settings["wal_buffers"]) == parse_size(STUDY_WAL_BUFFERS)


def test_time_runs_at_the_datas_factor_so_windows_follow_the_loaded_keys(large: scenario.Scenario) -> None:
    rate = float(large.parameters["clock_rate"])
    assert rate == 1 / factor(large)
    # The time-ordered key's prefix lasts 60 virtual seconds: a few real seconds between the load and a window
    # are minutes on the key's clock, as the study's were.
    assert 60 / rate < 2


def test_the_disk_and_windows_are_slow_disks(large: scenario.Scenario) -> None:
    slow = scenario.load("insert-scaling").at_scale("slow-disk")
    for name in ("duration_s", "clients", "jobs", "fill_workers", "batch_rows", iolimit.PARAMETER):
        assert large.parameters[name] == slow.parameters[name], name
    assert iolimit.write_iops(large.parameters, embedded=True) == 100
    assert large.settings["debug_io_direct"] == slow.settings["debug_io_direct"] == "data,wal"


def test_the_50m_point_is_loaded_without_the_key_and_the_key_added_after(large: scenario.Scenario) -> None:
    names = [step.name for step in large.steps]
    windows = [step.name for step in large.steps if isinstance(step, PgbenchStep)]
    assert windows == ["pk-small", "pk-large"]
    assert names.index("nokey-fill") < names.index("add-primary-key") < names.index("pk-small")
    table = next(step for step in large.steps if step.name == "nokey-table")
    assert isinstance(table, SqlStep) and "PRIMARY KEY" not in " ".join(table.texts())
    (fill,) = [s for s in large.steps if isinstance(s, FillStep) and s.name == "nokey-fill"]
    assert fill.rows_parameter == "rows_small"
    # The 100M point is reached with the key in place; the other presets never run the no-key steps.
    assert names.index("add-primary-key") < names.index("pk-fill-large") < names.index("pk-large")
    slow = scenario.load("insert-scaling").at_scale("slow-disk")
    assert not {"nokey-table", "nokey-fill", "add-primary-key"} & {step.name for step in slow.steps}


def studies_at(scale: str) -> tuple[Published, ...]:
    run = results.load(COMMITTED)
    return reproductions.studies_of(replace(run, scenario={**run.scenario, "scale": scale}))


def test_the_preset_is_scored_against_the_50m_and_100m_figures_only() -> None:
    (study,) = studies_at(LARGE)
    by_workload = {f.workload: f for f in study.figures if f.metric == "tps"}
    assert set(by_workload) == set(STUDY_TPS)
    for workload, values in STUDY_TPS.items():
        assert dict(by_workload[workload].values) == values
        assert by_workload[workload].relative_to == "bigint"
    # The 10M point's figures score the other presets, not this one.
    (ten_million,) = studies_at("slow-disk")
    assert next(f for f in ten_million.figures if f.workload == "pk-large").values["uuid-v4-char32"] == 260
    assert all(f.values.get("uuid-v4-char32") != 260 for f in study.figures)


def test_the_load_and_the_added_key_are_the_studys_times() -> None:
    (study,) = studies_at(LARGE)
    load = next(f for f in study.figures if f.metric == published.INSERT_PER_MILLION)
    assert load.step == "nokey-fill"
    for name, seconds in STUDY_LOAD_S.items():
        assert load.values[name] == pytest.approx(seconds / 50, abs=0.01)
    key = next(f for f in study.figures if f.metric == published.STEP_TIME)
    assert key.step == "add-primary-key"
    for name, seconds in STUDY_ADD_KEY_S.items():
        assert key.values[name] == pytest.approx(seconds, abs=0.1)


def test_the_load_is_compared_per_million_rows_and_the_key_in_seconds() -> None:
    (study,) = studies_at(LARGE)
    load = next(f for f in study.figures if f.metric == published.INSERT_PER_MILLION)
    key = next(f for f in study.figures if f.metric == published.STEP_TIME)
    committed = {s.name: s for s in results.load(COMMITTED).strategies}

    def timed(name: str, load_s: float, key_s: float) -> StrategyResult:
        steps = {"nokey-fill": load_s, "add-primary-key": key_s}
        return replace(committed[name], step_durations_s=steps, step_rows={"nokey-fill": 1_562_500})

    ours = {
        "uuid-v4-char32": timed("uuid-v4-char32", 6.25, 20.0),
        "seq-time": timed("seq-time", 3.125, 5.0),
        "bigint": timed("bigint", 3.125, 4.0),
    }
    rows = {row.strategy: row for row in published.compare(load, ours)}
    assert rows["uuid-v4-char32"].ours.value == pytest.approx(4.0)
    assert rows["uuid-v4-char32"].ours_ratio == pytest.approx(2.0)
    assert rows["seq-time"].ours_ratio == pytest.approx(1.0)
    rows = {row.strategy: row for row in published.compare(key, ours)}
    assert rows["uuid-v4-char32"].ours_ratio == pytest.approx(5.0)
    assert rows["uuid-v4-char32"].theirs_ratio == pytest.approx(845.2 / 148.1)


@real_blkio
def test_the_presets_steps_run_at_a_tiny_size(
    tmp_path: Path, disk_tmpdir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "results"
    monkeypatch.setattr(tempfile, "tempdir", str(disk_tmpdir))
    tiny = {"rows_small": 3000, "rows": 6000, "batch_rows": 1000, "duration_s": 1, "clients": 2, "jobs": 1}
    options = Options(
        report=False,
        scenario="insert-scaling",
        scale=LARGE,
        strategies=["uuid-v4-char32", "bigint"],
        parameters=dict(tiny),
        pg_major=OTHER_MAJOR,
        out=out,
    )
    runner.execute(options)
    data = json.loads((out / "results.json").read_text())
    run = results.load(out)
    (study,) = reproductions.studies_of(run)
    strategies = reproductions.by_name(run)
    for strategy in data["strategies"]:
        assert strategy["status"] == "ok", strategy["error"]
        assert strategy["step_rows"]["nokey-fill"] == 3000
        assert strategy["step_durations_s"]["add-primary-key"] > 0
    for item in study.figures:
        for row in published.compare(item, strategies):
            if row.strategy in strategies:
                assert row.ours.value is not None, (item.label, row.strategy, row.ours.reason)


def test_the_runs_table_has_only_the_windows_it_ran() -> None:
    lines = evidence_tables.table("insert-scaling", REPRODUCTIONS / "insert-scaling-slow-disk-large")
    assert lines[0].count("TPS") == 2 and "1,562,500 rows" in lines[0] and "3,125,000 rows" in lines[0]
    assert "empty" not in lines[0]
    body = lines[2:]
    assert len(body) == 3 and all("| primary key |" in line for line in body)
