"""Scenario files: load, validate and render the declarative steps a run executes for each strategy."""

from __future__ import annotations

import math
import re
import tomllib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Annotated, Any, Literal, cast

from pydantic import BeforeValidator, Field

from pkbench import schema
from pkbench.errors import PkbenchError
from pkbench.scenario import builtin, cores
from pkbench.scenario import published as published_module
from pkbench.scenario.published import Published
from pkbench.server.topology import Topology
from pkbench.steps import (
    KINDS,
    ChurnStep,
    CopyStep,
    DensityStep,
    FillStep,
    PgbenchStep,
    Script,
    SnapshotStep,
    SqlStep,
    Step,
    kind_names,
    kind_of,
)
from pkbench.strategies.model import CLIENT_KEY_PLACEHOLDERS, LAYOUT_PLACEHOLDERS

__all__ = [
    "CopyStep",
    "DensityStep",
    "FillStep",
    "PgbenchStep",
    "Scenario",
    "Script",
    "SnapshotStep",
    "SqlStep",
    "Step",
]

Value = int | float | str

_PLACEHOLDER = re.compile(r"\{([a-z_][a-z0-9_]*)\}")
# Placeholders every SQL text may use besides the scenario's parameters (the layout's: strategies.model).
STRATEGY_PLACEHOLDERS = (
    "key_type",
    "key_default",
    "key_order",
    "key_time_kind",
    *LAYOUT_PLACEHOLDERS,
    *CLIENT_KEY_PLACEHOLDERS,
)
REQUIRED_PARAMETERS = ("rows", "clients", "jobs", "duration_s")


@dataclass(frozen=True)
class SummarySpec:
    """What the Results Summary headlines: the scenario file's optional [summary] table.

    `insert` names the fill step whose time and rate are "time to insert" (the first fill step when not
    given; None when there is none, or where the file says `insert = false`: paired rounds then run every
    fill whole in its strategy's turn, rather than in parts alternating between the strategies); `timed`
    names further timed steps shown as columns of their own; `size` names the snapshot step whose total
    size is compared (None: the size at the end of the run).
    """

    insert: str | None = None
    timed: tuple[str, ...] = ()
    size: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {"insert": self.insert, "timed": list(self.timed), "size": self.size}


def _parameters(value: object) -> object:
    if not isinstance(value, dict):
        raise ValueError("must be a table")
    for key, item in value.items():
        if not isinstance(item, int | float | str) or isinstance(item, bool):
            raise ValueError(f"parameter {key!r} must be a number or a string")
        if isinstance(item, float) and not math.isfinite(item):
            raise ValueError(f"parameter {key!r} must be a finite number")
    return value


def _setting_values(value: object) -> object:
    if not isinstance(value, dict) or not all(isinstance(v, str | int | float) for v in value.values()):
        raise ValueError("must be a table of strings and numbers")
    return {str(k): str(v) for k, v in value.items()}


def _steps(value: object) -> object:
    if not isinstance(value, list) or not value or not all(isinstance(t, dict) for t in value):
        raise ValueError("must be a non-empty list of [[steps]] tables")
    return value


SUMMARY_KEYS = ("insert", "timed", "size")


class SummarySchema(schema.Strict):
    insert: schema.Text | Literal[False] | None = None
    timed: list[schema.Text] = Field(default_factory=list)
    size: schema.Text | None = None


class TopologySchema(schema.Strict):
    """[topology]: what runs beside the embedded server (topology.py); --standby and --archive add to it."""

    standby: bool = False
    archive: bool = False
    wal_segment_size_mb: int | None = None
    shards: int = 0


class ScaleSchema(schema.Strict):
    description: str = ""
    isolate: schema.Boolean = False
    strategies: list[schema.Text] | None = None
    parameters: Annotated[dict[str, int | float | str], BeforeValidator(_parameters)] = Field(
        default_factory=dict
    )
    settings: Annotated[dict[str, str], BeforeValidator(_setting_values)] = Field(default_factory=dict)


@dataclass(frozen=True)
class Scale:
    """A named preset of a scenario (`--scale study`): its parameters and server settings."""

    description: str
    parameters: Mapping[str, Value]
    settings: Mapping[str, str]
    # Each strategy alone in a fresh schema, one after the other, as the study ran (--isolate).
    isolate: bool = False
    # The strategies the preset runs when --strategies is not given (a study's own generators, scaled).
    strategies: Sequence[str] | None = None


# The scale a run has when --scale is not given; a step limited to scales names it to run then too.
DEFAULT_SCALE = "default"


