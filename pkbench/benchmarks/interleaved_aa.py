"""A/A calibration of the two designs on this machine: bigint against an identical copy of itself, measured
paired (each strategy's window alone, in rotating order) and interleaved (both scripts in one window), with
`pkbench run war --calibrate` itself (run/calibrate.py), small.

    .venv/bin/python pkbench/benchmarks/interleaved_aa.py [--runs N] [--rounds R] [--seconds S] [--rows ROWS]

Every A/A verdict that resolves a difference is a false positive; the median half-width of the intervals is
the smallest effect the design resolves here. It also prints uuid-v4 against bigint under both designs. It
measures, it asserts nothing; the figures are the machine's of the moment, so nothing here goes into the docs
by hand (a committed `pkbench run --calibrate` directory does, through `./dev docs`).
"""

from __future__ import annotations

import argparse
import dataclasses
import tempfile
from collections.abc import Sequence
from pathlib import Path

from pkbench.reporting import Silent
from pkbench.run import calibrate, runner
from pkbench.run.options import Options

DESIGNS = {"paired": False, "interleaved": True}


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=4)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seconds", type=int, default=2)
    parser.add_argument("--rows", type=int, default=200_000)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as work:
        base = Options(
            scenario="war",
            strategies=["bigint"],
            parameters={"rows": args.rows, "duration_s": args.seconds, "clients": 4, "jobs": 2},
            rounds=args.rounds,
            command=["benchmarks/interleaved_aa.py", *(argv or [])],
        )
        for design, interleave in DESIGNS.items():
            options = dataclasses.replace(base, interleave=interleave, out=Path(work) / f"aa-{design}")
            _, words = calibrate.execute(options, args.runs, runner.execute, Silent())
            print(words, flush=True)
        for design, interleave in DESIGNS.items():
            options = dataclasses.replace(
                base, strategies=["bigint", "uuid-v4"], interleave=interleave, out=Path(work) / design
            )
            for v in runner.execute(options, Silent()).run.verdicts:
                width = f" (half-width {v.half_width:.1%})" if v.half_width is not None else ""
                print(f"uuid-v4 against bigint, {design}, {v.workload} {v.metric}: {v.words}{width}")


if __name__ == "__main__":
    main()
