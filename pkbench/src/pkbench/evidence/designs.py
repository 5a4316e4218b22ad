"""The two designs of a run side by side: one `--paired` and one `--interleave` run of the same options, kept
as `paired/` and `interleaved/` in one directory (benchmarks/verdict_targets.py --designs makes them), or
one such directory per scenario (benchmarks/designs_by_scenario.py), read as one table; and how narrow one
run's intervals came out, figure by figure, with the design that judged each (`widths`).

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
from typing import cast

from pkbench import results
from pkbench.analysis import judge
from pkbench.analysis.metrics import verdict_title
from pkbench.analysis.verdict import Interval, IntervalMethod, interval_reach
from pkbench.errors import PkbenchError
from pkbench.results.model import RunResult
from pkbench.summary import runs
from pkbench.summary.verdicts import estimate_words
from pkbench.text import MISSING, markdown_table

DESIGNS = ("paired", "interleaved")
# The figures both designs measure for each strategy, by metric key.
SHARED_FIGURES = ("latency-mean", "wal", "fpi")
LATENCY_MEAN = verdict_title("latency-mean")

Found = tuple[float, Interval]  # a ratio to the baseline and its interval


def intervals(run: RunResult) -> dict[tuple[str, str, str], Found]:
    """(window, strategy, figure title) -> the ratio to the baseline and its 95% interval, for the figures
    both designs measure, judged round by round as --interleave judges them (paired runs measure them too)."""
    baseline = run.rounds.baseline if run.rounds is not None else None
    # Only the shared figures are judged: a bootstrap per verdict is most of what reading a run costs.
    shared = [
        p for p in judge.paired(run.strategies, baseline, "interleaved") if p.metric.key in SHARED_FIGURES
    ]
    return {
        (j.workload, j.strategy, j.metric.title): (j.verdict.ratio, j.verdict.interval)
        for j in map(judge.judge_one, shared)
        if j.verdict.ratio is not None and j.verdict.interval is not None
    }


def recorded(run: RunResult) -> dict[tuple[str, str, str], Found]:
    """(window, strategy, metric key) -> the ratio and interval of every verdict the run recorded with one."""
    found: dict[tuple[str, str, str], Found] = {}
    for v in run.verdicts:
        if v.ratio and v.low is not None and v.high is not None and v.confidence is not None:
            method = cast(IntervalMethod, v.method)
            found[(v.workload, v.strategy, v.metric)] = (
                v.ratio,
                Interval(v.low, v.high, v.confidence, method),
            )
    return found


def overlap(one: Found, two: Found) -> bool:
    return one[1].overlaps(two[1])


def half_width(found: Found) -> float:
    return interval_reach(*found) or 0.0


def cell(found: Found | None) -> str:
    if found is None:
        return MISSING
    ratio, interval = found
    return f"{ratio:.3f} ({interval.low:.3f}-{interval.high:.3f}), ±{half_width(found):.1%}"


def lines(paired: RunResult, interleaved: RunResult) -> list[str]:
    """The table of the two designs' ratios, then each design's median half-width of the latency mean."""
    one, two = intervals(paired), intervals(interleaved)
    rows: list[Sequence[str]] = []
    for key in sorted(one.keys() | two.keys(), key=lambda k: (k[0], k[2] != LATENCY_MEAN, k[2], k[1])):
        a, b = one.get(key), two.get(key)
        agree = MISSING if a is None or b is None else ("yes" if overlap(a, b) else "no")
        rows.append((key[0], key[1], key[2], cell(a), cell(b), agree))
    header = ("Window", "Strategy", "Figure", "paired", "interleaved", "intervals overlap")
    methods = [interval.method for _, interval in (*one.values(), *two.values())]
    widths = []
    for design, found in zip(DESIGNS, (one, two), strict=True):
        latency = _latency_widths(found)
        if latency:
            widths.append(
                f"{design}: the latency mean's median half-width ±{statistics.median(latency):.1%} over "
                f"{len(latency)} intervals."
            )
    return [
        *markdown_table(header, rows),
        "",
        f"Each cell: the strategy's figure over the baseline's ({estimate_words(methods)}). "
        + " ".join(widths),
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


def load_scenarios(source: Path) -> list[tuple[str, RunResult, RunResult]]:
    """Every folder of SOURCE that holds a paired and an interleaved run, by name: one per scenario."""
    found = [
        (folder.name, *load(folder)) for folder in sorted(source.iterdir()) if (folder / "paired").is_dir()
    ]
    if not found:
        raise PkbenchError(f"{source}: no folder with paired/ and interleaved/ runs")
    return found


def _latency_widths(found: dict[tuple[str, str, str], Found]) -> list[float]:
    return [half_width(v) for k, v in found.items() if k[2] == LATENCY_MEAN]


def _median_latency_width(found: dict[tuple[str, str, str], Found]) -> str:
    widths = _latency_widths(found)
    return f"±{statistics.median(widths):.1%}" if widths else MISSING


def by_scenario(scenarios: Sequence[tuple[str, RunResult, RunResult]]) -> list[str]:
    """One row per scenario: how many of the figures both designs judged agree within their intervals, and
    the ones that do not, each as paired against interleaved."""
    rows: list[Sequence[str]] = []
    for name, paired, interleaved in scenarios:
        one, two = intervals(paired), intervals(interleaved)
        shared = sorted(one.keys() & two.keys())
        apart = [k for k in shared if not overlap(one[k], two[k])]
        listed = "; ".join(f"{' '.join(k)} {one[k][0]:.2f} against {two[k][0]:.2f}" for k in apart)
        rows.append(
            (
                name,
                str(len({k[0] for k in shared})),
                f"{len(shared) - len(apart)} of {len(shared)}",
                listed or "none",
                _median_latency_width(one),
                _median_latency_width(two),
            )
        )
    header = (
        "Scenario",
        "Windows",
        "Intervals overlap",
        "Not overlapping (paired against interleaved)",
        "Latency mean ± paired",
        "± interleaved",
    )
    return [
        *markdown_table(header, rows),
        "",
        "The figures both designs judge (latency mean, WAL and full-page images per transaction, each "
        "strategy over the baseline, 95% intervals); a ± is the median half-width of the latency mean's "
        "intervals.",
    ]


# The half-widths the speed verdicts of the default run are meant to reach: at the median, and at the widest.
SPEED_TARGET_MEDIAN = 0.03
SPEED_TARGET_WIDEST = 0.05


def widths(run: RunResult) -> list[str]:
    """One row per judged figure of RUN: the windows that judged it, how many verdicts, how many within
    ±3% and ±5%, and their median and widest half-width; the interval a verdict recorded, as it recorded
    it (a run that judged every figure on one design recorded none per verdict: its own)."""
    own = run.rounds.design if run.rounds is not None else "paired"
    by_figure: dict[tuple[str, str], list[float]] = {}
    for v in run.verdicts:
        if v.half_width is not None and v.method in ("bootstrap", "t on log ratios"):
            design = "parts of the load" if v.metric == "load" else v.design or own
            by_figure.setdefault((verdict_title(v.metric), design), []).append(v.half_width)
    rows = [
        (
            figure,
            design,
            str(len(found)),
            str(sum(1 for w in found if w <= SPEED_TARGET_MEDIAN)),
            str(sum(1 for w in found if w <= SPEED_TARGET_WIDEST)),
            f"±{statistics.median(found):.1%}",
            f"±{max(found):.1%}",
        )
        for (figure, design), found in by_figure.items()
    ]
    header = ("Figure", "judged on", "verdicts", f"within ±{SPEED_TARGET_MEDIAN:.0%}",
              f"within ±{SPEED_TARGET_WIDEST:.0%}", "median half-width", "widest")  # fmt: skip
    return [
        *markdown_table(header, rows),
        "",
        "A half-width is how far a verdict's 95% interval reaches from its ratio, as a share of it: the "
        "smallest effect it could have resolved. Every strategy against the baseline, in every window. "
        + _every_window_load(run),
    ]


def _every_window_load(run: RunResult) -> str:
    """How busy the machine was over every window of every round, paired and interleaved (the run's own
    line reads each window's medians over its rounds)."""
    measured = [s for s in run.strategies if s.workloads]
    # An interleaved window is every strategy's at once: counted once, from the first strategy's shares.
    windows = [w for s in measured for workload in s.workloads for w in workload.rounds] + [
        w for workload in (measured[0].workloads if measured else []) for w in workload.interleaved
    ]
    found = [window.machine_window for window in windows if window.machine_window is not None]
    if not found:
        return ""
    busy = [m.busy_fraction for m in found]
    other = [m.other_fraction for m in found]
    load = runs.Load(
        len(found), (min(busy), max(busy)), (min(other), max(other)), max(m.steal_fraction for m in found)
    )
    return runs.load_words(load).replace("measured windows", "windows (every round's)", 1)
