"""Two runs, figure by figure over the metric registry: what changed, and whether the change is resolved
over each run's rounds (compare_rounds) rather than a difference any noise could make.

`pkbench compare` prints the markdown of this diff, writes it beside the comparison report, and with
--fail-on-regression exits non-zero when a resolved change is worse than the percentage given.
"""

from __future__ import annotations

import dataclasses
import math
import statistics
import warnings
from collections.abc import Sequence
from dataclasses import dataclass

from pkbench.analysis import judge
from pkbench.analysis.metrics import WORKLOAD_METRICS, Metric, compared
from pkbench.analysis.verdict import (
    MIN_BOOTSTRAP_ROUNDS,
    FigureKind,
    Interval,
    factor_words,
    median_interval,
    paired_ratios,
)
from pkbench.errors import PkbenchError
from pkbench.results.model import RepeatedStrategy, RunResult, StrategyResult, WorkloadResult
from pkbench.text import MISSING, markdown_table

RANK_TEST_ALPHA = 0.05


@dataclass(frozen=True)
class Change:
    """One figure of one strategy in a new run against an old run, over each run's rounds."""

    name: str
    kind: FigureKind
    old_median: float | None
    new_median: float | None
    ratio: float | None  # new median / old median
    old_interval: Interval | None
    new_interval: Interval | None
    rank_test_p: float | None  # Mann-Whitney U, two-sided
    resolved: bool
    t_test_p: float | None = None  # Welch's t on the logs, two-sided: under five rounds in either run

    @property
    def worse_by(self) -> float | None:
        """How much worse the new run is, as a fraction (0.3 for 30% slower); negative when better."""
        if self.ratio is None:
            return None
        return 1 - self.ratio if self.kind.higher_is_better else self.ratio - 1

    @property
    def words(self) -> str:
        if self.old_median is None or self.new_median is None:
            return "not measured in both runs"
        if self.ratio is None:
            return "unchanged at 0" if self.new_median == 0 else f"from 0 to {self.new_median:.3g}"
        if self.t_test_p is not None:
            evidence = f"p={self.t_test_p:.3f}, t on logs"
        elif self.rank_test_p is not None:
            evidence = f"p={self.rank_test_p:.3f}"
        else:
            evidence = "one round each"
        if self.resolved:
            return f"{factor_words(self.ratio, self.kind)} ({evidence})"
        return f"no change resolved ({self.ratio:.2f}x, {evidence})"


def log_t_test(old: Sequence[float], new: Sequence[float]) -> float | None:
    """Welch's two-sided t test of the two runs' log figures, or None where it cannot be made: under two
    values in either run, a value not positive, or neither run varying at all (no scale to test against)."""
    import numpy as np
    from scipy import stats

    if len(old) < 2 or len(new) < 2 or min(*old, *new) <= 0:
        return None
    logs_old, logs_new = np.log(np.asarray(old, dtype=float)), np.log(np.asarray(new, dtype=float))
    if np.ptp(logs_old) == 0 and np.ptp(logs_new) == 0:
        return None
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        p_value = float(stats.ttest_ind(logs_old, logs_new, equal_var=False).pvalue)
    return p_value if math.isfinite(p_value) else None


def compare_rounds(
    name: str,
    old: Sequence[float | None],
    new: Sequence[float | None],
    kind: FigureKind,
    *,
    seed: int | None = None,
) -> Change:
    """A figure's rounds in two runs. The change is resolved when the two runs' bootstrap intervals of the
    median do not overlap, or when a Mann-Whitney U test over the rounds rejects 'same distribution' at 0.05,
    or, with under five rounds in either run, when Welch's t test on the logs rejects 'same mean' at 0.05.

    Ranges of a few rounds are not compared: two runs of three rounds fail to overlap by chance one time in
    ten. The rank test alone cannot resolve anything over three rounds against three (its smallest p is
    2 / C(6, 3) = 0.1), so there the t test weighs how far apart the runs are against how much each varies.
    """
    from scipy import stats

    old_values = [v for v in old if v is not None]
    new_values = [v for v in new if v is not None]
    if not old_values or not new_values:
        return Change(name, kind, None, None, None, None, None, None, False)
    old_median, new_median = float(statistics.median(old_values)), float(statistics.median(new_values))
    old_interval = median_interval(old_values, seed=seed)
    new_interval = median_interval(new_values, seed=seed)
    p_value: float | None = None
    if len(old_values) >= 2 and len(new_values) >= 2:
        p_value = float(stats.mannwhitneyu(old_values, new_values, alternative="two-sided").pvalue)
    few = min(len(old_values), len(new_values)) < MIN_BOOTSTRAP_ROUNDS
    t_p_value = log_t_test(old_values, new_values) if few else None
    separate = (
        old_interval is not None
        and new_interval is not None
        and old_interval.method == new_interval.method == "bootstrap"
        and not old_interval.overlaps(new_interval)
    )
    rank_resolved = p_value is not None and p_value < RANK_TEST_ALPHA
    t_resolved = t_p_value is not None and t_p_value < RANK_TEST_ALPHA
    ratio = new_median / old_median if old_median else None
    return Change(
        name,
        kind,
        old_median,
        new_median,
        ratio,
        old_interval,
        new_interval,
        p_value,
        separate or rank_resolved or t_resolved,
        t_p_value,
    )


