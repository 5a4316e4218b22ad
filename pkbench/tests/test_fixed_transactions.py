"""--transactions N: pgbench -t N per client instead of a timed window; war's study preset uses it."""

from __future__ import annotations

import json
from pathlib import Path

from conftest import run_cli

from pkbench.run import runner
from pkbench.run.options import Options

# A prefill by two sessions in uneven batches, a fixed-work window, then a fill that tops the table up to
# CEILING: the rows that fill adds (recorded as the headline insert) say how many rows the prefill and the
# window inserted, exactly.
COUNTING = """
name = "counting"
[parameters]
rows = 500
ceiling = 5000
clients = 3
jobs = 2
duration_s = 1
batch_rows = 70
fill_workers = 2

[summary]
insert = "top-up"

[[steps]]
kind = "sql"
name = "schema"
statements = ["CREATE TABLE records (id {key_type} PRIMARY KEY {key_default}, data bigint)"]

[[steps]]
kind = "fill"
name = "prefill"
workers = "fill_workers"
statement = "INSERT INTO records (data) SELECT g FROM generate_series(1, {batch}) AS g"

[[steps]]
kind = "pgbench"
name = "fixed-work"
scripts = [
    { name = "insert-and-lookup", sql = "INSERT INTO records (data) VALUES (1);\\nSELECT 1;" },
]

[[steps]]
kind = "fill"
name = "top-up"
rows = "ceiling"
total = true
statement = "INSERT INTO records (data) SELECT 0 FROM generate_series(1, {batch})"
"""


def test_each_client_runs_exactly_its_transactions(tmp_path: Path, server_tmpdir: Path) -> None:
    scenario = tmp_path / "counting.toml"
    scenario.write_text(COUNTING)
    out = tmp_path / "results"
    runner.execute(
        Options(
            report=False,
            scenario=str(scenario),
            strategies=["bigint", "uuid-v4"],
            parameters={"transactions": 40},
            interleave=False,
            out=out,
        )
    )
    data = json.loads((out / "results.json").read_text())
    for strategy in data["strategies"]:
        window = strategy["workloads"][0]
        assert window["transactions"] == 3 * 40
        assert strategy["step_durations_s"]["prefill"] > 0
        inserted_by_window = 5000 - 500 - strategy["prefill"]["rows"]
        assert inserted_by_window == 3 * 40, strategy["name"]
        assert window["duration_s"] > 0
        command = (out / "pgbench" / strategy["name"] / "fixed-work" / "command.txt").read_text()
        assert "--transactions 40" in command and "--time" not in command


def test_war_at_the_study_scale_runs_the_study_window_beside_its_table(
    tmp_path: Path, server_tmpdir: Path
) -> None:
    out = tmp_path / "war"
    done = run_cli(
        "run",
        "--no-report",
        "war",
        "--scale",
        "study",
        "--rows",
        "2000",
        "--transactions",
        "25",
        "--strategies",
        "bigint,uuid-v4",
        "--set",
        "settings.shared_buffers=16MB",
        "--sample-every",
        "0",
        "--out",
        str(out),
        tmpdir=server_tmpdir,
    )
    assert done.returncode == 0, done.stderr
    data = json.loads((out / "results.json").read_text())
    assert data["scenario"]["scale"] == "study"
    for strategy in data["strategies"]:
        assert [w["name"] for w in strategy["workloads"]] == ["insert-one-million"]
        assert strategy["workloads"][0]["transactions"] == 10 * 25
    assert data["server"]["settings"]["max_wal_size"] == "20GB"
    page = (out / "summary.md").read_text()
    assert "Seed 000: UUID Benchmark War" in page
    assert "| Average rate | uuid-v4 (uuidv4) | 2,670 tps |" in page
    assert "Published figures beside ours" in done.stdout
