"""The verdicts of paired rounds as tables: one per workload, a row per strategy, a column per headline
figure of the registry, each cell its verdict in words against the baseline. summary.md, the console and the
report show the same cells."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from pkbench.metrics import verdict_metrics
from pkbench.probes.machine import busy_machine
from pkbench.results import MachineWindow, typed

JSON = Mapping[str, Any]


@dataclass(frozen=True)
class VerdictTable:
    workload: str
    header: list[str]
    rows: list[list[str]]


def tables(results: JSON) -> list[VerdictTable]:
    verdicts = [v for v in results.get("verdicts") or [] if isinstance(v, dict)]
    if not verdicts:
        return []
    metrics = [m for m in verdict_metrics() if any(v.get("metric") == m.key for v in verdicts)]
    found: list[VerdictTable] = []
    for workload in dict.fromkeys(str(v.get("workload")) for v in verdicts):
        cells: dict[str, dict[str, str]] = {}
        for v in verdicts:
            if v.get("workload") == workload:
                cells.setdefault(str(v.get("strategy")), {})[str(v.get("metric"))] = str(v.get("words"))
        header = ["Strategy", *(m.title for m in metrics)]
        rows = [[name, *(by.get(m.key, "") for m in metrics)] for name, by in cells.items()]
        found.append(VerdictTable(workload, header, rows))
    return found


def heading(results: JSON) -> str | None:
    rounds = results.get("rounds") or {}
    if rounds.get("mode") != "paired":
        return None
    count, baseline = rounds.get("count"), rounds.get("baseline")
    return (
        f"Against {baseline}, over {count} paired round{'s' if count != 1 else ''}: the median of the "
        "per-round ratios and its 95% interval (bootstrap over rounds)"
    )


def noise_lines(results: JSON) -> list[str]:
    """How much the figures moved between rounds, and what to do when a verdict is left unresolved."""
    verdicts = [v for v in results.get("verdicts") or [] if isinstance(v, dict)]
    rounds = results.get("rounds") or {}
    lines: list[str] = []
    first = next((str(v.get("workload")) for v in verdicts), None)
    cvs = {
        str(v.get("strategy")): float(v["strategy_cv"])
        for v in verdicts
        if v.get("metric") == "tps"
        and v.get("workload") == first
        and isinstance(v.get("strategy_cv"), int | float)
    }
    if cvs:
        spread = ", ".join(f"{name} {cv:.0%}" for name, cv in cvs.items())
        lines.append(f"TPS of {first} varied across rounds (coefficient of variation) by: {spread}.")
    unresolved = [v for v in verdicts if not v.get("resolved") and v.get("ratio") is not None]
    if unresolved:
        busy = _busy_windows(results)
        advice = (
            f"the machine was busy during {busy} windows, so run again when it is idle, or add rounds"
            if busy
            else "add rounds (--rounds N, or --precision 5% to add them until the intervals are that narrow)"
        )
        lines.append(f"{len(unresolved)} of {len(verdicts)} verdicts are unresolved: {advice}.")
    if rounds.get("precision") is not None:
        target = f"±{float(rounds['precision']) * 100:g}%"
        if rounds.get("unresolved"):
            lines.append(
                f"Precision {target} not reached ({rounds.get('stopped')}) for: "
                f"{', '.join(rounds['unresolved'])}."
            )
        else:
            lines.append(f"Precision {target} reached for every headline ratio.")
    return lines


def _busy_windows(results: JSON) -> int:
    return sum(
        1
        for strategy in results.get("strategies") or []
        for workload in strategy.get("workloads") or []
        for window in workload.get("rounds") or [workload]
        if isinstance(window.get("machine_window"), dict)
        and busy_machine(typed(MachineWindow, window["machine_window"]))
    )


def markdown(results: JSON) -> list[str]:
    found = tables(results)
    if not found:
        return []
    lines = ["## Verdicts", "", f"{heading(results) or ''}.", ""]
    for table in found:
        lines += [
            f"### {table.workload}",
            "",
            "| " + " | ".join(table.header) + " |",
            "|" + "|".join("---" for _ in table.header) + "|",
            *("| " + " | ".join(row) + " |" for row in table.rows),
            "",
        ]
    lines += [*noise_lines(results), ""]
    return lines
