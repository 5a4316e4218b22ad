"""Verdicts of a paired-rounds run: each headline figure of the metric registry, each strategy against the
baseline, round by round (pkbench.analysis.verdict does the statistics)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from pkbench.analysis.metrics import Metric, verdict_metrics
from pkbench.analysis.verdict import RatioVerdict, ratio_verdict, same_in_every_round
from pkbench.results import StrategyResult, Verdict, WorkloadResult

# Fixed, so that the same rounds always give the same interval (the report and the summary agree).
BOOTSTRAP_SEED = 20240223


@dataclass(frozen=True)
class Judged:
    strategy: str
    workload: str
    metric: Metric
    verdict: RatioVerdict


def _windows(strategy: StrategyResult) -> dict[str, list[WorkloadResult]]:
    """Each workload's windows: its paired rounds, else the workload itself."""
    return {w.name: list(w.rounds or [w]) for w in strategy.workloads}


def judge(strategies: Sequence[StrategyResult], baseline: str | None) -> list[Judged]:
    """Every measured strategy but the baseline, for every window both measured, for every headline figure
    that differed between them in some round (one equal to the baseline's in every round says nothing)."""
    by_name = {s.name: s for s in strategies if s.status == "ok" or s.workloads}
    base = by_name.get(baseline or "")
    if base is None:
        return []
    found: list[Judged] = []
    base_windows = _windows(base)
    for strategy in by_name.values():
        if strategy is base:
            continue
        for workload, mine_windows in _windows(strategy).items():
            theirs_windows = base_windows.get(workload)
            if theirs_windows is None:
                continue
            count = min(len(mine_windows), len(theirs_windows))
            for metric in verdict_metrics():
                assert metric.verdict is not None
                mine = [metric.read(strategy, w).value for w in mine_windows[:count]]
                theirs = [metric.read(base, w).value for w in theirs_windows[:count]]
                if same_in_every_round(mine, theirs):
                    continue
                found.append(
                    Judged(
                        strategy.name,
                        workload,
                        metric,
                        ratio_verdict(mine, theirs, metric.verdict, seed=BOOTSTRAP_SEED),
                    )
                )
    return found


def record(judged: Judged, baseline: str) -> Verdict:
    """The verdict as results.json keeps it."""
    v = judged.verdict
    return Verdict(
        workload=judged.workload,
        metric=judged.metric.key,
        strategy=judged.strategy,
        baseline=baseline,
        ratio=v.ratio,
        low=v.interval.low if v.interval else None,
        high=v.interval.high if v.interval else None,
        confidence=v.interval.confidence if v.interval else None,
        method=v.interval.method if v.interval else None,
        rounds=len(v.per_round),
        resolved=v.resolved,
        better=v.better,
        words=v.words,
        strategy_cv=v.strategy_cv,
        half_width=v.half_width(),
    )
