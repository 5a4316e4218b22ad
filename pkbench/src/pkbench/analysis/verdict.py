"""Verdicts over paired rounds: the ratio of a strategy to the baseline, its confidence interval, in words.

A round runs every strategy once, back to back, so the machine's drift (other tenants, a warming disk) moves a
strategy and the baseline together; the per-round ratio cancels it. The estimate is the geometric mean of the
per-round ratios and its 95% interval Student's t on their logarithms, valid from two rounds on when the log
ratios scatter roughly normally. It is the same test whose p-value ranks a strategy's verdicts for the
familywise answer (analysis.family), so a verdict's interval excludes 1 exactly when that test rejects at 5%.
A bootstrap of the median over the few rounds a run has gave intervals too narrow: 35 of 220 verdicts of
twenty A/A runs resolved a difference, more than three times the 5% a 95% interval allows. Only where a
round's ratio is zero (no logarithm) is the estimate the median: its interval a bootstrap from
``MIN_BOOTSTRAP_ROUNDS`` rounds on, below them the range of the rounds, labelled with the confidence that
range really has as an interval of the median (1 - 2^(1-R)), and that never resolves anything. Pure
functions: no I/O, no clock.
"""

from __future__ import annotations

import functools
import math
import statistics
import warnings
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

# scipy and numpy are imported inside the functions that use them: imported here, they would cost every
# pkbench command, --help included, about a second of start-up.

CONFIDENCE = 0.95
# Five rounds is the fewest for which the median's bootstrap distribution takes enough distinct values to
# give more than the range of the rounds back.
MIN_BOOTSTRAP_ROUNDS = 5
BOOTSTRAP_RESAMPLES = 9999

IntervalMethod = Literal["bootstrap", "t on log ratios", "range of rounds"]
# The interval methods that are confidence intervals, able to resolve a difference.
CONFIDENCE_METHODS = ("bootstrap", "t on log ratios")


@dataclass(frozen=True)
class FigureKind:
    """How a figure reads: which way is better and the words for a strategy above or below the baseline."""

    higher_is_better: bool
    more: str
    less: str


TPS = FigureKind(higher_is_better=True, more="faster", less="slower")
LATENCY = FigureKind(higher_is_better=False, more="higher latency", less="lower latency")
WAL_PER_TRANSACTION = FigureKind(
    higher_is_better=False, more="more WAL per transaction", less="less WAL per transaction"
)
FPI_PER_TRANSACTION = FigureKind(
    higher_is_better=False,
    more="more full-page images per transaction",
    less="fewer full-page images per transaction",
)
HIT_RATIO = FigureKind(higher_is_better=True, more="higher hit ratio", less="lower hit ratio")
# Seconds per row of the load: a strategy above the baseline took longer.
LOAD_TIME = FigureKind(higher_is_better=False, more="slower to load", less="faster to load")


@dataclass(frozen=True)
class Interval:
    low: float
    high: float
    confidence: float  # the probability the interval covers the true value, as the method claims it
    method: IntervalMethod

    def includes(self, value: float) -> bool:
        return self.low <= value <= self.high

    def overlaps(self, other: Interval) -> bool:
        return self.low <= other.high and other.low <= self.high


@dataclass(frozen=True)
class RatioVerdict:
    """A strategy against the baseline over paired rounds."""

    # The geometric mean of the per-round ratios strategy / baseline; their median where one is zero.
    ratio: float | None
    interval: Interval | None
    per_round: tuple[float, ...]  # the paired ratios, rounds with a missing or zero figure left out
    rounds: int  # rounds given, usable or not
    strategy_median: float | None  # the raw figures' medians over rounds, for the tables
    baseline_median: float | None
    strategy_cv: float | None  # coefficient of variation of the strategy's raw figure across rounds
    resolved: bool  # the interval excludes 1 (and is a real confidence interval)
    better: bool | None  # None when not resolved
    words: str

    def half_width(self) -> float | None:
        return interval_reach(self.ratio, self.interval)


def interval_reach(ratio: float | None, interval: Interval | None) -> float | None:
    """The interval's largest distance from the estimate, as a fraction of it (0.03 for ±3%): an effect much
    larger would have been resolved, one smaller can hide in it."""
    if interval is None or ratio is None or ratio <= 0:
        return None
    return max(interval.high / ratio - 1, 1 - interval.low / ratio)


def coefficient_of_variation(values: Sequence[float | None]) -> float | None:
    """Sample standard deviation over the mean of the measured values; None below two of them or at mean 0."""
    present = [v for v in values if v is not None]
    if len(present) < 2:
        return None
    mean = statistics.fmean(present)
    return statistics.stdev(present) / abs(mean) if mean else None


