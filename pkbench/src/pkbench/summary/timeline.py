"""summary.md's section for churn steps (the retention scenario): each strategy's index over time, and the
scenario's two questions answered in words from the figures.

1. Do keys whose prefix wraps (seq-time, seq-seq) refill the space VACUUM freed, or cost like random keys?
   Compared with uuid-v4 (random) and uuid-v7 (time-ordered) when both ran: full-page-image bytes per insert,
   leaf density, and whether the index kept growing in the second half of the run.
2. How much do indexes of keys that never come back (bigint, uuid-v7, ulid) grow?
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from pkbench.results.model import RunResult
from pkbench.strategies.builtin import BUILTIN
from pkbench.text import figure_text as shown
from pkbench.text import markdown_table

# A churn step's sample, as steps/churn.py records it (StrategyResult.timelines).
JSON = dict[str, Any]
MIB = 2**20
TIMES = "\N{MULTIPLICATION SIGN}"


@dataclass(frozen=True)
class Keys:
    """The strategies of a run by how their keys arrive (the catalog's `order`): the random key and the
    time-ordered uuid the others are placed between, the keys that wrap, and those that never come back."""

    random: str | None
    ordered: str | None
    wrapping: tuple[str, ...]
    ascending: tuple[str, ...]

    @classmethod
    def of(cls, run: RunResult, names: Sequence[str]) -> Keys:
        # Results written before strategies recorded their order: the built-in catalog's.
        builtin = {s.name: s.order for s in BUILTIN}
        order = {s.name: s.order or builtin.get(s.name, "") for s in run.strategies}
        column_type = {s.name: s.column_type for s in run.strategies}

        def having(wanted: str) -> tuple[str, ...]:
            return tuple(name for name in names if order.get(name) == wanted)

        ascending = having("ascending")
        return cls(
            next(iter(having("random")), None),
            next((name for name in ascending if column_type.get(name) == "uuid"), None),
            having("wrapping"),
            ascending,
        )


def _sum(samples: Sequence[JSON], key: str) -> float | None:
    if any(s.get(key) is None for s in samples):
        return None
    return float(sum(float(s[key]) for s in samples))


def _mean(samples: Sequence[JSON], key: str) -> float | None:
    values = [float(s[key]) for s in samples if s.get(key) is not None]
    return sum(values) / len(values) if values else None


def figures(samples: Sequence[JSON]) -> JSON:
    """One strategy's run through the window, condensed: the first sample is the state before it."""
    start, stretches = samples[0], samples[1:]
    middle = samples[len(samples) // 2]
    second_half = samples[len(samples) // 2 + 1 :]
    splits, reused = _sum(second_half, "page_splits"), _sum(second_half, "pages_reused")
    return {
        "start_bytes": start["index_bytes"],
        "end_bytes": samples[-1]["index_bytes"],
        "middle_bytes": middle["index_bytes"],
        "growth": samples[-1]["index_bytes"] / start["index_bytes"],
        "late_growth": samples[-1]["index_bytes"] / middle["index_bytes"],
        "density": _mean(second_half, "avg_leaf_density"),
        "pages_freed": _sum(stretches, "pages_freed"),
        "pages_reused": _sum(stretches, "pages_reused"),
        "late_reuse_share": reused / splits if splits and reused is not None else None,
        "wal_per_insert": _mean(stretches, "wal_bytes_per_insert"),
        "fpi_per_insert": _mean(stretches, "wal_fpi_bytes_per_insert"),
        "index_fpi_per_insert": _mean(stretches, "index_fpi_bytes_per_insert"),
        "inserts_per_s": _mean(stretches, "inserts_per_s"),
    }


def _timelines(run: RunResult) -> dict[str, dict[str, list[JSON]]]:
    """Churn step name → strategy → samples, over the strategies that ran."""
    found: dict[str, dict[str, list[JSON]]] = {}
    for strategy in run.strategies:
        if strategy.status != "ok":
            continue
        for step, samples in (strategy.timelines or {}).items():
            if samples:
                found.setdefault(step, {})[strategy.name] = samples
    return found


def markdown(run: RunResult) -> list[str]:
    lines: list[str] = []
    for step, by_strategy in _timelines(run).items():
        condensed = {name: figures(samples) for name, samples in by_strategy.items()}
        lines += [
            f"## Over time: {step}",
            "",
            "Index size (MiB) at each sample, the first before any row went through:",
            "",
            *markdown_table(
                ["Strategy", *(f"{s['rows_inserted']:,}" for s in next(iter(by_strategy.values())))],
                (
                    [name, *(f"{s['index_bytes'] / MIB:.2f}" for s in samples)]
                    for name, samples in by_strategy.items()
                ),
            ),
            "",
        ]
        header = [
            "Strategy", "Index start → end", "Growth", "Last half: growth", "Leaf density (last half)",
            "Pages freed", "Pages reused", "Last half: splits on reused pages", "WAL/insert", "FPI/insert",
            "Index FPI/insert", "Inserts/s",
        ]  # fmt: skip
        table = [
            [
                name,
                f"{f['start_bytes'] / MIB:.2f} → {f['end_bytes'] / MIB:.2f} MiB",
                f"{f['growth']:.2f}{TIMES}",
                f"{f['late_growth']:.2f}{TIMES}",
                shown(f["density"], "{:.0%}"),
                shown(f["pages_freed"], "{:,.0f}"),
                shown(f["pages_reused"], "{:,.0f}"),
                shown(f["late_reuse_share"], "{:.0%}"),
                shown(f["wal_per_insert"], "{:,.0f} B"),
                shown(f["fpi_per_insert"], "{:,.0f} B"),
                shown(f["index_fpi_per_insert"], "{:,.0f} B"),
                shown(f["inserts_per_s"], "{:,.0f}"),
            ]
            for name, f in condensed.items()
        ]
        lines += markdown_table(header, table)
        lines += ["", *answers(condensed, Keys.of(run, list(condensed))), ""]
    return lines


def _likeness(
    keys: Keys, value: float | None, random: float | None, ordered: float | None, lower: bool
) -> str:
    """Where a figure falls between the time-ordered key's and the random key's (`lower`: the time-ordered
    key's is the lower one)."""
    if value is None or random is None or ordered is None:
        return "not measured"
    if not lower:
        value, random, ordered = -value, -random, -ordered
    if random - ordered <= 0.2 * abs(ordered):
        return f"no different ({keys.random}'s and {keys.ordered}'s differ by less than a fifth here)"
    position = (value - ordered) / (random - ordered)
    if position < 1 / 3:
        return f"like {keys.ordered}'s"
    if position > 2 / 3:
        return f"like {keys.random}'s"
    return f"between {keys.ordered}'s and {keys.random}'s"


def _ratio(value: float, other: JSON | None, name: str | None) -> str:
    return "" if other is None else f", {value / other['end_bytes']:.2f}{TIMES} {name}'s"


def answers(condensed: dict[str, JSON], keys: Keys) -> list[str]:
    """The two questions, answered in words with the figures of this run."""
    lines = []
    random = condensed.get(keys.random) if keys.random else None
    ordered = condensed.get(keys.ordered) if keys.ordered else None
    wrapping = keys.wrapping
    if wrapping:
        lines.append("**Prefixed keys: do they refill freed pages, or cost like random keys?**")
        lines.append("")
        for name in wrapping:
            f = condensed[name]
            sentence = (
                f"- {name}: VACUUM freed {shown(f['pages_freed'], '{:,.0f}')} pages and "
                f"{shown(f['late_reuse_share'], '{:.0%}')} of the last half's splits took a freed page; "
                f"leaf density {shown(f['density'], '{:.0%}')}, index at the end "
                f"{f['end_bytes'] / MIB:.2f} MiB{_ratio(f['end_bytes'], ordered, keys.ordered)}"
                f"{_ratio(f['end_bytes'], random, keys.random)} "
                f"({f['late_growth']:.2f}{TIMES} over the last half); "
                f"{shown(f['index_fpi_per_insert'], '{:,.0f}')} bytes of index page images per insert"
            )
            if random is not None and ordered is not None:
                sentence += (
                    f" ({keys.random} {shown(random['index_fpi_per_insert'], '{:,.0f}')}, {keys.ordered} "
                    f"{shown(ordered['index_fpi_per_insert'], '{:,.0f}')}). Page images: "
                    + _likeness(
                        keys,
                        f["index_fpi_per_insert"],
                        random["index_fpi_per_insert"],
                        ordered["index_fpi_per_insert"],
                        lower=True,
                    )
                    + "; leaf density: "
                    + _likeness(keys, f["density"], random["density"], ordered["density"], lower=False)
                )
            lines.append(sentence + ".")
        lines.append("")
    growing = keys.ascending
    if growing:
        lines.append("**Keys that never come back: how much does the index grow?**")
        lines.append("")
        for name in growing:
            f = condensed[name]
            lines.append(
                f"- {name}: {f['start_bytes'] / MIB:.2f} → {f['end_bytes'] / MIB:.2f} MiB "
                f"({f['growth']:.2f}{TIMES}), {f['late_growth']:.2f}{TIMES} over the last half; VACUUM freed "
                f"{shown(f['pages_freed'], '{:,.0f}')} pages and splits reused "
                f"{shown(f['pages_reused'], '{:,.0f}')} of them."
            )
        if random is not None:
            lines.append(
                f"- for comparison, {keys.random}: {random['start_bytes'] / MIB:.2f} → "
                f"{random['end_bytes'] / MIB:.2f} MiB ({random['growth']:.2f}{TIMES}, "
                f"{random['late_growth']:.2f}{TIMES} over the last half), "
                f"{shown(random['pages_freed'], '{:,.0f}')} pages freed."
            )
        lines.append("")
    if lines:
        lines.append(
            "One run. How far an index grows depends on how far the inserts run ahead of autovacuum, so "
            "sizes move between runs; leaf density and the pages freed and reused repeat more closely."
        )
    return lines
