"""Verdicts of a run in rounds: each figure its design judges, each strategy against the baseline, round by
round (pkbench.analysis.verdict does the statistics). Paired rounds judge the registry's headline figures;
interleaved windows judge what each strategy's own share of a shared window says (its latency mean, its
statements' time, buffers and WAL); the mixed design judges speed on the interleaved windows and work per
transaction on the paired ones of the same rounds."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from pkbench.analysis import family
from pkbench.analysis.metrics import (
    LOAD_METRIC,
    Metric,
    interleaved_metrics,
    mixed_metrics,
    verdict_metrics,
)
from pkbench.analysis.verdict import RatioVerdict, ratio_verdict, same_in_every_round
from pkbench.results.model import StrategyResult, Verdict, WorkloadResult

# Fixed, so that the same rounds always give the same interval (the report and the summary agree).
BOOTSTRAP_SEED = 20240223


@dataclass(frozen=True)
class Judged:
    strategy: str
    workload: str
    metric: Metric
    verdict: RatioVerdict
    design: str = "paired"  # the windows it was judged on: paired or interleaved


def _windows(strategy: StrategyResult) -> dict[str, list[WorkloadResult]]:
    """Each workload's windows: its paired rounds, else the workload itself."""
    return {w.name: list(w.rounds or [w]) for w in strategy.workloads}


def _interleaved(strategy: StrategyResult) -> dict[str, list[WorkloadResult]]:
    """Each workload's shares of the mixed design's interleaved windows, where it has them."""
    return {w.name: list(w.interleaved) for w in strategy.workloads if w.interleaved}


@dataclass(frozen=True)
class Paired:
    """One figure of one window, the strategy's and the baseline's, round by round (part by part for the
    load): what a verdict is judged on."""

    strategy: str
    workload: str
    metric: Metric
    mine: tuple[float | None, ...]
    theirs: tuple[float | None, ...]
    design: str = "paired"  # the windows the rounds are: paired or interleaved


def paired(
    strategies: Sequence[StrategyResult], baseline: str | None, design: str = "paired"
) -> list[Paired]:
    """Every measured strategy but the baseline, for every window both measured, for every figure the
    design judges that differed between them in some round (one equal to the baseline's in every round says
    nothing); first the load, over its parts, where it was loaded in parts. In interleaved windows a figure
    pg_stat_statements could not attribute in any round is no verdict either. The mixed design judges a
    window's speed on its interleaved windows and its work per transaction on its paired ones; a window
    measured in paired rounds only is judged on them alone."""
    by_name = {s.name: s for s in strategies if s.status == "ok" or s.workloads}
    base = by_name.get(baseline or "")
    if base is None:
        return []
    found: list[Paired] = [p for s in by_name.values() if s is not base for p in _load(s, base)]
    base_windows, base_shares = _windows(base), _interleaved(base)
    for strategy in by_name.values():
        if strategy is base:
            continue
        shares = _interleaved(strategy)
        for workload, mine_windows in _windows(strategy).items():
            theirs_windows = base_windows.get(workload)
            if theirs_windows is None:
                continue
            sources: list[tuple[str, list[WorkloadResult], list[WorkloadResult], list[Metric]]]
            if design == "mixed" and workload in shares and workload in base_shares:
                speed, work = mixed_metrics()
                sources = [
                    ("interleaved", shares[workload], base_shares[workload], speed),
                    ("paired", mine_windows, theirs_windows, work),
                ]
            elif design == "interleaved":
                sources = [("interleaved", mine_windows, theirs_windows, interleaved_metrics())]
            else:
                sources = [("paired", mine_windows, theirs_windows, verdict_metrics())]
            for kind, mine_list, theirs_list, figures in sources:
                found += _figures(strategy, base, workload, kind, mine_list, theirs_list, figures)
    return found


def _figures(
    strategy: StrategyResult,
    base: StrategyResult,
    workload: str,
    design: str,
    mine_windows: Sequence[WorkloadResult],
    theirs_windows: Sequence[WorkloadResult],
    figures: Sequence[Metric],
) -> list[Paired]:
    found = []
    count = min(len(mine_windows), len(theirs_windows))
    for metric in figures:
        mine = tuple(metric.read(strategy, w).value for w in mine_windows[:count])
        theirs = tuple(metric.read(base, w).value for w in theirs_windows[:count])
        interleaved = design == "interleaved"
        if same_in_every_round(mine, theirs) or (interleaved and not _paired_values(mine, theirs)):
            continue
        found.append(Paired(strategy.name, workload, metric, mine, theirs, design))
    return found


def judge(strategies: Sequence[StrategyResult], baseline: str | None, design: str = "paired") -> list[Judged]:
    """The verdict on every figure `paired` finds."""
    return [judge_one(p) for p in paired(strategies, baseline, design)]


def judge_one(figure: Paired) -> Judged:
    """The verdict on one figure `paired` found."""
    kind = figure.metric.verdict
    assert kind is not None
    verdict = ratio_verdict(figure.mine, figure.theirs, kind, seed=BOOTSTRAP_SEED)
    return Judged(figure.strategy, figure.workload, figure.metric, verdict, figure.design)


def _paired_values(mine: Sequence[float | None], theirs: Sequence[float | None]) -> bool:
    return any(m is not None and t is not None for m, t in zip(mine, theirs, strict=True))


def load_parts(strategy: StrategyResult) -> list[float | None]:
    """Seconds per row of each part of the strategy's load (none when it was loaded in one piece)."""
    prefill = strategy.prefill
    if prefill is None or not prefill.parts_s or not prefill.parts_rows:
        return []
    return [s / r if r else None for s, r in zip(prefill.parts_s, prefill.parts_rows, strict=True)]


def judge_load(strategy: StrategyResult, base: StrategyResult) -> list[Judged]:
    """The verdict on the strategy's load against the baseline's, where both were loaded in parts."""
    return [judge_one(p) for p in _load(strategy, base)]


def _load(strategy: StrategyResult, base: StrategyResult) -> list[Paired]:
    """The strategy's load against the baseline's, part k against part k: both loaded part k at the same
    size of their tables, one after the other, so the machine's drift moves them together."""
    mine, theirs = load_parts(strategy), load_parts(base)
    count = min(len(mine), len(theirs))
    if not count or base.prefill is None or same_in_every_round(mine[:count], theirs[:count]):
        return []
    return [
        Paired(
            strategy.name,
            base.prefill.step or "load",
            LOAD_METRIC,
            tuple(mine[:count]),
            tuple(theirs[:count]),
        )
    ]


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
        p_value=family.log_ratio_p_value(v.per_round),
        design=judged.design,
    )


def records(judged: Sequence[Judged], baseline: str) -> list[Verdict]:
    """The verdicts as results.json keeps them, each marked with whether it holds in its strategy's family."""
    return family.mark([record(j, baseline) for j in judged])
