"""Reading keys: their time, version and variant, v1 <-> v6, the key ranges of a time range, and text."""

from __future__ import annotations

import base64
from datetime import UTC, datetime, timedelta
from typing import NamedTuple
from uuid import UUID
from zoneinfo import ZoneInfo

from sequuid import _calendar as calendar
from sequuid import _layout as layout
from sequuid._args import Instant, check_int, check_stripes, check_uuid, instant_unix_us, interval_of
from sequuid._calendar import Interval

_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
_CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
_CROCKFORD_VALUES = {c: i for i, c in enumerate(_CROCKFORD)} | {"I": 1, "L": 1, "O": 0}
_ULID_LENGTH = 26
_BASE32HEX_LENGTH = 26
_BASE32HEX_DIGITS = "0123456789ABCDEFGHIJKLMNOPQRSTUV"
_CANONICAL_VALUES = {c: i for i, c in enumerate(_BASE32HEX_DIGITS)}


def datetime_of_unix_us(unix_us: int) -> datetime:
    """An aware UTC datetime; ValueError past year 9999, which a datetime cannot hold."""
    try:
        return _EPOCH + timedelta(microseconds=unix_us)
    except OverflowError:
        raise ValueError(
            f"the time {unix_us} us after 1970 is past year 9999, the last a datetime holds: "
            "read it with timestamp_us()"
        ) from None


def timestamp_us(id: UUID) -> int | None:
    """``uuid_timestamp(id)`` in Unix microseconds: v1 and v6 to the microsecond, v7 with its fraction.

    None for every other version and for variants other than RFC 9562's.
    """
    value = check_uuid("id", id)
    match layout.rfc_version_of(value):
        case 1:
            return layout.unix_us_from_gregorian_100ns(layout.v1_time_of(value))
        case 6:
            return layout.unix_us_from_gregorian_100ns(layout.v6_time_of(value))
        case 7:
            return layout.v7_unix_us_of(value)
        case _:
            return None


def timestamp(id: UUID) -> datetime | None:
    """``uuid_timestamp(id)`` as an aware UTC datetime (see timestamp_us)."""
    unix_us = timestamp_us(id)
    return None if unix_us is None else datetime_of_unix_us(unix_us)


def ulid_timestamp_us(id: UUID) -> int:
    """``ulid_timestamp(id)`` in Unix microseconds: the millisecond in the first 48 bits of any 16 bytes."""
    return layout.unix_ms_of(check_uuid("id", id)) * layout.US_PER_MS


def ulid_timestamp(id: UUID) -> datetime:
    """``ulid_timestamp(id)`` as an aware UTC datetime (see ulid_timestamp_us)."""
    return datetime_of_unix_us(ulid_timestamp_us(id))


def version(id: UUID) -> int | None:
    """``uuid_version(id)``: the version of an RFC 9562 UUID, None for other variants."""
    return layout.rfc_version_of(check_uuid("id", id))


def variant(id: UUID) -> int:
    """``uuid_variant(id)``: 0 (NCS), 2 (RFC 9562), 6 (Microsoft) or 7 (reserved)."""
    return layout.variant_field_of(check_uuid("id", id))


def _require_version(value: int, expected: int, function: str) -> None:
    found = layout.rfc_version_of(value)
    if found == expected:
        return
    if found is None:
        raise ValueError(
            f'argument "id" of {function} must be a version {expected} UUID, '
            f"found variant {layout.variant_field_of(value)} (only RFC 9562 UUIDs have a version)"
        )
    raise ValueError(f'argument "id" of {function} must be a version {expected} UUID, found version {found}')


def v1_to_v6(id: UUID) -> UUID:
    """``uuid_v1_to_v6(id)``: only the 60 time bits move; clock_seq, node and variant stay."""
    value = check_uuid("id", id)
    _require_version(value, 1, "v1_to_v6")
    time_bits = layout.v6_time(layout.v1_time_of(value))
    return UUID(int=layout.with_version((value & ~_TIME_FIELDS) | time_bits, 6))


def v6_to_v1(id: UUID) -> UUID:
    """``uuid_v6_to_v1(id)``: the inverse of v1_to_v6."""
    value = check_uuid("id", id)
    _require_version(value, 6, "v6_to_v1")
    time_bits = layout.v1_time(layout.v6_time_of(value))
    return UUID(int=layout.with_version((value & ~_TIME_FIELDS) | time_bits, 1))


# octets 0-7: the time fields and the version nibble of v1 and v6
_TIME_FIELDS = ((1 << 64) - 1) << 64


def _time_range(kind: object) -> layout.TimeRange:
    if not isinstance(kind, str):
        raise TypeError(f'argument "kind" must be a str, not {type(kind).__name__}')
    found = layout.TIME_RANGES.get(kind.lower())
    if found is None:
        raise ValueError(
            f'argument "kind" must name a time-ordered key layout, not "{kind}": '
            "pass 'v7', 'ulid' or 'v6'; v1 keys are not in time order, their v6 form is"
        )
    return found


