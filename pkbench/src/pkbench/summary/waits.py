"""What the sampled wait events and buffer usage counts show, per strategy and window (seed 000's measures).

The sampler writes timeseries/wait_events.csv (backends per wait event, every second) and usagecount.csv
(shared buffers per usage count, every sampling interval). Seed 000 read them to show that random keys wait
on reading data files and fill the cache with pages touched once; these functions say the same of a run:
what share of the sampled backends waited on what, and what share of the buffers had a usage count of 0 or 1.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from pkbench.text import MISSING, markdown_table

# How many of a window's wait events are named; the rest are counted under "other".
SHOWN_EVENTS = 3
# Usage counts at or below this are pages the clock sweep will evict next: touched once, or not since.
LOW_USAGE = 1


@dataclass(frozen=True)
class Waits:
    """One window's samples: active backend-samples per `type:event` (or CPU), and the mean share of
    low-usage buffers."""

    events: dict[str, int]
    low_usage_share: float | None

    @property
    def sampled(self) -> int:
        return sum(self.events.values())

    def share(self, prefix: str) -> float | None:
        """The share of active backend-samples whose `type:event` starts with PREFIX (e.g. "IO:")."""
        total = self.sampled
        return sum(n for e, n in self.events.items() if e.startswith(prefix)) / total if total else None


def _number(value: object) -> float:
    return float(str(value))


def by_window(
    wait_rows: Iterable[Sequence[object]], usage_rows: Iterable[Sequence[object]]
) -> dict[tuple[str, str], Waits]:
    """The rows of wait_events and usagecount (strategy, workload, repeat, elapsed_s, ...) per (strategy,
    workload), all repeats together, in the order the windows first appear."""
    events: dict[tuple[str, str], dict[str, int]] = defaultdict(lambda: defaultdict(int))
    for strategy, workload, _, _, kind, event, backends in wait_rows:
        # The sampler writes CPU for an active backend that waits on nothing.
        name = "CPU" if kind == "CPU" else f"{kind}:{event}"
        events[(str(strategy), str(workload))][name] += int(_number(backends))
    samples: dict[tuple[str, str, str], list[float]] = defaultdict(lambda: [0.0, 0.0])
    for strategy, workload, repeat, elapsed, usage, buffers in usage_rows:
        sample = samples[(str(strategy), str(workload), f"{repeat}/{elapsed}")]
        sample[0] += _number(buffers) if _number(usage) <= LOW_USAGE else 0.0
        sample[1] += _number(buffers)
    shares: dict[tuple[str, str], list[float]] = defaultdict(list)
    for (strategy, workload, _), (low, total) in samples.items():
        if total:
            shares[(strategy, workload)].append(low / total)
    windows = list(dict.fromkeys([*events, *shares]))
    return {
        window: Waits(
            dict(events.get(window, {})),
            sum(shares[window]) / len(shares[window]) if shares.get(window) else None,
        )
        for window in windows
    }


def _events_text(waits: Waits) -> str:
    total = waits.sampled
    if not total:
        return "no active backend sampled"
    ranked = sorted(waits.events.items(), key=lambda item: (-item[1], item[0]))
    shown = [f"{event} {n / total:.0%}" for event, n in ranked[:SHOWN_EVENTS]]
    rest = sum(n for _, n in ranked[SHOWN_EVENTS:])
    return ", ".join(shown + ([f"other {rest / total:.0%}"] if rest else []))


def table(windows: dict[tuple[str, str], Waits]) -> list[str]:
    """One row per window: its commonest waits, the share on I/O, the share of low-usage buffers."""
    rows = [
        [
            strategy,
            workload,
            _events_text(waits),
            MISSING if waits.share("IO:") is None else f"{waits.share('IO:'):.0%}",
            MISSING if waits.low_usage_share is None else f"{waits.low_usage_share:.0%}",
        ]
        for (strategy, workload), waits in windows.items()
    ]
    header = ["strategy", "window", "sampled active backends: commonest waits", "on I/O"]
    return markdown_table([*header, f"buffers at usage count 0-{LOW_USAGE}"], rows)


def section(series: dict[str, list[tuple[object, ...]]]) -> list[str]:
    """summary.md's section on waits and buffer usage; empty when nothing was sampled."""
    windows = by_window(series.get("wait_events", []), series.get("usagecount", []))
    if not windows:
        return []
    return [
        "## Waits and buffer usage",
        "",
        "Sampled during each window: what the benchmark's active backends waited on (every second; CPU: on "
        "nothing), and "
        f"the share of shared buffers with a usage count of at most {LOW_USAGE}, the pages the clock sweep "
        "evicts next (every sampling interval, averaged).",
        "",
        *table(windows),
        "",
    ]
