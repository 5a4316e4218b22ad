"""What a run tells its caller while it works: the library reports through this, the command line prints.

`execute` takes any object with these methods; `Silent` is the one for a library caller that wants no
output, and the command line's rich rendering lives in pkbench.cli.console.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from pkbench.results.model import StrategyResult


class Bar(Protocol):
    def update(self, completed: float, detail: str = "") -> None: ...


class Reporter(Protocol):
    def progress(self, description: str, total: float) -> contextlib.AbstractContextManager[Bar]:
        """A progress bar for one step, closed when the step ends."""
        ...

    def info(self, text: str) -> None: ...

    def warning(self, text: str) -> None: ...

    def strategy_started(self, number: int, count: int, name: str, description: str, repeat: str) -> None:
        """`repeat` is empty, or says which of several repeats this is."""
        ...

    def strategy_done(self, result: StrategyResult) -> None: ...


class _NoBar:
    def update(self, completed: float, detail: str = "") -> None:
        pass


class Silent:
    """Reports nothing: for callers of the library that read the returned result instead."""

    @contextlib.contextmanager
    def progress(self, description: str, total: float) -> Iterator[Bar]:
        yield _NoBar()

    def info(self, text: str) -> None:
        pass

    def warning(self, text: str) -> None:
        pass

    def strategy_started(self, number: int, count: int, name: str, description: str, repeat: str) -> None:
        pass

    def strategy_done(self, result: StrategyResult) -> None:
        pass
