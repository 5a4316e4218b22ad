"""Are pkbench's verdicts stable? Two identical runs back to back, and the figures the targets are about.

    .venv/bin/python pkbench/benchmarks/verdict_targets.py [--out DIR] [-- pkbench run options]

Targets (docs/statistics.md): every headline TPS ratio's 95% interval within ±5% in each run, the two runs'
intervals overlapping for every strategy, work per transaction (buffers, WAL, CPU) agreeing within 3%, and the
wall time of a default run. It prints the figures and whether each target was met; it measures, it does not
assert (exit 0 whenever both runs completed).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

HALF_WIDTH_TARGET = 0.05
WORK_AGREEMENT_TARGET = 0.03
# Work figures (WorkPerTransaction fields and WAL per transaction) the two runs should agree on.
WORK_FIELDS = ("shared_blocks_hit", "shared_blocks_dirtied", "backend_cpu_ms")


def run_once(out: Path, extra: list[str]) -> tuple[dict[str, Any], float]:
    started = time.monotonic()
    done = subprocess.run([sys.executable, "-m", "pkbench", "run", "--out", str(out), *extra])
    if done.returncode != 0:
        raise SystemExit(f"verdict_targets: pkbench run exited {done.returncode}")
    return json.loads((out / "results.json").read_text()), time.monotonic() - started


def tps_verdicts(results: dict[str, Any]) -> dict[tuple[str, str], dict[str, Any]]:
    return {(v["strategy"], v["workload"]): v for v in results.get("verdicts") or [] if v["metric"] == "tps"}


def work(results: dict[str, Any]) -> dict[tuple[str, str, str], float]:
    found: dict[tuple[str, str, str], float] = {}
    for strategy in results["strategies"]:
        for workload in strategy.get("workloads") or []:
            key = (strategy["name"], workload["name"])
            wal = workload.get("wal_bytes_per_transaction")
            if isinstance(wal, int | float):
                found[(*key, "wal_bytes")] = float(wal)
            per_tx = workload.get("work_per_transaction") or {}
            for name in WORK_FIELDS:
                value = per_tx.get(name)
                if isinstance(value, int | float) and value > 0:
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
        if b is None or a["low"] is None or b["low"] is None:
            print(f"  {key[0]:<14} {key[1]:<16} no interval in both runs")
            continue
        overlap = a["low"] <= b["high"] and b["low"] <= a["high"]
        widths += [a["half_width"], b["half_width"]]
        overlaps.append(overlap)
        print(
            f"  {key[0]:<14} {key[1]:<16} run 1 {a['ratio']:.3f} ({a['low']:.3f}-{a['high']:.3f}) "
            f"±{a['half_width']:.1%}   run 2 {b['ratio']:.3f} ({b['low']:.3f}-{b['high']:.3f}) "
            f"±{b['half_width']:.1%}   {'overlap' if overlap else 'NO OVERLAP'}"
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