def regressions(changes: Sequence[Change], percent: float) -> list[Change]:
    """The changes that are resolved and worse than ``percent`` (``--fail-on-regression PCT``)."""
    if percent < 0:
        raise ValueError(f"--fail-on-regression takes a percentage of at least 0, got {percent}")
    return [
        change
        for change in changes
        if change.resolved and change.worse_by is not None and change.worse_by * 100 > percent
    ]


def kind_of(metric: Metric) -> FigureKind:
    """How a registry figure reads in words: its verdict kind, else higher / lower."""
    if metric.verdict is not None:
        return metric.verdict
    return FigureKind(metric.higher_is_better, f"higher {metric.title}", f"lower {metric.title}")


def windows(strategy: StrategyResult, workload: str) -> list[WorkloadResult]:
    """The windows behind a strategy's figures of WORKLOAD: its paired rounds, its isolated repeats' copies
    of the workload, or the workload itself (one window)."""
    found = next((w for w in strategy.workloads if w.name == workload), None)
    if found is None:
        return []
    if found.rounds:
        return list(found.rounds)
    if isinstance(strategy, RepeatedStrategy) and strategy.repeats:
        return [w for r in strategy.repeats for w in r.workloads if w.name == workload]
    return [found]


def _measured(run: RunResult) -> dict[str, StrategyResult]:
    return {s.name: s for s in run.strategies if s.status == "ok"}


def figure_rounds(strategy: StrategyResult, workload: str | None, metric: Metric) -> list[float | None]:
    """METRIC over the windows of WORKLOAD, or with no workload over the strategy's repeats."""
    if workload is None:
        each = strategy.repeats if isinstance(strategy, RepeatedStrategy) and strategy.repeats else [strategy]
        return [metric.read(r, None).value for r in each]
    return [metric.read(strategy, w).value for w in windows(strategy, workload)]


def change(
    old: StrategyResult | None, new: StrategyResult | None, workload: str | None, metric: Metric
) -> Change:
    """METRIC of one strategy from OLD to NEW (either may be missing), resolved over their rounds."""
    before = figure_rounds(old, workload, metric) if old is not None else []
    after = figure_rounds(new, workload, metric) if new is not None else []
    return compare_rounds(metric.key, before, after, kind_of(metric), seed=0)


@dataclass(frozen=True)
class FigureChange:
    strategy: str
    workload: str
    metric: Metric
    change: Change


def diff(old: RunResult, new: RunResult) -> list[FigureChange]:
    """Every compared registry figure of every strategy and workload both runs measured."""
    old_strategies, new_strategies = _measured(old), _measured(new)
    found: list[FigureChange] = []
    for name, new_strategy in new_strategies.items():
        old_strategy = old_strategies.get(name)
        if old_strategy is None:
            continue
        old_workloads = {w.name for w in old_strategy.workloads}
        for new_workload in new_strategy.workloads:
            workload = new_workload.name
            if workload not in old_workloads:
                continue
            for metric in compared(WORKLOAD_METRICS):
                found.append(
                    FigureChange(name, workload, metric, change(old_strategy, new_strategy, workload, metric))
                )
    return found


def _design(run: RunResult) -> str:
    return run.rounds.design if run.rounds is not None else "paired"


def _ratios(run: RunResult) -> dict[tuple[str, str, str], tuple[Metric, list[float]]]:
    """(strategy, workload, metric key) -> the figure and its per-round ratios to the baseline, for every
    figure the run's design judges (the load over its parts)."""
    baseline = run.rounds.baseline if run.rounds is not None else None
    found: dict[tuple[str, str, str], tuple[Metric, list[float]]] = {}
    for figure in judge.paired(run.strategies, baseline, _design(run)):
        ratios = list(paired_ratios(figure.mine, figure.theirs))
        if ratios:
            found[(figure.strategy, figure.workload, figure.metric.key)] = (figure.metric, ratios)
    return found


def against_baseline(old: RunResult, new: RunResult) -> list[FigureChange]:
    """Each judged figure's ratio to the baseline in the new run against the old run's, over each run's
    rounds: a strategy that changed against the baseline of its own rounds, which raw figures hide where the
    machine's speed moved both runs (in the mixed design the speed ratios come from interleaved windows,
    far steadier than any raw TPS). None where the two runs have different baselines."""
    baselines = [r.rounds.baseline if r.rounds is not None else None for r in (old, new)]
    if baselines[0] is None or baselines[0] != baselines[1]:
        return []
    before, after = _ratios(old), _ratios(new)
    found = []
    for key, (metric, ratios) in after.items():
        if key not in before:
            continue
        figure = dataclasses.replace(metric, title=f"{metric.title} over {baselines[0]}", unit="ratio")
        change = compare_rounds(metric.key, before[key][1], ratios, kind_of(metric), seed=0)
        found.append(FigureChange(key[0], key[1], figure, change))
    return found


