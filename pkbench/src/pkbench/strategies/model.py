"""What a primary key strategy is: a column type and the generators that can fill its default."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Generator:
    """One way to produce a key on the server, with what it needs there."""

    expression: str
    extensions: tuple[str, ...] = ()
    functions: tuple[str, ...] = ()
    min_server_version: int = 0
    prelude: tuple[str, ...] = ()
    # Which clock the keys carry: "virtual" (sequuid's generators, which follow sequuid.clock_rate), "real"
    # (generators that read the system clock only, so --clock-rate does not move them) or "none" (no time).
    clock: str = "none"

    @property
    def column_clause(self) -> str:
        """What follows the key column's type in CREATE TABLE (the expression in parentheses, as it was
        checked by check_expression)."""
        if self.expression.upper().startswith("GENERATED "):
            return self.expression
        return f"DEFAULT ({self.expression})"


@dataclass(frozen=True)
class Strategy:
    """A primary key strategy; the first generator whose needs the server meets is used."""

    name: str
    description: str
    column_type: str
    generators: tuple[Generator, ...]
    builtin: bool = True
    # How its keys arrive in the index: "ascending" (each new key above the last: a sequence, v7, ULID),
    # "wrapping" (a prefix that comes round again: sequential UUIDs, v1's low time bits first), "random",
    # "mixed" (random, then ascending), or "" when not said (a user's strategy).
    order: str = ""
