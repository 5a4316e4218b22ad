"""What the harness checks of one implementation's ids, as pure functions of what its program printed.

A program prints ``version V``, ``toolchain T``, ``start US``, one ``id THREAD HEX`` per id in the order each
thread made them, and ``end US`` (the wall clock in Unix microseconds just before the first id and just after
the last), or one line ``unavailable REASON``.

How the time is read: as PostgreSQL 18's ``uuid_extract_timestamp()`` reads a v7, the 48-bit Unix
millisecond; for an implementation that declares PostgreSQL 18's layout (the 12-bit fraction of the
millisecond after it), the fraction too, to the microsecond as sequuid's ``uuid_timestamp()`` reads it.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from typing import Any

# RFC 9562: a UUIDv7 whose milliseconds are not shared by more ids than this needs no ordering beyond the
# 12-bit field after them; past it, order comes only from what an implementation does about it.
IDS_PER_MS_OF_12_BITS = 4096
# how far the embedded time may run ahead of the wall clock at the end of a burst: one millisecond, the unit
# of the 48-bit field
AHEAD_TOLERANCE_US = 1000


@dataclass
class Burst:
    """One run of a program: ids per thread, in the order each thread made them."""

    start_us: int
    end_us: int
    ids: list[list[int]]
    version: str | None = None
    toolchain: str | None = None


@dataclass
class Unavailable:
    reason: str


def parse_output(text: str) -> Burst | Unavailable:
    start_us = end_us = None
    version = toolchain = None
    threads: dict[int, list[int]] = {}
    for line in text.splitlines():
        kind, _, rest = line.partition(" ")
        if kind == "id":
            thread, _, hex_id = rest.partition(" ")
            threads.setdefault(int(thread), []).append(int(hex_id.replace("-", ""), 16))
        elif kind == "start":
            start_us = int(rest)
        elif kind == "end":
            end_us = int(rest)
        elif kind == "version":
            version = rest
        elif kind == "toolchain":
            toolchain = rest
        elif kind == "unavailable":
            return Unavailable(rest)
        elif line.strip():
            raise ValueError(f"unexpected line in a program's output: {line[:200]!r}")
    if start_us is None or end_us is None:
        raise ValueError("a program's output lacks its start or end line")
    ordered = [threads[index] for index in sorted(threads)]
    return Burst(start_us, end_us, ordered, version, toolchain)


def embedded_us(value: int, reads_fraction: bool) -> int:
    """The time of a v7 in Unix microseconds, as described in the module's docstring."""
    unix_ms = value >> 80
    if not reads_fraction:
        return unix_ms * 1000
    fraction = (value >> 64) & 0xFFF
    # the last microsecond starting inside the fraction's 244-ns range (sequuid's uuid_timestamp())
    last_ns = ((fraction + 1) * 1_000_000 + 4095) // 4096 - 1
    return unix_ms * 1000 + last_ns // 1000


@dataclass
class Check:
    passed: bool | None
    """None: the check could not be made (its detail says why)"""
    detail: str
    figures: dict[str, Any] = field(default_factory=dict)

    def as_json(self) -> dict[str, Any]:
        return {"passed": self.passed, "detail": self.detail, **self.figures}


def check_version_variant(*bursts: Burst) -> Check:
    """Every id of every burst given (the one-thread burst and the threads') has version 7 and variant 10."""
    all_ids = [value for burst in bursts for ids in burst.ids for value in ids]
    wrong_version = sum(1 for value in all_ids if (value >> 76) & 0xF != 7)
    wrong_variant = sum(1 for value in all_ids if (value >> 62) & 0x3 != 0b10)
    passed = wrong_version == 0 and wrong_variant == 0
    detail = (
        f"all {len(all_ids):,} ids version 7, variant 10"
        if passed
        else f"{wrong_version:,} ids not version 7, {wrong_variant:,} not variant 10 of {len(all_ids):,}"
    )
    figures = {"ids": len(all_ids), "wrong_version": wrong_version, "wrong_variant": wrong_variant}
    return Check(passed, detail, figures)


def check_timestamp(burst: Burst, reads_fraction: bool) -> Check:
    """The first id's time lies between the wall clock before the burst (floored to the unit) and after it."""
    first = embedded_us(burst.ids[0][0], reads_fraction)
    unit_us = 1 if reads_fraction else 1000
    earliest = burst.start_us - burst.start_us % unit_us
    too_early = sum(1 for ids in burst.ids for value in ids if embedded_us(value, reads_fraction) < earliest)
    passed = earliest <= first <= burst.end_us and too_early == 0
    offset = first - burst.start_us
    detail = f"first id {offset:+,} us from the clock at the start"
    if too_early:
        detail += f"; {too_early:,} ids before the start"
    elif not passed:
        detail += f", after the clock at the end ({burst.end_us - burst.start_us:,} us later)"
    return Check(passed, detail, {"first_offset_us": offset, "before_start": too_early})


