"""Command-line values read into what the library takes: percentages, durations, sizes, and the command line
as results.json records it."""

from __future__ import annotations

import sys

import click

from pkbench.errors import PkbenchError
from pkbench.server import memcap


def positive(ctx: click.Context, param: click.Parameter, value: int | None) -> int | None:
    """A click callback: a count that must be at least 1."""
    if value is not None and value < 1:
        raise PkbenchError(f"--{param.name}: must be at least 1 (got {value})")
    return value


def percentage(text: str | None, option: str) -> float | None:
    """'3%' or '3' as the fraction 0.03."""
    if text is None:
        return None
    try:
        return float(text.strip().removesuffix("%")) / 100
    except ValueError as e:
        raise PkbenchError(f"{option} {text[:20]!r}: expected a percentage such as 3%") from e


DURATION_UNITS = {"s": 1, "m": 60, "h": 3600}


def duration(text: str | None, option: str) -> float | None:
    """'90s', '20m', '1.5h' or plain seconds."""
    if text is None:
        return None
    number, unit = text.strip(), "s"
    if number[-1:] in DURATION_UNITS:
        number, unit = number[:-1], number[-1]
    try:
        seconds = float(number) * DURATION_UNITS[unit]
    except ValueError as e:
        raise PkbenchError(f"{option} {text[:20]!r}: expected a duration such as 90s, 20m or 1h") from e
    if not seconds > 0 or seconds == float("inf"):
        raise PkbenchError(f"{option} {text[:20]!r}: must be a positive duration")
    return seconds


def memory_limit(text: str | None) -> int | None:
    if text is None:
        return None
    try:
        return memcap.parse_size(text)
    except (OverflowError, ValueError) as e:
        raise PkbenchError(
            f"--memory-limit {text[:20]}{'...' if len(text) > 20 else ''}: too large a size"
        ) from e


# Options whose value is a DSN, which may carry a password.
DSN_OPTIONS = ("--dsn", "--standby-dsn", "--shard-dsn")


def redacted_argv() -> list[str]:
    """The command line for results.json, with the DSNs' passwords removed."""
    return redacted(["pkbench", *sys.argv[1:]])


def redacted(argv: list[str]) -> list[str]:
    """ARGV with every DSN replaced by <redacted> (a DSN may hold a password)."""
    redacted = []
    hide_next = False
    for arg in argv:
        if hide_next:
            redacted.append("<redacted>")
            hide_next = False
        elif arg in DSN_OPTIONS:
            redacted.append(arg)
            hide_next = True
        elif arg.startswith(tuple(f"{option}=" for option in DSN_OPTIONS)):
            redacted.append(f"{arg.partition('=')[0]}=<redacted>")
        else:
            redacted.append(arg)
    return redacted
