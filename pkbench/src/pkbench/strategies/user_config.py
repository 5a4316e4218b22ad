"""The user's own strategies: `--strategy-def name=TYPE:EXPR`, and the `[[strategy]]` tables of a --config
file."""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from pkbench.errors import PkbenchError
from pkbench.strategies.model import ORDERS, Generator, Strategy

_NAME = re.compile(r"^[a-z0-9][a-z0-9_.-]*$")


def parse_definition(text: str) -> Strategy:
    """Parse a user strategy `name=TYPE:EXPR` from the command line."""
    name, sep, rest = text.partition("=")
    column_type, sep2, expression = rest.partition(":")
    if not sep or not sep2 or not name.strip() or not column_type.strip() or not expression.strip():
        raise PkbenchError(
            f"--strategy-def {text!r}: expected name=TYPE:EXPRESSION, e.g. 'my-v4=uuid:gen_random_uuid()'"
        )
    return custom(
        name.strip(),
        column_type.strip(),
        expression.strip(),
        f"user-defined: {column_type.strip()} default {expression.strip()}",
        (),
    )


def custom(
    name: str, column_type: str, expression: str, description: str, extensions: Iterable[str], order: str = ""
) -> Strategy:
    if not _NAME.match(name):
        raise PkbenchError(f"strategy name {name!r}: use lower-case letters, digits, '-', '_' or '.'")
    generators = (Generator(expression, extensions=tuple(extensions)),)
    return Strategy(name, description, column_type, generators, builtin=False, order=order)


def load_config(path: Path) -> list[Strategy]:
    """Read the `[[strategy]]` tables of a TOML config file."""
    try:
        data = tomllib.loads(path.read_text())
    except OSError as e:
        raise PkbenchError(f"cannot read config {path}: {e.strerror}") from e
    except tomllib.TOMLDecodeError as e:
        raise PkbenchError(f"config {path}: {e}") from e
    entries = data.get("strategy", [])
    if not isinstance(entries, list):
        raise PkbenchError(f"config {path}: 'strategy' must be an array of tables ([[strategy]])")
    return [_from_table(path, i, entry) for i, entry in enumerate(entries, 1)]


def _from_table(path: Path, index: int, entry: Mapping[str, Any]) -> Strategy:
    where = f"config {path}, strategy #{index}"
    missing = [k for k in ("name", "type", "default") if not isinstance(entry.get(k), str)]
    if missing:
        raise PkbenchError(f"{where}: needs string field(s) {', '.join(missing)}")
    extensions = entry.get("extensions", [])
    if not isinstance(extensions, list) or not all(isinstance(e, str) for e in extensions):
        raise PkbenchError(f"{where}: 'extensions' must be a list of extension names")
    order = entry.get("order", "")
    if order not in ("", *ORDERS):
        raise PkbenchError(f"{where}: 'order' must be one of {', '.join(ORDERS)} (got {order!r})")
    description = entry.get("description") or f"user-defined: {entry['type']} default {entry['default']}"
    return custom(entry["name"], entry["type"], entry["default"], str(description), extensions, order)