def _inversions(ids: list[int]) -> tuple[int, int]:
    """Pairs of consecutive ids not strictly increasing: (below the one before, equal to it)."""
    below = equal = 0
    for previous, current in itertools.pairwise(ids):
        if current < previous:
            below += 1
        elif current == previous:
            equal += 1
    return below, equal


def check_order(burst: Burst) -> Check:
    ids = burst.ids[0]
    below, equal = _inversions(ids)
    passed = below == 0 and equal == 0
    detail = (
        f"{len(ids):,} ids strictly increasing"
        if passed
        else f"{below:,} below and {equal:,} equal to the one before, of {len(ids):,}"
    )
    return Check(passed, detail, {"ids": len(ids), "below_previous": below, "equal_previous": equal})


def check_past_4096_per_ms(burst: Burst, order: Check) -> Check:
    """Whether the burst made more than 4,096 ids in some millisecond of the wall clock, and stayed ordered.

    Its average rate tells: above 4,096 ids per millisecond, some millisecond held more (the burst's ids are
    made one after the other between start and end).  Then strict order over the burst holds there too or
    not.  Below that rate the check cannot be made on this machine.
    """
    ids = burst.ids[0]
    elapsed_ms = max(burst.end_us - burst.start_us, 1) / 1000
    rate = len(ids) / elapsed_ms
    per_embedded_ms: dict[int, int] = {}
    for value in ids:
        per_embedded_ms[value >> 80] = per_embedded_ms.get(value >> 80, 0) + 1
    most = max(per_embedded_ms.values())
    figures = {"ids_per_ms": round(rate, 1), "most_ids_in_one_embedded_ms": most}
    if rate <= IDS_PER_MS_OF_12_BITS and most <= IDS_PER_MS_OF_12_BITS:
        return Check(None, f"not reached: {rate:,.0f} ids per ms on this machine", figures)
    verdict = "ordered" if order.passed else "not ordered"
    return Check(
        order.passed, f"{verdict} at {rate:,.0f} ids per ms (at most {most:,} in one embedded ms)", figures
    )


def check_threads(burst: Burst) -> Check:
    """Each thread's ids strictly increasing, and no id made twice by any of the threads.

    Order across threads is not checked: ids made at the same moment by two threads have no order to keep,
    and no clock outside the generator says which was made first.
    """
    below = equal = 0
    for ids in burst.ids:
        thread_below, thread_equal = _inversions(ids)
        below += thread_below
        equal += thread_equal
    all_ids = [value for ids in burst.ids for value in ids]
    duplicates = len(all_ids) - len(set(all_ids))
    passed = below == 0 and equal == 0 and duplicates == 0
    per_thread = len(burst.ids[0]) if burst.ids else 0
    detail = f"{len(burst.ids)} threads x {per_thread:,}: "
    detail += (
        "each ordered, none repeated"
        if passed
        else f"{below:,} below the one before in their thread, {equal:,} equal, {duplicates:,} repeated"
    )
    figures = {
        "threads": len(burst.ids),
        "below_previous": below,
        "equal_previous": equal,
        "duplicates": duplicates,
    }
    return Check(passed, detail, figures)


def check_ahead(burst: Burst, reads_fraction: bool) -> Check:
    """How far the last id's time lies past the wall clock at the end of the burst."""
    last = max(embedded_us(value, reads_fraction) for value in burst.ids[0])
    ahead = last - burst.end_us
    passed = ahead <= AHEAD_TOLERANCE_US
    detail = f"{ahead:+,} us" if abs(ahead) < 10_000_000 else f"{ahead / 1e6:+,.1f} s"
    return Check(passed, detail, {"ahead_us": ahead})


def check_burst(burst: Burst, reads_fraction: bool, threaded: Burst | None = None) -> dict[str, Check]:
    """The one-thread burst's checks; version and variant over the threads' burst too, when given."""
    order = check_order(burst)
    return {
        "version_variant": check_version_variant(burst, *([threaded] if threaded is not None else [])),
        "timestamp": check_timestamp(burst, reads_fraction),
        "order": order,
        "past_4096_per_ms": check_past_4096_per_ms(burst, order),
        "ahead": check_ahead(burst, reads_fraction),
    }
