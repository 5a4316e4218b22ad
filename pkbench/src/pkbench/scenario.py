"""Scenario files: load, validate and render the declarative steps a run executes for each strategy."""

from __future__ import annotations

import re
import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from importlib import resources
from pathlib import Path
from typing import Any

from pkbench.errors import PkbenchError

Value = int | float | str

_PLACEHOLDER = re.compile(r"\{([a-z_][a-z0-9_]*)\}")
# Placeholders every SQL text may use besides the scenario's parameters.
STRATEGY_PLACEHOLDERS = ("key_type", "key_default")
REQUIRED_PARAMETERS = ("rows", "clients", "jobs", "duration_s")


@dataclass(frozen=True)
class SqlStep:
    """Statements run one by one in autocommit (so VACUUM and CHECKPOINT work).

    `if_permitted` statements run afterwards and may be refused for lack of privilege (CHECKPOINT on a server
    given by --dsn); that is recorded as unavailable, not as a failure.
    """

    name: str
    statements: tuple[str, ...]
    if_permitted: tuple[str, ...] = ()


@dataclass(frozen=True)
class FillStep:
    """A batched INSERT repeated until `rows` rows are in, with a progress bar; timed as the prefill."""

    name: str
    rows_parameter: str
    batch_parameter: str
    statement: str
    # When set, `rows` is the table's size after the step, not the rows it adds: successive fills then
    # read as the sizes a study measures at (0, 1M, 5M ...), and a --rows override moves only the last.
    total: bool = False


@dataclass(frozen=True)
class SnapshotStep:
    """Record the sizes of the scenario's table and its indexes under this step's name."""

    name: str


@dataclass(frozen=True)
class Script:
    name: str
    weight: int
    sql: str


@dataclass(frozen=True)
class PgbenchStep:
    """A measured workload: pgbench runs the weighted scripts while the probes sample the server."""

    name: str
    description: str
    scripts: tuple[Script, ...]
    # With pg_walinspect: the window's WAL split into full-page images and records, page splits, and the
    # distinct blocks and splits of these relations (None: not inspected).
    wal_inspect: tuple[str, ...] | None = None


@dataclass(frozen=True)
class DensityStep:
    """Record pgstatindex of `indexes` and pgstattuple of `tables` under this step's name."""

    name: str
    indexes: tuple[str, ...]
    tables: tuple[str, ...]


@dataclass(frozen=True)
class CopyStep:
    """COPY rows into a table from the client (the rows come from `source`, a query); timed."""

    name: str
    source: str
    target: str


Step = SqlStep | FillStep | SnapshotStep | PgbenchStep | DensityStep | CopyStep
# Steps that produce figures of their own: a scenario needs at least one.
MEASURING_STEPS = (PgbenchStep, DensityStep)
# Steps whose duration lands in step_durations_s.
TIMED_STEPS = (SqlStep, FillStep, CopyStep)


@dataclass(frozen=True)
class SummarySpec:
    """What the Results Summary headlines: the scenario file's optional [summary] table.

    `insert` names the fill step whose time and rate are "time to insert" (the first fill step when not
    given; None when there is none); `timed` names further timed steps shown as columns of their own; `size`
    names the snapshot step whose total size is compared (None: the size at the end of the run).
    """

    insert: str | None = None
    timed: tuple[str, ...] = ()
    size: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {"insert": self.insert, "timed": list(self.timed), "size": self.size}


SUMMARY_KEYS = ("insert", "timed", "size")


def _summary(where: str, data: Any, steps: list[Step]) -> SummarySpec:
    if not isinstance(data, dict):
        raise PkbenchError(f"{where}: [summary] must be a table")
    unknown = sorted(set(data) - set(SUMMARY_KEYS))
    if unknown:
        raise PkbenchError(
            f"{where}: [summary] has unknown key(s) {', '.join(unknown)} (known: {', '.join(SUMMARY_KEYS)})"
        )
    by_name = {step.name: step for step in steps}

    def step_of(key: str, name: object, kinds: tuple[type, ...], what: str) -> str:
        if not isinstance(name, str) or not isinstance(by_name.get(name), kinds):
            raise PkbenchError(
                f"{where}: [summary] {key} must name a {what} step of this scenario (got {name!r})"
            )
        return name

    fills = [step.name for step in steps if isinstance(step, FillStep)]
    insert = step_of("insert", data["insert"], (FillStep,), "fill") if "insert" in data else None
    timed = data.get("timed", [])
    if not isinstance(timed, list):
        raise PkbenchError(f"{where}: [summary] timed must be a list of step names")
    return SummarySpec(
        insert=insert or (fills[0] if fills else None),
        timed=tuple(step_of("timed", name, TIMED_STEPS, "sql, fill or copy") for name in timed),
        size=step_of("size", data["size"], (SnapshotStep,), "snapshot") if "size" in data else None,
    )


