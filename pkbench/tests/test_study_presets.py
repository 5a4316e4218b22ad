"""The wal scenario's study presets (`--scale seed-004`, `seed-003`) apply the factors wal.toml documents:
each test recomputes a study figure from the preset and the stated factor. No server is needed, except for
the last test, which runs a tiny window with checkpoints on a schedule."""

from __future__ import annotations

import json
import math
import re
from pathlib import Path

import pytest
from conftest import run_cli

from pkbench.errors import PkbenchError
from pkbench.results import RunResult
from pkbench.scenario import builtin, published
from pkbench.scenario import file as scenario
from pkbench.steps import checkpoints
from pkbench.strategies.catalog import Catalog
from pkbench.summary import reproductions


def parse_size(text: str) -> int:
    """Bytes in PostgreSQL's way of writing a size (16MB, 4GB): powers of 1024."""
    number, unit = re.fullmatch(r"(\d+)([MG]B)", text).groups()  # type: ignore[union-attr]
    return int(number) * {"MB": 2**20, "GB": 2**30}[unit]


# Seed 004's setup, from its text (and the 2019 follow-up's description of the same machine).
STUDY_SHARED_BUFFERS = parse_size("4GB")
STUDY_RAM = parse_size("64GB")
STUDY_WINDOW_S = 4 * 3600
STUDY_TIME_STEP_S = 60
STUDY_BLOCK_SIZES = {"sequence(256)": 256, "sequence(64k)": 65536}
# PostgreSQL's checkpoint_timeout default of the time: the study does not give its own.
STUDY_CHECKPOINT_EVERY_S = 300
# The factor of memory and data, and the bytes of table and unique index per row of one uuid column (a
# 40-byte heap tuple and its line pointer, a 16-byte index tuple with its header at btree fill).
FACTOR = 256
BYTES_PER_ROW = 88


@pytest.fixture(scope="module")
def seed_004() -> scenario.Scenario:
    return scenario.load("wal").at_scale("seed-004")


def test_memory_is_the_studys_divided_by_the_factor(seed_004: scenario.Scenario) -> None:
    assert parse_size(seed_004.settings["shared_buffers"]) * FACTOR == STUDY_SHARED_BUFFERS
    assert parse_size(str(seed_004.parameters["memory_limit"])) * FACTOR == STUDY_RAM


def test_the_tiers_sit_where_the_studys_did(seed_004: scenario.Scenario) -> None:
    shared_buffers = parse_size(seed_004.settings["shared_buffers"])
    cap = parse_size(str(seed_004.parameters["memory_limit"]))
    assert seed_004.parameters["rows_small"] == 0, "the study's small scale is the empty table"
    medium = seed_004.int_parameter("rows_medium") * BYTES_PER_ROW
    assert shared_buffers < medium < cap, "medium: beyond shared buffers, within RAM"
    assert medium / shared_buffers == pytest.approx(4, rel=0.05)
    large = seed_004.int_parameter("rows") * BYTES_PER_ROW
    assert large / cap == pytest.approx(2, rel=0.05), "large: twice the memory the server may use"


def test_the_window_sees_the_studys_four_hours(seed_004: scenario.Scenario) -> None:
    window = seed_004.int_parameter("duration_s")
    rate = float(seed_004.parameters["clock_rate"])
    assert window * rate == STUDY_WINDOW_S
    assert window * rate / STUDY_TIME_STEP_S == 240, "the time prefix moves 240 times per window"
    every = float(seed_004.parameters[checkpoints.PARAMETER])
    assert window / every == STUDY_WINDOW_S / STUDY_CHECKPOINT_EVERY_S == 48


def test_the_sequence_block_sizes_shrink_with_the_data() -> None:
    (table,) = [p for p in published.of_builtin("wal") if p.study == "004" and "seed-004" in p.scales]
    catalog = Catalog()
    for ours, theirs in table.names.items():
        if theirs not in STUDY_BLOCK_SIZES:
            continue
        (generator,) = catalog.get(ours).generators
        found = re.search(r"uuid_sequence_nextval\([^,]+, (\d+), (\d+)\)", generator.expression)
        assert found is not None, generator.expression
        block_size, block_count = int(found[1]), int(found[2])
        assert block_size * FACTOR == STUDY_BLOCK_SIZES[theirs], ours
        assert block_count == 65536, "the block count, and so each prefix's share of the key space, is kept"
    time_generator = catalog.get("seq-time").generators[0].expression
    assert time_generator == f"uuid_time_nextval({STUDY_TIME_STEP_S}, 65536)"


def test_seed_003_is_seed_004_on_a_twelve_times_faster_disk(seed_004: scenario.Scenario) -> None:
    seed_003 = scenario.load("wal").at_scale("seed-003")
    assert seed_003.int_parameter("disk_write_iops") == 12 * seed_004.int_parameter("disk_write_iops")
    assert {**seed_003.parameters, "disk_write_iops": 0} == {**seed_004.parameters, "disk_write_iops": 0}
    assert (seed_003.settings, seed_003.strategies) == (seed_004.settings, seed_004.strategies)
    assert seed_004.strategies == ("uuid-v4", "seq-time", "seq-seq-1", "seq-seq-256")


def _run_at(scale: str) -> RunResult:
    return RunResult([], "", {"name": "wal", "source": builtin.source("wal"), "scale": scale}, {}, {}, {})


def test_each_preset_is_scored_by_its_own_tables() -> None:
    def scored(scale: str) -> list[tuple[str, tuple[str, ...]]]:
        return [(p.study, p.scales) for p in reproductions.studies_of(_run_at(scale))]

    assert scored("default") == [("004", ("default",)), ("003", ("default",))]
    assert scored("seed-004") == [("004", ("seed-004",))]
    assert scored("seed-003") == [("003", ("seed-003",))]


def test_a_published_table_naming_an_unknown_scale_is_refused() -> None:
    text = builtin.text("wal")
    with pytest.raises(PkbenchError, match="scales: unknown scale 'seed-04'"):
        scenario.parse(text.replace('scales = ["seed-004"]', 'scales = ["seed-04"]'), "test.toml")


@pytest.mark.parametrize("value", [0.1, -1, "often", True])
def test_a_checkpoint_interval_that_is_not_one_is_refused(value: object) -> None:
    with pytest.raises(PkbenchError, match="checkpoint_every_s must be 0"):
        checkpoints.interval_s({checkpoints.PARAMETER: value})
    assert checkpoints.interval_s({}) is None
    assert checkpoints.interval_s({checkpoints.PARAMETER: 0}) is None


def test_a_window_asks_for_checkpoints_on_schedule(tmp_path: Path) -> None:
    out = tmp_path / "out"
    done = run_cli(
        "run",
        "--no-report",
        "wal",
        "--strategies",
        "uuid-v4",
        "--rows",
        "2000",
        "--duration",
        "4",
        "--clients",
        "1",
        "--set",
        "checkpoint_every_s=1",
        "--out",
        str(out),
    )
    assert done.returncode == 0, done.stderr
    (strategy,) = json.loads((out / "results.json").read_text())["strategies"]
    for workload in strategy["workloads"]:
        # One a second while pgbench runs its 4 s, the k-th asked for k seconds after the checkpointer began
        # at the soonest: no more than the whole seconds the machine's snapshots around the window span (the
        # checkpointer runs between them), however late pgbench ends on a busy machine; and at least the two
        # that the first three seconds hold even when a checkpoint is slow to finish.
        requested = workload["checkpoints"]["requested"]
        assert 2 <= requested <= math.floor(workload["machine_window"]["duration_s"]), workload
