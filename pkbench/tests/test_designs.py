"""The `designs` block: a paired and an interleaved run read side by side on the figures both measure, and
whether their intervals overlap. Pure file work on a committed run, no server."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from test_evidence import ROOT

from pkbench.errors import PkbenchError
from pkbench.evidence import designs
from pkbench.evidence import tables as evidence_tables

PAIRED_RUN = ROOT / "pkbench/docs/reproductions/back-to-back-war/run-1/results.json"


def pair(tmp_path: Path, doctor: Any = None) -> Path:
    """A directory holding the committed paired run twice, as paired/ and interleaved/, the second changed by
    DOCTOR (a function of its JSON)."""
    for design in designs.DESIGNS:
        (tmp_path / design).mkdir()
        shutil.copy(PAIRED_RUN, tmp_path / design / "results.json")
    if doctor is not None:
        path = tmp_path / "interleaved" / "results.json"
        data = json.loads(path.read_text())
        doctor(data)
        path.write_text(json.dumps(data))
    return tmp_path


def rows(lines: list[str]) -> dict[tuple[str, str, str], list[str]]:
    found = {}
    for line in lines[2:]:
        if not line.startswith("| "):
            break
        cells = [c.strip() for c in line.strip("|").split("|")]
        found[(cells[0], cells[1], cells[2])] = cells[3:]
    return found


def test_the_same_run_twice_overlaps_everywhere(tmp_path: Path) -> None:
    lines = evidence_tables.table("designs", pair(tmp_path))
    found = rows(lines)
    # Every window and strategy of war against bigint, on the latency mean and the two WAL figures.
    for window in ("lookup-by-data", "lookup-by-key"):
        for strategy in ("uuid-v4", "uuid-v4-text", "uuid-v7"):
            for figure in ("latency mean", "WAL bytes per transaction", "full-page images per transaction"):
                paired, interleaved, agree = found[(window, strategy, figure)]
                assert paired == interleaved and agree == "yes"
    assert "paired: the latency mean's median half-width ±" in lines[-1]


def test_a_latency_twice_as_long_in_every_round_is_a_bias(tmp_path: Path) -> None:
    def slower(data: dict[str, Any]) -> None:
        for strategy in data["strategies"]:
            if strategy["name"] == "uuid-v4":
                for workload in strategy["workloads"]:
                    for window in workload["rounds"]:
                        window["latency_ms"]["mean"] *= 2

    found = rows(evidence_tables.table("designs", pair(tmp_path, slower)))
    for window in ("lookup-by-data", "lookup-by-key"):
        paired, interleaved, agree = found[(window, "uuid-v4", "latency mean")]
        assert agree == "no"
        assert float(interleaved.split()[0]) == pytest.approx(2 * float(paired.split()[0]), rel=1e-3)
        assert found[(window, "uuid-v7", "latency mean")][2] == "yes"


def test_the_scenarios_table_lists_what_does_not_overlap_and_only_that(tmp_path: Path) -> None:
    def slower(data: dict[str, Any]) -> None:
        for strategy in data["strategies"]:
            if strategy["name"] == "uuid-v4":
                for window in strategy["workloads"][0]["rounds"]:
                    window["latency_ms"]["mean"] *= 2

    (tmp_path / "alike").mkdir()
    (tmp_path / "slower").mkdir()
    pair(tmp_path / "alike")
    pair(tmp_path / "slower", slower)
    (tmp_path / "not-a-pair").mkdir()
    lines = evidence_tables.table("designs-by-scenario", tmp_path)
    table = {
        line.split(" | ")[0].strip("| "): line.split(" | ") for line in lines[2:] if line.startswith("| ")
    }
    assert set(table) == {"alike", "slower"}
    # Two windows, three strategies against bigint, three figures: 18 compared.
    assert table["alike"][1:4] == ["2", "18 of 18", "none"]
    assert table["slower"][2] == "17 of 18"
    assert table["slower"][3].startswith("lookup-by-data uuid-v4 latency mean ")
    with pytest.raises(PkbenchError, match="no folder with paired/ and interleaved/ runs"):
        evidence_tables.table("designs-by-scenario", tmp_path / "not-a-pair")


def test_a_directory_without_both_designs_is_one_line(tmp_path: Path) -> None:
    (tmp_path / "paired").mkdir()
    shutil.copy(PAIRED_RUN, tmp_path / "paired" / "results.json")
    with pytest.raises(PkbenchError, match=r"no interleaved/results\.json"):
        evidence_tables.table("designs", tmp_path)
