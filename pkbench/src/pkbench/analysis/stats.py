"""Statistics over repeated runs (`--repeat R`), as docs/results.md lays them out.

Every repeat produces an object of the same shape (a workload's figures, say). The aggregate is that shape
with each number replaced by the median over the repeats, plus ``spread`` (a figure's name → ``[min, max]``)
and ``repeats`` (each repeat's own object). Pure functions: no I/O, no clock.
"""

from __future__ import annotations

import dataclasses
import math
import statistics
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from pkbench.results import RepeatedStrategy, StrategyResult, typed

Number = int | float


# The z of a two-sided 95% interval.
_Z = 1.959963984540054


def wilson(successes: int, total: int) -> tuple[float, float]:
    """The 95% Wilson interval of a proportion (a shard's share of the inserts, A/A runs that resolved a
    difference): valid for few trials and for none or all of them."""
    if total == 0:
        return (0.0, 1.0)
    p = successes / total
    z2 = _Z * _Z
    centre = (p + z2 / (2 * total)) / (1 + z2 / total)
    half = _Z * math.sqrt(p * (1 - p) / total + z2 / (4 * total * total)) / (1 + z2 / total)
    return (max(0.0, centre - half), min(1.0, centre + half))


def interleaved_order(strategies: Sequence[str], repeat: int) -> list[tuple[int, str]]:
    """The order to run ``(repeat number, strategy)`` in: a b c a b c, not a a b b c c.

    Interleaving spreads slow drift of a shared machine (other tenants, a warming disk) over every strategy
    instead of charging it to whichever ran last. Repeat numbers start at 1.
    """
    if repeat < 1:
        raise ValueError(f"repeat must be at least 1, got {repeat}")
    return [(number, strategy) for number in range(1, repeat + 1) for strategy in strategies]


def _is_number(value: object) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def median(values: Sequence[Number]) -> Number:
    """The median, kept an int when the repeats were ints and the middle falls on a whole number."""
    middle = statistics.median(values)
    if all(isinstance(v, int) for v in values) and float(middle).is_integer():
        return int(middle)
    return middle


def _element_name(element: object, index: int) -> str:
    if isinstance(element, Mapping) and isinstance(element.get("name"), str):
        return str(element["name"])
    return str(index)


def _merge(values: Sequence[Any], path: str, spread: dict[str, list[Number]]) -> Any:
    present = [v for v in values if v is not None]
    if not present:
        return None
    first = present[0]
    if all(_is_number(v) for v in present):
        numbers: list[Number] = present
        spread[path] = [min(numbers), max(numbers)]
        return median(numbers)
    if isinstance(first, Mapping) and all(isinstance(v, Mapping) for v in present):
        keys = list(first)
        keys += [k for v in present[1:] for k in v if k not in keys]
        return {key: _merge([v.get(key) for v in present], _join(path, key), spread) for key in keys}
    if (
        isinstance(first, list)
        and all(isinstance(v, list) for v in present)
        and len({len(v) for v in present}) == 1
    ):
        return [
            _merge([v[i] for v in present], _join(path, _element_name(first[i], i)), spread)
            for i in range(len(first))
        ]
    # Text, flags and lists of different shapes (for example the `unavailable` reasons) are not figures:
    # the first repeat speaks for all.
    return first


def _join(path: str, key: str) -> str:
    return f"{path}.{key}" if path else key


def aggregate(repeats: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """One object in the shape of each repeat, every number the median across repeats.

    ``spread`` maps each number's dotted name (list elements named by their ``name`` field, else their index,
    as in ``statements.insert.latency_ms.p50``) to ``[min, max]``; ``repeats`` holds the objects given. A
    figure null in some repeats is aggregated over the repeats that measured it, and null only when none did.
    A single repeat is returned as it is: the format adds ``spread`` and ``repeats`` only for R > 1.
    """
    if not repeats:
        raise ValueError("aggregate needs at least one repeat")
    if len(repeats) == 1:
        return dict(repeats[0])
    spread: dict[str, list[Number]] = {}
    merged = _merge([_without_aggregates(r) for r in repeats], "", spread)
    assert isinstance(merged, dict)
    merged["spread"] = spread
    merged["repeats"] = [_without_aggregates(r) for r in repeats]
    return merged


def over_repeats(runs: Sequence[StrategyResult]) -> StrategyResult:
    """One strategy's result: as measured, or over several repeats a RepeatedStrategy of the medians (the
    status and error of the first repeat that did not finish), with their spread and every repeat."""
    if len(runs) == 1:
        return runs[0]
    combined = aggregate([dataclasses.asdict(r) for r in runs])
    failed = next((r for r in runs if r.status != "ok"), None)
    if failed is not None:
        combined["status"], combined["error"] = failed.status, failed.error
    repeated: RepeatedStrategy = typed(RepeatedStrategy, combined)
    return repeated


def _without_aggregates(figures: Mapping[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in figures.items() if key not in ("spread", "repeats")}


def figures(obj: Mapping[str, Any], path: str = "") -> Iterator[tuple[str, Number]]:
    """Every number in ``obj`` with its dotted name, in the naming ``aggregate`` uses for ``spread``."""
    for key, value in obj.items():
        name = _join(path, key)
        if _is_number(value):
            yield name, value
        elif isinstance(value, Mapping):
            yield from figures(value, name)
        elif isinstance(value, list):
            for index, element in enumerate(value):
                element_name = _join(name, _element_name(element, index))
                if _is_number(element):
                    yield element_name, element
                elif isinstance(element, Mapping):
                    yield from figures(element, element_name)
