"""A study's published figures, as data: the `[[published]]` tables of a scenario file.

Each table names one study (its hardware, PostgreSQL version, settings and command) and its figures, each
mapped onto a metric pkbench measures (a key of the metric registry, or one of the few study figures the
registry does not hold: a window's wall time, a timed step, the key index's size at a snapshot) and onto
pkbench's strategy names. Everything is checked when the scenario loads: a strategy, metric, workload or step
that does not exist is one line naming it.

Studies ran on other machines, so absolute figures are not compared: each figure is read as a ratio to a
baseline strategy of the same table (uuid v4 TPS / bigint TPS, text size / bigint size), the same ratio is
taken of our run, and `agreement()` puts the two side by side in one word (docs/statistics.md).
"""

from __future__ import annotations

import math
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from pydantic import Field

from pkbench import schema
from pkbench.analysis.metrics import WORKLOAD_METRICS, Figure
from pkbench.errors import PkbenchError
from pkbench.results.model import StrategyResult
from pkbench.scenario import builtin
from pkbench.scenario.agreement import FACTOR_REPRODUCED as FACTOR_REPRODUCED
from pkbench.scenario.agreement import LARGER as LARGER
from pkbench.scenario.agreement import NOT_MEASURED as NOT_MEASURED
from pkbench.scenario.agreement import NOT_REPRODUCED as NOT_REPRODUCED
from pkbench.scenario.agreement import REPRODUCED as REPRODUCED
from pkbench.scenario.agreement import SAME_BAND as SAME_BAND
from pkbench.scenario.agreement import SMALLER as SMALLER
from pkbench.scenario.agreement import agreement, direction_agreement, share_agreement
from pkbench.scenario.figures import DISTINCT_INDEX_BLOCKS as DISTINCT_INDEX_BLOCKS
from pkbench.scenario.figures import EXTRA_METRICS as EXTRA_METRICS
from pkbench.scenario.figures import FPI_SHARE as FPI_SHARE
from pkbench.scenario.figures import INDEX_PAGES_DELETED as INDEX_PAGES_DELETED
from pkbench.scenario.figures import INSERT_PER_MILLION as INSERT_PER_MILLION
from pkbench.scenario.figures import KEY_INDEX_SIZE as KEY_INDEX_SIZE
from pkbench.scenario.figures import LOW_USAGE_BUFFERS as LOW_USAGE_BUFFERS
from pkbench.scenario.figures import STEP_TIME as STEP_TIME
from pkbench.scenario.figures import WAIT_DATAFILEREAD as WAIT_DATAFILEREAD
from pkbench.scenario.figures import WAL_WINDOW as WAL_WINDOW
from pkbench.scenario.figures import WINDOW_TIME as WINDOW_TIME
from pkbench.scenario.figures import PublishedFigure as PublishedFigure
from pkbench.scenario.figures import ours as ours
from pkbench.scenario.figures import registry
from pkbench.scenario.figures import unit_of as unit_of
from pkbench.strategies.catalog import Catalog


class FigureSchema(schema.Strict):
    label: schema.Text
    metric: schema.Text
    unit: schema.Text
    values: dict[str, float] = Field(default_factory=dict)
    direction: dict[str, Literal["larger", "smaller", "same"]] = Field(default_factory=dict)
    workload: schema.Text | None = None
    step: schema.Text | None = None
    snapshot: schema.Text | None = None
    relative_to: schema.Text = "bigint"
    share: bool = False
    base_workload: schema.Text | None = None
    note: str = ""


class PublishedSchema(schema.Strict):
    study: schema.Text
    title: schema.Text
    source: schema.Text
    hardware: schema.Text
    version: schema.Text
    command: schema.Text
    settings: dict[str, str] = Field(default_factory=dict)
    names: dict[str, str] = Field(default_factory=dict)
    note: str = ""
    # The scales of the scenario whose runs this table scores (none: every scale): a preset that scales a
    # study down maps the study's generators onto other strategies than the default scale does.
    scales: list[schema.Text] = Field(default_factory=list)
    figures: list[FigureSchema] = Field(default_factory=list)


@dataclass(frozen=True)
class Published:
    """A study as the scenario file records it."""

    study: str
    title: str
    source: str
    hardware: str
    version: str
    command: str
    settings: Mapping[str, str]
    names: Mapping[str, str]
    figures: tuple[PublishedFigure, ...]
    note: str = ""
    scales: tuple[str, ...] = ()

    def name_of(self, strategy: str) -> str:
        """The study's own name for one of our strategies."""
        return self.names.get(strategy, strategy)


def _needs(metric: str) -> str | None:
    """What a figure of METRIC names: a workload (per-workload metrics), a step, a snapshot or nothing."""
    if metric in EXTRA_METRICS:
        return EXTRA_METRICS[metric]
    return "workload" if metric in {m.key for m in WORKLOAD_METRICS} else None


