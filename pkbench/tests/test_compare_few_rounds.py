"""`pkbench compare --fail-on-regression` on runs of three paired rounds: a copy of a committed run cut to
its first three rounds, against itself and against a copy whose uuid-v7 TPS is 40% lower in every round."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from conftest import run_cli

WAR_DEFAULT = Path(__file__).resolve().parents[1] / "docs" / "reproductions" / "war-default"
ROUNDS = 3


def three_rounds(destination: Path, strategy: str | None = None, factor: float = 1.0) -> Path:
    """war-default's first three rounds, with STRATEGY's TPS times FACTOR in each of them."""
    shutil.copytree(WAR_DEFAULT, destination)
    data = json.loads((destination / "results.json").read_text())
    data["rounds"]["count"] = ROUNDS
    data["rounds"]["orders"] = data["rounds"]["orders"][: ROUNDS * 2]
    for each in data["strategies"]:
        for workload in each["workloads"]:
            workload["rounds"] = workload["rounds"][:ROUNDS]
            if each["name"] == strategy:
                for window in workload["rounds"]:
                    window["tps"] *= factor
                workload["tps"] *= factor
    (destination / "results.json").write_text(json.dumps(data))
    return destination


def test_three_rounds_forty_percent_slower_fail_the_regression_check(tmp_path: Path) -> None:
    base = three_rounds(tmp_path / "base")
    slower = three_rounds(tmp_path / "slower", "uuid-v7", 0.6)
    done = run_cli(
        "compare", str(base), str(slower), "--out", str(tmp_path / "cmp"), "--fail-on-regression", "10"
    )
    assert done.returncode == 5, done.stderr
    last = done.stderr.strip().splitlines()[-1]
    # Both workloads' TPS of uuid-v7, raw and over bigint's, and nothing else: the other figures and
    # strategies are the same.
    assert last.startswith("pkbench: error: 4 resolved regressions worse than 10%"), last
    assert "uuid-v7" in last and "1.67x slower" in last and "t on logs" in last
    assert "lookup-by-key TPS over bigint 1.67x slower" in last, last


def test_an_identical_three_round_copy_passes(tmp_path: Path) -> None:
    base = three_rounds(tmp_path / "base")
    same = three_rounds(tmp_path / "same")
    done = run_cli(
        "compare", str(base), str(same), "--out", str(tmp_path / "cmp"), "--fail-on-regression", "0"
    )
    assert done.returncode == 0, done.stderr
    assert "No change resolved" in done.stdout
