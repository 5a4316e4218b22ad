"""The documents' calibration blocks: a committed calibration's A/A runs read back from their folders and,
where a default now runs fewer rounds than they recorded, judged on their first rounds, in the lines a run's
calibration.md has (summary.calibration)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from pkbench import results
from pkbench.errors import PkbenchError
from pkbench.results.model import RunResult
from pkbench.summary.calibration import RUN_PREFIX, lines


def load_runs(directory: Path) -> list[RunResult]:
    """The A/A runs under DIRECTORY, in the order they ran."""
    numbered = sorted(
        (int(p.name.removeprefix(RUN_PREFIX)), p)
        for p in directory.glob(f"{RUN_PREFIX}*")
        if p.name.removeprefix(RUN_PREFIX).isdigit() and (p / "results.json").is_file()
    )
    if not numbered:
        raise PkbenchError(f"{directory}: no A/A run there ({RUN_PREFIX}N/results.json)")
    return [results.load(path) for _, path in numbered]


def first_rounds(run: RunResult, count: int) -> RunResult:
    """RUN as if it had stopped after COUNT rounds: every window's rounds (paired and interleaved) cut to the
    first COUNT, the load untouched. A round measures nothing of the rounds after it, so an A/A run's first
    rounds are the run a default with fewer rounds makes, and the calibration of a shorter default can be
    judged on a longer one's runs. The run is copied, never changed: loaded runs are shared."""
    if count < 1:
        raise PkbenchError(f"first rounds: {count} is not a round count (1 or more)")
    recorded = run.rounds
    if recorded is None or recorded.count < count:
        raise PkbenchError(
            f"{run.scenario.get('name', 'the run')}: {recorded.count if recorded else 0} rounds recorded, "
            f"fewer than the first {count} asked for"
        )
    strategies = [
        replace(
            s,
            workloads=[
                replace(w, rounds=list(w.rounds[:count]), interleaved=list(w.interleaved[:count]))
                for w in s.workloads
            ],
        )
        for s in run.strategies
    ]
    return replace(run, strategies=strategies, rounds=replace(recorded, count=count))


def block(directory: Path, first: int | None = None) -> list[str]:
    """The calibration in DIRECTORY as the documents quote it, each A/A run judged on its FIRST rounds where
    given."""
    aa_runs = load_runs(directory)
    recorded = aa_runs[0].rounds
    if first is None:
        return lines(aa_runs, directory)
    cut = [first_rounds(run, first) for run in aa_runs]
    rounds_each = (
        f"judged on the first {first} of their {recorded.count} rounds"
        if recorded is not None and first < recorded.count
        else f"{recorded.count if recorded else '?'} rounds each"
    )
    return lines(cut, directory, rounds_each=rounds_each)