def median_interval(
    values: Sequence[float], *, confidence: float = CONFIDENCE, seed: int | None = None
) -> Interval | None:
    """An interval of the median of ``values``: bootstrap from five values on, else their range."""
    if seed is None:
        return _median_interval(tuple(values), confidence, seed)
    return _seeded_median_interval(tuple(values), confidence, seed)


# A seeded bootstrap gives the same interval for the same values every time, so it is made once per process:
# the documents' generator and the report ask again for the intervals of the same committed rounds.
@functools.lru_cache(maxsize=4096)
def _seeded_median_interval(values: tuple[float, ...], confidence: float, seed: int) -> Interval | None:
    return _median_interval(values, confidence, seed)


def _median_interval(values: tuple[float, ...], confidence: float, seed: int | None) -> Interval | None:
    if len(values) < 2:
        return None
    if len(values) < MIN_BOOTSTRAP_ROUNDS:
        return Interval(min(values), max(values), _range_confidence(len(values)), "range of rounds")
    if min(values) == max(values):
        # Every resample is the same value, so the bootstrap interval is that point (scipy refuses it).
        return Interval(values[0], values[0], confidence, "bootstrap")
    import numpy as np
    from scipy import stats

    data = (np.asarray(values, dtype=float),)
    low, high = math.nan, math.nan
    # BCa corrects the percentile interval for bias and skew; on a median of few values its acceleration can
    # be undefined (a NaN bound), and then the plain percentile interval is the honest one.
    for method in ("BCa", "percentile"):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", stats.DegenerateDataWarning)
            warnings.simplefilter("ignore", RuntimeWarning)
            result = stats.bootstrap(
                data,
                np.median,
                confidence_level=confidence,
                n_resamples=BOOTSTRAP_RESAMPLES,
                method=method,
                rng=np.random.default_rng(seed),
            )
        low, high = float(result.confidence_interval.low), float(result.confidence_interval.high)
        if math.isfinite(low) and math.isfinite(high):
            break
    return Interval(low, high, confidence, "bootstrap")


def t_quantile(probability: float, freedom: int) -> float:
    """Student's t quantile: what scipy.stats.t.ppf gives, from scipy.special, which imports in half the time
    (the t quantile is all most pkbench processes need of scipy)."""
    from scipy import special

    return float(special.stdtrit(freedom, probability))


def t_tail(t: float, freedom: int) -> float:
    """Student's t distribution function at T (scipy.stats.t.cdf, from scipy.special as t_quantile)."""
    from scipy import special

    return float(special.stdtr(freedom, t))


def log_t_interval(values: Sequence[float], *, confidence: float = CONFIDENCE) -> Interval | None:
    """Student's t interval of the geometric mean of positive ``values`` (ratios): the mean of their logs plus
    or minus t(R-1) standard errors, taken back out of logs. None below two values or with one not positive.

    Ratios multiply, so their logs are what scatters symmetrically; the t quantile widens the interval for
    the few degrees of freedom (12.7 standard errors for two rounds, 4.3 for three), so it stays honest
    where a bootstrap has too few distinct resamples.
    """
    if len(values) < 2 or min(values) <= 0:
        return None
    import numpy as np

    logs = np.log(np.asarray(values, dtype=float))
    centre = float(logs.mean())
    error = float(logs.std(ddof=1)) / math.sqrt(len(logs))
    half = t_quantile((1 + confidence) / 2, len(logs) - 1) * error
    return Interval(math.exp(centre - half), math.exp(centre + half), confidence, "t on log ratios")


def geometric_mean(values: Sequence[float]) -> float:
    return math.exp(statistics.fmean(math.log(v) for v in values))


def same_in_every_round(strategy: Sequence[float | None], baseline: Sequence[float | None]) -> bool:
    """Whether the strategy's figure equals the baseline's in every round both measured (a hit ratio of
    100% in both, say): a figure that did not differ between them, which is no verdict either way."""
    pairs = [(s, b) for s, b in zip(strategy, baseline, strict=False) if s is not None and b is not None]
    return bool(pairs) and all(math.isclose(s, b, rel_tol=1e-9, abs_tol=1e-12) for s, b in pairs)


def _range_confidence(count: int) -> float:
    # The true median lies outside [min, max] only when every value falls on the same side of it.
    return 1 - 2.0 ** (1 - count)


def paired_ratios(strategy: Sequence[float | None], baseline: Sequence[float | None]) -> tuple[float, ...]:
    """Per-round ratios strategy / baseline, leaving out rounds where either figure is missing or the
    baseline's is zero."""
    if len(strategy) != len(baseline):
        raise ValueError(f"paired rounds differ in number: {len(strategy)} and {len(baseline)}")
    return tuple(s / b for s, b in zip(strategy, baseline, strict=True) if s is not None and b)


