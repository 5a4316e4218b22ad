"""The one exception type the command line turns into a single line on stderr, and the one way to shorten
any error to its first line."""

from __future__ import annotations

import psycopg


class PkbenchError(Exception):
    """A problem the user can act on; its message is one line without a traceback."""


class ServerDied(PkbenchError):
    """The server under test stopped during the run: nothing further can be measured."""


def first_line(error: BaseException) -> str:
    """The server's primary message, else the first line of the error's text, else its type's name."""
    if isinstance(error, psycopg.Error) and error.diag.message_primary:
        return error.diag.message_primary.strip().splitlines()[0]
    text = str(error).strip()
    return text.splitlines()[0] if text else type(error).__name__
