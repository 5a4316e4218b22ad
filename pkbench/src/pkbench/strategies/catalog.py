"""The catalog of primary key strategies: the built-in ones (builtin_strategies.py) and the user's
(strategy_config.py), looked up by name, and the check that a user's default is one expression of its type.

The model (Generator, Strategy), BUILTIN, load_config and parse_definition are importable from here too.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

import psycopg

from pkbench.errors import PkbenchError
from pkbench.strategies.builtin import BUILTIN as BUILTIN
from pkbench.strategies.model import Generator as Generator
from pkbench.strategies.model import Strategy as Strategy
from pkbench.strategies.user_config import load_config as load_config
from pkbench.strategies.user_config import parse_definition as parse_definition


def check_expression(conn: psycopg.Connection[Any], expression: str, column_type: str) -> str | None:
    """Why `expression` is not one expression of `column_type` on this server, or None when it is.

    The server parses it inside `SELECT (expression)::type` as an unnamed prepared statement (the extended
    protocol takes exactly one statement) and describes it without running it: it must give one column of
    the declared type. Anything else (a second statement, a second column, a syntax error) is refused.
    """
    try:
        row = conn.execute("SELECT to_regtype(%s)::oid", (column_type,)).fetchone()
    except psycopg.Error as e:
        return f"type {column_type!r} is not a type name: {e.diag.message_primary or e}"
    if row is None or row[0] is None:
        return f"type {column_type!r} does not exist"
    expected = int(row[0])
    statement = f"SELECT ({expression})::{column_type}".encode()
    pgconn = conn.pgconn
    parsed = pgconn.prepare(b"", statement)
    if parsed.status != psycopg.pq.ExecStatus.COMMAND_OK:
        message = (parsed.error_field(psycopg.pq.DiagnosticField.MESSAGE_PRIMARY) or b"").decode()
        return f"default {expression!r} is not a single expression of type {column_type}: {message}"
    described = pgconn.describe_prepared(b"")
    if described.nfields != 1 or described.ftype(0) != expected:
        return f"default {expression!r} is not a single expression of type {column_type}"
    return None


class Catalog:
    """The built-in strategies plus the user's, looked up by name."""

    def __init__(self, extra: Iterable[Strategy] = ()) -> None:
        self._by_name: dict[str, Strategy] = {s.name: s for s in BUILTIN}
        for strategy in extra:
            if strategy.name in self._by_name and self._by_name[strategy.name].builtin:
                raise PkbenchError(f"strategy {strategy.name!r} is built in; give yours another name")
            self._by_name[strategy.name] = strategy

    def __iter__(self) -> Iterator[Strategy]:
        return iter(self._by_name.values())

    def get(self, name: str) -> Strategy:
        try:
            return self._by_name[name]
        except KeyError:
            known = ", ".join(self._by_name)
            raise PkbenchError(f"unknown strategy {name!r} (known: {known})") from None

    def select(self, names: Iterable[str]) -> list[Strategy]:
        chosen = [self.get(n) for n in names]
        if not chosen:
            raise PkbenchError("no strategies selected")
        if len({s.name for s in chosen}) != len(chosen):
            raise PkbenchError("a strategy is listed twice")
        return chosen
