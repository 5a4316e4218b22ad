"""Reading a results directory (docs/results.md) into what the report draws."""

from __future__ import annotations

import csv
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pkbench.errors import PkbenchError
from pkbench.metrics import Figure, figure, nested_figure, unavailable_reason
from pkbench.results import PREFILL_SNAPSHOT, checked

__all__ = ["Figure", "figure", "nested_figure", "unavailable_reason"]

JSON = dict[str, Any]


SERIES_KINDS = ("tps", "buffercache", "usagecount", "wait_events", "sizes")


class ResultsNotFoundError(PkbenchError):
    """The directory given to the report is not a readable pkbench results directory."""


@dataclass
class Run:
    """One results directory: results.json plus its time series, keyed by kind (tps, buffercache, ...)."""

    directory: Path
    results: JSON
    series: dict[str, list[dict[str, str]]] = field(default_factory=dict)
    missing_series: dict[str, str] = field(default_factory=dict)

    @property
    def server_version(self) -> str:
        return str((self.results.get("server") or {}).get("version") or "unknown version")

    @property
    def label(self) -> str:
        """How a comparison names this run: its directory name and the server version."""
        return f"{self.directory.name} (PostgreSQL {self.server_version})"

    @property
    def strategies(self) -> list[JSON]:
        return [s for s in self.results.get("strategies") or [] if isinstance(s, dict)]

    @property
    def measured_strategies(self) -> list[JSON]:
        """Strategies whose figures can be drawn: status ok (failed and skipped ones are listed apart)."""
        return [s for s in self.strategies if s.get("status", "ok") == "ok"]

    def workload_names(self) -> list[str]:
        """Every workload name in the order it first appears."""
        names: list[str] = []
        for strategy in self.measured_strategies:
            for workload in workloads_of(strategy):
                if workload.get("name") not in names:
                    names.append(str(workload.get("name")))
        return names

    def measured_in(self, workload: str) -> list[tuple[str, JSON]]:
        """(strategy name, its workload object) for every measured strategy that ran WORKLOAD."""
        pairs = []
        for strategy in self.measured_strategies:
            found = workload_of(strategy, workload)
            if found is not None:
                pairs.append((str(strategy.get("name")), found))
        return pairs

    def snapshot_names(self) -> list[str]:
        """Names of the size snapshots scenario steps took (sizes_after_copy), in first-seen order."""
        names: list[str] = []
        for strategy in self.measured_strategies:
            snapshots = strategy.get("snapshots")
            if isinstance(snapshots, dict):
                names += [str(n) for n in snapshots if n not in names and n != PREFILL_SNAPSHOT]
        return names

    def size_moments(self, strategy: JSON) -> list[tuple[str, JSON | None, str]]:
        """(moment, sizes object or None, reason when None) for every moment the run measured sizes at:
        after the prefill, at the end of each workload, and at each snapshot step."""
        moments: list[tuple[str, JSON | None, str]] = []

        def add(label: str, owner: JSON, key: str) -> None:
            sizes = owner.get(key)
            valid = sizes if isinstance(sizes, dict) else None
            moments.append((label, valid, "" if valid else unavailable_reason(owner, key)))

        add("after prefill", strategy, PREFILL_SNAPSHOT)
        for name in self.workload_names():
            add(f"end of {name}", workload_of(strategy, name) or {}, "sizes_at_end")
        found = strategy.get("snapshots")
        snapshots: JSON = found if isinstance(found, dict) else {}
        for name in self.snapshot_names():
            label = name.removeprefix("sizes_").replace("_", " ")
            add(label, snapshots, name)
        return moments

    def rows(self, kind: str, strategy: str, workload: str) -> list[dict[str, str]]:
        """The samples of one time series for one strategy and workload, in file order."""
        return [
            row
            for row in self.series.get(kind, [])
            if row.get("strategy") == strategy and row.get("workload") == workload
        ]


def workloads_of(strategy: JSON) -> list[JSON]:
    return [w for w in strategy.get("workloads") or [] if isinstance(w, dict)]


def workload_of(strategy: JSON, name: str) -> JSON | None:
    return next((w for w in workloads_of(strategy) if w.get("name") == name), None)


def load_run(directory: Path) -> Run:
    """Read DIRECTORY/results.json and every time series it names; a missing CSV is noted, not fatal."""
    results_path = directory / "results.json"
    if not results_path.is_file():
        raise ResultsNotFoundError(
            f"{directory}: no results.json there, so it is not a pkbench results directory"
        )
    try:
        results = json.loads(results_path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ResultsNotFoundError(f"{results_path}: cannot be read as JSON ({exc})") from exc
    if not isinstance(results, dict):
        raise ResultsNotFoundError(f"{results_path}: expected a JSON object at the top level")
    results = checked(results, results_path)
    run = Run(directory=directory, results=results)
    declared = results.get("timeseries") or {}
    for kind in SERIES_KINDS:
        relative = declared.get(kind) if isinstance(declared, dict) else None
        path = directory / (relative or f"timeseries/{kind}.csv")
        if not path.is_file():
            run.missing_series[kind] = f"{path.relative_to(directory)} is missing"
            continue
        with path.open(newline="", encoding="utf-8") as handle:
            run.series[kind] = list(csv.DictReader(handle))
    return run
