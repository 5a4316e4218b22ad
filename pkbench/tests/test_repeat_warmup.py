"""--repeat runs strategies interleaved and reports medians and spread; --warmup stays out of figures."""

from __future__ import annotations

import csv
import json
from pathlib import Path
from typing import Any

import pytest
from conftest import run_cli

from pkbench import results
from pkbench.run import runner
from pkbench.run.options import Options

SCENARIO = """
name = "tiny-inserts"
description = "one insert per transaction"
table = "records"

[parameters]
rows = 1000
clients = 2
jobs = 1
duration_s = 2
batch_rows = 1000

[[steps]]
kind = "sql"
name = "schema"
statements = ["CREATE TABLE records (id {key_type} PRIMARY KEY {key_default})"]

[[steps]]
kind = "fill"
name = "prefill"
statement = "INSERT INTO records SELECT FROM generate_series(1, {batch})"

[[steps]]
kind = "pgbench"
name = "insert"
scripts = [{ name = "insert", weight = 1, sql = "INSERT INTO records DEFAULT VALUES;" }]
"""


@pytest.fixture(scope="module")
def repeated(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, Any]]:
    folder = tmp_path_factory.mktemp("repeat")
    (folder / "tiny.toml").write_text(SCENARIO)
    out = folder / "results"
    options = Options(
        report=False,
        scenario=str(folder / "tiny.toml"),
        strategies=["bigint", "uuid-v4"],
        parameters={"warmup_s": 1},
        out=out,
        repeat=3,
    )
    runner.execute(options)
    return out, json.loads((out / "results.json").read_text())


def test_strategies_are_interleaved(repeated: tuple[Path, dict[str, Any]]) -> None:
    out, _ = repeated
    runs = {
        "bigint": out / "pgbench/bigint/insert",
        "uuid-v4": out / "pgbench/uuid-v4/insert",
        "bigint 2": out / "pgbench/bigint.repeat-2/insert",
        "uuid-v4 2": out / "pgbench/uuid-v4.repeat-2/insert",
        "bigint 3": out / "pgbench/bigint.repeat-3/insert",
        "uuid-v4 3": out / "pgbench/uuid-v4.repeat-3/insert",
    }
    started = {name: (path / "command.txt").stat().st_mtime for name, path in runs.items()}
    assert sorted(started, key=started.__getitem__) == list(runs)


def test_every_figure_is_the_median_with_its_spread(repeated: tuple[Path, dict[str, Any]]) -> None:
    _, data = repeated
    assert data["scenario"]["parameters"]["repeat"] == 3
    for strategy in data["strategies"]:
        assert strategy["status"] == "ok"
        assert len(strategy["repeats"]) == 3
        each = sorted(r["workloads"][0]["tps"] for r in strategy["repeats"])
        assert strategy["workloads"][0]["tps"] == each[1]
        assert strategy["spread"]["workloads.insert.tps"] == [each[0], each[2]]
        assert strategy["spread"]["prefill.duration_s"][0] <= strategy["prefill"]["duration_s"]
        assert "workloads.insert.latency_ms.p99" in strategy["spread"]
        assert "workloads.insert.wal_bytes" in strategy["spread"]


def test_repeats_read_back_as_typed_strategies_that_write_the_same_json(
    repeated: tuple[Path, dict[str, Any]],
) -> None:
    out, data = repeated
    run = results.load(out)
    assert all(isinstance(s, results.RepeatedStrategy) and len(s.repeats) == 3 for s in run.strategies)
    assert json.dumps(run.to_json()["strategies"], indent=2) == json.dumps(data["strategies"], indent=2)


def test_the_warmup_is_run_but_outside_every_figure(repeated: tuple[Path, dict[str, Any]]) -> None:
    out, data = repeated
    assert data["scenario"]["parameters"]["warmup_s"] == 1
    warmup = out / "pgbench/bigint/insert/warmup/command.txt"
    assert "--time 1 " in warmup.read_text()
    for strategy in data["strategies"]:
        for run in strategy["repeats"]:
            workload = run["workloads"][0]
            # The window is the measured run alone: its length and transactions, not the warm-up's as well.
            assert 1.5 < workload["duration_s"] < 3.5
            assert workload["wal_records"] < 4 * workload["transactions"] + 200
    with (out / "timeseries/tps.csv").open() as f:
        rows = list(csv.DictReader(f))
    assert {row["repeat"] for row in rows} == {"1", "2", "3"}
    assert max(float(row["elapsed_s"]) for row in rows) <= 2.5


def test_repeat_below_one_is_one_line(tmp_path: Path) -> None:
    result = run_cli("run", "--repeat", "0", "--out", str(tmp_path / "o"))
    assert result.returncode != 0
    assert result.stderr.strip().splitlines() == ["pkbench: error: --repeat: must be at least 1 (got 0)"]