def v7_boundary(instant: Instant) -> UUID:
    """``uuid_v7_boundary(instant)``: the smallest v7 made at or after the instant.

    The instant's millisecond, the floor of its fraction, every random bit zero.
    """
    return UUID(
        int=layout.v7_lower_bound(instant_unix_us(instant, "instant", layout.V7_RANGE, "v7_boundary"))
    )


def lower_bound(kind: str, instant: Instant) -> UUID:
    """The smallest key of a layout ('v7', 'ulid' or 'v6') made at or after the instant."""
    time_range = _time_range(kind)
    return UUID(int=time_range.lower_bound(instant_unix_us(instant, "instant", time_range, "lower_bound")))


def time_range(kind: str, from_time: Instant, to_time: Instant) -> tuple[UUID, UUID]:
    """The keys ``[lower, upper)`` of a layout made in ``[from_time, to_time)``.

    For ``WHERE id >= lower AND id < upper``.
    """
    layout_range = _time_range(kind)
    from_us = instant_unix_us(from_time, "from_time", layout_range, "time_range")
    to_us = instant_unix_us(to_time, "to_time", layout_range, "time_range")
    if from_us > to_us:
        raise ValueError('argument "from_time" of time_range must not be later than argument "to_time"')
    return UUID(int=layout_range.lower_bound(from_us)), UUID(int=layout_range.lower_bound(to_us))


class StripeRange(NamedTuple):
    stripe: int
    lower: UUID
    upper: UUID


def _striped_bound(stripe: int, stripe_bits: int, unix_us: int) -> UUID:
    unix_ms, sub_ms_us = divmod(unix_us, layout.US_PER_MS)
    fraction = layout.fraction_from_ns(sub_ms_us * layout.NS_PER_US)
    return UUID(int=layout.with_version(layout.striped(stripe, stripe_bits, unix_ms, fraction, 0), 8))


def striped_ranges(stripes: int, from_time: Instant, to_time: Instant) -> list[StripeRange]:
    """``uuid_striped_ranges(stripes, from_time, to_time)``: per stripe, its keys made in the time range."""
    stripe_bits = check_stripes(stripes)
    from_us = instant_unix_us(from_time, "from_time", layout.V7_RANGE, "striped_ranges")
    to_us = instant_unix_us(to_time, "to_time", layout.V7_RANGE, "striped_ranges")
    if from_us > to_us:
        raise ValueError('argument "from_time" of striped_ranges must not be later than argument "to_time"')
    return [
        StripeRange(
            stripe, _striped_bound(stripe, stripe_bits, from_us), _striped_bound(stripe, stripe_bits, to_us)
        )
        for stripe in range(stripes)
    ]


class Partition(NamedTuple):
    range_start: int
    """Unix microseconds"""
    range_end: int
    lower: UUID
    upper: UUID


_MAX_PARTITIONS = 100_000


def time_partitions(
    kind: str, start: Instant, step: timedelta | Interval, count: int, time_zone: str | None = None
) -> list[Partition]:
    """``uuid_time_partitions(kind, start, step, count [, time_zone])``: consecutive ranges and their keys.

    Each range ``[range_start, range_end)`` (Unix microseconds) has the keys ``[lower, upper)``; the ranges
    tile the keys without gaps.  Without ``time_zone`` the step is a fixed length of time (a timedelta, or an
    Interval of microseconds only); with it, an Interval's months and days are that zone's calendar months
    and days, range i starting at ``start + i * step`` on its clock.
    """
    layout_range = _time_range(kind)
    check_int("count", count, 1, _MAX_PARTITIONS)
    interval = interval_of(step, "step")
    if time_zone is None:
        if interval.months or interval.days:
            raise ValueError(
                'argument "step" must be a fixed length of time, without days or months: how long a day or '
                'a month lasts depends on the time zone; name it as argument "time_zone"'
            )
        if interval.microseconds <= 0:
            raise ValueError('argument "step" must be positive')
    elif min(interval) < 0 or interval == Interval(0, 0, 0):
        raise ValueError('argument "step" must be positive, with no negative part')
    start_us = instant_unix_us(start, "start", layout_range, "time_partitions")
    if time_zone is None:
        bounds = [start_us + i * interval.microseconds for i in range(count + 1)]
    else:
        if not isinstance(time_zone, str):
            raise TypeError(f'argument "time_zone" must be a str, not {type(time_zone).__name__}')
        zone = calendar.zone_of(time_zone, "time_zone")
        bounds = _zoned_bounds(start_us, interval, count, zone, layout_range)
    if bounds[-1] > layout_range.last_us:
        raise ValueError(
            'arguments "step" and "count" of time_partitions take the last range past the '
            f"{layout_range.name} range: {layout_range.name} holds instants from {layout_range.text}"
        )
    for index in range(count):
        if bounds[index + 1] <= bounds[index]:
            raise ValueError(
                f'argument "step" of time_partitions makes an empty range in time zone "{time_zone}": '
                f"range {index + 1} starts and ends at the same instant, where the zone's clocks jump"
            )
    keys = [UUID(int=layout_range.lower_bound(bound)) for bound in bounds]
    return [Partition(bounds[i], bounds[i + 1], keys[i], keys[i + 1]) for i in range(count)]


