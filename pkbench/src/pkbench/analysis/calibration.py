"""What A/A runs say of a design on this machine: the baseline measured against an identical copy of itself,
so every verdict that resolves a difference is a false positive, and the intervals' half-widths are the
smallest effect the design resolves here (`pkbench run --calibrate N`, benchmarks/interleaved_aa.py)."""

from __future__ import annotations

import statistics
from collections.abc import Sequence
from dataclasses import dataclass

from pkbench.analysis.stats import wilson
from pkbench.results import Verdict


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
