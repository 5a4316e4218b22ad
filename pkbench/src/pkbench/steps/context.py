"""What a step sees of the run: narrow on purpose, so a step module needs nothing above it."""

from __future__ import annotations

import contextlib
import time
import zlib
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path

import psycopg

from pkbench.errors import PkbenchError, first_line
from pkbench.reporting import Reporter
from pkbench.results.model import StrategyResult
from pkbench.server.target import Target
from pkbench.server.workspace import Workspace

Value = int | float | str


def seed_random(conn: psycopg.Connection[tuple[object, ...]], key: str) -> None:
    """Seed the session's random() from KEY (a step's name, a batch of it) alone: nothing of the strategy or
    the run goes in, so every strategy's steps draw the same random values (common random numbers). Two
    strategies then differ by their keys, not by their draws; with values drawn afresh, two loads of one
    strategy also differed by the layout their random values left (docs/statistics.md, the A/A
    calibration)."""
    conn.execute("SELECT setseed(%s)", (zlib.crc32(key.encode()) / 0xFFFFFFFF * 2 - 1,))


@dataclass
class Stopwatch:
    """The one clock of the steps: started when made; `seconds` is what a timed block took, once done."""

    started: float = field(default_factory=time.monotonic)
    seconds: float = 0.0

    def elapsed(self) -> float:
        return time.monotonic() - self.started


@dataclass(frozen=True)
class StepContext:
    """One strategy's pass over the scenario's steps (one repeat of it)."""

    target: Target
    ws: Workspace
    pgbench_path: Path
    out_dir: Path
    strategy_name: str
    table: str
    parameters: Mapping[str, Value]
    # The fill step whose time and rate the summary headlines as "time to insert".
    insert_step: str | None
    # Fills the placeholders of one SQL text for this strategy.
    render: Callable[..., str]
    buffercache_reason: str | None
    result: StrategyResult
    # The run's time series: rows lead with strategy, workload, repeat, elapsed_s.
    series: dict[str, list[tuple[object, ...]]]
    reporter: Reporter
    repeat: int = 1
    # What `repeat` counts: repeats of the whole strategy (--isolate --repeat), or paired rounds.
    iteration: str = "repeat"
    # Paired rounds: before each window, autovacuum left to finish and a CHECKPOINT after the warm-up.
    checkpoint_before_window: bool = False
    # A window that runs this many transactions, shared out among its clients, whatever the scenario says of
    # its length: the mixed design's paired windows run as many as the round's first one did.
    window_transactions: int | None = None

    @property
    def file_label(self) -> str:
        """The strategy's name in file and folder names: one per repeat."""
        return self.strategy_name + self.file_suffix

    @property
    def file_suffix(self) -> str:
        return "" if self.repeat == 1 else f".{self.iteration}-{self.repeat}"

    def int_parameter(self, name: str) -> int:
        value = self.parameters.get(name)
        if not isinstance(value, int):
            raise PkbenchError(f"parameter {name!r} must be an integer")
        return value

    def connect(self) -> psycopg.Connection[tuple[object, ...]]:
        return self.ws.connection.connect(search_path=self.ws.search_path)

    def require_extension(self, extension: str, step_name: str) -> None:
        """EXTENSION in the run's schema, or one line naming the step that needs it and why it is missing."""
        reason = self.ws.ensure_extension(extension)
        if reason:
            raise PkbenchError(f"{step_name}: {reason}")

    @contextlib.contextmanager
    def errors_named(self, where: str, *kinds: type[Exception]) -> Iterator[None]:
        """An error of KINDS in the block becomes one line that says where it happened."""
        try:
            yield
        except kinds as error:
            raise PkbenchError(f"{where}: {first_line(error)}") from error

    @contextlib.contextmanager
    def timed(self, step_name: str) -> Iterator[Stopwatch]:
        """Time the block as the step's duration (step_durations_s), when it completes."""
        stopwatch = Stopwatch()
        yield stopwatch
        stopwatch.seconds = stopwatch.elapsed()
        self.record_duration(step_name, stopwatch.seconds)

    def record_duration(self, step_name: str, seconds: float) -> None:
        """The step's duration (step_durations_s), for a step whose time is not one block's (a churn step
        counts its stretches, not the VACUUMs and readings between them)."""
        self.result.step_durations_s[step_name] = round(seconds, 3)

    def report_figures(self, step_name: str, described: Iterable[str]) -> None:
        """One line of the figures a step recorded; none when it has nothing to name."""
        text = ", ".join(described)
        if text:
            self.reporter.info(f"  {step_name}: {text}")