def _zoned_bounds(
    start_us: int, step: Interval, count: int, zone: ZoneInfo, layout_range: layout.TimeRange
) -> list[int]:
    # a month lasts at least 28 days and a zone moves a day by hours: what surely lies past the range is
    # refused before the arithmetic, which would leave the years any calendar here holds
    lowest_end = start_us + ((step.months * 28 + step.days) * count - 2) * calendar.US_PER_DAY
    if lowest_end + step.microseconds * count > layout_range.last_us:
        return [layout_range.last_us + 1]
    local_start = calendar.local_of(start_us, zone)
    return [
        calendar.instant_of(
            calendar.add_interval_local(
                local_start, Interval(step.months * i, step.days * i, step.microseconds * i)
            ),
            zone,
        )
        for i in range(count + 1)
    ]


def uuid_to_ulid(id: UUID) -> str:
    """``uuid_to_ulid(id)``: the 128 bits as 26 Crockford base32 digits, upper case.

    Text order is uuid order.
    """
    value = check_uuid("id", id)
    digits = []
    for _ in range(_ULID_LENGTH):
        digits.append(_CROCKFORD[value & 31])
        value >>= 5
    return "".join(reversed(digits))


def ulid_to_uuid(text: str) -> UUID:
    """``ulid_to_uuid(text)``: any case; I and L read as 1, O as 0 (Crockford's aliases); U is invalid."""
    if not isinstance(text, str):
        raise TypeError(f'argument "text" must be a str, not {type(text).__name__}')
    if len(text) != _ULID_LENGTH:
        raise ValueError(f'invalid input syntax for a ULID: "{text}": a ULID is exactly 26 characters long')
    value = 0
    for position, char in enumerate(text.upper() if text.isascii() else text):
        digit = _CROCKFORD_VALUES.get(char)
        if digit is None:
            raise ValueError(
                f'invalid input syntax for a ULID: "{text}": a ULID consists of Crockford base32 characters '
                "(0-9 and A-Z except U)"
            )
        if position == 0 and digit > 7:
            raise ValueError(
                f'invalid input syntax for a ULID: "{text}": the largest ULID is 7ZZZZZZZZZZZZZZZZZZZZZZZZZ'
            )
        value = (value << 5) | digit
    return UUID(int=value)


def uuid_to_base32hex(id: UUID) -> str:
    """The 16 bytes in RFC 4648 section 7's base32hex (0-9, A-V), 26 characters, no padding.

    PostgreSQL 19's ``rtrim(encode(id::bytea, 'base32hex'), '=')``; byte-wise (C collation) text order is
    uuid order.
    """
    return base64.b32hexencode(check_uuid("id", id).to_bytes(16, "big")).decode("ascii").rstrip("=")


def uuid_from_base32hex(text: str) -> UUID:
    """The uuid of its canonical base32hex text, the one ``uuid_to_base32hex`` writes (the extension's 1.6).

    Exactly 26 digits 0-9 and A-V, upper case, without padding or whitespace, the last digit's two bits past
    the 128th zero: one uuid has one spelling.  Anything else is a ValueError that quotes at most the text's
    first few characters, however long it is.
    """
    if not isinstance(text, str):
        raise TypeError(f'argument "text" must be a str, not {type(text).__name__}')
    if len(text) != _BASE32HEX_LENGTH:
        raise ValueError(
            f"invalid base32hex text of a uuid: {_quoted(text)}: {len(text):,} characters, not 26"
        )
    value = 0
    for char in text:
        digit = _CANONICAL_VALUES.get(char)
        if digit is None:
            raise ValueError(
                f"invalid base32hex text of a uuid: {_quoted(text)}: the character {char!r}; "
                "its canonical digits are 0-9 and A-V, upper case, without padding or whitespace"
            )
        value = (value << 5) | digit
    if value & 0b11:
        raise ValueError(
            f"invalid base32hex text of a uuid: {_quoted(text)}: its last digit's two bits past the 128th "
            "are not zero"
        )
    return UUID(int=value >> 2)


_QUOTED_CHARACTERS = 40


def _quoted(text: str) -> str:
    """The text in quotes, cut to its first characters when longer: an error message stays one short line."""
    if len(text) <= _QUOTED_CHARACTERS:
        return f'"{text}"'
    return f'"{text[:_QUOTED_CHARACTERS]}..." ({len(text):,} characters)'