def worse_than(changes: Sequence[FigureChange], percent: float) -> list[FigureChange]:
    """The resolved changes for the worse by more than PERCENT."""
    bad = {id(c) for c in regressions([f.change for f in changes], percent)}
    return [f for f in changes if id(f.change) in bad]


def markdown(
    changes: Sequence[FigureChange],
    old_label: str,
    new_label: str,
    *,
    resolved_only: bool = False,
    against_the_baseline: bool = False,
) -> str:
    """The diff as a markdown table: resolved changes first, then (unless RESOLVED_ONLY) the rest; with
    AGAINST_THE_BASELINE the changes of each figure's ratio to the baseline."""
    title = f"# pkbench compare: {new_label} against {old_label}"
    lines = [
        f"{title}, each strategy against the baseline" if against_the_baseline else title,
        "",
        "A change is called out only when it is resolved over the rounds of both runs (their 95% intervals "
        "do not overlap, or a Mann-Whitney U test over the rounds gives p < 0.05).",
        "",
    ]
    if against_the_baseline:
        lines[2:2] = [
            "Each figure a run judges, as its ratio to the baseline of the same round (the verdicts' "
            "ratios), run against run: a strategy that changed against the baseline, whatever the machine's "
            "speed did to both runs.",
            "",
        ]
    resolved = [c for c in changes if c.change.resolved]
    if not changes:
        return "\n".join([*lines, "No strategy and workload was measured by both runs.", ""])
    lines += [
        f"{len(resolved)} of {len(changes)} figures changed, resolved."
        if resolved
        else f"No change resolved among {len(changes)} figures.",
        "",
    ]
    if resolved_only and not resolved:
        return "\n".join([*lines[:-1], ""])
    shown = [
        c
        for c in sorted(changes, key=lambda c: not c.change.resolved)
        if c.change.resolved or not resolved_only
    ]
    table = []
    for c in shown:
        before = MISSING if c.change.old_median is None else c.metric.format(c.change.old_median)
        after = MISSING if c.change.new_median is None else c.metric.format(c.change.new_median)
        marker = "**" if c.change.resolved else ""
        table.append(
            [c.strategy, c.workload, f"{c.metric.title} ({c.metric.unit})", before, after,
             f"{marker}{c.change.words}{marker}"]
        )  # fmt: skip
    header = ["strategy", "workload", "figure", "before", "after", "change"]
    return "\n".join([*lines, *markdown_table(header, table), ""])


@dataclass(frozen=True)
class Comparison:
    full: str  # every figure, for comparison.md
    resolved: str  # the resolved changes only, for the terminal
    regressions: str  # "N resolved regressions", or "" when none (or no threshold was given)
    named: str  # the first few of them, one after the other


def comparable(runs: Sequence[tuple[str, RunResult]], allow_incomplete: bool) -> list[tuple[str, RunResult]]:
    """RUNS (label, results) as they may be compared: a run that did not finish is refused, or with
    ALLOW_INCOMPLETE labelled as what it is wherever it appears."""
    found = []
    for label, run in runs:
        if run.incomplete and run.completion is not None:
            if not allow_incomplete:
                raise PkbenchError(
                    f"{label}: an incomplete run (stopped by {run.completion.stopped}); finish it with "
                    "pkbench run --resume, or compare it anyway with --allow-incomplete"
                )
            label = f"{label} (incomplete)"
        found.append((label, run))
    return found


def against_first(
    runs: Sequence[tuple[str, RunResult]], fail_on_regression: float | None
) -> tuple[Comparison, list[list[FigureChange]]]:
    """Each later run (label, its results) against the first, and the regressions beyond the threshold;
    with the changes of each later run, which the comparison report shows as they are."""
    (first_label, first), later = runs[0], runs[1:]
    full, resolved, worse = [], [], []
    every: list[list[FigureChange]] = []
    for label, other in later:
        changes = diff(first, other)
        every.append(changes)
        relative = against_baseline(first, other)
        full.append(markdown(changes, first_label, label))
        resolved.append(markdown(changes, first_label, label, resolved_only=True))
        if relative:
            full.append(markdown(relative, first_label, label, against_the_baseline=True))
            resolved.append(
                markdown(relative, first_label, label, resolved_only=True, against_the_baseline=True)
            )
        if fail_on_regression is not None:
            # Against the baseline first: the steadier evidence, named first when the line is cut.
            worse += [(label, c) for c in worse_than([*relative, *changes], fail_on_regression)]
    named = "; ".join(
        f"{d}: {c.strategy} {c.workload} {c.metric.title} {c.change.words}" for d, c in worse[:5]
    )
    found = Comparison(
        "\n".join(full), "\n".join(resolved), f"{len(worse)} resolved regressions" if worse else "", named
    )
    return found, every
