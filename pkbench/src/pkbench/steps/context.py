"""What a step sees of the run: narrow on purpose, so a step module needs nothing above it."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path

import psycopg

from pkbench.cluster import Target
from pkbench.errors import PkbenchError
from pkbench.reporting import Reporter
from pkbench.results import StrategyResult
from pkbench.workspace import Workspace

Value = int | float | str


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
