"""The catalog of primary key strategies: the built-in ones (builtin.py) and the user's (user_config.py),
looked up by name."""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from pkbench.errors import PkbenchError
from pkbench.strategies.builtin import BUILTIN
from pkbench.strategies.model import Strategy


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
