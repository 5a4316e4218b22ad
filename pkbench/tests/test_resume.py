"""A run stopped early says so everywhere it writes, is refused by compare, and `--resume` finishes it."""

from __future__ import annotations

import csv
import json
import shutil
import signal
import time
from pathlib import Path
from typing import Any

from conftest import HOLDING_RATE, assert_nothing_left, cli_in_process, run_cli, run_until_window, short_run
from test_cli_errors import assert_one_line_error

ROUNDS = 3


def load(out: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((out / "results.json").read_text())
    return data


def test_sigterm_marks_the_run_incomplete_and_resume_finishes_it(server_tmpdir: Path, tmp_path: Path) -> None:
    out = server_tmpdir / "results"
    arguments = short_run(
        strategies="bigint,uuid-v4",
        rows=300,
        duration=1,
        rounds=ROUNDS,
        out=out,
        report=True,
        rate=HOLDING_RATE,
    )
    # Stopped once the second round of the first stage has begun: one round is whole, one is cut off.
    with run_until_window(
        server_tmpdir, arguments, out / "pgbench" / "bigint.round-2" / "lookup-by-data"
    ) as run:
        time.sleep(0.5)
        run.send_signal(signal.SIGTERM)
        _, stderr = run.communicate(timeout=90)
    assert run.returncode == 130, stderr
    assert stderr.strip().splitlines()[-1].startswith("pkbench: error: interrupted")
    assert "Traceback" not in stderr
    for leftover in server_tmpdir.iterdir():
        assert leftover == out, f"{leftover} is left behind"

    stopped = load(out)
    completion = stopped["completion"]
    assert completion["complete"] is False
    assert "interruption" in completion["stopped"]
    assert completion["rounds_done"] == 1
    assert stopped["rounds"]["completed"] == [1]
    assert (out / "summary.md").read_text().startswith("**Incomplete run: stopped by an interruption")
    with (out / "summary.csv").open() as f:
        assert {row["complete"] for row in csv.DictReader(f)} == {"false"}
    assert "Incomplete run" in (out / "report.html").read_text()
    interrupted = tmp_path / "interrupted"
    shutil.copytree(out, interrupted)

    resumed = run_cli("run", "--resume", str(out), tmpdir=server_tmpdir, timeout=300)
    assert resumed.returncode == 0, resumed.stderr
    finished = load(out)
    assert finished["completion"]["complete"] is True
    (resumption,) = finished["completion"]["resumed"]
    assert resumption["rounds_kept"] == 1 and resumption["gap_s"] >= 0
    assert finished["started_at"] == stopped["started_at"]
    assert finished["rounds"]["completed"] == [ROUNDS, ROUNDS]
    assert len(finished["rounds"]["orders"]) == 2 * ROUNDS
    for strategy in finished["strategies"]:
        for workload in strategy["workloads"]:
            assert len(workload["rounds"]) == ROUNDS, (strategy["name"], workload["name"])
    assert not (out / "summary.md").read_text().startswith("**Incomplete")

    refused = cli_in_process("compare", str(out), str(interrupted), "--out", str(tmp_path / "cmp"))
    assert_one_line_error(refused, f"{interrupted}: an incomplete run (stopped by an interruption")
    allowed = cli_in_process(
        "compare", str(out), str(interrupted), "--out", str(tmp_path / "cmp"), "--allow-incomplete"
    )
    assert allowed.returncode == 0, allowed.stderr
    assert f"{interrupted} (incomplete)" in allowed.stdout

    again = cli_in_process("run", "--resume", str(out))
    assert_one_line_error(again, "that run is complete; there is nothing to resume")
    shutil.rmtree(out)
    assert_nothing_left(server_tmpdir)


def test_resume_takes_no_other_option_and_needs_a_results_directory(tmp_path: Path) -> None:
    assert_one_line_error(
        cli_in_process("run", "--resume", str(tmp_path), "--rows", "5"),
        "--resume runs the recorded command again: give no other option with it",
    )
    assert_one_line_error(cli_in_process("run", "--resume", str(tmp_path)), "no results.json there")