def _text(where: str, table: Mapping[str, Any], key: str, default: str | None = None) -> str:
    value = table.get(key, default)
    if not isinstance(value, str) or not value:
        raise PkbenchError(f"{where}: '{key}' must be a non-empty string")
    return value


def _sql_step(where: str, table: Mapping[str, Any]) -> Step:
    statements = table.get("statements", [])
    if_permitted = table.get("if_permitted", [])
    for key, value in (("statements", statements), ("if_permitted", if_permitted)):
        if not isinstance(value, list) or not all(isinstance(s, str) for s in value):
            raise PkbenchError(f"{where}: '{key}' must be a list of SQL strings")
    if not statements and not if_permitted:
        raise PkbenchError(f"{where}: 'statements' must be a non-empty list of SQL strings")
    return SqlStep(_text(where, table, "name"), tuple(statements), tuple(if_permitted))


def _fill_step(where: str, table: Mapping[str, Any]) -> Step:
    total = table.get("total", False)
    if not isinstance(total, bool):
        raise PkbenchError(f"{where}: 'total' must be true or false")
    return FillStep(
        _text(where, table, "name"),
        _text(where, table, "rows", "rows"),
        _text(where, table, "batch_rows", "batch_rows"),
        _text(where, table, "statement"),
        total,
    )


def _names(where: str, table: Mapping[str, Any], key: str) -> tuple[str, ...]:
    value = table.get(key, [])
    if not isinstance(value, list) or not all(isinstance(v, str) and v for v in value):
        raise PkbenchError(f"{where}: '{key}' must be a list of relation names")
    return tuple(value)


def _density_step(where: str, table: Mapping[str, Any]) -> Step:
    step = DensityStep(
        _text(where, table, "name"), _names(where, table, "indexes"), _names(where, table, "tables")
    )
    if not step.indexes and not step.tables:
        raise PkbenchError(f"{where}: name at least one of 'indexes' or 'tables'")
    return step


def _copy_step(where: str, table: Mapping[str, Any]) -> Step:
    target = _text(where, table, "target")
    if not re.match(r"(?is)^\s*COPY\s.*\sFROM\s+STDIN\b", target):
        raise PkbenchError(f"{where}: 'target' must be a COPY ... FROM STDIN statement")
    return CopyStep(_text(where, table, "name"), _text(where, table, "source"), target)


def _snapshot_step(where: str, table: Mapping[str, Any]) -> Step:
    return SnapshotStep(_text(where, table, "name"))


def _pgbench_step(where: str, table: Mapping[str, Any]) -> Step:
    raw = table.get("scripts")
    if not isinstance(raw, list) or not raw:
        raise PkbenchError(f"{where}: 'scripts' must be a non-empty list of {{name, weight, sql}} tables")
    scripts = []
    for i, entry in enumerate(raw, 1):
        if not isinstance(entry, dict):
            raise PkbenchError(f"{where}, script #{i}: expected a table {{name, weight, sql}}")
        weight = entry.get("weight", 1)
        if not isinstance(weight, int) or weight < 1:
            raise PkbenchError(f"{where}, script #{i}: 'weight' must be a positive integer")
        scripts.append(
            Script(
                _text(f"{where}, script #{i}", entry, "name"),
                weight,
                _text(f"{where}, script #{i}", entry, "sql"),
            )
        )
    if len({s.name for s in scripts}) != len(scripts):
        raise PkbenchError(f"{where}: script names must differ")
    wal_inspect = _names(where, table, "wal_inspect") if "wal_inspect" in table else None
    return PgbenchStep(
        _text(where, table, "name"), str(table.get("description", "")), tuple(scripts), wal_inspect
    )


