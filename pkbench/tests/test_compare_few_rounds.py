"""`pkbench compare --fail-on-regression` on committed runs: a run of three paired rounds (an older run cut
to its first three rounds) against itself and against a copy whose uuid-v7 TPS is 40% lower in every round;
a run of the default design against a copy whose uuid-v7 is 10% slower in every round, paired and
interleaved; and an older paired run against a run of the default design."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from conftest import cli_in_process

REPRODUCTIONS = Path(__file__).resolve().parents[1] / "docs" / "reproductions"
# A run of the paired design, recorded before the mixed design was the default; and one of the default.
OLDER = REPRODUCTIONS / "back-to-back-war" / "run-1"
WAR_DEFAULT = REPRODUCTIONS / "war-default"
ROUNDS = 3


def three_rounds(
    destination: Path, strategy: str | None = None, factor: float = 1.0, source: Path = OLDER
) -> Path:
    """The first three rounds of SOURCE, with STRATEGY's TPS times FACTOR in each of them."""
    shutil.copytree(source, destination)
    data = json.loads((destination / "results.json").read_text())
    data["rounds"]["count"] = ROUNDS
    data["rounds"]["orders"] = data["rounds"]["orders"][: ROUNDS * 2]
    for each in data["strategies"]:
        for workload in each["workloads"]:
            workload["rounds"] = workload["rounds"][:ROUNDS]
            workload["interleaved"] = workload.get("interleaved", [])[:ROUNDS]
            if each["name"] == strategy:
                for window in workload["rounds"]:
                    window["tps"] *= factor
                workload["tps"] *= factor
    (destination / "results.json").write_text(json.dumps(data))
    return destination


def regressions(old: Path, new: Path, out: Path, percent: int) -> str:
    """`compare --fail-on-regression PERCENT` of NEW against OLD, which must fail: its last line."""
    done = cli_in_process(
        "compare", str(old), str(new), "--out", str(out), "--fail-on-regression", str(percent)
    )
    assert done.returncode == 5, done.stderr
    return done.stderr.strip().splitlines()[-1]


def test_three_rounds_forty_percent_slower_fail_the_regression_check(tmp_path: Path) -> None:
    base = three_rounds(tmp_path / "base")
    slower = three_rounds(tmp_path / "slower", "uuid-v7", 0.6)
    last = regressions(base, slower, tmp_path / "cmp", 10)
    # uuid-v7's TPS, raw and over bigint's, and nothing else: the other figures and strategies are the same.
    assert "resolved regressions worse than 10%" in last, last
    named = last.split(": ", 2)[2].split("; ")
    assert all("uuid-v7" in each and "TPS" in each and "1.67x slower" in each for each in named), named
    assert "uuid-v7 lookup-by-key TPS over bigint 1.67x slower" in last and "t on logs" in last


def test_an_identical_three_round_copy_passes(tmp_path: Path) -> None:
    base = three_rounds(tmp_path / "base")
    same = three_rounds(tmp_path / "same")
    done = cli_in_process(
        "compare", str(base), str(same), "--out", str(tmp_path / "cmp"), "--fail-on-regression", "0"
    )
    assert done.returncode == 0, done.stderr
    assert "No change resolved" in done.stdout


def slower_copy(destination: Path, strategy: str | None = None, factor: float = 1.0) -> Path:
    """The default run, with STRATEGY FACTOR as fast in every round: its TPS times FACTOR and its latencies
    divided by it, in its paired windows and its shares of the interleaved ones."""
    shutil.copytree(WAR_DEFAULT, destination)
    data = json.loads((destination / "results.json").read_text())
    assert data["rounds"]["design"] == "mixed"
    for each in data["strategies"]:
        if each["name"] != strategy:
            continue
        for workload in each["workloads"]:
            for window in [workload, *workload["rounds"], *workload["interleaved"]]:
                window["tps"] *= factor
                window["latency_ms"] = {k: v / factor for k, v in window["latency_ms"].items() if v}
    (destination / "results.json").write_text(json.dumps(data))
    return destination


def test_a_default_run_ten_percent_slower_against_the_baseline_fails_the_regression_check(
    tmp_path: Path,
) -> None:
    base = slower_copy(tmp_path / "base")
    slower = slower_copy(tmp_path / "slower", "uuid-v7", 0.9)
    last = regressions(base, slower, tmp_path / "cmp", 5)
    # The interleaved windows' ratios to bigint resolve it in both windows, on TPS and the latency mean.
    for window in ("lookup-by-data", "lookup-by-key"):
        assert f"uuid-v7 {window} TPS over bigint 1.11x slower" in last, last
    assert "bigint" not in last.replace("over bigint", ""), "the baseline itself did not change"


def test_an_older_paired_run_against_a_default_run(tmp_path: Path) -> None:
    # Three rounds of each: a bootstrap per figure and run is most of what comparing whole runs costs.
    older = three_rounds(tmp_path / "older")
    default = three_rounds(tmp_path / "default", source=WAR_DEFAULT)
    done = cli_in_process("compare", str(older), str(default), "--out", str(tmp_path / "cmp"))
    assert done.returncode == 0, done.stderr
    text = (tmp_path / "cmp" / "comparison.md").read_text()
    # Both tables: the raw figures, and each strategy's ratios to bigint, paired then and interleaved now.
    assert f"# pkbench compare: {default} against {older}\n" in text
    assert "each strategy against the baseline" in text
    assert "| uuid-v7 | lookup-by-key | TPS over bigint (ratio) |" in text
