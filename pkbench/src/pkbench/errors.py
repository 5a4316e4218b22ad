"""The one exception type the command line turns into a single line on stderr, and the one way to shorten
any error to its first line."""

from __future__ import annotations

import psycopg


class PkbenchError(Exception):
    """A problem the user can act on; its message is one line without a traceback."""


class ServerDied(PkbenchError):
    """The server under test stopped during the run: nothing further can be measured."""


def first_line(error: BaseException | str) -> str:
    """The server's primary message, else the first line of the error's text (or of a program's output),
    else the error type's name."""
    if isinstance(error, psycopg.Error) and error.diag.message_primary:
        return error.diag.message_primary.strip().splitlines()[0]
    text = error if isinstance(error, str) else str(error)
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    if lines:
        return lines[0]
    return "" if isinstance(error, str) else type(error).__name__
