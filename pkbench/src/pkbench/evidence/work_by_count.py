"""How a paired window's work per transaction follows its transaction count: in each round, every strategy's
full-page images and WAL per transaction over the baseline's, against its transactions over the baseline's.
A checkpoint before each window images a page the first time a transaction changes it; the window's later
transactions that come back to that page write no image, so the more transactions a window runs, the fewer
images each one writes. In windows of equal length the counts are what the machine's speed of the moment
allowed, and the ratio of the work per transaction moves with them; the mixed design's paired windows run
equal counts instead (run.interleaved_rounds), and there the counts' ratio is 1 in every round.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass

from pkbench.results.model import RunResult, WorkloadResult

FIGURES = (("wal_fpi_per_transaction", "Full-page images"), ("wal_bytes_per_transaction", "WAL bytes"))
# Counts this close are equal: a window of a given count runs it per client, rounded up, so it may run up to
# one transaction a client more than the round's first window.
EQUAL_COUNTS = 0.001


@dataclass(frozen=True)
class Pair:
    """One round of one strategy's window against the baseline's: the logs of the two ratios."""

    counts: float  # log(transactions / the baseline's)
    work: float  # log(figure per transaction / the baseline's)


def pairs(run: RunResult, figure: str) -> list[list[Pair]]:
    """Every round of every strategy's paired windows with the baseline's of the same round, a list for
    each strategy's window."""
    by_name = {s.name: s for s in run.strategies if s.status == "ok"}
    baseline = by_name.get(run.rounds.baseline or "") if run.rounds is not None else None
    if baseline is None:
        return []
    base = {w.name: w.rounds for w in baseline.workloads}
    found: list[list[Pair]] = []
    for strategy in by_name.values():
        if strategy is baseline:
            continue
        for window in strategy.workloads:
            rounds = zip(window.rounds, base.get(window.name, []), strict=False)
            found.append(
                [pair for mine, theirs in rounds if (pair := _pair(mine, theirs, figure)) is not None]
            )
    return [group for group in found if group]


def _pair(mine: WorkloadResult, theirs: WorkloadResult, figure: str) -> Pair | None:
    values = (mine.transactions, theirs.transactions, getattr(mine, figure), getattr(theirs, figure))
    found = [float(v) for v in values if isinstance(v, int | float) and v > 0]
    if len(found) < len(values):
        return None
    counts, theirs_count, work, theirs_work = found
    return Pair(math.log(counts / theirs_count), math.log(work / theirs_work))


def lines(run: RunResult) -> list[str]:
    """One sentence per figure: how far the rounds' counts differed, and how the work ratio followed them
    from round to round (each strategy's window about its own mean: the strategies differ in their work)."""
    said: list[str] = []
    for figure, title in FIGURES:
        groups = pairs(run, figure)
        found = [p for group in groups for p in group]
        if len(found) < 3:
            continue
        widest = max(abs(math.expm1(p.counts)) for p in found)
        lead = (
            f"{title} per transaction, over {len(found)} rounds of a strategy's paired window against the "
            "baseline's:"
        )
        if widest <= EQUAL_COUNTS:
            said.append(
                f"{lead} the two ran the same count of transactions, to within {widest:.2%}, in every round."
            )
            continue
        centred = [
            (g, statistics.fmean(q.counts for q in g), statistics.fmean(q.work for q in g)) for g in groups
        ]
        counts = [p.counts - mean for g, mean, _ in centred for p in g]
        work = [p.work - mean for g, _, mean in centred for p in g]
        slope = statistics.linear_regression(counts, work).slope
        said.append(
            f"{lead} their transaction counts differed by up to {widest:.1%}, and from round to round the "
            f"figure's ratio moved {slope:+.2f} times the counts' ratio on a log scale (least squares, each "
            f"strategy's window about its own mean; correlation {statistics.correlation(counts, work):+.2f})."
        )
    return said


def by_load(aa_runs: Sequence[RunResult]) -> list[str]:
    """What two loads of the same key leave different, over a calibration's A/A runs: the index whose size
    after the load differs most between the copy and the baseline, and how each window's WAL per transaction
    ratio followed that index's size ratio from run to run."""
    sizes: dict[str, list[float]] = {}
    for run in aa_runs:
        tables = [s.sizes_after_prefill for s in run.strategies if s.status == "ok"]
        if len(tables) != 2 or tables[0] is None or tables[1] is None:
            return []
        for index, base in tables[0].indexes.items():
            copy = tables[1].indexes.get(index)
            if copy and base:
                sizes.setdefault(index, []).append(math.log(copy / base))
    complete = {name: found for name, found in sizes.items() if len(found) == len(aa_runs) >= 3}
    if not complete:
        return []
    index, logs = max(complete.items(), key=lambda item: statistics.pstdev(item[1]))
    if statistics.pstdev(logs) == 0:
        return [
            f"Over the {len(aa_runs)} A/A runs every index of the copy came out as large as the baseline's."
        ]
    said = [
        f"Over the {len(aa_runs)} A/A runs the copy's {index} came out "
        f"{math.exp(min(logs)):.3f}-{math.exp(max(logs)):.3f}x the size of the baseline's after the load."
    ]
    windows = sorted({v.workload for run in aa_runs for v in run.verdicts if v.metric == "wal"})
    for window in windows:
        wal = [
            next((v.ratio for v in run.verdicts if v.metric == "wal" and v.workload == window), None)
            for run in aa_runs
        ]
        pairs = [(size, math.log(r)) for size, r in zip(logs, wal, strict=True) if r is not None and r > 0]
        if len(pairs) < 3:
            continue
        xs, ys = [p[0] for p in pairs], [p[1] for p in pairs]
        said.append(
            f"{window}: the copy's WAL per transaction over the baseline's moved "
            f"{statistics.linear_regression(xs, ys).slope:+.2f} times that size ratio on a log scale "
            f"(correlation {statistics.correlation(xs, ys):+.2f})."
        )
    return said
