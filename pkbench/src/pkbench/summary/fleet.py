"""Keys made by a fleet of application servers (the fleet scenario), read from a sweep over the clients' clock
skew: per skew and strategy, TPS, WAL and full-page images per transaction, the primary key's distinct blocks
the window's WAL wrote (where the inserts landed), each the median over the rounds with its interval, and the
key index's size at the end (one measurement); each client-made key against server-side v7, round by round;
and the one sentence that says where the fleet's keys stop behaving like the server's (`answer`).

Written into sweep.md under the sweep's own tables, when a point ran a key the clients make.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pkbench import results
from pkbench.analysis import verdict
from pkbench.analysis.verdict import FigureKind, RatioVerdict, median_interval, ratio_verdict
from pkbench.errors import PkbenchError
from pkbench.results.model import RunResult, StrategyResult, WorkloadResult
from pkbench.strategies.app_keys import APP_KEYS
from pkbench.text import MISSING, markdown_table

Number = int | float

PARAMETER = "skew_ms"
# The server-side key the fleet's keys are held against, and the index whose WAL blocks count.
SERVER_V7 = "uuid-v7"
INDEX = "records_pkey"
APP_STRATEGIES = tuple(s.name for s in APP_KEYS)
# A client-made key stops behaving like server-side v7 where one of its work figures differs from v7's by
# this much or more, with a 95% interval that excludes no difference: smaller resolved differences are real
# but too small to change a choice of key. TPS is not a criterion: on a shared machine it moves with the
# load more than WAL, full-page images and blocks written do.
MATERIAL = 0.10
INDEX_BLOCKS = FigureKind(higher_is_better=False, more="more index blocks", less="fewer index blocks")


@dataclass(frozen=True)
class Figure:
    key: str
    title: str
    kind: FigureKind
    read: Callable[[WorkloadResult], float | None]
    fmt: str
    # Judged on the windows of speed (the mixed design's interleaved ones) rather than the paired ones.
    speed: bool = False
    # Whether a difference from server-side v7 here means the keys stopped behaving like v7's.
    criterion: bool = True


def _blocks(window: WorkloadResult) -> float | None:
    found = (window.wal_distinct_blocks or {}).get(INDEX)
    return float(found) if found is not None else None


def _blocks_per_thousand(window: WorkloadResult) -> float | None:
    blocks = _blocks(window)
    if blocks is None or not window.transactions:
        return None
    return 1000 * blocks / window.transactions


FIGURES = (
    Figure("tps", "TPS", verdict.TPS, lambda w: w.tps, "{:,.0f}", speed=True, criterion=False),
    Figure(
        "wal", "WAL bytes / tx", verdict.WAL_PER_TRANSACTION, lambda w: w.wal_bytes_per_transaction, "{:,.0f}"
    ),
    Figure(
        "fpi",
        "full-page images / tx",
        verdict.FPI_PER_TRANSACTION,
        lambda w: w.wal_fpi_per_transaction,
        "{:.3f}",
    ),
    Figure("blocks", "key index blocks written / window", INDEX_BLOCKS, _blocks, "{:,.0f}", criterion=False),
    Figure(
        "blocks-per-1000", "key index blocks written / 1000 tx", INDEX_BLOCKS, _blocks_per_thousand, "{:,.1f}"
    ),
)


@dataclass(frozen=True)
class Estimate:
    """The median over the rounds and its interval (the range of the rounds below five; None with one)."""

    median: float | None
    low: float | None
    high: float | None


@dataclass(frozen=True)
class Point:
    """One strategy's window at one skew."""

    skew_ms: Number
    strategy: str
    workload: str
    figures: dict[str, Estimate]
    index_bytes: int | None
    # A client-made key's figures against server-side v7's in the same rounds (empty for the others).
    against_v7: dict[str, RatioVerdict]
    index_ratio: float | None


def _windows(workload: WorkloadResult, figure: Figure) -> list[WorkloadResult]:
    if figure.speed and workload.interleaved:
        return workload.interleaved
    return workload.rounds or [workload]


