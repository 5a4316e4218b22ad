"""PostgreSQL's calendar arithmetic (``timestamptz + interval`` in a time zone) on integer microseconds.

Integers rather than datetimes because the v7 range runs to the year 10889, past datetime's 9999; the time
zone rules come from zoneinfo (the system's tz database, as PostgreSQL's on Debian).
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import NamedTuple
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

US_PER_DAY = 86_400_000_000
# the Gregorian calendar repeats every 400 years, and so do a zone's rules past its last listed change
_DAYS_PER_400_YEARS = 146_097
_US_PER_400_YEARS = _DAYS_PER_400_YEARS * US_PER_DAY
_EPOCH = datetime(1970, 1, 1)
# instants datetime holds with a margin of a day for the zone's offset
_FIRST_US = (datetime(1, 1, 2) - _EPOCH) // timedelta(microseconds=1)
_LAST_US = (datetime(9999, 12, 30) - _EPOCH) // timedelta(microseconds=1)


class Interval(NamedTuple):
    """PostgreSQL's interval: months and days on a calendar, then exact microseconds.

    ``Interval(1, 0, 0)`` is ``interval '1 mon'``; a ``timedelta`` is exact time, ``Interval(0, 0, us)``.
    """

    months: int = 0
    days: int = 0
    microseconds: int = 0


def days_from_civil(year: int, month: int, day: int) -> int:
    """Days from 1970-01-01 to a proleptic Gregorian date."""
    year -= month <= 2
    era = year // 400
    year_of_era = year - era * 400
    day_of_year = (153 * (month + (-3 if month > 2 else 9)) + 2) // 5 + day - 1
    day_of_era = year_of_era * 365 + year_of_era // 4 - year_of_era // 100 + day_of_year
    return era * _DAYS_PER_400_YEARS + day_of_era - 719_468


def civil_from_days(days: int) -> tuple[int, int, int]:
    days += 719_468
    era = days // _DAYS_PER_400_YEARS
    day_of_era = days - era * _DAYS_PER_400_YEARS
    year_of_era = (
        day_of_era - day_of_era // 1460 + day_of_era // 36524 - day_of_era // (_DAYS_PER_400_YEARS - 1)
    ) // 365
    day_of_year = day_of_era - (365 * year_of_era + year_of_era // 4 - year_of_era // 100)
    month_index = (5 * day_of_year + 2) // 153
    day = day_of_year - (153 * month_index + 2) // 5 + 1
    month = month_index + (3 if month_index < 10 else -9)
    return year_of_era + era * 400 + (month <= 2), month, day


def _days_in_month(year: int, month: int) -> int:
    following = (year + 1, 1) if month == 12 else (year, month + 1)
    return days_from_civil(*following, 1) - days_from_civil(year, month, 1)


def add_months(local_us: int, months: int) -> int:
    """A wall-clock time moved by whole months, the day clamped to the month's last.

    January 31 plus one month is February 28 (or 29), as in PostgreSQL.
    """
    days, time_of_day = divmod(local_us, US_PER_DAY)
    year, month, day = civil_from_days(days)
    year, month_index = divmod(year * 12 + month - 1 + months, 12)
    month = month_index + 1
    day = min(day, _days_in_month(year, month))
    return days_from_civil(year, month, day) * US_PER_DAY + time_of_day


def zone_of(name: str, argument: str) -> ZoneInfo:
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        raise ValueError(f'argument "{argument}": time zone "{name}" not recognized') from None


def _in_datetime_range(us: int) -> tuple[int, int]:
    """us moved by whole 400-year cycles into what datetime holds, and the move."""
    if _FIRST_US <= us <= _LAST_US:
        return us, 0
    cycles = (
        (us - _FIRST_US) // _US_PER_400_YEARS if us > _LAST_US else -((_FIRST_US - us) // -_US_PER_400_YEARS)
    )
    moved = cycles * _US_PER_400_YEARS
    return us - moved, moved


def local_of(unix_us: int, zone: ZoneInfo) -> int:
    """The zone's wall-clock time of an instant, in microseconds from 1970-01-01 00:00 on that clock."""
    inside, _ = _in_datetime_range(unix_us)
    offset = (_EPOCH.replace(tzinfo=UTC) + timedelta(microseconds=inside)).astimezone(zone).utcoffset()
    assert offset is not None
    return unix_us + offset // timedelta(microseconds=1)


def instant_of(local_us: int, zone: ZoneInfo) -> int:
    """The instant of a wall-clock time, as PostgreSQL resolves one the zone skips or repeats.

    Where the clocks jump ahead, the offset before the jump; where they fall back, the offset after it: in
    both cases the smaller of the two offsets.
    """
    inside, _ = _in_datetime_range(local_us)
    wall = _EPOCH + timedelta(microseconds=inside)
    offsets = [wall.replace(tzinfo=zone, fold=fold).utcoffset() for fold in (0, 1)]
    offset = min(o for o in offsets if o is not None)
    return local_us - offset // timedelta(microseconds=1)


def add_interval(unix_us: int, interval: Interval, zone: ZoneInfo) -> int:
    """``timestamptz + interval`` in ``zone``: months, then days, on its calendar, then the time."""
    if interval.months:
        unix_us = instant_of(add_months(local_of(unix_us, zone), interval.months), zone)
    if interval.days:
        unix_us = instant_of(local_of(unix_us, zone) + interval.days * US_PER_DAY, zone)
    return unix_us + interval.microseconds


def add_interval_local(local_us: int, interval: Interval) -> int:
    """``timestamp + interval``: the same on a wall clock without a zone."""
    return add_months(local_us, interval.months) + interval.days * US_PER_DAY + interval.microseconds
