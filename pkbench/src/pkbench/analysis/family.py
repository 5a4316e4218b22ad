"""A strategy's verdicts taken as one family.

Each verdict is a 95% interval, so a strategy judged on fifteen figures resolves a difference on one of them
by chance in about half of all runs, an identical copy of the baseline included (docs/statistics.md, the A/A
calibration). Holm's step-down over the verdicts of one strategy against the baseline keeps the chance that
any of them resolves a difference by chance at 5%. It ranks p-values from Student's t on each verdict's log
ratios: a bootstrap of the median over five rounds gives only a few distinct p-values (0, or 0.11 and up), too
coarse to rank. A figure holds for the family when its p-value passes its Holm threshold and its own interval
excludes 1. A verdict is stated the way its family takes it: one whose interval excludes 1 on its own but does
not hold among its strategy's figures reads as no difference resolved, so that a run's tables, its answer
taken together and an A/A calibration of either all count the same differences. Pure functions.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from pkbench.analysis.verdict import (
    CONFIDENCE_METHODS,
    Precision,
    RatioVerdict,
    format_range,
    interval_reach,
    log_t_interval,
    resolving_digits,
    t_quantile,
    t_tail,
)
from pkbench.results.model import Verdict

FAMILYWISE_ALPHA = 0.05


def log_ratio_p_value(ratios: Sequence[float]) -> float | None:
    """Two-sided p-value of Student's t test that the log ratios centre on 0 (no difference); None below two
    ratios or with one not positive. Ratios identical in every round and away from 1 are certain (0.0)."""
    if len(ratios) < 2 or min(ratios) <= 0:
        return None
    logs = [math.log(r) for r in ratios]
    if max(logs) == min(logs):
        return 1.0 if logs[0] == 0 else 0.0
    t = statistics.fmean(logs) / (statistics.stdev(logs) / math.sqrt(len(logs)))
    p_value = 2 * t_tail(-abs(t), len(logs) - 1)
    return p_value if math.isfinite(p_value) else None


def holm(p_values: Sequence[float | None], alpha: float = FAMILYWISE_ALPHA) -> list[bool]:
    """Which hypotheses Holm's step-down rejects at familywise ``alpha``: the k-th smallest p-value (from 0)
    against alpha / (m - k), stopping at the first that fails. A missing p-value counts in m and is never
    rejected."""
    count = len(p_values)
    ranks = [math.inf if p is None else p for p in p_values]
    ranked = sorted(range(count), key=ranks.__getitem__)
    rejected = [False] * count
    for rank, index in enumerate(ranked):
        if ranks[index] > alpha / (count - rank):
            break
        rejected[index] = True
    return rejected


def hold_together(verdicts: Sequence[Verdict], alpha: float = FAMILYWISE_ALPHA) -> list[bool]:
    """Whether each of VERDICTS, taken as one family, holds at familywise ``alpha``: its interval excludes 1
    and Holm's step-down rejects it. A verdict without a p-value (no test: a figure that was zero for both
    strategies, as the WAL of a router that writes none, or a single round) is left out of the family and
    holds nothing; it does not void the others' correction. Only where no verdict has one (results of an
    older pkbench, which recorded none) does each hold as its run recorded it."""
    tested = [i for i, v in enumerate(verdicts) if v.p_value is not None]
    if not tested:
        return [v.holds for v in verdicts]
    rejected = holm([verdicts[i].p_value for i in tested], alpha)
    held = [False] * len(verdicts)
    for index, holds in zip(tested, rejected, strict=True):
        held[index] = holds and verdicts[index].resolved
    return held


def mark(verdicts: Sequence[Verdict]) -> list[Verdict]:
    """The verdicts with ``familywise`` set: whether each holds in its strategy's family."""
    marked = list(verdicts)
    for strategy in dict.fromkeys(v.strategy for v in verdicts):
        indices = [i for i, v in enumerate(verdicts) if v.strategy == strategy]
        rejected = holm([verdicts[i].p_value for i in indices])
        for index, holds in zip(indices, rejected, strict=True):
            verdict = verdicts[index]
            alone = verdict.resolved and not holds
            marked[index] = replace(
                verdict,
                familywise=holds and verdict.resolved,
                words=_alone_words(verdict, len(indices)) if alone else verdict.words,
            )
    return marked