def _estimate(values: Sequence[float | None]) -> Estimate:
    present = [v for v in values if v is not None]
    if not present:
        return Estimate(None, None, None)
    middle = sorted(present)[len(present) // 2] if len(present) % 2 else _mean_middle(sorted(present))
    interval = median_interval(present, seed=0)
    return Estimate(middle, interval.low if interval else None, interval.high if interval else None)


def _mean_middle(ordered: Sequence[float]) -> float:
    half = len(ordered) // 2
    return (ordered[half - 1] + ordered[half]) / 2


def _index_bytes(workload: WorkloadResult) -> int | None:
    last = (workload.rounds or [workload])[-1].sizes_at_end or workload.sizes_at_end
    return last.primary_key_bytes if last is not None else None


def points_of(skew: Number, run: RunResult) -> list[Point]:
    """The points of one run of the sweep (pure)."""
    strategies = {s.name: s for s in run.strategies if s.status == "ok"}
    server = strategies.get(SERVER_V7)
    found = []
    for strategy in strategies.values():
        for workload in strategy.workloads:
            figures = {f.key: _estimate([f.read(w) for w in _windows(workload, f)]) for f in FIGURES}
            against: dict[str, RatioVerdict] = {}
            index_ratio = None
            reference = _workload(server, workload.name) if server is not None else None
            if strategy.name in APP_STRATEGIES and reference is not None:
                against = {f.key: _against(workload, reference, f) for f in FIGURES}
                mine, theirs = _index_bytes(workload), _index_bytes(reference)
                index_ratio = mine / theirs if mine and theirs else None
            found.append(
                Point(
                    skew, strategy.name, workload.name, figures, _index_bytes(workload), against, index_ratio
                )
            )
    return found


def _workload(strategy: StrategyResult, name: str) -> WorkloadResult | None:
    return next((w for w in strategy.workloads if w.name == name), None)


def _against(mine: WorkloadResult, reference: WorkloadResult, figure: Figure) -> RatioVerdict:
    ours, theirs = _windows(mine, figure), _windows(reference, figure)
    count = min(len(ours), len(theirs))
    return ratio_verdict(
        [figure.read(w) for w in ours[:count]], [figure.read(w) for w in theirs[:count]], figure.kind, seed=0
    )


def read(out_dir: Path, sweep_json: Mapping[str, Any]) -> tuple[list[Point], dict[Number, RunResult]]:
    """Every point of a sweep, and each point's run."""
    found: list[Point] = []
    runs: dict[Number, RunResult] = {}
    for point in sweep_json["points"]:
        runs[point["value"]] = results.load(out_dir / point["directory"])
        found += points_of(point["value"], runs[point["value"]])
    return found, runs


def departs(point: Point) -> list[tuple[Figure, RatioVerdict]]:
    """The work figures in which a client-made key differs from server-side v7 by MATERIAL or more, with an
    interval that excludes no difference (pure)."""
    found = []
    for figure in FIGURES:
        judged = point.against_v7.get(figure.key)
        if not figure.criterion or judged is None or not judged.resolved or judged.ratio is None:
            continue
        if abs(judged.ratio - 1) >= MATERIAL:
            found.append((figure, judged))
    return found


def skew_words(skew: Number) -> str:
    if skew >= 1000 and skew % 1000 == 0:
        return f"{skew // 1000:g} s"
    return f"{skew:g} ms"


# How the sentence names each criterion.
_SAID = {
    "wal": "WAL per transaction",
    "fpi": "full-page images per transaction",
    "blocks-per-1000": "key index blocks written per transaction",
}


def _ratio_words(figure: Figure, judged: RatioVerdict) -> str:
    assert judged.ratio is not None and judged.interval is not None
    return (
        f"{_SAID.get(figure.key, figure.title)} {judged.ratio:.2f}\u00d7 "
        f"({judged.interval.low:.2f}\u2013{judged.interval.high:.2f})"
    )


def first_departure(points: Sequence[Point], strategy: str) -> Point | None:
    """STRATEGY's point at the smallest skew where it stops behaving like server-side v7 (pure); None when it
    behaves like it at every skew measured. The lead's "which key?" row reads the run at this skew."""
    mine = sorted((p for p in points if p.strategy == strategy and p.against_v7), key=lambda p: p.skew_ms)
    return next((p for p in mine if departs(p)), None)


def answer(points: Sequence[Point], clients: int | None = None) -> str:
    """The one sentence: from which skew each client-made key stops behaving like server-side v7, with the
    figures that say so, and up to which skew it did not (pure)."""
    apps = [p for p in points if p.strategy in APP_STRATEGIES and p.against_v7]
    if not apps:
        return "No key made by the clients was measured against server-side v7."
    skews = sorted({p.skew_ms for p in apps})
    fleet = f"{clients} application servers" if clients else "application servers"
    parts = []
    for strategy in dict.fromkeys(p.strategy for p in apps):
        mine = sorted((p for p in apps if p.strategy == strategy), key=lambda p: p.skew_ms)
        first = first_departure(mine, strategy)
        if first is None:
            parts.append(
                f"{strategy} behaved like it at every skew measured, up to {skew_words(skews[-1])} (no work "
                f"figure {MATERIAL:.0%} apart with its interval)"
            )
            continue
        before = [p.skew_ms for p in mine if p.skew_ms < first.skew_ms]
        upto = ""
        if before:
            upto = (
                "behaved like it with clocks in step and "
                if before[-1] == 0
                else (f"behaved like it up to {skew_words(before[-1])} and ")
            )
        figures = ", ".join(_ratio_words(f, j) for f, j in departs(first))
        size = (
            f"; key index {first.index_ratio:.2f}\u00d7 at the end, one measurement"
            if first.index_ratio
            else ""
        )
        parts.append(f"{strategy} {upto}stopped at {skew_words(first.skew_ms)} ({figures}{size})")
    return (
        f"Against server-side v7 in the same rounds (ratios with 95% intervals), v7 made by {fleet} whose "
        f"clocks were set {_listed([skew_words(s) for s in skews])} apart: " + "; ".join(parts) + "."
    )


def _listed(words: Sequence[str]) -> str:
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} and {words[-1]}"


