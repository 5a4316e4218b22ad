"""Two runs, figure by figure over the metric registry: what changed, and whether the change is resolved
over each run's rounds (analysis.verdict.compare_rounds) rather than a difference any noise could make.

`pkbench compare` prints the markdown of this diff, writes it beside the comparison report, and with
--fail-on-regression exits non-zero when a resolved change is worse than the percentage given.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from pkbench.analysis.metrics import WORKLOAD_METRICS, Metric, compared
from pkbench.analysis.verdict import Change, FigureKind, compare_rounds, regressions
from pkbench.errors import PkbenchError
from pkbench.results import RepeatedStrategy, RunResult, StrategyResult, WorkloadResult
from pkbench.text import MISSING, markdown_table


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


def worse_than(changes: Sequence[FigureChange], percent: float) -> list[FigureChange]:
    """The resolved changes for the worse by more than PERCENT."""
    bad = {id(c) for c in regressions([f.change for f in changes], percent)}
    return [f for f in changes if id(f.change) in bad]


def markdown(
    changes: Sequence[FigureChange], old_label: str, new_label: str, *, resolved_only: bool = False
) -> str:
    """The diff as a markdown table: resolved changes first, then (unless RESOLVED_ONLY) the rest."""
    lines = [
        f"# pkbench compare: {new_label} against {old_label}",
        "",
        "A change is called out only when it is resolved over the rounds of both runs (their 95% intervals "
        "do not overlap, or a Mann-Whitney U test over the rounds gives p < 0.05).",
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
        full.append(markdown(changes, first_label, label))
        resolved.append(markdown(changes, first_label, label, resolved_only=True))
        if fail_on_regression is not None:
            worse += [(label, c) for c in worse_than(changes, fail_on_regression)]
    named = "; ".join(
        f"{d}: {c.strategy} {c.workload} {c.metric.title} {c.change.words}" for d, c in worse[:5]
    )
    found = Comparison(
        "\n".join(full), "\n".join(resolved), f"{len(worse)} resolved regressions" if worse else "", named
    )
    return found, every