def _alone_words(verdict: Verdict, figures: int) -> str:
    """What a verdict whose interval excludes 1 says when its strategy's family does not hold it: no
    difference, with the interval that resolved one only on its own."""
    low, high = verdict.low, verdict.high
    assert low is not None and high is not None
    interval = format_range(low, high, resolving_digits(low, high))
    return f"no difference resolved among {figures} figures ({interval} alone)"


@dataclass(frozen=True)
class Family:
    """One strategy's verdicts against the baseline, taken together."""

    strategy: str
    baseline: str
    figures: int
    holding: tuple[Verdict, ...]  # the verdicts that hold at 5% familywise


def families(verdicts: Sequence[Verdict]) -> list[Family]:
    """Each strategy's family, in the order the verdicts name them; strategies whose verdicts were recorded
    without the familywise mark (results of an older pkbench) are left out."""
    found = []
    for strategy in dict.fromkeys(v.strategy for v in verdicts):
        mine = [v for v in verdicts if v.strategy == strategy]
        if any(v.familywise is None for v in mine):
            continue
        found.append(Family(strategy, mine[0].baseline, len(mine), tuple(v for v in mine if v.familywise)))
    return found


# `--until-decided` looks at a stage's cited figures after every round from the rounds asked for on, and stops
# at the first look that decides them: each look is a test, and a rule that stops where a test first passes
# states a false direction more often than each test's 5% (docs/statistics.md, precision as a stopping rule).
# So a stage plans at most PLANNED_LOOKS looks and spends the 5% across them in equal shares, a constant
# boundary as in Pocock's design; by the union bound the chance that any look states a false direction stays
# within 5%, however the looks correlate. A stage still undecided at its last planned look stops there, and
# its run's cells are judged at the same share (evidence.advice). Five looks: advise's parts reach their
# decisions within a few rounds of their first look, and a finer split would leave p-values of five rounds
# short of the threshold.
PLANNED_LOOKS = 5
LOOK_ALPHA = FAMILYWISE_ALPHA / PLANNED_LOOKS


def decided(
    verdicts: Mapping[str, RatioVerdict], target: float, alpha: float = FAMILYWISE_ALPHA
) -> Precision:
    """Whether every one of VERDICTS (the figures an answer cites: a window's rate and WAL per transaction)
    is decided: its interval (at confidence 1 - ``alpha``) within ±``target`` of its estimate, or its
    direction holding among them at familywise ``alpha`` (a difference the answer can state however wide it
    still is). `pkbench run --until-decided` stops adding rounds there, at ``alpha`` = LOOK_ALPHA, not when
    every figure a window records is within ±``target``."""
    names = list(verdicts)
    held = holm([log_ratio_p_value(verdicts[name].per_round) for name in names], alpha)
    within: list[str] = []
    outside: list[str] = []
    for name, holds in zip(names, held, strict=True):
        verdict = verdicts[name]
        real = verdict.interval is not None and verdict.interval.method in CONFIDENCE_METHODS
        width = _reach_at(verdict, 1 - alpha)
        tight = real and width is not None and width <= target
        (within if tight or (real and holds and verdict.resolved) else outside).append(name)
    return Precision(not outside and bool(within), target, tuple(within), tuple(outside))


def _reach_at(verdict: RatioVerdict, confidence: float) -> float | None:
    """The verdict's interval reach at CONFIDENCE: its own where that is the confidence it was made at."""
    interval = verdict.interval
    if interval is None or interval.method != "t on log ratios":
        return verdict.half_width()
    if math.isclose(interval.confidence, confidence):
        return verdict.half_width()
    return interval_reach(verdict.ratio, log_t_interval(verdict.per_round, confidence=confidence))


def widened(low: float, high: float, rounds: int, confidence: float, to: float) -> tuple[float, float]:
    """A t interval on log ratios over ROUNDS, made at CONFIDENCE, at confidence TO instead: its standard
    error read back from its width (a run records the interval, not its rounds' ratios)."""
    if rounds < 2 or low <= 0 or high <= low:
        return low, high
    error = math.log(high / low) / (2 * t_quantile((1 + confidence) / 2, rounds - 1))
    half = t_quantile((1 + to) / 2, rounds - 1) * error
    centre = (math.log(low) + math.log(high)) / 2
    return math.exp(centre - half), math.exp(centre + half)