def _cell(estimate: Estimate, fmt: str) -> str:
    if estimate.median is None:
        return MISSING
    if estimate.low is None or estimate.high is None:
        return fmt.format(estimate.median)
    return f"{fmt.format(estimate.median)} ({fmt.format(estimate.low)}\u2013{fmt.format(estimate.high)})"


def _mib(value: int | None) -> str:
    return MISSING if value is None else f"{value / 2**20:,.1f} MiB"


def table(points: Sequence[Point]) -> list[str]:
    """Per window, one row per skew and strategy: each figure's median with its interval, the key index."""
    lines: list[str] = []
    for workload in dict.fromkeys(p.workload for p in points):
        chosen = sorted((p for p in points if p.workload == workload), key=lambda p: p.skew_ms)
        body = [
            [
                str(p.skew_ms),
                p.strategy,
                *(_cell(p.figures[f.key], f.fmt) for f in FIGURES),
                _mib(p.index_bytes),
            ]
            for p in chosen
        ]
        header = [PARAMETER, "strategy", *(f.title for f in FIGURES), "key index at the end"]
        lines += ["", f"### {workload}", "", *markdown_table(header, body)]
        versus = [
            [
                str(p.skew_ms),
                p.strategy,
                *(p.against_v7[f.key].words for f in FIGURES if f.key != "blocks"),
                MISSING if p.index_ratio is None else f"{p.index_ratio:.2f}\u00d7",
            ]
            for p in chosen
            if p.against_v7
        ]
        if versus:
            titles = [f.title for f in FIGURES if f.key != "blocks"]
            lines += ["", f"**{workload}: against {SERVER_V7}, round by round**", ""]
            lines += markdown_table([PARAMETER, "strategy", *titles, "key index at the end"], versus)
    return lines


def section(parameter: str, out_dir: Path, sweep_json: Mapping[str, Any]) -> list[str]:
    """sweep.md's section on keys made by the clients; empty when no point ran one."""
    points, runs = read(out_dir, sweep_json)
    if parameter != PARAMETER or not any(p.against_v7 for p in points):
        return []
    return [
        "",
        f"## Keys made by application servers, by {parameter}",
        "",
        answer(points, _clients(runs)),
        "",
        "Each figure: the median over the paired rounds with the interval of the median (the range of the "
        "rounds below five); TPS from the windows of speed (interleaved, in the mixed design). Key index "
        f"blocks written: the distinct blocks of {INDEX} the window's WAL names (pg_walinspect), where its "
        "inserts landed. Key index at the end: its size after the last round, one measurement. Against "
        f"{SERVER_V7}: each round's figure over {SERVER_V7}'s in the same round, the geometric mean and its "
        f"95% interval; a key stops behaving like {SERVER_V7} where WAL, full-page images or blocks written "
        f"per transaction differ by {MATERIAL:.0%} or more with an interval that excludes no difference.",
        *table(points),
    ]


def _clients(runs: Mapping[Number, RunResult]) -> int | None:
    first = next(iter(runs.values()), None)
    value = (first.scenario.get("parameters") or {}).get("clients") if first is not None else None
    return value if isinstance(value, int) else None


def load_answer(source: Path) -> str:
    """The sentence of a committed sweep directory (the documents quote it)."""
    path = source / "sweep.json"
    if not path.is_file():
        raise PkbenchError(f"{source}: no committed sweep there (no sweep.json)")
    points, runs = read(source, json.loads(path.read_text()))
    return answer(points, _clients(runs))
