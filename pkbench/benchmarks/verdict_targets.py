"""Are pkbench's verdicts stable? Two identical runs back to back, and the figures the targets are about.

    .venv/bin/python pkbench/benchmarks/verdict_targets.py [--out DIR] [-- pkbench run options]
    .venv/bin/python pkbench/benchmarks/verdict_targets.py --again DIR    (the figures of two earlier runs)
    .venv/bin/python pkbench/benchmarks/verdict_targets.py --designs [--out DIR] [-- pkbench run options]
        (one --paired and one --interleave run: their latency-mean intervals side by side)

Targets (docs/statistics.md): every headline TPS ratio's 95% interval within ±5% in each run, the two runs'
intervals overlapping for every strategy, work per transaction (buffers, WAL, CPU) agreeing within 3%, and the
wall time of a default run. It prints the figures and whether each target was met; it measures, it does not
assert (exit 0 whenever both runs completed).

It also prints the machine's noise as the windows saw it: how far each window's TPS lies from the median of
its strategy and workload, whether neighbouring windows move together (which pairing would cancel) or not
(which only more rounds narrow), and how wide the interval of a ratio would be over more rounds of windows
like these (the two runs' window deviations resampled, each interval computed as pkbench computes it).
"""

from __future__ import annotations

import argparse
import math
import statistics
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

from pkbench import results
from pkbench.analysis.verdict import median_interval
from pkbench.evidence import back_to_back, designs
from pkbench.results import RunResult, WorkloadResult

WORK_AGREEMENT_TARGET = 0.03
# Work figures (WorkPerTransaction fields and WAL per transaction) the two runs should agree on.
WORK_FIELDS = ("shared_blocks_hit", "shared_blocks_dirtied", "backend_cpu_ms")
# Rounds for which the width of a ratio's interval is estimated from the windows' own noise.
PROJECTED_ROUNDS = (5, 8, 12, 16, 24)
PROJECTION_TRIALS = 200


def run_once(out: Path, extra: list[str]) -> tuple[RunResult, float]:
    started = time.monotonic()
    done = subprocess.run([sys.executable, "-m", "pkbench", "run", "--out", str(out), *extra])
    if done.returncode != 0:
        raise SystemExit(f"verdict_targets: pkbench run exited {done.returncode}")
    return results.load(out), time.monotonic() - started


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


def windows_in_order(run: RunResult) -> list[tuple[str, str, WorkloadResult]]:
    """(strategy, workload, window) of every measured window in the order they ran: stage by stage (one
    workload each, as in war), round by round, in the round's rotation."""
    by_strategy = {s.name: {w.name: w.rounds for w in s.workloads} for s in run.strategies}
    workloads = [w.name for w in run.strategies[0].workloads] if run.strategies else []
    stage_orders = iter(run.rounds.orders if run.rounds is not None else [])
    found = []
    for workload in workloads:
        count = max(len(by_workload.get(workload, [])) for by_workload in by_strategy.values())
        for number in range(count):
            for name in next(stage_orders, []):
                rounds = by_strategy[name].get(workload, [])
                if number < len(rounds):
                    found.append((name, workload, rounds[number]))
    return found


def figure_of(window: WorkloadResult, figure: str) -> float | None:
    """The window's TPS (FIGURE "tps") or a work-per-transaction figure such as "backend_cpu_ms"; None when
    it was not measured."""
    if figure == "tps":
        return window.tps or None
    per_transaction = window.work_per_transaction
    return (getattr(per_transaction, figure) or None) if per_transaction is not None else None


def window_deviations(run: RunResult, figure: str = "tps") -> list[float | None]:
    """Each window's FIGURE as log(figure / the median of its strategy and workload), in the order the windows
    ran; None where the window lacks it."""
    windows = windows_in_order(run)
    values: dict[tuple[str, str], list[float]] = {}
    for name, workload, window in windows:
        value = figure_of(window, figure)
        if value is not None:
            values.setdefault((name, workload), []).append(value)
    deviations: list[float | None] = []
    for name, workload, window in windows:
        value = figure_of(window, figure)
        median = statistics.median(values[(name, workload)]) if value is not None else None
        deviations.append(math.log(value / median) if value is not None and median else None)
    return deviations


def autocorrelation(values: list[float], lag: int) -> float:
    mean = statistics.fmean(values)
    spread = sum((v - mean) ** 2 for v in values)
    return sum((values[i] - mean) * (values[i + lag] - mean) for i in range(len(values) - lag)) / spread


