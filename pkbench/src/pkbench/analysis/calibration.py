"""What A/A runs say of a design on this machine: the baseline measured against an identical copy of itself,
so every verdict that resolves a difference is a false positive, and the intervals' half-widths are the
smallest effect the design resolves here (`pkbench run --calibrate N`, benchmarks/interleaved_aa.py)."""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass, replace

from pkbench.analysis.family import holm
from pkbench.analysis.judge import Paired
from pkbench.analysis.stats import wilson
from pkbench.analysis.verdict import paired_ratios
from pkbench.results.model import Verdict


def _median(values: Sequence[float]) -> float | None:
    return float(statistics.median(values)) if values else None


@dataclass(frozen=True)
class Calibration:
    """A design's A/A runs summed up."""

    design: str
    runs: int
    # Runs whose copy differed from the baseline in its verdicts taken together (Holm, 5% familywise): the
    # run's own answer, which should be wrong about one time in 20.
    false_positives: int
    # Runs where some verdict alone resolved a difference: with fifteen 95% intervals, about half of them.
    any_verdict: int
    verdicts_resolved: int
    verdicts: int
    median_half_width: float | None  # the smallest effect resolved, as a fraction (0.03 for 3%)

    @property
    def false_positive_rate(self) -> float:
        return self.false_positives / self.runs if self.runs else 0.0

    @property
    def rate_interval(self) -> tuple[float, float]:
        """The false-positive rate's 95% interval: 0 of 20 runs still allows up to 16%."""
        return wilson(self.false_positives, self.runs)

    def words(self) -> str:
        width = (
            f"the median interval reaches ±{self.median_half_width:.1%}, the smallest effect it resolves"
            if self.median_half_width is not None
            else "no interval to say what effect it resolves"
        )
        low, high = self.rate_interval
        return (
            f"{self.design}: {self.false_positives} of {self.runs} A/A runs resolved a difference taken "
            f"together at 5% familywise ({self.false_positive_rate:.0%} false positives, 95% interval "
            f"{low:.0%}-{high:.0%}); {width}. Verdict by verdict, {self.verdicts_resolved} of "
            f"{self.verdicts} resolved a difference, in {self.any_verdict} of the {self.runs} runs"
        )


def summed(design: str, runs: Sequence[Sequence[Verdict]]) -> Calibration:
    """A/A runs' verdicts, marked familywise (analysis.family), summed up: a run is a false positive when
    its verdicts taken together resolved a difference."""
    verdicts = [v for run in runs for v in run]
    widths = [v.half_width for v in verdicts if v.half_width is not None]
    return Calibration(
        design,
        len(runs),
        sum(1 for run in runs if any(v.familywise for v in run)),
        sum(1 for run in runs if any(v.resolved for v in run)),
        sum(1 for v in verdicts if v.resolved),
        len(verdicts),
        _median(widths),
    )


@dataclass(frozen=True)
class FigureCalibration:
    """One figure of one window over the A/A runs: how often it resolved a difference, how wide it was."""

    workload: str
    metric: str
    verdicts: int
    resolved: int
    familywise: int  # of those resolved, how many held in the copy's family (Holm)
    median_half_width: float | None
    widest_half_width: float | None

    @property
    def interval(self) -> tuple[float, float]:
        return wilson(self.resolved, self.verdicts)


def by_figure(runs: Sequence[Sequence[Verdict]]) -> list[FigureCalibration]:
    """Each (window, figure) the A/A runs judged, in the order the first run judged them."""
    grouped: dict[tuple[str, str], list[Verdict]] = {}
    for run in runs:
        for v in run:
            grouped.setdefault((v.workload, v.metric), []).append(v)
    found = []
    for (workload, metric), verdicts in grouped.items():
        widths = [v.half_width for v in verdicts if v.half_width is not None]
        found.append(
            FigureCalibration(
                workload,
                metric,
                len(verdicts),
                sum(1 for v in verdicts if v.resolved),
                sum(1 for v in verdicts if v.familywise),
                _median(widths),
                max(widths) if widths else None,
            )
        )
    return found


@dataclass(frozen=True)
class RunSpread:
    """One figure of one window over the A/A runs: whether its log ratios differ more from run to run than
    their rounds within a run predict. Each table is loaded once per run, so a part of a figure that stays
    the same for a whole run (the layout of the load) is sampled by the runs, never by the rounds, and a
    verdict's interval, made of one run's rounds, leaves it out."""

    workload: str
    metric: str
    runs: int
    f_statistic: float
    p_value: float
    between_sd: float  # the run-to-run part's standard deviation, on the log scale (about a fraction)
    within_sd: float  # a round's standard deviation within a run, pooled over the runs
    holds: bool = False  # the runs differ at 5% familywise over the figures (Holm)


def run_spread(runs: Sequence[Sequence[Paired]]) -> list[RunSpread]:
    """Each (window, figure) of the A/A runs' paired rounds, in the order the first run has them: a one-way
    analysis of variance of the per-round log ratios with the runs as groups. Its F is the spread of the run
    means against the spread the rounds predict for them (about 1 when the rounds say it all); the
    run-to-run standard deviation is the method-of-moments estimate, zero where F is below 1."""
    import numpy as np
    from scipy import stats

    grouped: dict[tuple[str, str], list[np.ndarray]] = {}
    for run in runs:
        for figure in run:
            ratios = paired_ratios(figure.mine, figure.theirs)
            if len(ratios) >= 2 and min(ratios) > 0:
                grouped.setdefault((figure.workload, figure.metric.key), []).append(np.log(ratios))
    found = []
    for (workload, metric), groups in grouped.items():
        if len(groups) < 2 or all(np.ptp(g) == 0 for g in groups):
            continue
        f_statistic, p_value = (float(x) for x in stats.f_oneway(*groups))
        if not (math.isfinite(f_statistic) and math.isfinite(p_value)):
            continue
        per_run = statistics.mean(len(g) for g in groups)
        within = statistics.mean(float(np.var(g, ddof=1)) for g in groups)
        between = per_run * statistics.variance(float(g.mean()) for g in groups)
        found.append(
            RunSpread(
                workload,
                metric,
                len(groups),
                f_statistic,
                p_value,
                math.sqrt(max(0.0, (between - within) / per_run)),
                math.sqrt(within),
            )
        )
    holding = holm([s.p_value for s in found])
    return [replace(s, holds=h) for s, h in zip(found, holding, strict=True)]
