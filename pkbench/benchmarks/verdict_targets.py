"""Are pkbench's verdicts stable? Two identical runs back to back, and the figures the targets are about.

    .venv/bin/python pkbench/benchmarks/verdict_targets.py [--out DIR] [-- pkbench run options]

Targets (docs/statistics.md): every headline TPS ratio's 95% interval within ±5% in each run, the two runs'
intervals overlapping for every strategy, work per transaction (buffers, WAL, CPU) agreeing within 3%, and the
wall time of a default run. It prints the figures and whether each target was met; it measures, it does not
assert (exit 0 whenever both runs completed).
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from pathlib import Path

from pkbench import results
from pkbench.results import RunResult, Verdict

HALF_WIDTH_TARGET = 0.05
WORK_AGREEMENT_TARGET = 0.03
# Work figures (WorkPerTransaction fields and WAL per transaction) the two runs should agree on.
WORK_FIELDS = ("shared_blocks_hit", "shared_blocks_dirtied", "backend_cpu_ms")


def run_once(out: Path, extra: list[str]) -> tuple[RunResult, float]:
    started = time.monotonic()
    done = subprocess.run([sys.executable, "-m", "pkbench", "run", "--out", str(out), *extra])
    if done.returncode != 0:
        raise SystemExit(f"verdict_targets: pkbench run exited {done.returncode}")
    return results.load(out), time.monotonic() - started


def tps_verdicts(run: RunResult) -> dict[tuple[str, str], Verdict]:
    return {(v.strategy, v.workload): v for v in run.verdicts if v.metric == "tps"}


def interval(verdict: Verdict) -> tuple[float, float, float, float] | None:
    """(ratio, low, high, half-width) of a verdict with an interval."""
    v = verdict
    if v.ratio is None or v.low is None or v.high is None or v.half_width is None:
        return None
    return v.ratio, v.low, v.high, v.half_width


def work(run: RunResult) -> dict[tuple[str, str, str], float]:
    found: dict[tuple[str, str, str], float] = {}
    for strategy in run.strategies:
        for workload in strategy.workloads:
            key = (strategy.name, workload.name)
            if workload.wal_bytes_per_transaction is not None:
                found[(*key, "wal_bytes")] = float(workload.wal_bytes_per_transaction)
            per_tx = workload.work_per_transaction
            for name in WORK_FIELDS:
                value = getattr(per_tx, name) if per_tx is not None else None
                if value is not None and value > 0:
                    found[(*key, name)] = float(value)
    return found


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--out", type=Path, default=Path("verdict-targets"))
    parser.add_argument("run_options", nargs="*", help="options for both pkbench runs (after --)")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=False)
    first, first_s = run_once(args.out / "run-1", args.run_options)
    second, second_s = run_once(args.out / "run-2", args.run_options)

    print(f"\nwall time: run 1 {first_s / 60:.1f} min, run 2 {second_s / 60:.1f} min")
    print("\nTPS ratio to the baseline, 95% interval, half-width (target <= 5%), overlap of the two runs:")
    widths, overlaps = [], []
    one, two = tps_verdicts(first), tps_verdicts(second)
    for key in one:
        a, b = one[key], two.get(key)
        one_interval, two_interval = interval(a), interval(b) if b is not None else None
        if one_interval is None or two_interval is None:
            print(f"  {key[0]:<14} {key[1]:<16} no interval in both runs")
            continue
        (ratio_1, low_1, high_1, width_1), (ratio_2, low_2, high_2, width_2) = one_interval, two_interval
        overlap = low_1 <= high_2 and low_2 <= high_1
        widths += [width_1, width_2]
        overlaps.append(overlap)
        print(
            f"  {key[0]:<14} {key[1]:<16} run 1 {ratio_1:.3f} ({low_1:.3f}-{high_1:.3f}) "
            f"±{width_1:.1%}   run 2 {ratio_2:.3f} ({low_2:.3f}-{high_2:.3f}) "
            f"±{width_2:.1%}   {'overlap' if overlap else 'NO OVERLAP'}"
        )
    print("\nwork per transaction, run 2 / run 1 (target within 3%):")
    agreements = []
    first_work, second_work = work(first), work(second)
    for key, value in first_work.items():
        other = second_work.get(key)
        if other is None:
            continue
        agreements.append(abs(other / value - 1))
        print(f"  {key[0]:<14} {key[1]:<16} {key[2]:<22} {other / value:.3f}")
    print("\ntargets:")
    if widths:
        within = sum(w <= HALF_WIDTH_TARGET for w in widths)
        print(f"  TPS half-width <= 5%: {within} of {len(widths)} intervals (widest ±{max(widths):.1%})")
        print(f"  intervals of the two runs overlap: {sum(overlaps)} of {len(overlaps)}")
    if agreements:
        agree = sum(a <= WORK_AGREEMENT_TARGET for a in agreements)
        print(
            f"  work per transaction within 3%: {agree} of {len(agreements)} figures "
            f"(largest difference {max(agreements):.1%})"
        )


if __name__ == "__main__":
    main()