class ScenarioFile(schema.Strict):
    """A scenario file's top level; each [[steps]] table is checked by its kind's own Schema."""

    name: schema.Text
    description: str = ""
    table: schema.Text = "records"
    strategies: list[schema.Text] = Field(default_factory=lambda: ["bigint", "uuid-v4"])
    # The strategy every other is compared with when it runs (default: the first strategy run).
    baseline: schema.Text | None = None
    parameters: Annotated[dict[str, int | float | str], BeforeValidator(_parameters)] = Field(
        default_factory=dict
    )
    limits: Annotated[dict[str, str], BeforeValidator(_setting_values)] = Field(default_factory=dict)
    settings: Annotated[dict[str, str], BeforeValidator(_setting_values)] = Field(default_factory=dict)
    steps: Annotated[list[dict[str, Any]], BeforeValidator(_steps)]
    summary: SummarySchema = Field(default_factory=SummarySchema)
    topology: TopologySchema = Field(default_factory=TopologySchema)
    scale: dict[str, ScaleSchema] = Field(default_factory=dict)
    published: list[published_module.PublishedSchema] = Field(default_factory=list)
    # The sweep a run makes when the command line asks for none: a parameter and its values ("cores" allowed).
    sweep: dict[str, list[int | str]] = Field(default_factory=dict)


def _summary(where: str, spec: SummarySchema, steps: list[Step]) -> SummarySpec:
    by_name = {step.name: step for step in steps}

    def step_of(key: str, name: str, accepts: Callable[[Step], bool], what: str) -> str:
        step = by_name.get(name)
        if step is None or not accepts(step):
            raise PkbenchError(
                f"{where}: [summary] {key} must name a {what} step of this scenario (got {name!r})"
            )
        return name

    def of_type(step_type: type) -> Callable[[Step], bool]:
        return lambda step: isinstance(step, step_type)

    def is_timed(step: Step) -> bool:
        return kind_of(step).timed

    fills = [step.name for step in steps if isinstance(step, FillStep)]
    insert = step_of("insert", spec.insert, of_type(FillStep), "'fill'") if spec.insert else None
    return SummarySpec(
        insert=insert or (fills[0] if fills and spec.insert is None else None),
        timed=tuple(
            step_of("timed", name, lambda step: kind_of(step).timed, kind_names("timed"))
            for name in spec.timed
        ),
        size=step_of("size", spec.size, of_type(SnapshotStep), "'snapshot'")
        if spec.size is not None
        else None,
    )


@dataclass(frozen=True)
class Scenario:
    name: str
    description: str
    source: str
    table: str
    strategies: tuple[str, ...]
    parameters: Mapping[str, Value]
    limits: Mapping[str, str]
    settings: Mapping[str, str]
    steps: tuple[Step, ...]
    summary: SummarySpec = SummarySpec()
    topology: Topology = field(default_factory=Topology)
    published: tuple[Published, ...] = ()
    baseline: str | None = None
    scales: Mapping[str, Scale] = field(default_factory=dict)
    # Steps run only at some scales (their `scales` key); `steps` are `scale`'s, `all_steps` the file's.
    step_scales: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    scale: str = DEFAULT_SCALE
    # The scale's preset asks for each strategy alone, as --isolate does.
    isolate: bool = False
    all_steps: tuple[Step, ...] = ()
    # The sweep a run without --clients (or a swept --set) makes: (parameter, its values), counted in cores.
    sweep: tuple[str, tuple[int, ...]] | None = None

    def at_scale(self, name: str | None) -> Scenario:
        """The scenario at one of its [scale] presets (None: as written), without other scales' steps."""
        chosen = name or DEFAULT_SCALE
        if name is not None and name not in self.scales:
            known = ", ".join(self.scales) or "none"
            raise PkbenchError(
                f"--scale {name}: scenario {self.name} has no such scale (its scales: {known})"
            )
        preset = self.scales.get(chosen, Scale("", {}, {}))
        steps = tuple(s for s in self.all_steps if chosen in self.step_scales.get(s.name, (chosen,)))
        scenario = replace(
            self,
            parameters=cores.resolved({**self.parameters, **preset.parameters}),
            settings={**self.settings, **preset.settings},
            steps=steps,
            scale=chosen,
            isolate=preset.isolate,
            strategies=self.strategies if preset.strategies is None else tuple(preset.strategies),
        )
        scenario.validate()
        return scenario

    def int_parameter(self, name: str) -> int:
        value = self.parameters.get(name)
        if not isinstance(value, int):
            raise PkbenchError(f"scenario {self.name}: parameter {name!r} must be an integer")
        return value

    def with_parameters(self, overrides: Mapping[str, Value | None]) -> Scenario:
        """Apply command-line values, then check the result makes sense."""
        merged = dict(self.parameters)
        merged.update({k: v for k, v in overrides.items() if v is not None})
        for name, ceiling in self.limits.items():
            if isinstance(merged.get(name), int) and isinstance(merged.get(ceiling), int):
                merged[name] = min(int(merged[name]), int(merged[ceiling]))
        if isinstance(merged.get("jobs"), int) and isinstance(merged.get("clients"), int):
            # pgbench refuses more threads than clients.
            merged["jobs"] = min(int(merged["jobs"]), int(merged["clients"]))
        scenario = replace(self, parameters=merged)
        scenario.validate()
        return scenario

    def validate(self) -> None:
        for name in REQUIRED_PARAMETERS:
            value = self.parameters.get(name)
            if isinstance(value, bool) or not isinstance(value, int):
                raise PkbenchError(f"scenario {self.name}: parameter {name!r} must be an integer")
            if value < 1:
                raise PkbenchError(f"{name.removesuffix('_s')} must be at least 1 (got {value})")
        for name, value in self.parameters.items():
            if isinstance(value, int | float) and not isinstance(value, bool) and value < 0:
                raise PkbenchError(f"scenario {self.name}: parameter {name!r} must not be negative")
        known = set(self.parameters) | set(STRATEGY_PLACEHOLDERS)
        for step in self.steps:
            for text in step.texts():
                extra = {"batch"} if kind_of(step).batched else set()
                unknown = set(_PLACEHOLDER.findall(text)) - known - extra
                if unknown:
                    raise PkbenchError(
                        f"scenario {self.name}, step {step.name!r}: unknown placeholder(s) "
                        + ", ".join("{" + u + "}" for u in sorted(unknown))
                    )
            if kind_of(step).batched:
                batched = cast(FillStep | ChurnStep, step)
                workers = batched.workers_parameter if isinstance(batched, FillStep) else None
                for parameter in (batched.rows_parameter, batched.batch_parameter, workers):
                    if parameter is None:
                        continue
                    if not isinstance(self.parameters.get(parameter), int):
                        raise PkbenchError(
                            f"scenario {self.name}, step {step.name!r}: parameter "
                            f"{parameter!r} must be an integer"
                        )
                if self.int_parameter(batched.batch_parameter) < 1:
                    raise PkbenchError(f"{batched.batch_parameter} must be at least 1")
        if not any(kind_of(s).measuring for s in self.steps):
            raise PkbenchError(
                f"scenario {self.name}: needs at least one step of kind {kind_names('measuring')}"
            )

    def render(self, text: str, key_type: str, key_default: str, **extra: Value) -> str:
        """Fill the placeholders of one SQL text."""
        values: dict[str, Value] = {
            **self.parameters,
            "key_type": key_type,
            "key_default": key_default,
            **extra,
        }

        def substitute(match: re.Match[str]) -> str:
            return str(values[match.group(1)])

        return _PLACEHOLDER.sub(substitute, text)


