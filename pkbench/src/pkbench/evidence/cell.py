"""One cell of the "which key?" table: a key's figure over bigint's under one condition, its interval, the
run it comes from, and its WAL per transaction beside it; what the decision rule's margins make of its rate
and its WAL, and how it reads in words. evidence.advice reads cells from runs, evidence.decision decides
from them."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from pkbench.text import MISSING

BASELINE = "bigint"
TIMES = "\u00d7"
# A speed cell answers only when its 95% interval ends within this share of its estimate on both sides; a
# wider one says how wide it got instead of printing a ratio it cannot back.
PRECISION = 0.10
# An interval reaching this share of its estimate or further is said in words, not printed: its bounds would
# span an order of magnitude.
TOO_WIDE = 1.0
# The practical margins, fixed before any run (docs/statistics.md, the decision rule). A rate within ±10% of
# bigint's is one a DBA sizing a server does not plan around (a busy hour moves a server's rate more), and it
# is the precision `pkbench advise` measures each cell to, so that a cell it decides is one the rule can
# read: *level* is an interval within it, *slower*/*faster* a direction that holds with its estimate past it.
RATE_MARGIN = PRECISION
# WAL per transaction: a key whose interval's lower bound reaches 1.25x bigint's writes a quarter more WAL at
# the least, where archiving, replication and checkpoint sizing start to notice; the time-ordered keys stay
# below it in the committed runs and the random ones write several times it. *Lighter* is the inverse.
HEAVIER = 1.25
# A bound equal to a margin counts as reaching it.
_EDGE = 1e-9

Speed = Literal[
    "faster", "slower", "faster, within the margin", "slower, within the margin", "level", "unresolved"
]
WorkSays = Literal["heavier", "lighter", "similar", "unresolved", "not measured"]


Kind = Literal["baseline", "verdict", "one round", "size", "not measured"]


@dataclass(frozen=True)
class Work:
    """The key's WAL per transaction over bigint's in the cell's window, with its interval."""

    ratio: float
    low: float | None
    high: float | None
    # The difference holds among the figures the table cites from the key's run (analysis.family).
    holds: bool
    # How many rounds the ratio is over, where its low and high are their range, no confidence interval
    # (too few rounds for the median's bootstrap, in runs of a pkbench that made one).
    range_of: int | None = None

    @property
    def interval(self) -> bool:
        """Whether low and high are a 95% confidence interval."""
        return self.low is not None and self.high is not None and self.range_of is None

    def figures(self) -> str:
        if self.low is None or self.high is None:
            return f"WAL {self.ratio:.2f}{TIMES} (one round: no interval)"
        if self.range_of is not None:
            return f"WAL {self.ratio:.2f}{TIMES} (no interval: the range of {self.range_of} rounds)"
        return f"WAL {self.ratio:.2f}{TIMES} {self.interval_text()}"

    def interval_text(self) -> str:
        """`(1.21-2.10)`, or in words where the interval reaches past the estimate itself: such bounds would
        span an order of magnitude and answer nothing."""
        width = reach(self.ratio, self.low, self.high)
        if width is not None and width >= TOO_WIDE:
            return "(its interval too wide to quote)"
        return f"({self.low:.2f}\u2013{self.high:.2f})"

    def says(self) -> WorkSays:
        """*heavier* where the difference holds and the interval's lower bound reaches HEAVIER, *lighter*
        where it holds and its upper bound reaches 1/HEAVIER, *similar* where the interval lies within
        1/HEAVIER to HEAVIER, else *unresolved* (no interval, or one reaching past the margin, not beyond)."""
        if not self.interval or self.low is None or self.high is None:
            return "unresolved"
        if self.holds and self.low >= HEAVIER - _EDGE:
            return "heavier"
        if self.holds and self.high <= 1 / HEAVIER + _EDGE:
            return "lighter"
        if self.low >= 1 / HEAVIER - _EDGE and self.high <= HEAVIER + _EDGE:
            return "similar"
        return "unresolved"


def reach(ratio: float | None, low: float | None, high: float | None) -> float | None:
    """How far the interval reaches from the estimate, as a share of it (the wider side); None without one."""
    if ratio is None or low is None or high is None or ratio <= 0:
        return None
    return max(high / ratio - 1, 1 - low / ratio)