def projected_half_widths(deviations: list[float], rounds: int) -> list[float]:
    """Half-widths of the interval of a strategy's median ratio to the baseline over ROUNDS rounds, each round
    a strategy window and a baseline window with deviations drawn from DEVIATIONS."""
    rng = np.random.default_rng(0)
    pool = np.asarray(deviations)
    widths = []
    for trial in range(PROJECTION_TRIALS):
        ratios = np.exp(rng.choice(pool, rounds) - rng.choice(pool, rounds))
        found = median_interval([float(r) for r in ratios], seed=trial)
        if found is not None:
            middle = float(np.median(ratios))
            widths.append(max(found.high / middle - 1, 1 - found.low / middle))
    return widths


def print_noise(runs: list[RunResult]) -> None:
    print("\nthe windows' noise: log(TPS / median of its strategy and workload), windows in order")
    pooled: list[float] = []
    for number, run in enumerate(runs, 1):
        with_cpu = list(zip(window_deviations(run), window_deviations(run, "backend_cpu_ms"), strict=True))
        deviations = [tps for tps, _ in with_cpu if tps is not None]
        if len(deviations) < 3:
            continue
        pooled += deviations
        low = sum(d < -0.05 for d in deviations)
        lags = " ".join(f"{autocorrelation(deviations, lag):+.2f}" for lag in (1, 2, 3, 4))
        print(
            f"  run {number}: {len(deviations)} windows, standard deviation "
            f"{statistics.stdev(deviations):.1%}, "
            f"{low} more than 5% below their median; autocorrelation at lags 1-4: {lags}"
        )
        both = [(tps, cpu) for tps, cpu in with_cpu if tps is not None and cpu is not None]
        if len(both) >= 3:
            print(
                "    correlation with the window's backend CPU per transaction: "
                f"{statistics.correlation(*zip(*both, strict=True)):+.2f} "
                "(near -1: a slow window is one where each transaction took more CPU)"
            )
    if len(pooled) < 3:
        return
    print(
        "\nthe interval of one TPS ratio over more rounds of such windows "
        f"(both runs' windows resampled, {PROJECTION_TRIALS} trials each):"
    )
    for rounds in PROJECTED_ROUNDS:
        widths = projected_half_widths(pooled, rounds)
        within = sum(w <= back_to_back.HALF_WIDTH_TARGET for w in widths) / len(widths)
        print(
            f"  {rounds:>3} rounds: typical half-width ±{statistics.median(widths):.1%}, "
            f"within ±5% in {within:.0%} of trials"
        )


def compare_designs(paired: RunResult, interleaved: RunResult) -> None:
    print("\nratio to the baseline and its 95% interval, paired against interleaved:")
    print("\n".join(designs.lines(paired, interleaved)))


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--out", type=Path, default=Path("verdict-targets"))
    parser.add_argument("--again", type=Path, help="the figures of DIR/run-1 and DIR/run-2; runs nothing")
    parser.add_argument("--designs", action="store_true", help="one --paired and one --interleave run")
    parser.add_argument("run_options", nargs="*", help="options for both pkbench runs (after --)")
    args = parser.parse_args()
    if args.designs:
        if args.again is not None:
            paired, interleaved = (
                results.load(args.again / "paired"),
                results.load(args.again / "interleaved"),
            )
        else:
            args.out.mkdir(parents=True, exist_ok=False)
            paired, paired_s = run_once(args.out / "paired", [*args.run_options, "--paired"])
            interleaved, inter_s = run_once(args.out / "interleaved", [*args.run_options, "--interleave"])
            print(f"\nwall time: paired {paired_s / 60:.1f} min, interleaved {inter_s / 60:.1f} min")
        compare_designs(paired, interleaved)
        return
    if args.again is not None:
        first, second = back_to_back.load(args.again)
    else:
        args.out.mkdir(parents=True, exist_ok=False)
        first, first_s = run_once(args.out / back_to_back.RUNS[0], args.run_options)
        second, second_s = run_once(args.out / back_to_back.RUNS[1], args.run_options)
        print(f"\nwall time: run 1 {first_s / 60:.1f} min, run 2 {second_s / 60:.1f} min")
    print("\nTPS ratio to the baseline, 95% interval, half-width, overlap of the two runs:")
    print("\n".join(back_to_back.lines(first, second)))
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
    if agreements:
        agree = sum(a <= WORK_AGREEMENT_TARGET for a in agreements)
        print(
            f"  work per transaction within 3%: {agree} of {len(agreements)} figures "
            f"(largest difference {max(agreements):.1%})"
        )
    print_noise([first, second])


if __name__ == "__main__":
    main()