def parse(text: str, source: str) -> Scenario:
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise PkbenchError(f"scenario {source}: {e}") from e
    where = f"scenario {source}"
    checked = schema.validate(ScenarioFile, where, data)
    steps = []
    kinds: dict[str, str] = {}
    step_scales: dict[str, tuple[str, ...]] = {}
    scales = {name: Scale(**preset.model_dump()) for name, preset in checked.scale.items()}
    for i, table in enumerate(checked.steps, 1):
        kind = KINDS.get(str(table.get("kind")))
        if kind is None:
            raise PkbenchError(
                f"{where}, step #{i}: 'kind' must be one of {', '.join(KINDS)} (got {table.get('kind')!r})"
            )
        step = kind.parse(f"{where}, step #{i}", table)
        steps.append(step)
        kinds[step.name] = str(table["kind"])
        if "scales" in table:
            step_scales[step.name] = _step_scales(f"{where}, step #{i}", table["scales"], scales)
    scenario = Scenario(
        name=checked.name,
        description=checked.description,
        source=source,
        table=checked.table,
        strategies=tuple(checked.strategies),
        baseline=checked.baseline,
        parameters=dict(checked.parameters),
        limits=dict(checked.limits),
        settings=dict(checked.settings),
        steps=tuple(steps),
        all_steps=tuple(steps),
        summary=_summary(where, checked.summary, steps),
        topology=Topology(**checked.topology.model_dump()),
        published=published_module.parse(where, checked.published, kinds, (DEFAULT_SCALE, *scales)),
        scales=scales,
        step_scales=step_scales,
        sweep=cores.default_sweep(where, checked.sweep, checked.parameters),
    )
    return scenario.at_scale(None)


def _step_scales(where: str, names: list[str], scales: Mapping[str, Scale]) -> tuple[str, ...]:
    known = (DEFAULT_SCALE, *scales)
    for name in names:
        if name not in known:
            raise PkbenchError(f"{where}: scales: unknown scale {name!r} (known: {', '.join(known)})")
    return tuple(names)


def builtin_names() -> list[str]:
    return builtin.names()


def load(name_or_path: str) -> Scenario:
    """A built-in scenario by name, or a scenario file by path."""
    if name_or_path in builtin_names():
        return parse(builtin.text(name_or_path), builtin.source(name_or_path))
    path = Path(name_or_path)
    if path.suffix == ".toml" or path.exists():
        try:
            text = path.read_text()
        except OSError as e:
            raise PkbenchError(f"cannot read scenario {path}: {e.strerror}") from e
        except UnicodeDecodeError as e:
            raise PkbenchError(f"scenario {path}: not a TOML text file ({e.reason} at byte {e.start})") from e
        return parse(text, str(path))
    raise PkbenchError(
        f"unknown scenario {name_or_path!r} (built in: {', '.join(builtin_names())}; "
        "or give a path to a .toml file)"
    )