def parse(
    where: str, tables: list[PublishedSchema], steps: Mapping[str, str], scales: tuple[str, ...] = ()
) -> tuple[Published, ...]:
    """The scenario's [[published]] tables (their schema checked), checked against STEPS (step name -> kind),
    the scenario's SCALES (when given) and the strategy catalog."""
    known_strategies = {s.name for s in Catalog()}
    known_metrics = set(registry()) | set(EXTRA_METRICS)
    found = []
    for number, checked in enumerate(tables, 1):
        place = f"{where}, published, #{number}"
        for strategy in checked.names:
            if strategy not in known_strategies:
                raise PkbenchError(f"{place}, names: unknown strategy {strategy!r}")
        for scale in checked.scales:
            if scales and scale not in scales:
                raise PkbenchError(f"{place}, scales: unknown scale {scale!r} (known: {', '.join(scales)})")
        figures = []
        for index, item in enumerate(checked.figures, 1):
            at = f"{place}, figures, #{index} ({item.label})"
            figures.append(_figure(at, item, known_strategies, known_metrics, steps))
        found.append(
            Published(
                checked.study,
                checked.title,
                checked.source,
                checked.hardware,
                checked.version,
                checked.command,
                dict(checked.settings),
                dict(checked.names),
                tuple(figures),
                checked.note,
                tuple(checked.scales),
            )
        )
    return tuple(found)


def _figure(
    at: str, item: FigureSchema, strategies: set[str], metrics: set[str], steps: Mapping[str, str]
) -> PublishedFigure:
    if item.metric not in metrics:
        raise PkbenchError(f"{at}: unknown metric {item.metric!r} (known: {', '.join(sorted(metrics))})")
    for strategy in item.direction:
        if strategy not in strategies or strategy == item.relative_to:
            raise PkbenchError(
                f"{at}: direction: {strategy!r} is not a strategy other than {item.relative_to}"
            )
    if item.direction and (item.values or item.share):
        raise PkbenchError(f"{at}: a direction stands for values; it takes neither values nor share")
    if not item.direction and not item.values:
        raise PkbenchError(f"{at}: give values, or a direction per strategy")
    for strategy, value in item.values.items():
        if strategy not in strategies:
            raise PkbenchError(f"{at}: unknown strategy {strategy!r}")
        if not math.isfinite(value):
            raise PkbenchError(f"{at}: the value of {strategy} must be a finite number")
    if item.base_workload is not None and not item.share:
        raise PkbenchError(f"{at}: base_workload needs share = true")
    if item.share and item.unit != "%":
        raise PkbenchError(f"{at}: a share is in %, not {item.unit!r}")
    if item.base_workload is not None and steps.get(item.base_workload) != "pgbench":
        raise PkbenchError(f"{at}: base_workload {item.base_workload!r} is not a pgbench step here")
    if not item.share and not item.direction and item.relative_to not in item.values:
        raise PkbenchError(f"{at}: relative_to {item.relative_to!r} must be one of its values")
    if not item.share and not item.direction and item.values[item.relative_to] == 0:
        raise PkbenchError(f"{at}: the figure of {item.relative_to} (the baseline) must not be 0")
    needed = _needs(item.metric)
    given = {"workload": item.workload, "step": item.step, "snapshot": item.snapshot}
    for field, name in given.items():
        # The load per million rows is the headline fill's, or a named fill step's (a study's earlier load).
        optional = item.metric == INSERT_PER_MILLION and field == "step"
        if field != needed and name is not None and not optional:
            raise PkbenchError(f"{at}: metric {item.metric!r} takes no {field}")
    if item.metric == INSERT_PER_MILLION and item.step is not None and steps.get(item.step) != "fill":
        raise PkbenchError(f"{at}: step {item.step!r} is not a fill step of this scenario")
    kinds = {"workload": ("pgbench",), "step": ("sql", "fill", "copy"), "snapshot": ("snapshot",)}
    if item.metric == INDEX_PAGES_DELETED:
        kinds["step"] = ("density",)
    if needed is not None:
        name = given[needed]
        if name is None:
            raise PkbenchError(f"{at}: metric {item.metric!r} needs a {needed}")
        if steps.get(name) not in kinds[needed]:
            raise PkbenchError(
                f"{at}: {needed} {name!r} is not a {'/'.join(kinds[needed])} step of this scenario"
            )
    return PublishedFigure(
        item.label,
        item.metric,
        item.unit,
        dict(item.values),
        item.relative_to,
        item.workload,
        item.step,
        item.snapshot,
        item.note,
        item.share,
        item.base_workload,
        dict(item.direction),
    )


