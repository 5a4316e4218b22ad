"""Checks of the arguments every public function shares; each error names the argument."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from uuid import UUID

from sequuid import _layout as layout
from sequuid._calendar import Interval

Instant = datetime | int
"""An aware datetime or an int of Unix microseconds (a datetime ends in year 9999; the v7 range in 10889).

A naive datetime is refused (ValueError naming the argument): Python reads one as local time
(``datetime.timestamp()``), PostgreSQL's ``timestamp`` arguments as UTC, and a key made from either guess
would be hours off on a machine whose zone is not the one meant."""

_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


def check_int(name: str, value: object, low: int, high: int | None, words: str | None = None) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise TypeError(f'argument "{name}" must be an int, not {type(value).__name__}')
    if value < low or (high is not None and value > high):
        limits = f"at least {low}" if high is None else f"between {low} and {high}"
        reason = f" ({words})" if words else ""
        raise ValueError(f'argument "{name}" must be {limits}, not {value}{reason}')
    return value


def check_uuid(name: str, value: object) -> int:
    if not isinstance(value, UUID):
        raise TypeError(f'argument "{name}" must be a uuid.UUID, not {type(value).__name__}')
    return value.int


def check_stripes(stripes: object) -> int:
    """The width of the stripe field."""
    check_int("stripes", stripes, 1, layout.STRIPES_MAX)
    assert isinstance(stripes, int)
    return layout.prefix_bits(stripes)


def unix_us_of(instant: object, name: str) -> int:
    if isinstance(instant, datetime):
        if instant.tzinfo is None or instant.utcoffset() is None:
            raise ValueError(
                f'argument "{name}" is a naive datetime, which could be local time or UTC: give it a tzinfo '
                "(datetime.now(UTC), dt.replace(tzinfo=UTC), or dt.astimezone() for the machine's local time)"
            )
        delta = instant - _EPOCH
        return (delta.days * 86_400 + delta.seconds) * layout.US_PER_S + delta.microseconds
    if isinstance(instant, int) and not isinstance(instant, bool):
        return instant
    raise TypeError(
        f'argument "{name}" must be a datetime or an int of Unix microseconds, not {type(instant).__name__}'
    )


def instant_unix_us(instant: object, name: str, time_range: layout.TimeRange, function: str = "") -> int:
    unix_us = unix_us_of(instant, name)
    if not time_range.first_us <= unix_us <= time_range.last_us:
        of = f" of {function}" if function else ""
        raise ValueError(
            f'argument "{name}"{of} is out of the {time_range.name} range: '
            f"{time_range.name} holds instants from {time_range.text}"
        )
    return unix_us


def interval_of(value: object, name: str) -> Interval:
    """An Interval as given, or a timedelta as exact time."""
    if isinstance(value, Interval):
        for part in ("months", "days", "microseconds"):
            check_int(f"{name}.{part}", getattr(value, part), -(1 << 63), (1 << 63) - 1)
        return value
    if isinstance(value, timedelta):
        return Interval(0, 0, value // timedelta(microseconds=1))
    raise TypeError(
        f'argument "{name}" must be a sequuid.Interval or a datetime.timedelta, not {type(value).__name__}'
    )
