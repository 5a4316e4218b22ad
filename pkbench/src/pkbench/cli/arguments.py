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


# PostgreSQL's own "min" (checkpoint_timeout = 15min) besides the short forms: the longest suffix first.
DURATION_UNITS = {"min": 60, "s": 1, "m": 60, "h": 3600}


def duration(text: str | None, option: str) -> float | None:
    """'90s', '20m', '15min', '1.5h' or plain seconds."""
    if text is None:
        return None
    number, unit = text.strip(), "s"
    suffix = next((u for u in DURATION_UNITS if number.endswith(u)), None)
    if suffix is not None:
        number, unit = number.removesuffix(suffix), suffix
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


def once_each(argv: list[str], command: click.Command) -> list[str]:
    """ARGV (`pkbench NAME ...`) with each of COMMAND's single-valued options given once, at its last
    occurrence: click lets the later value win, so the earlier ones only mislead whoever reads the command
    back (a script's defaults followed by the caller's own values, as bench/many-cores/run passes them)."""
    head, words = argv[:2], argv[2:]
    takes_value: dict[str, bool] = {}
    name_of: dict[str, str] = {}
    repeatable: set[str] = set()
    for param in command.params:
        if not isinstance(param, click.Option):
            continue
        for option in (*param.opts, *param.secondary_opts):
            name_of[option] = str(param.name)
            takes_value[option] = not param.is_flag and param.nargs != 0
        if param.multiple or param.count:
            repeatable.add(str(param.name))
    spans: list[tuple[str | None, list[str]]] = []
    index = 0
    while index < len(words):
        word = words[index]
        if word == "--":
            spans.append((None, words[index:]))
            break
        option, sign, _ = word.partition("=")
        if option in name_of:
            width = 2 if takes_value[option] and not sign else 1
            spans.append((name_of[option], words[index : index + width]))
            index += width
        else:
            spans.append((None, [word]))
            index += 1
    last = {name: position for position, (name, _) in enumerate(spans) if name is not None}
    return head + [
        word
        for position, (name, span) in enumerate(spans)
        if name is None or name in repeatable or last[name] == position
        for word in span
    ]
