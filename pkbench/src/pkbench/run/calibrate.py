"""`pkbench run --calibrate N`: N runs of the baseline against an identical copy of itself under the chosen
design (mixed, --paired or --interleave). Every verdict that resolves a difference there is a false
positive; the intervals' half-widths are the smallest effect the design resolves on this machine."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from datetime import datetime
from pathlib import Path

from pkbench.errors import PkbenchError
from pkbench.reporting import Reporter
from pkbench.results.model import RunResult
from pkbench.run.options import Options, Outcome
from pkbench.summary import calibration


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
    design = {True: "interleaved", False: "paired", None: "mixed"}[options.interleave]
    runs: list[RunResult] = []
    for number in range(1, count + 1):
        reporter.info(f"A/A run {number} of {count} ({design})")
        folder = out / f"{calibration.RUN_PREFIX}{number}"
        outcome = run_one(dataclasses.replace(options, out=folder, aa_copy=True), reporter)
        if any(s.status != "ok" for s in outcome.run.strategies):
            raise PkbenchError(f"A/A run {number} did not complete: see {folder}")
        runs.append(outcome.run)
    return out, calibration.write(runs, out)