def ratio_verdict(
    strategy: Sequence[float | None],
    baseline: Sequence[float | None],
    kind: FigureKind,
    *,
    confidence: float = CONFIDENCE,
    seed: int | None = None,
) -> RatioVerdict:
    """The strategy's figure against the baseline's, round by round: ``strategy[i]`` pairs ``baseline[i]``."""
    ratios = paired_ratios(strategy, baseline)
    raw = (
        _median_of(strategy),
        _median_of(baseline),
        coefficient_of_variation(strategy),
    )
    if not ratios:
        return RatioVerdict(None, None, (), len(strategy), *raw, False, None, "not measured")
    interval = log_t_interval(ratios, confidence=confidence)
    if interval is not None:
        ratio = geometric_mean(ratios)
    else:
        ratio = float(statistics.median(ratios))
        interval = median_interval(ratios, confidence=confidence, seed=seed)
    resolved = interval is not None and interval.method in CONFIDENCE_METHODS and not interval.includes(1.0)
    better = (ratio > 1) == kind.higher_is_better if resolved else None
    words = verdict_words(ratio, interval, kind, len(ratios))
    return RatioVerdict(ratio, interval, ratios, len(strategy), *raw, resolved, better, words)


def _median_of(values: Sequence[float | None]) -> float | None:
    present = [v for v in values if v is not None]
    return float(statistics.median(present)) if present else None


def verdict_words(ratio: float, interval: Interval | None, kind: FigureKind, rounds: int) -> str:
    """'1.28x faster (1.21-1.35)', 'no difference resolved (0.97-1.04)', with how the interval was made when
    it is no confidence interval: a range of rounds never resolves a difference."""
    if interval is None:
        return f"{factor_words(ratio, kind)} (one round: no interval)"
    # A strategy below the baseline is said as the inverse ("1.45x slower"), and so is its interval.
    inverted = ratio < 1 and interval.low > 0
    low, high = (1 / interval.high, 1 / interval.low) if inverted else (interval.low, interval.high)
    if interval.method == "range of rounds":
        return (
            f"{factor_words(ratio, kind)}? too few rounds to tell "
            f"({format_range(low, high)} over {rounds} rounds)"
        )
    if interval.includes(1.0):
        reach = interval_reach(ratio, interval)
        seen = "" if reach is None else f"; ±{reach:.0%}" if reach >= 0.095 else f"; ±{reach:.1%}"
        return f"no difference resolved ({format_range(interval.low, interval.high)}{seen})"
    digits = resolving_digits(low, high)
    return f"{factor_words(ratio, kind, digits)} ({format_range(low, high, digits)})"


def resolving_digits(low: float, high: float) -> int:
    """Digits that show an interval excluding 1 does: one under half a percent from 1 would read "1.00-1.00"
    with two, so it gets a third."""
    return 3 if format_range(low, high) == "1.00-1.00" else 2


def factor_words(ratio: float, kind: FigureKind, digits: int = 2) -> str:
    if ratio <= 0:
        # The strategy's figure was zero where the baseline's was not (no full-page image in the window).
        return f"none where the baseline had some ({kind.less})"
    if ratio >= 1:
        return f"{ratio:.{digits}f}x {kind.more}"
    return f"{1 / ratio:.{digits}f}x {kind.less}"


def format_range(low: float, high: float, digits: int = 2) -> str:
    return f"{low:.{digits}f}-{high:.{digits}f}"


# ------------------------------------------------------------------------------------ precision (stop rule)


@dataclass(frozen=True)
class Precision:
    reached: bool
    target: float  # the half-width asked for, as a fraction (0.03 for --precision 3%)
    within: tuple[str, ...]  # figures whose interval is within ±target
    outside: tuple[str, ...]  # figures still wider, or without a confidence interval yet


def precision_reached(verdicts: Mapping[str, RatioVerdict], target: float) -> Precision:
    """Whether every headline ratio's interval is within ±``target`` of its estimate (``--precision``)."""
    if not 0 < target < 1:
        raise ValueError(f"precision must be a fraction between 0 and 1, got {target}")
    within: list[str] = []
    outside: list[str] = []
    for name, verdict in verdicts.items():
        width = verdict.half_width()
        real = verdict.interval is not None and verdict.interval.method in CONFIDENCE_METHODS
        (within if real and width is not None and width <= target else outside).append(name)
    return Precision(not outside and bool(within), target, tuple(within), tuple(outside))
