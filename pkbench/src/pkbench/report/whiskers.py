"""What a bar chart of a run in rounds draws besides the bars: whiskers from the interval of each bar's median
over its rounds, and the rounds themselves as dots (report.charts and the comparison draw them alike)."""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import Any

from pkbench.analysis.metrics import Figure, Metric
from pkbench.analysis.verdict import Interval, median_interval
from pkbench.results.model import StrategyResult, WorkloadResult

# Fixed, so that a page drawn twice draws the same whiskers.
BOOTSTRAP_SEED = 20240223
# The figures of speed, which get whiskers: the others (work, size) do not move with the machine the same way.
SPEED = ("transactions", "failed", "tps", "p50", "latency-mean", "p95", "p99")


def round_values(window: WorkloadResult | None, read: Callable[[WorkloadResult], Figure]) -> list[float]:
    """A figure in each round of a window measured in rounds; none for a window measured once."""
    if window is None or len(window.rounds) < 2:
        return []
    return [value for found in window.rounds if (value := read(found).value) is not None]


def speed_rounds(metric: Metric, strategy: StrategyResult, window: WorkloadResult | None) -> list[float]:
    """A speed figure of the strategy in each round of the window; none for other figures."""
    if metric.key not in SPEED:
        return []
    return round_values(window, functools.partial(metric.read, strategy))


def _interval_words(interval: Interval, rounds: int) -> str:
    if interval.method == "bootstrap":
        return f"its {interval.confidence:.0%} interval (bootstrap over {rounds} rounds)"
    return f"the range of its {rounds} rounds (a {interval.confidence:.0%} interval of the median)"


def whiskers(per_bar: Sequence[Sequence[float]], y: Sequence[float], said: set[str]) -> dict[str, Any] | None:
    """Plotly error bars for bars at Y from each bar's figure in every round: the interval of the median over
    the rounds (none for a bar measured once); how each was made is added to SAID."""
    found = [median_interval(values, seed=BOOTSTRAP_SEED) if len(values) >= 2 else None for values in per_bar]
    for interval, values in zip(found, per_bar, strict=True):
        if interval is not None:
            said.add(_interval_words(interval, len(values)))
    if not any(found):
        return None
    return {
        "type": "data",
        "symmetric": False,
        "array": [max(w.high - v, 0.0) if w else 0.0 for w, v in zip(found, y, strict=True)],
        "arrayminus": [max(v - w.low, 0.0) if w else 0.0 for w, v in zip(found, y, strict=True)],
        "color": "#24292f",
        "thickness": 1.2,
        "width": 4,
    }


def whiskers_note(said: set[str], dots: bool) -> str:
    return (
        "Bars: each figure's median over its rounds; whiskers: "
        + "; or ".join(sorted(said))
        + ("; dots: the rounds." if dots else ".")
    )


def labels(x: list[Any]) -> list[Any]:
    """X as one label per bar: flat labels as they are, [outer, inner] labels as pairs."""
    if x and isinstance(x[0], list):
        return list(zip(*x, strict=True))
    return list(x)


def unlabels(labels: Sequence[Any], like: list[Any]) -> list[Any]:
    """Labels per bar back in the shape X had."""
    if like and isinstance(like[0], list):
        return [list(part) for part in zip(*labels, strict=True)] if labels else [[], []]
    return list(labels)
