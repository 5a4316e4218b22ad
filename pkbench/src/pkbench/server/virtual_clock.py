"""sequuid's virtual clock in a run: the embedded server's settings for it, and what results.json records of
it (the rate, the virtual time covered, the strategies whose keys it cannot move)."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

from pkbench import results
from pkbench.server import sequuid_port as port
from pkbench.strategies.model import Strategy


def clock_settings(rate: float, anchor: float | None) -> dict[str, str]:
    """The embedded server's settings for sequuid's virtual clock. Set at start, they reach every backend,
    so all of pkbench's sessions and pgbench's clients share one timeline from the anchor (Unix seconds)."""
    if rate == 1 or anchor is None:
        return {}
    return {"sequuid.clock_rate": repr(rate), "sequuid.clock_anchor": f"{anchor:.6f}"}


def _virtual_hours(seconds: object, rate: float) -> float | None:
    """Virtual hours covered by a duration: a number, or over repeats the median of one."""
    if isinstance(seconds, dict):
        seconds = seconds.get("median")
    if isinstance(seconds, bool) or not isinstance(seconds, int | float):
        return None
    return seconds * rate / 3600


def clock_record(
    rate: float,
    anchor: float | None,
    wall_s: float,
    measured: Sequence[results.StrategyResult],
    catalog: dict[str, Strategy],
) -> dict[str, Any]:
    """results.json's clock: the rate, the virtual hours the run and each timed step and workload covered, and
    (at a rate other than 1) the strategies whose generator reads the real clock only, which the rate does not
    move: core uuidv7(), uuid-ossp, or a sequuid generator from the PL/pgSQL port (no virtual clock there)."""
    by_strategy: dict[str, dict[str, dict[str, float]]] = {}
    real_clock_only: list[dict[str, str]] = []
    for result in measured:
        data = dataclasses.asdict(result)
        steps = {
            name: hours
            for name, seconds in (data.get("step_durations_s") or {}).items()
            if (hours := _virtual_hours(seconds, rate)) is not None
        }
        workloads = {
            str(w.get("name")): hours
            for w in data.get("workloads") or []
            if (hours := _virtual_hours(w.get("duration_s"), rate)) is not None
        }
        by_strategy[str(data["name"])] = {"steps": steps, "workloads": workloads}
        strategy = catalog.get(str(data["name"]))
        expression, source = data.get("default_expression"), data.get("generator_source")
        generator = (
            next((g for g in strategy.generators if g.expression == expression), None) if strategy else None
        )
        if rate != 1 and generator is not None:
            if generator.clock == "real":
                real_clock_only.append({"strategy": str(data["name"]), "generator": generator.expression})
            elif generator.clock == "virtual" and str(source or "").startswith(port.SOURCE):
                real_clock_only.append(
                    {"strategy": str(data["name"]), "generator": f"{expression} ({source})"}
                )
    return {
        "rate": rate,
        "anchor_unix_s": anchor,
        "wall_s": wall_s,
        "virtual_hours_covered": wall_s * rate / 3600,
        "virtual_hours_by_strategy": by_strategy,
        "real_clock_only": real_clock_only,
    }
