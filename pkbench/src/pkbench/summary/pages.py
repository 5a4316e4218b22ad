"""The key index's pages after each density step: how many VACUUM deleted and how many the free space map
offers for reuse (seed 002's finding), and, for v1 keys under the virtual clock, how many of v1's cycles the
load spanned, which decides whether deleting the older half can free whole pages at all.

v1 puts the low 32 bits of its 100-ns clock first, so its keys sort by the time within a cycle of 2^32 ticks
(429.5 s). A load inside one cycle sorts as it arrives, apart from the one wrap it may cross; a load over
many cycles lays every cycle's keys side by side on each leaf page, and deleting the older half then leaves
every page a share of newer keys to keep.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pkbench.analysis.metrics import key_index
from pkbench.results.model import RunResult, StrategyResult
from pkbench.scenario.figures import deleted_share
from pkbench.text import MISSING, markdown_table

# v1's low time bits: 2^32 ticks of 100 ns.
V1_CYCLE_S = 2**32 * 100e-9


def v1_cycles(virtual_hours: float) -> float:
    """How many of v1's 429.5 s cycles a stretch of VIRTUAL_HOURS on the virtual clock covers."""
    return virtual_hours * 3600 / V1_CYCLE_S


def is_v1(strategy: StrategyResult) -> bool:
    """Whether the strategy's keys are v1 (low time bits first), by its generator's name."""
    return "generate_v1" in str(strategy.default_expression or "")


def cycles_line(run: RunResult, step: str | None) -> str | None:
    """For each v1 strategy, the cycles its step STEP spanned on the run's clock; None without one."""
    by_strategy: Mapping[str, Any] = run.clock.get("virtual_hours_by_strategy") or {}
    spans = []
    for s in run.strategies:
        hours = ((by_strategy.get(s.name) or {}).get("steps") or {}).get(step) if step else None
        if is_v1(s) and isinstance(hours, int | float):
            spans.append(f"{s.name} {v1_cycles(hours):,.2f}")
    if not spans:
        return None
    return (
        f"Cycles of v1's low time bits (429.5 s each) that step {step} spanned on the virtual clock: "
        f"{', '.join(spans)}. Within about one, deleting the older half frees whole pages; over many, "
        "each leaf holds keys of every cycle and keeps some. This counts the step's own time: a load in "
        "paired parts (without --isolate) spreads its keys over the other strategies' parts too."
    )


def _count(value: object) -> str:
    return f"{value:,}" if isinstance(value, int) else MISSING


def rows(run: RunResult) -> list[list[str]]:
    """One row per strategy and density step that measured the key index."""
    found = []
    for s in run.strategies:
        index = key_index(s)
        for stage, relations in s.density.items():
            figures = relations.get(index) if index and isinstance(relations, dict) else None
            if not isinstance(figures, dict):
                continue
            parts = [figures.get(k) for k in ("leaf_pages", "internal_pages", "empty_pages", "deleted_pages")]
            pages = sum(p for p in parts if isinstance(p, int)) + 1
            share = deleted_share(relations, index).value
            found.append(
                [
                    s.name,
                    stage,
                    _count(pages),
                    _count(figures.get("deleted_pages")),
                    MISSING if share is None else f"{share:.1f}%",
                    _count(figures.get("reusable_pages")),
                ]
            )
    return found


def markdown(run: RunResult, step: str | None) -> list[str]:
    """summary.md's section on the key index's pages; empty when no density step measured it. STEP is the
    load whose v1 cycles are counted (the scenario's headline insert)."""
    table = rows(run)
    if not table:
        return []
    line = cycles_line(run, step)
    header = ["strategy", "after step", "pages", "deleted", "deleted share", "reusable (free space map)"]
    return [
        "## Key index pages",
        "",
        "pgstatindex after each density step: the key index's pages (with the metapage, as VACUUM counts "
        "them), those VACUUM deleted, and those the free space map offers for reuse (pg_freespacemap; a page "
        "VACUUM deletes becomes reusable only once no transaction can still reach it).",
        "",
        *([line, ""] if line else []),
        *markdown_table(header, table),
        "",
    ]
