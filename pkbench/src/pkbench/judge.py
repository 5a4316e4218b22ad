"""Verdicts of a paired-rounds run: each headline figure of the metric registry, each strategy against the
baseline, round by round (pkbench.verdict does the statistics)."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass

from pkbench.metrics import Metric, verdict_metrics
from pkbench.results import PREFILL_SNAPSHOT, StrategyResult, Verdict, WorkloadResult
from pkbench.verdict import RatioVerdict, ratio_verdict

# Fixed, so that the same rounds always give the same interval (the report and the summary agree).
BOOTSTRAP_SEED = 20240223


@dataclass(frozen=True)
class Judged:
    strategy: str
    workload: str
    metric: Metric
    verdict: RatioVerdict


def round_figures(strategy: StrategyResult, workload: WorkloadResult, metric: Metric) -> list[float | None]:
    """METRIC in each round of the strategy's WORKLOAD window (the window itself when it has no rounds)."""
    # The registry reads results.json's shape; of the strategy it needs only the key index's sizes.
    sizes = strategy.sizes_after_prefill
    strategy_json = {
        "name": strategy.name,
        PREFILL_SNAPSHOT: dataclasses.asdict(sizes) if sizes is not None else None,
    }
    windows = workload.rounds or [workload]
    return [metric.read(strategy_json, dataclasses.asdict(w)).value for w in windows]


def judge(strategies: Sequence[StrategyResult], baseline: str | None) -> list[Judged]:
    """Every measured strategy but the baseline, for every window both measured, for every headline figure."""
    by_name = {s.name: s for s in strategies if s.status == "ok" or s.workloads}
    base = by_name.get(baseline or "")
    if base is None:
        return []
    found: list[Judged] = []
    for strategy in by_name.values():
        if strategy is base:
            continue
        for workload in strategy.workloads:
            base_workload = next((w for w in base.workloads if w.name == workload.name), None)
            if base_workload is None:
                continue
            for metric in verdict_metrics():
                assert metric.verdict is not None
                mine = round_figures(strategy, workload, metric)
                theirs = round_figures(base, base_workload, metric)
                count = min(len(mine), len(theirs))
                found.append(
                    Judged(
                        strategy.name,
                        workload.name,
                        metric,
                        ratio_verdict(mine[:count], theirs[:count], metric.verdict, seed=BOOTSTRAP_SEED),
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


def verdicts(strategies: Sequence[StrategyResult], baseline: str | None) -> list[Verdict]:
    return [record(j, baseline or "") for j in judge(strategies, baseline)]
