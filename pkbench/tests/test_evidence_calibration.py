"""The `calibration` block of the documents: an A/A calibration's figures from its committed runs
(aa-N/results.json), checked and rewritten like every other generated block. Pure file work, no server."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from test_evidence import ROOT, block_problems, tree

from pkbench import results
from pkbench.errors import PkbenchError
from pkbench.evidence import blocks as evidence
from pkbench.evidence import calibration
from pkbench.evidence import tables as evidence_tables
from pkbench.summary.calibration import marked_verdicts

CALIBRATION = "pkbench/docs/reproductions/calibration-interleaved"


def counted(directory: Path) -> tuple[int, int, int, int]:
    """A/A runs, runs with a verdict alone resolved, resolved verdicts and verdicts, each run judged from its
    rounds by this pkbench."""
    judged = [marked_verdicts(run) for run in calibration.load_runs(directory)]
    resolved = [[v.resolved for v in run] for run in judged]
    return (
        len(judged),
        sum(1 for run in resolved if any(run)),
        sum(map(sum, resolved)),
        sum(map(len, resolved)),
    )


@pytest.mark.parametrize(
    ("design", "least", "figure"),
    [("interleaved", 20, "statement execution time per transaction"), ("paired", 10, "TPS")],
)
def test_the_block_counts_what_the_committed_aa_runs_resolved(design: str, least: int, figure: str) -> None:
    directory = ROOT / f"pkbench/docs/reproductions/calibration-{design}"
    lines = evidence_tables.table("calibration", directory)
    runs, false_positive_runs, resolved, total = counted(directory)
    assert runs >= least
    assert f"--out calibration-{design}`: {runs} A/A runs of bigint against bigint-copy" in lines[0]
    (row,) = [line for line in lines if line.startswith(f"| {design} |")]
    # Taken together (familywise) no more runs resolve a difference than verdict by verdict.
    cells = row.split(" | ")
    assert int(cells[2].split("%")[0]) <= int(cells[3].split("%")[0])
    assert cells[3].startswith(f"{false_positive_runs / runs:.0%} (")
    assert f"| {resolved} of {total} |" in row
    # Every figure the runs judged has a row of its own, the design's own figures among them.
    assert any(line.startswith(f"| lookup-by-key | {figure} | {runs} |") for line in lines)


def test_a_doctored_aa_run_changes_the_block_and_write_follows_it(tmp_path: Path) -> None:
    copy = tree(tmp_path)
    directory = copy / CALIBRATION
    _, _, resolved_before, _ = counted(directory)
    path = directory / "aa-1" / "results.json"
    data = json.loads(path.read_text())
    # The copy's latency a third longer in every round of its first window: a difference its rounds resolve.
    (copy_strategy,) = [s for s in data["strategies"] if s["name"] == "bigint-copy"]
    for window in copy_strategy["workloads"][0]["rounds"]:
        window["latency_ms"]["mean"] *= 1.3
    path.write_text(json.dumps(data))
    problems = [str(p) for p in block_problems(copy)]
    assert f"pkbench/docs/statistics.md: block calibration: differs from what {CALIBRATION} gives" in problems
    evidence.write(copy)
    assert block_problems(copy) == []
    _, _, resolved, total = counted(directory)
    assert resolved > resolved_before
    assert f"| {resolved} of {total} |" in (copy / "pkbench/docs/statistics.md").read_text()


def test_the_block_judges_the_rounds_whatever_verdicts_the_runs_recorded(tmp_path: Path) -> None:
    copy = tree(tmp_path)
    directory = copy / CALIBRATION
    before = evidence_tables.table("calibration", directory)
    path = directory / "aa-1" / "results.json"
    data = json.loads(path.read_text())
    for v in data["verdicts"]:
        v.update(resolved=True, familywise=True, low=2.0, high=3.0)
    path.write_text(json.dumps(data))
    assert evidence_tables.table("calibration", directory) == before


def test_a_directory_without_aa_runs_is_no_calibration(tmp_path: Path) -> None:
    with pytest.raises(PkbenchError, match="no A/A run there"):
        evidence_tables.table("calibration", tmp_path)


DEFAULT = "pkbench/docs/reproductions/calibration-default"


def test_first_rounds_cuts_every_window_and_leaves_the_loaded_run_alone() -> None:
    run = results.load(ROOT / DEFAULT / "aa-1")
    assert run.rounds is not None and run.rounds.count == 7
    cut = calibration.first_rounds(run, 6)
    assert cut.rounds is not None and cut.rounds.count == 6
    for whole, part in zip(run.strategies, cut.strategies, strict=True):
        assert whole.prefill == part.prefill  # the load is not a round
        for w, p in zip(whole.workloads, part.workloads, strict=True):
            assert (len(w.rounds), len(w.interleaved)) == (7, 7)
            assert p.rounds == w.rounds[:6] and p.interleaved == w.interleaved[:6]
    judged = marked_verdicts(cut)
    assert {v.rounds for v in judged if v.workload != "prefill"} == {6}
    with pytest.raises(PkbenchError, match="7 rounds recorded, fewer than the first 8 asked for"):
        calibration.first_rounds(run, 8)
    with pytest.raises(PkbenchError, match="0 is not a round count"):
        calibration.first_rounds(run, 0)


def test_a_block_judged_on_the_first_rounds_reads_no_later_round(tmp_path: Path) -> None:
    directory = tmp_path / "calibration"
    directory.mkdir()
    for run in ("aa-1", "aa-2", "aa-3"):
        (directory / run).mkdir()
        (directory / run / "results.json").write_bytes((ROOT / DEFAULT / run / "results.json").read_bytes())
    six = evidence_tables.table("calibration", directory, 6)
    assert "judged on the first 6 of their 7 rounds" in six[0]
    assert six != evidence_tables.table("calibration", directory)

    def doctor(round_index: int) -> None:
        path = directory / "aa-1" / "results.json"
        data = json.loads(path.read_text())
        (copy_strategy,) = [s for s in data["strategies"] if s["name"] == "bigint-copy"]
        for window in copy_strategy["workloads"]:
            window["interleaved"][round_index]["latency_ms"]["mean"] *= 1.5
        path.write_text(json.dumps(data))

    doctor(6)  # the seventh round: outside the first six
    assert evidence_tables.table("calibration", directory, 6) == six
    doctor(0)
    assert evidence_tables.table("calibration", directory, 6) != six


def test_a_round_count_on_a_block_that_takes_none_is_a_problem(tmp_path: Path) -> None:
    copy = tree(tmp_path)
    path = copy / "pkbench/docs/statistics.md"
    marker = "<!-- generated: load-layout from pkbench/docs/reproductions/calibration-default -->"
    text = path.read_text()
    assert marker in text
    path.write_text(text.replace(marker, marker.replace(" -->", ", first 6 rounds -->")))
    problems = [str(p) for p in block_problems(copy)]
    assert any("block load-layout" in p and "takes no round count" in p for p in problems)