def from_json(data: Any) -> tuple[Published, ...]:
    """The studies as results.json or a scenario's JSON recorded them (no cross-check: the run is over)."""
    studies = []
    for entry in data or []:
        figures = tuple(
            PublishedFigure(
                f["label"],
                f["metric"],
                f["unit"],
                dict(f["values"]),
                f["relative_to"],
                f.get("workload"),
                f.get("step"),
                f.get("snapshot"),
                f.get("note", ""),
                bool(f.get("share", False)),
                f.get("base_workload"),
                dict(f.get("direction") or {}),
            )
            for f in entry.get("figures") or []
        )
        fields = {k: entry.get(k, "") for k in ("study", "title", "source", "hardware", "version", "command")}
        studies.append(
            Published(
                **fields,
                settings=dict(entry.get("settings") or {}),
                names=dict(entry.get("names") or {}),
                figures=figures,
                note=entry.get("note", ""),
                scales=tuple(entry.get("scales") or ()),
            )
        )
    return tuple(studies)


def to_json(studies: tuple[Published, ...]) -> list[dict[str, Any]]:
    return [
        {
            "study": p.study,
            "title": p.title,
            "source": p.source,
            "hardware": p.hardware,
            "version": p.version,
            "command": p.command,
            "settings": dict(p.settings),
            "names": dict(p.names),
            "note": p.note,
            "scales": list(p.scales),
            "figures": [f.to_json() for f in p.figures],
        }
        for p in studies
    ]


@dataclass(frozen=True)
class Comparison:
    """One strategy's row under a published figure: theirs, ours, both as ratios to the baseline, the word."""

    strategy: str
    theirs: float
    ours: Figure
    theirs_ratio: float | None
    ours_ratio: float | None
    word: str | None  # None for the baseline itself
    # The study's direction, where it states one in place of a figure (theirs is then NaN).
    claim: str | None = None


# Per strategy, the figures read from its windows' time series: workload -> metric -> value.
Sampled = Mapping[str, Mapping[str, Mapping[str, float]]]


def compare(
    item: PublishedFigure, strategies: Mapping[str, StrategyResult], sampled: Sampled | None = None
) -> list[Comparison]:
    """ITEM against our results (strategy name -> its results), in the study's order."""
    if item.share:
        return _compare_shares(item, strategies)
    if item.direction:
        return _compare_directions(item, strategies, sampled or {})
    baseline = strategies.get(item.relative_to)
    base_ours = ours(item, baseline) if baseline is not None else Figure(None, "baseline not run")
    base_theirs = item.values[item.relative_to]
    rows = []
    for name, value in item.values.items():
        strategy = strategies.get(name)
        mine = ours(item, strategy) if strategy is not None else Figure(None, "not run")
        theirs_ratio = value / base_theirs
        ours_ratio = mine.value / base_ours.value if mine.value is not None and base_ours.value else None
        word = None if name == item.relative_to else agreement(theirs_ratio, ours_ratio)
        rows.append(Comparison(name, value, mine, theirs_ratio, ours_ratio, word))
    return rows


def _compare_directions(
    item: PublishedFigure, strategies: Mapping[str, StrategyResult], sampled: Sampled
) -> list[Comparison]:
    def mine(name: str) -> Figure:
        strategy = strategies.get(name)
        return ours(item, strategy, sampled.get(name)) if strategy is not None else Figure(None, "not run")

    base = mine(item.relative_to)
    rows = [Comparison(item.relative_to, math.nan, base, None, 1.0 if base.value else None, None, "baseline")]
    for name, claim in item.direction.items():
        found = mine(name)
        ratio = found.value / base.value if found.value is not None and base.value else None
        # A zero share against a zero baseline is no difference; against a positive one, smaller.
        if found.value is not None and base.value is not None and not base.value:
            ratio = 1.0 if not found.value else math.inf
        rows.append(Comparison(name, math.nan, found, None, ratio, direction_agreement(claim, ratio), claim))
    return rows


def _compare_shares(item: PublishedFigure, strategies: Mapping[str, StrategyResult]) -> list[Comparison]:
    rows = []
    for name, value in item.values.items():
        strategy = strategies.get(name)
        mine = ours(item, strategy) if strategy is not None else Figure(None, "not run")
        if item.base_workload is None:
            word = share_agreement(value, mine.value)
        else:
            # A share of the strategy's own rate elsewhere is a ratio to that rate: 100% is no change.
            word = agreement(value / 100, None if mine.value is None else mine.value / 100)
        rows.append(Comparison(name, value, mine, None, None, word))
    return rows


def of_builtin(name: str) -> tuple[Published, ...]:
    """A built-in scenario's studies as this pkbench has them, read from its file's [[published]] tables
    and the kinds of its [[steps]] (the rest of the file is the scenario loader's to check)."""
    where = builtin.source(name)
    document = tomllib.loads(builtin.text(name))
    kinds = {str(step.get("name")): str(step.get("kind")) for step in document.get("steps", [])}
    tables = [schema.validate(PublishedSchema, where, table) for table in document.get("published", [])]
    return parse(where, tables, kinds)
