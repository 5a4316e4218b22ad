"""The summary's sharded section: for each sharded table (one per routing), each strategy's inserts during
its window split by shard, the hottest shard's share with an interval, each shard's WAL and index growth, and
the answer in words: does the key concentrate the inserts on one shard, or spread them?

The figures are the difference between a table's first and last `shard` count step (steps/shard.py).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from pkbench.analysis.stats import wilson
from pkbench.results.model import RunResult
from pkbench.text import MISSING, binary_size, markdown_table

# A hottest share at or above this is "almost all on one shard".
CONCENTRATED = 0.9
# A share within this fraction of 1/N counts as even (34% against 33.3% is even; 45% is not).
EVEN_BAND = 0.2


@dataclass(frozen=True)
class Split:
    """One strategy's inserts into one sharded table during its window, by shard."""

    strategy: str
    table: str
    inserted: tuple[int, ...]
    wal_bytes: tuple[int, ...]
    index_growth: tuple[int, ...]

    @property
    def total(self) -> int:
        return sum(self.inserted)

    @property
    def shares(self) -> tuple[float, ...]:
        total = self.total
        return tuple(n / total for n in self.inserted) if total else ()

    @property
    def hottest(self) -> int:
        """The shard (from 1) that received the most inserts."""
        return max(range(len(self.inserted)), key=lambda i: self.inserted[i]) + 1


def split(strategy: str, before: Mapping[str, Any], after: Mapping[str, Any]) -> Split:
    """The inserts, WAL and index growth of each shard between two counts of the same table."""
    pairs = list(zip(before["shards"], after["shards"], strict=True))
    return Split(
        strategy,
        str(after["table"]),
        tuple(a["inserted"] - b["inserted"] for b, a in pairs),
        tuple(a["wal_lsn"] - b["wal_lsn"] for b, a in pairs),
        tuple(a["index_bytes"] - b["index_bytes"] for b, a in pairs),
    )


def verdict(found: Split) -> str:
    """In words: concentrated on one shard, spread evenly, uneven, or too few inserts to tell. Even is 1/N;
    with many inserts a hash's small lean is resolved, so "evenly" means every shard's interval lies within
    EVEN_BAND of 1/N, and "uneven" that some shard's interval lies wholly outside it."""
    count = len(found.inserted)
    if found.total == 0:
        return "no inserts were counted"
    even = 1 / count
    share = found.shares[found.hottest - 1]
    low, _ = wilson(found.inserted[found.hottest - 1], found.total)
    if low >= CONCENTRATED:
        return f"concentrated: shard {found.hottest} received {share:.1%} of the inserts"
    band = (even * (1 - EVEN_BAND), even * (1 + EVEN_BAND))
    intervals = [wilson(n, found.total) for n in found.inserted]
    if all(band[0] <= lo and hi <= band[1] for lo, hi in intervals):
        return f"spread evenly: every shard's share is within {EVEN_BAND:.0%} of 1/{count}"
    if any(hi < band[0] or lo > band[1] for lo, hi in intervals):
        return f"uneven: shard {found.hottest} received {share:.1%} of the inserts (even is {even:.1%})"
    return f"too few inserts to tell: shard {found.hottest} received {share:.1%} (even is {even:.1%})"


def splits(run: RunResult) -> list[Split]:
    """Each measured strategy's split for each sharded table, in the order the scenario counted them."""
    found: list[Split] = []
    for strategy in run.strategies:
        if strategy.status != "ok":
            continue
        by_table: dict[str, list[Mapping[str, Any]]] = {}
        for counted in (strategy.shards or {}).values():
            by_table.setdefault(str(counted["table"]), []).append(counted)
        for counts in by_table.values():
            if len(counts) >= 2:
                found.append(split(strategy.name, counts[0], counts[-1]))
    return found


def _share_text(found: Split) -> str:
    low, high = wilson(found.inserted[found.hottest - 1], found.total)
    share = found.shares[found.hottest - 1]
    return f"{share:.1%} [{low:.1%}, {high:.1%}] (shard {found.hottest})"


def _each(values: Sequence[int], text: Any) -> str:
    return " / ".join(text(v) for v in values)


def wal_is_own(run: RunResult) -> bool:
    """Whether a strategy's counts bracket its own window only. WAL is counted per shard, not per table: in
    paired rounds every strategy's window of a stage runs between one strategy's counts, so the WAL between
    them is all strategies'; the inserts and the index growth are per table, so stay each strategy's own."""
    paired = run.rounds is not None and run.rounds.mode == "paired"
    return not paired or sum(1 for s in run.strategies if s.status == "ok") < 2


def markdown(run: RunResult) -> list[str]:
    found = splits(run)
    if not found:
        return []
    shard_count = len(found[0].inserted)
    own_wal = wal_is_own(run)
    lines = [
        "## Sharded: where the inserts land",
        "",
        f"Inserts through the coordinator during each window, by shard (even is 1/{shard_count} = "
        f"{1 / shard_count:.1%} each); the hottest shard's share with its 95% interval, and each shard's WAL "
        "and primary-key index growth, from each shard's own statistics."
        + (
            ""
            if own_wal
            else " WAL by shard is shown for `--isolate` runs only: in paired rounds every strategy's window "
            "falls between one strategy's counts, and a shard's WAL is not counted per table."
        ),
        "",
    ]
    tables = list(dict.fromkeys(f.table for f in found))
    for table in tables:
        rows = [
            [
                f.strategy,
                f"{f.total:,}",
                _share_text(f),
                _each(f.inserted, lambda n: f"{n:,}"),
                _each(f.wal_bytes, binary_size) if own_wal else MISSING,
                _each(f.index_growth, binary_size),
                verdict(f),
            ]
            for f in found
            if f.table == table
        ]
        lines += [f"### {table}", ""]
        lines += markdown_table(
            [
                "Strategy",
                "Inserts",
                "Hottest shard",
                "By shard",
                "WAL by shard",
                "Index growth by shard",
                "So",
            ],
            rows,
        )
        lines.append("")
    return lines


def answers(run: RunResult) -> list[str]:
    """One sentence per sharded table: which strategies concentrate the inserts and which spread them."""
    found = splits(run)
    sentences = []
    for table in dict.fromkeys(f.table for f in found):
        said = "; ".join(f"{f.strategy} {verdict(f)}" for f in found if f.table == table)
        sentences.append(f"{table}: {said}.")
    return sentences
