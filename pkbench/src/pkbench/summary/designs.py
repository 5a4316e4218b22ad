"""The two designs of a run side by side: one `--paired` and one `--interleave` run of the same options, kept
as `paired/` and `interleaved/` in one directory (benchmarks/verdict_targets.py --designs makes them).

Both are read on the figures both measure for each strategy: its latency mean (pgbench's report of its own
script in an interleaved window; the whole window in a paired one), its WAL and full-page images per
transaction. Each ratio to the baseline is judged as the run judges its verdicts, round by round; where the
two designs' intervals do not overlap, one of them measures something the other does not (a bias), however
narrow its interval.
"""

from __future__ import annotations

import statistics
from collections.abc import Sequence
from pathlib import Path

from pkbench import results
from pkbench.analysis import judge
from pkbench.analysis.verdict import LATENCY, RatioVerdict, ratio_verdict
from pkbench.errors import PkbenchError
from pkbench.results import RunResult
from pkbench.text import MISSING, markdown_table

DESIGNS = ("paired", "interleaved")
# The recorded verdicts both designs make, by metric key, with the words of the table.
SHARED_VERDICTS = {"wal": "WAL bytes per transaction", "fpi": "full-page images per transaction"}
LATENCY_MEAN = "latency mean"


Interval = tuple[float, float, float]  # ratio, low, high


def latency_mean_verdicts(run: RunResult) -> dict[tuple[str, str], RatioVerdict]:
    """Each strategy's latency mean against the baseline's, round by round, by (window, strategy): what
    --interleave judges, and what a paired run measures too; the bootstrap is seeded as the run's verdicts
    are (analysis.judge)."""
    baseline = run.rounds.baseline if run.rounds is not None else None
    base = next((s for s in run.strategies if s.name == baseline), None)
    if base is None:
        return {}
    theirs = {w.name: [r.latency_ms.get("mean") for r in (w.rounds or [w])] for w in base.workloads}
    found = {}
    for strategy in run.strategies:
        if strategy is base:
            continue
        for w in strategy.workloads:
            mine = [r.latency_ms.get("mean") for r in (w.rounds or [w])]
            base_ms = theirs.get(w.name, [])
            count = min(len(mine), len(base_ms))
            found[(w.name, strategy.name)] = ratio_verdict(
                mine[:count], base_ms[:count], LATENCY, seed=judge.BOOTSTRAP_SEED
            )
    return found


def intervals(run: RunResult) -> dict[tuple[str, str, str], Interval]:
    """(window, strategy, figure) -> the ratio to the baseline and its 95% interval, for the figures both
    designs measure."""
    found: dict[tuple[str, str, str], Interval] = {}
    for (window, strategy), v in latency_mean_verdicts(run).items():
        if v.ratio is not None and v.interval is not None:
            found[(window, strategy, LATENCY_MEAN)] = (v.ratio, v.interval.low, v.interval.high)
    for recorded in run.verdicts:
        figure = SHARED_VERDICTS.get(recorded.metric)
        if figure is None or None in (recorded.ratio, recorded.low, recorded.high):
            continue
        assert recorded.ratio is not None and recorded.low is not None and recorded.high is not None
        found[(recorded.workload, recorded.strategy, figure)] = (recorded.ratio, recorded.low, recorded.high)
    return found


def overlap(one: Interval, two: Interval) -> bool:
    return one[1] <= two[2] and two[1] <= one[2]


def half_width(found: Interval) -> float:
    ratio, low, high = found
    return max(high / ratio - 1, 1 - low / ratio)


def cell(found: Interval | None) -> str:
    if found is None:
        return MISSING
    ratio, low, high = found
    return f"{ratio:.3f} ({low:.3f}-{high:.3f}), ±{half_width(found):.1%}"


def lines(paired: RunResult, interleaved: RunResult) -> list[str]:
    """The table of the two designs' ratios, then each design's median half-width of the latency mean."""
    one, two = intervals(paired), intervals(interleaved)
    rows: list[Sequence[str]] = []
    for key in sorted(one.keys() | two.keys(), key=lambda k: (k[0], k[2] != LATENCY_MEAN, k[2], k[1])):
        a, b = one.get(key), two.get(key)
        agree = MISSING if a is None or b is None else ("yes" if overlap(a, b) else "no")
        rows.append((key[0], key[1], key[2], cell(a), cell(b), agree))
    header = ("Window", "Strategy", "Figure", "paired", "interleaved", "intervals overlap")
    widths = []
    for design, found in zip(DESIGNS, (one, two), strict=True):
        latency = [half_width(v) for k, v in found.items() if k[2] == LATENCY_MEAN]
        if latency:
            widths.append(
                f"{design}: the latency mean's median half-width ±{statistics.median(latency):.1%} over "
                f"{len(latency)} intervals."
            )
    return [
        *markdown_table(header, rows),
        "",
        "Each cell: the strategy's figure over the baseline's (the median of the per-round ratios, or their "
        "geometric mean under five rounds) and its 95% interval. " + " ".join(widths),
    ]


def load(source: Path) -> tuple[RunResult, RunResult]:
    """The paired and the interleaved run kept in SOURCE."""
    runs = []
    for design in DESIGNS:
        directory = source / design
        if not (directory / "results.json").is_file():
            raise PkbenchError(f"{source}: no {design}/results.json (a --paired and an --interleave run)")
        runs.append(results.load(directory))
    return runs[0], runs[1]
