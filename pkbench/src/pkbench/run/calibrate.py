"""`pkbench run --calibrate N`: N runs of the baseline against an identical copy of itself under the chosen
design (paired or --interleave). Every verdict that resolves a difference there is a false positive; the
intervals' half-widths are the smallest effect the design resolves on this machine."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from datetime import datetime
from pathlib import Path

from pkbench.errors import PkbenchError
from pkbench.reporting import Reporter
from pkbench.results import Verdict
from pkbench.run.interleaved import Calibration
from pkbench.run.options import Options, Outcome


def summed(design: str, runs: Sequence[Sequence[Verdict]]) -> tuple[Calibration, int, int]:
    """The A/A runs' verdicts summed up: a run is a false positive when any of its verdicts resolved a
    difference; also how many verdicts resolved one, of how many."""
    verdicts = [v for run in runs for v in run]
    widths = sorted(v.half_width for v in verdicts if v.half_width is not None)
    median = (widths[(len(widths) - 1) // 2] + widths[len(widths) // 2]) / 2 if widths else None
    found = Calibration(design, len(runs), sum(1 for run in runs if any(v.resolved for v in run)), median)
    return found, sum(1 for v in verdicts if v.resolved), len(verdicts)


def execute(
    options: Options, count: int, run_one: Callable[[Options, Reporter], Outcome], reporter: Reporter
) -> tuple[Path, str]:
    """COUNT A/A runs, each in a folder of its own under the output directory, and their calibration in
    calibration.md there; the directory and the words."""
    if count < 1:
        raise PkbenchError(f"--calibrate must be at least 1 (got {count})")
    out = options.out or Path(f"pkbench-calibration-{datetime.now().strftime('%Y%m%d-%H%M%S')}")
    if out.exists():
        raise PkbenchError(f"--out {out}: already exists")
    design = "interleaved" if options.interleave else "paired"
    runs: list[list[Verdict]] = []
    for number in range(1, count + 1):
        reporter.info(f"A/A run {number} of {count} ({design})")
        outcome = run_one(dataclasses.replace(options, out=out / f"aa-{number}", aa_copy=True), reporter)
        if any(s.status != "ok" for s in outcome.run.strategies):
            raise PkbenchError(f"A/A run {number} did not complete: see {out / f'aa-{number}'}")
        runs.append(list(outcome.run.verdicts))
    found, resolved, verdicts = summed(design, runs)
    words = f"{found.words()}. {resolved} of {verdicts} verdicts resolved a difference."
    (out / "calibration.md").write_text(f"# A/A calibration\n\n{words}\n")
    return out, words