# One place to add a step kind: its parser here and its handler in runner.STEP_HANDLERS.
STEP_KINDS: dict[str, Callable[[str, Mapping[str, Any]], Step]] = {
    "sql": _sql_step,
    "fill": _fill_step,
    "snapshot": _snapshot_step,
    "pgbench": _pgbench_step,
    "density": _density_step,
    "copy": _copy_step,
}


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
            for text in _texts(step):
                extra = {"batch"} if isinstance(step, FillStep) else set()
                unknown = set(_PLACEHOLDER.findall(text)) - known - extra
                if unknown:
                    raise PkbenchError(
                        f"scenario {self.name}, step {step.name!r}: unknown placeholder(s) "
                        + ", ".join("{" + u + "}" for u in sorted(unknown))
                    )
            if isinstance(step, FillStep):
                for parameter in (step.rows_parameter, step.batch_parameter):
                    if not isinstance(self.parameters.get(parameter), int):
                        raise PkbenchError(
                            f"scenario {self.name}, step {step.name!r}: parameter "
                            f"{parameter!r} must be an integer"
                        )
                if self.int_parameter(step.batch_parameter) < 1:
                    raise PkbenchError(f"{step.batch_parameter} must be at least 1")
        if not any(isinstance(s, MEASURING_STEPS) for s in self.steps):
            raise PkbenchError(
                f"scenario {self.name}: needs at least one step of kind 'pgbench' or 'density'"
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


def _texts(step: Step) -> list[str]:
    if isinstance(step, SqlStep):
        return [*step.statements, *step.if_permitted]
    if isinstance(step, FillStep):
        return [step.statement]
    if isinstance(step, PgbenchStep):
        return [s.sql for s in step.scripts]
    if isinstance(step, CopyStep):
        return [step.source, step.target]
    return []


def parse(text: str, source: str) -> Scenario:
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise PkbenchError(f"scenario {source}: {e}") from e
    where = f"scenario {source}"
    name = _text(where, data, "name")
    steps_raw = data.get("steps")
    if not isinstance(steps_raw, list) or not steps_raw:
        raise PkbenchError(f"{where}: needs a list of [[steps]]")
    steps = []
    for i, table in enumerate(steps_raw, 1):
        kind = table.get("kind") if isinstance(table, dict) else None
        parser = STEP_KINDS.get(kind) if isinstance(kind, str) else None
        if parser is None:
            raise PkbenchError(
                f"{where}, step #{i}: 'kind' must be one of {', '.join(STEP_KINDS)} (got {kind!r})"
            )
        steps.append(parser(f"{where}, step #{i}", table))
    sections: dict[str, dict[str, Any]] = {}
    for section in ("parameters", "limits", "settings"):
        value = data.get(section, {})
        if not isinstance(value, dict):
            raise PkbenchError(f"{where}: [{section}] must be a table")
        sections[section] = value
    for key, value in sections["parameters"].items():
        if not isinstance(value, int | float | str) or isinstance(value, bool):
            raise PkbenchError(f"{where}: parameter {key!r} must be a number or a string")
    strategies = data.get("strategies", ["bigint", "uuid-v4"])
    if not isinstance(strategies, list) or not all(isinstance(s, str) for s in strategies):
        raise PkbenchError(f"{where}: 'strategies' must be a list of strategy names")
    scenario = Scenario(
        name=name,
        description=str(data.get("description", "")),
        source=source,
        table=_text(where, data, "table", "records"),
        strategies=tuple(strategies),
        parameters=dict(sections["parameters"]),
        limits={str(k): str(v) for k, v in sections["limits"].items()},
        settings={str(k): str(v) for k, v in sections["settings"].items()},
        steps=tuple(steps),
        summary=_summary(where, data.get("summary", {}), steps),
    )
    scenario.validate()
    return scenario


def builtin_names() -> list[str]:
    folder = resources.files("pkbench") / "scenarios"
    return sorted(p.name.removesuffix(".toml") for p in folder.iterdir() if p.name.endswith(".toml"))


def load(name_or_path: str) -> Scenario:
    """A built-in scenario by name, or a scenario file by path."""
    if name_or_path in builtin_names():
        resource = resources.files("pkbench") / "scenarios" / f"{name_or_path}.toml"
        return parse(resource.read_text(), f"scenarios/{name_or_path}.toml")
    path = Path(name_or_path)
    if path.suffix == ".toml" or path.exists():
        try:
            text = path.read_text()
        except OSError as e:
            raise PkbenchError(f"cannot read scenario {path}: {e.strerror}") from e
        return parse(text, str(path))
    raise PkbenchError(
        f"unknown scenario {name_or_path!r} (built in: {', '.join(builtin_names())}; "
        "or give a path to a .toml file)"
    )
