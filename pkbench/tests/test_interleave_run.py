"""`pkbench run --interleave`: a window of several weighted scripts attributed per strategy (pure, on the
three-script pgbench 15 recording), and a tiny war run end to end whose verdicts and words say the design."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import cli_in_process, run_cli, short_run

from pkbench.pgbench import output
from pkbench.run import interleaved

DATA = Path(__file__).parent / "data"


def mixed_recording() -> str:
    """The three-script recording as if uuid-v4's window had two weighted scripts (plain and text)."""
    text = (DATA / "pgbench15_three_strategies.stdout").read_text()
    text = text.replace("SQL script 3: uuid-v4-text.sql", "SQL script 3: uuid-v4__text.sql")
    return text.replace("SQL script 2: uuid-v4.sql", "SQL script 2: uuid-v4__plain.sql")


def test_a_mix_of_scripts_keeps_its_weights_under_its_strategys_name() -> None:
    mix = [("plain", 3, "SELECT 1;"), ("text", 1, "SELECT 2;")]
    scripts = interleaved.interleaved_scripts({"bigint": mix, "uuid-v4": "SELECT 3;"})
    assert [(s.name, s.weight) for s in scripts] == [
        ("bigint__plain", 3),
        ("bigint__text", 1),
        ("uuid-v4", 1),
    ]


def test_a_strategys_mix_adds_up_to_its_transactions_and_their_mean_time() -> None:
    windows = interleaved.attribute(output.parse_summary(mixed_recording()), ["bigint", "uuid-v4"])
    assert windows["uuid-v4"].transactions == 3349 + 3377
    # Each script's own time (without its SET of the search_path), weighted by its transactions.
    single = interleaved.attribute(
        output.parse_summary((DATA / "pgbench15_three_strategies.stdout").read_text()),
        ["bigint", "uuid-v4", "uuid-v4-text"],
    )
    expected = (3349 * single["uuid-v4"].latency_ms_mean + 3377 * single["uuid-v4-text"].latency_ms_mean) / (
        3349 + 3377
    )
    assert windows["uuid-v4"].latency_ms_mean == pytest.approx(expected)
    assert windows["bigint"] == single["bigint"]


def test_interleave_refuses_isolated_strategies() -> None:
    result = cli_in_process("run", "war", "--interleave", "--isolate")
    assert result.returncode != 0
    assert result.stderr.count("\n") == 1 and "--interleave applies to paired rounds" in result.stderr


def test_a_tiny_interleaved_war_run(tmp_path: Path, server_tmpdir: Path) -> None:
    out = tmp_path / "run"
    result = run_cli(
        "run",
        "war",
        "--interleave",
        *short_run(strategies="bigint,uuid-v4", rows=200, clients=2, rounds=2, out=out),
        tmpdir=server_tmpdir,
    )
    assert result.returncode == 0, result.stderr
    written = json.loads((out / "results.json").read_text())
    assert written["rounds"]["design"] == "interleaved" and written["rounds"]["count"] == 2
    windows = {v["workload"] for v in written["verdicts"] if v["metric"] == "latency-mean"}
    assert windows == {"lookup-by-data", "lookup-by-key"}
    # Every window's verdict is on the latency mean, the one figure interleaved windows measure per strategy.
    measured = [v for v in written["verdicts"] if v["workload"] in windows]
    assert all(v["metric"] == "latency-mean" and v["rounds"] == 2 for v in measured)
    assert all(v["ratio"] is not None and v["low"] <= v["ratio"] <= v["high"] for v in measured)
    for strategy in written["strategies"]:
        for workload in strategy["workloads"]:
            assert all(r["latency_ms"]["mean"] > 0 and r["transactions"] > 0 for r in workload["rounds"])
    summary = (out / "summary.md").read_text()
    assert "interleaved in one pgbench window per round (--interleave)" in summary
    assert "| Strategy | latency mean |" in summary
