"""--rate: pgbench keeps every workload to a fixed rate, so strategies are compared at equal load."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import run_cli, short_run
from test_cli_errors import assert_one_line_error

RATE = 40
DURATION_S = 3


def test_a_rate_limited_run_keeps_to_the_rate_and_records_it(server_tmpdir: Path) -> None:
    out = server_tmpdir / "out"
    result = run_cli(
        "run",
        "--no-report",
        "war",
        *short_run(strategies="bigint", clients=2, duration=DURATION_S, out=out),
        "--rate",
        str(RATE),
        tmpdir=server_tmpdir,
    )
    assert result.returncode == 0, result.stderr
    data = json.loads((out / "results.json").read_text())
    assert data["scenario"]["parameters"]["rate_tps"] == RATE
    for workload in data["strategies"][0]["workloads"]:
        # Unlimited, one bigint lookup runs thousands of times a second; at the rate, about RATE a second.
        assert 0.5 * RATE * DURATION_S <= workload["transactions"] <= 1.5 * RATE * DURATION_S, workload[
            "name"
        ]
    commands = list(out.glob("pgbench/bigint/*/command.txt"))
    assert commands and all(f"--rate={RATE}" in c.read_text() for c in commands)


@pytest.mark.parametrize("value", ["0", "-5", "nan"])
def test_a_rate_that_is_not_positive_is_one_line(value: str, tmp_path: Path) -> None:
    result = run_cli("run", "--rate", value, "--out", str(tmp_path / "out"), timeout=60)
    assert_one_line_error(result, "--rate")
    assert not (tmp_path / "out").exists()
