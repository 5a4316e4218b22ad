"""How far a prediction's 95% interval reaches from a fit's log residuals: Student's t on their spread,
widened for a new observation as a prediction interval is (not the narrower interval of the fitted mean)."""

from __future__ import annotations

import math

from pkbench.analysis.verdict import t_quantile

CONFIDENCE = 0.95


def interval_factor(log_residual_sd: float, observations: int, constants: int) -> float:
    """The factor either way of an estimate that its 95% prediction interval reaches, from OBSERVATIONS
    residuals of a fit of CONSTANTS constants (infinite where too few are left to say)."""
    freedom = observations - constants
    if freedom < 2 or not math.isfinite(log_residual_sd):
        return math.inf
    t = t_quantile(0.5 + CONFIDENCE / 2, freedom)
    return math.exp(t * log_residual_sd * math.sqrt(1 + 1 / observations))
