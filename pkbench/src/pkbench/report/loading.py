"""Reading a results directory (docs/results.md) into what the report draws: the run's results through
results.load(), and its time series."""

from __future__ import annotations

import csv
from dataclasses import dataclass, field
from pathlib import Path

from pkbench import results
from pkbench.analysis.metrics import unavailable_reason
from pkbench.results.model import (
    PREFILL_SNAPSHOT,
    RunResult,
    Sizes,
    StrategyResult,
    WorkloadResult,
)

SERIES_KINDS = ("tps", "buffercache", "usagecount", "wait_events", "sizes")
# Written only by runs with shards; a run without them has nothing missing.
OPTIONAL_SERIES_KINDS = ("shard_inserts",)


@dataclass
class Run:
    """One results directory: its results plus its time series, keyed by kind (tps, buffercache, ...)."""

    directory: Path
    result: RunResult
    series: dict[str, list[dict[str, str]]] = field(default_factory=dict)
    missing_series: dict[str, str] = field(default_factory=dict)

    @property
    def server_version(self) -> str:
        return str(self.result.server.get("version") or "unknown version")

    @property
    def label(self) -> str:
        """How a comparison names this run: its directory name and the server version."""
        return f"{self.directory.name} (PostgreSQL {self.server_version})"

    @property
    def strategies(self) -> list[StrategyResult]:
        return self.result.strategies

    @property
    def measured_strategies(self) -> list[StrategyResult]:
        """Strategies whose figures can be drawn: status ok (failed and skipped ones are listed apart)."""
        return [s for s in self.strategies if s.status == "ok"]

    def workload_names(self) -> list[str]:
        """Every workload name in the order it first appears."""
        names: list[str] = []
        for strategy in self.measured_strategies:
            names += [w.name for w in strategy.workloads if w.name not in names]
        return names

    def measured_in(self, workload: str) -> list[tuple[str, WorkloadResult]]:
        """(strategy name, its workload) for every measured strategy that ran WORKLOAD."""
        pairs = []
        for strategy in self.measured_strategies:
            found = workload_of(strategy, workload)
            if found is not None:
                pairs.append((strategy.name, found))
        return pairs

    def snapshot_names(self) -> list[str]:
        """Names of the size snapshots scenario steps took (sizes_after_copy), in first-seen order."""
        names: list[str] = []
        for strategy in self.measured_strategies:
            names += [n for n in strategy.snapshots if n not in names and n != PREFILL_SNAPSHOT]
        return names

    def size_moments(self, strategy: StrategyResult) -> list[tuple[str, Sizes | None, str]]:
        """(moment, sizes or None, reason when None) for every moment the run measured sizes at: after the
        prefill, at the end of each workload, and at each snapshot step."""
        moments: list[tuple[str, Sizes | None, str]] = []

        def add(label: str, sizes: Sizes | None, owner: object, key: str) -> None:
            moments.append((label, sizes, "" if sizes else unavailable_reason(owner, key)))

        add("after prefill", strategy.sizes_after_prefill, strategy, PREFILL_SNAPSHOT)
        for name in self.workload_names():
            workload = workload_of(strategy, name)
            add(f"end of {name}", workload.sizes_at_end if workload else None, workload, "sizes_at_end")
        for name in self.snapshot_names():
            label = name.removeprefix("sizes_").replace("_", " ")
            add(label, strategy.snapshots.get(name), strategy.snapshots, name)
        return moments

    def rows(self, kind: str, strategy: str, workload: str) -> list[dict[str, str]]:
        """The samples of one time series for one strategy and workload, in file order."""
        return [
            row
            for row in self.series.get(kind, [])
            if row.get("strategy") == strategy and row.get("workload") == workload
        ]


def workload_of(strategy: StrategyResult, name: str) -> WorkloadResult | None:
    return next((w for w in strategy.workloads if w.name == name), None)


def load_run(directory: Path) -> Run:
    """The run's results (results.load) and every time series; a missing CSV is noted, not fatal."""
    run = Run(directory=directory, result=results.load(directory))
    for kind in SERIES_KINDS + OPTIONAL_SERIES_KINDS:
        path = directory / "timeseries" / f"{kind}.csv"
        if not path.is_file() and kind in OPTIONAL_SERIES_KINDS:
            continue
        if not path.is_file():
            run.missing_series[kind] = f"{path.relative_to(directory)} is missing"
            continue
        with path.open(newline="", encoding="utf-8") as handle:
            run.series[kind] = list(csv.DictReader(handle))
    return run