@dataclass(frozen=True)
class Cell:
    """One key under one condition: its figure over bigint's (a rate for speed, bytes for size), the interval
    of that ratio, and the run it comes from."""

    kind: Kind
    ratio: float | None = None
    low: float | None = None
    high: float | None = None
    # A speed: the interval excludes 1 and the difference holds among the figures the table cites from the
    # key's run (analysis.family); a size: it differs from bigint's by SAME_WITHIN or more.
    holds: bool = False
    better: bool | None = None
    run: str | None = None
    window: str | None = None
    rounds: int = 0
    # The interval excludes 1 on its own, but the difference does not hold among the key's figures in its run.
    alone: bool = False
    work: Work | None = None

    @property
    def measured(self) -> bool:
        return self.kind in ("verdict", "one round", "size")

    @property
    def reach(self) -> float | None:
        return reach(self.ratio, self.low, self.high)

    @property
    def precise(self) -> bool:
        """A size (one measurement, so no interval), or a speed whose interval is within PRECISION."""
        if self.kind == "size":
            return True
        width = self.reach
        return self.kind == "verdict" and width is not None and width <= PRECISION + 1e-9

    def speed(self) -> Speed:
        """What the rule makes of a speed cell's rate: *slower*/*faster* where the direction holds and the
        estimate reaches past RATE_MARGIN; *slower, within the margin* (or faster) where it holds and the
        estimate does not; *level* where the interval lies within the margin; else *unresolved* (no interval,
        or one reaching past the margin with no direction holding)."""
        if self.kind != "verdict" or self.ratio is None or self.low is None or self.high is None:
            return "unresolved"
        if self.holds:
            if self.better:
                return "faster" if self.ratio >= 1 + RATE_MARGIN - _EDGE else "faster, within the margin"
            return "slower" if self.ratio <= 1 - RATE_MARGIN + _EDGE else "slower, within the margin"
        return "level" if self.within_margin else "unresolved"

    @property
    def within_margin(self) -> bool:
        """Whether the rate's interval lies within ±RATE_MARGIN of bigint's."""
        return (
            self.kind == "verdict"
            and self.low is not None
            and self.high is not None
            and self.low >= 1 - RATE_MARGIN - _EDGE
            and self.high <= 1 + RATE_MARGIN + _EDGE
        )

    def word(self) -> str:
        """The rule's word for the cell: a size's, or its rate's (what evidence.decision reads)."""
        if self.kind == "size":
            return "same size" if not self.holds else "smaller" if self.better else "larger"
        speed = self.speed()
        return speed if speed != "unresolved" or self.precise else ""

    def figures(self) -> str:
        """The ratio and its interval, as `0.88x (0.83-0.91)` with the multiplication sign and an en dash, and
        the WAL beside it; a speed with neither a direction nor PRECISION gives the width it reached."""
        work = f", {self.work.figures()}" if self.work is not None and self.ratio is not None else ""
        return self.rate_figures() + work

    def rate_figures(self) -> str:
        """The ratio and its interval alone, without the WAL."""
        if self.ratio is None:
            return MISSING
        if self.kind == "size":
            return f"{self.ratio:.2f}{TIMES} the size (one measurement)"
        if not self.precise and not self.holds:
            return self.width_words()
        interval = f"{self.low:.2f}\u2013{self.high:.2f}"
        # A direction the interval holds is shown with its ratio however wide the interval, and how wide.
        wide = f"; {self.reach_words()}, wider than \u00b1{PRECISION:.0%}" if not self.precise else ""
        return f"{self.ratio:.2f}{TIMES} ({interval}{wide})"

    def reach_words(self) -> str:
        """How far the interval reaches from the estimate, after how many rounds: `±18.2% after 3 rounds`."""
        rounds = f"after {self.rounds} round{'' if self.rounds == 1 else 's'}"
        width = self.reach
        if width is None:
            return f"no interval {rounds}"
        if width >= TOO_WIDE:
            return f"an interval reaching past the estimate itself {rounds}"
        # Near the target a whole percent could read as the target itself: one decimal there.
        shown = f"{width:.1%}" if width < 2 * PRECISION else f"{width:.0%}"
        return f"\u00b1{shown} {rounds}"

    def width_words(self) -> str:
        """Why a speed cell gives no ratio: the interval it reached, and after how many rounds."""
        if self.reach is None:
            return f"not resolved to \u00b1{PRECISION:.0%}: one round, no interval"
        return f"not resolved to \u00b1{PRECISION:.0%}: {self.reach_words()}"
