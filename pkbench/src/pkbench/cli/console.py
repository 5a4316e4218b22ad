"""The command line's rendering of a run's reports: rich progress bars and lines on stderr."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

from rich.console import Console
from rich.progress import BarColumn, Progress, TaskID, TaskProgressColumn, TextColumn, TimeRemainingColumn

from pkbench.reporting import Bar
from pkbench.results.model import StrategyResult


class _RichBar:
    def __init__(self, progress: Progress, task: TaskID) -> None:
        self._progress, self._task = progress, task

    def update(self, completed: float, detail: str = "") -> None:
        if detail:
            self._progress.update(self._task, completed=completed, detail=detail)
        else:
            self._progress.update(self._task, completed=completed)


class RichReporter:
    def __init__(self, console: Console | None = None) -> None:
        self.console = console or Console(stderr=True, soft_wrap=True)

    @contextlib.contextmanager
    def progress(self, description: str, total: float) -> Iterator[Bar]:
        with Progress(
            TextColumn("{task.description}"),
            BarColumn(),
            TaskProgressColumn(),
            TimeRemainingColumn(),
            TextColumn("{task.fields[detail]}"),
            console=self.console,
            disable=not self.console.is_terminal,
            transient=True,
        ) as progress:
            yield _RichBar(progress, progress.add_task(description, total=total, detail=""))

    def info(self, text: str) -> None:
        self.console.print(text, highlight=False, markup=False)

    def warning(self, text: str) -> None:
        self.console.print(f"pkbench: warning: {text}", highlight=False, markup=False)

    def strategy_started(self, number: int, count: int, name: str, description: str, repeat: str) -> None:
        which = f" ({repeat})" if repeat else ""
        self.console.print(f"[bold]{number}/{count} {name}[/bold]{which}: ", end="", highlight=False)
        self.console.print(description, highlight=False, markup=False)

    def strategy_done(self, result: StrategyResult) -> None:
        if result.status != "ok":
            self.info(f"  {result.name}: {result.status}: {result.error}")
