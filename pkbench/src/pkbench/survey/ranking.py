"""The tables in the order a DBA acts on them: by status, then by what each table costs now.

What a table costs now is its inserts times what each insert pays for its key. The inserts are the best
figure the server has, the same for every table of the survey so that they compare: the rate over `--watch`
where it was watched; else the rows inserted since the statistics began (over one window for every table,
so they order as their rates do, whether or not the server recorded when that window started), a random
key's children's inserts into their own foreign-key indexes counted with its own; else the key index's size.
What an insert pays is the extra time the committed cell finds against bigint's (1/ratio - 1), or, where the
key costs in WAL alone, the WAL it writes over bigint's (ratio - 1). An integer key nearing its end is ranked
by the days it has left at the current rate, then by how much of its range it has used.

A figure that differs between two tables always decides their order; the name decides only a tie.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from pkbench.survey import classify
from pkbench.survey.placement import BASES, STATUSES, Entry
from pkbench.text import binary_size

# The statuses that ask a DBA to act: the tables the summary lists.
ACTIONABLE = STATUSES[:2]


@dataclass(frozen=True)
class Activity:
    """The inserts a table is ranked by: which figure (BASES, best first), its value, and in words."""

    basis: str
    value: float
    words: str


def activity(entry: Entry) -> Activity:
    """ENTRY's inserts by the best figure the survey read (module docstring)."""
    if entry.inserts_per_s is not None and entry.inserts_how.startswith("over"):
        return Activity(BASES[0], entry.inserts_per_s, f"{entry.inserts_per_s:,.1f} inserts/s watched")
    if entry.inserted_total is not None:
        children = entry.children_inserted if entry.leading_kind in classify.RANDOM_KINDS else None
        total = entry.inserted_total + (children or 0)
        beside = f" (with {children:,} into its children's foreign-key indexes)" if children else ""
        return Activity(BASES[1], float(total), f"{total:,} rows inserted{beside}")
    if entry.inserts_per_s is not None:
        return Activity(BASES[2], entry.inserts_per_s, f"{entry.inserts_per_s:,.1f} inserts/s")
    if entry.index_bytes is not None:
        return Activity(BASES[3], float(entry.index_bytes), f"key index {binary_size(entry.index_bytes)}")
    return Activity(BASES[4], 0.0, "neither its inserts nor its size known")


def extra_per_insert(entry: Entry) -> tuple[float, str] | None:
    """What each insert pays for the key where it costs: the extra time, else the extra WAL, with its words;
    None where the key costs nothing the rule will quote."""
    if entry.status != "costs" or not entry.placements:
        return None
    first = entry.placements[0]
    if first.penalty > 0:
        return first.penalty, f"{first.penalty:.0%} more time an insert than bigint"
    if first.wal_ratio is not None and first.wal_ratio > 1:
        return first.wal_ratio - 1, f"{first.wal_ratio:.2f}\u00d7 bigint's WAL an insert"
    return None


def _urgency(entry: Entry) -> float:
    return max([entry.range_used or 0.0, *(float(c["urgency"]) for c in entry.checks)])


def order_key(entry: Entry) -> tuple[float, ...]:
    """ENTRY's place: status, then the figures of its status, the most urgent first."""
    done = activity(entry)
    status = float(STATUSES.index(entry.status))
    basis = float(BASES.index(done.basis))
    if entry.status == "flagged":
        days = entry.days_left if entry.days_left is not None else math.inf
        return (status, days, -_urgency(entry), basis, -done.value, -(entry.index_bytes or 0))
    extra = extra_per_insert(entry)
    weight = extra[0] if extra is not None else 1.0
    # Where the inserts tie (none counted, as on a standby), the larger key index first.
    return (status, basis, -done.value * weight, -(entry.index_bytes or 0), -_urgency(entry))


def ranked(entries: Sequence[Entry]) -> list[Entry]:
    """ENTRIES in the order a DBA acts on them, each told what it was ranked by (`rank_by`)."""
    for entry in entries:
        entry.rank_by = rank_words(entry)
        entry.rank_basis = activity(entry).basis
    return sorted(entries, key=lambda e: (order_key(e), e.table))


def rank_words(entry: Entry) -> str:
    """What ENTRY was ranked by, in words: `2,310,554 rows inserted x 2.0 more time an insert than bigint`."""
    if entry.status == "flagged":
        said = (
            [f"{entry.days_left:,.0f} days left at the current rate"] if entry.days_left is not None else []
        )
        if entry.range_used is not None:
            said.append(f"{entry.range_used:.0%} of its range used")
        return ", ".join(said) or "its most urgent finding"
    words = activity(entry).words
    extra = extra_per_insert(entry)
    return f"{words} \u00d7 {extra[1]}" if extra is not None else words
