"""The agreement rule: one word on whether our figure agrees with a study's (docs/statistics.md).

Pure functions of two numbers, so the rule is tested and documented on worked examples alone.
"""

from __future__ import annotations

import math

REPRODUCED = "reproduced"
SMALLER = "same direction, smaller"
LARGER = "same direction, larger"
NOT_REPRODUCED = "not reproduced"
NOT_MEASURED = "not measured"
# Ratios within this band of 1 count as "no difference", in the study and in ours.
SAME_BAND = 0.05
# Our effect must lie within this factor of the study's, either way, on the log scale, to count as
# reproduced: 22.8x where the study saw 4.4x is a larger effect, not the study's.
FACTOR_REPRODUCED = 2.0


def agreement(theirs: float | None, mine: float | None) -> str:
    """One word on whether our ratio to the baseline agrees with the study's (docs/statistics.md).

    Both are ratios to the same baseline strategy (1.0 = same as the baseline). A ratio within SAME_BAND of 1
    is "no difference". The study's effect is reproduced when ours points the same way and lies within
    FACTOR_REPRODUCED of it either way on the log scale (or, when the study saw no difference, when we see
    none either); "same direction, smaller" or "larger" when it points the same way but lies outside that;
    otherwise not reproduced.
    """
    if theirs is None or mine is None or theirs <= 0 or mine <= 0:
        return NOT_MEASURED
    band = math.log1p(SAME_BAND)
    effect_theirs, effect_mine = math.log(theirs), math.log(mine)
    if abs(effect_theirs) <= band:
        return REPRODUCED if abs(effect_mine) <= band else NOT_REPRODUCED
    if abs(effect_mine) <= band or (effect_mine > 0) != (effect_theirs > 0):
        return NOT_REPRODUCED
    return _within_factor(abs(effect_mine) / abs(effect_theirs))


def share_agreement(theirs: float | None, mine: float | None) -> str:
    """The word for a share the study states outright (a percentage of its WAL, of an index's pages): ours
    reproduces it within FACTOR_REPRODUCED either way, and is otherwise smaller or larger; a share has no "no
    difference"."""
    if theirs is None or mine is None or theirs <= 0:
        return NOT_MEASURED
    if mine <= 0:
        return NOT_REPRODUCED
    return _within_factor(mine / theirs)


def direction_agreement(claim: str, mine: float | None) -> str:
    """The word for a direction the study states without a figure ("larger", "smaller" or "same" than the
    baseline): reproduced when our ratio to the baseline points that way, beyond SAME_BAND (or within it,
    for "same"), otherwise not reproduced."""
    if mine is None or mine < 0 or math.isnan(mine):
        return NOT_MEASURED
    band = math.log1p(SAME_BAND)
    effect = math.inf if mine == math.inf else (-math.inf if mine == 0 else math.log(mine))
    found = "same" if abs(effect) <= band else ("larger" if effect > 0 else "smaller")
    return REPRODUCED if found == claim else NOT_REPRODUCED


def _within_factor(ours_over_theirs: float) -> str:
    if ours_over_theirs > FACTOR_REPRODUCED:
        return LARGER
    if ours_over_theirs < 1 / FACTOR_REPRODUCED:
        return SMALLER
    return REPRODUCED
