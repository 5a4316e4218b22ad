"""The `back-to-back` block: two runs of the same options (run-1/, run-2/), each TPS verdict's interval in
both and whether they overlap, from the recorded verdicts. Pure file work on committed runs, no server."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from test_evidence import ROOT

from pkbench.errors import PkbenchError
from pkbench.evidence import back_to_back
from pkbench.evidence import tables as evidence_tables

REPRODUCTIONS = ROOT / "pkbench/docs/reproductions"


def pair(tmp_path: Path) -> Path:
    """Two committed default runs made into a back-to-back pair."""
    shutil.copytree(REPRODUCTIONS / "war-default", tmp_path / "run-1")
    shutil.copytree(REPRODUCTIONS / "designs-war/paired", tmp_path / "run-2")
    return tmp_path


def tps(directory: Path) -> dict[tuple[str, str], tuple[float, float]]:
    data = json.loads((directory / "results.json").read_text())
    return {
        (v["workload"], v["strategy"]): (v["low"], v["high"])
        for v in data["verdicts"]
        if v["metric"] == "tps"
    }


def test_each_tps_verdict_is_a_row_and_overlap_is_read_from_the_two_intervals(tmp_path: Path) -> None:
    source = pair(tmp_path)
    lines = evidence_tables.table("back-to-back", source)
    one, two = tps(source / "run-1"), tps(source / "run-2")
    rows = [line for line in lines if line.startswith("| lookup-")]
    assert len(rows) == len(one) == len(two)
    for row in rows:
        window, strategy = row.split(" | ")[0].lstrip("| "), row.split(" | ")[1]
        (low_1, high_1), (low_2, high_2) = one[(window, strategy)], two[(window, strategy)]
        overlapping = low_1 <= high_2 and low_2 <= high_1
        assert row.endswith(f"| {'yes' if overlapping else 'no'} |")
        assert f"({low_1:.3f}-{high_1:.3f})" in row and f"({low_2:.3f}-{high_2:.3f})" in row


def test_an_interval_moved_away_is_named_as_not_overlapping(tmp_path: Path) -> None:
    source = pair(tmp_path)
    path = source / "run-2" / "results.json"
    data = json.loads(path.read_text())
    moved = next(v for v in data["verdicts"] if v["metric"] == "tps" and v["strategy"] == "uuid-v7")
    moved["ratio"], moved["low"], moved["high"] = 3.0, 2.9, 3.1
    path.write_text(json.dumps(data))
    lines = back_to_back.lines(*back_to_back.load(source))
    (row,) = [line for line in lines if line.startswith(f"| {moved['workload']} | uuid-v7 |")]
    assert row.endswith("| no |")
    assert f"uuid-v7 {moved['workload']} TPS" in lines[-1]


def test_a_directory_without_both_runs_is_one_line(tmp_path: Path) -> None:
    shutil.copytree(REPRODUCTIONS / "war-default", tmp_path / "run-1")
    with pytest.raises(PkbenchError, match=r"no run-2/results\.json"):
        back_to_back.load(tmp_path)


def test_verdicts_stated_in_one_run_alone_and_the_answers_taken_together(tmp_path: Path) -> None:
    for name in back_to_back.RUNS:
        shutil.copytree(REPRODUCTIONS / "war-default", tmp_path / name)
    last = back_to_back.lines(*back_to_back.load(tmp_path))[-1]
    assert last.endswith(
        "Verdict by verdict, as each run states it, each states a difference in both runs or in neither. "
        "Taken together at 5% familywise, 3 of 3 strategies' answers are the same in both runs."
    )
    path = tmp_path / "run-2" / "results.json"
    data = json.loads(path.read_text())
    by_key = {(v["workload"], v["strategy"], v["metric"]): v for v in data["verdicts"]}
    moved = by_key[("lookup-by-data", "uuid-v4", "tps")]
    assert moved["resolved"] and moved["familywise"]
    moved["resolved"] = moved["familywise"] = False
    # Resolved on its own interval in run-2 only, but held by neither run's family: stated alike in both.
    alone = by_key[("lookup-by-data", "uuid-v7", "tps")]
    assert not alone["resolved"] and not alone["familywise"]
    alone["resolved"] = True
    path.write_text(json.dumps(data))
    last = back_to_back.lines(*back_to_back.load(tmp_path))[-1]
    assert (
        "Verdict by verdict, as each run states it, 1 states a difference in one run and not in the other "
        "(uuid-v4 lookup-by-data TPS;" in last
    )
    assert (
        "On its own interval, without its strategy's other figures, 2 resolve a difference in one run only."
        in last
    )
    assert last.endswith("2 of 3 strategies' answers are the same in both runs; not uuid-v4's.")
