"""The results directory on disk: results.json and timeseries/*.csv written, and read back as the model.

Rewritten after every strategy (write to a temporary file, then rename), so an interrupted run keeps what it
measured. Reading checks `schema_version` first: this pkbench reads the version it writes and refuses any
other in one line naming both.
"""

from __future__ import annotations

import contextlib
import csv
import dataclasses
import functools
import hashlib
import json
import types
import typing
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any, TextIO

from pkbench import __version__
from pkbench.errors import PkbenchError
from pkbench.results.model import (
    COMMON_COLUMNS,
    SCHEMA_VERSION,
    TIMESERIES_COLUMNS,
    Completion,
    RepeatedStrategy,
    RoundsRecord,
    RunResult,
    StrategyResult,
    Verdict,
)


class ResultsNotFoundError(PkbenchError):
    """The directory given is not a readable pkbench results directory."""


@contextlib.contextmanager
def _replacing(path: Path) -> Iterator[TextIO]:
    """PATH rewritten whole: a reader sees the old file or the new one, never half of one."""
    temporary = path.with_name(path.name + ".tmp")
    with temporary.open("w", newline="") as f:
        yield f
    temporary.replace(path)


def write(out_dir: Path, run: RunResult) -> None:
    """(Re)write results.json and timeseries/*.csv."""
    (out_dir / "timeseries").mkdir(parents=True, exist_ok=True)
    for name, columns in TIMESERIES_COLUMNS.items():
        with _replacing(out_dir / "timeseries" / f"{name}.csv") as f:
            writer = csv.writer(f)
            writer.writerow((*COMMON_COLUMNS, *columns))
            writer.writerows(run.series[name])
    with _replacing(out_dir / "results.json") as f:
        f.write(json.dumps(run.to_json(), indent=2) + "\n")


def read_series(out_dir: Path) -> dict[str, list[tuple[object, ...]]]:
    """The time series a results directory holds, as rows to write again (a resumed run appends to them)."""
    series: dict[str, list[tuple[object, ...]]] = {name: [] for name in TIMESERIES_COLUMNS}
    for name in TIMESERIES_COLUMNS:
        path = out_dir / "timeseries" / f"{name}.csv"
        if path.is_file():
            with path.open(newline="") as f:
                series[name] = [tuple(row) for row in list(csv.reader(f))[1:]]
    return series


# Runs read inside shared_loads() blocks, by the digest of their results.json's bytes: the same file, or a
# copy of it (the documents' tests check copies of the tree), is turned into typed objects once per process.
_SHARED_MOST = 512
_shared: dict[bytes, RunResult] = {}
_sharing = 0


@contextlib.contextmanager
def shared_loads() -> Iterator[None]:
    """Within the block, load() gives every caller of the same results.json (by its content) the same
    RunResult, kept for later blocks too: for readers that never change what they load (the documents'
    generator reads one run for many blocks, and turning its JSON into the typed run is most of its time)."""
    global _sharing
    _sharing += 1
    try:
        yield
    finally:
        _sharing -= 1


def load(out_dir: Path) -> RunResult:
    """The run a results directory holds, as the typed objects the run wrote (series stay in their CSVs)."""
    if not _sharing:
        return from_json(load_json(out_dir))
    path, raw = _read(out_dir)
    key = hashlib.blake2b(raw, digest_size=20).digest()
    if key not in _shared:
        if len(_shared) >= _SHARED_MOST:
            del _shared[next(iter(_shared))]
        _shared[key] = from_json(_parsed(path, raw))
    return _shared[key]


def is_shared(run: RunResult) -> bool:
    """Whether RUN is one a shared_loads() block handed out: a run its readers never change, so that what is
    worked out from it may be kept as long as it is."""
    return any(shared is run for shared in _shared.values())


def load_json(out_dir: Path) -> dict[str, Any]:
    """results.json of a results directory, refused in one line when this pkbench cannot read its version."""
    return _parsed(*_read(out_dir))


def _read(out_dir: Path) -> tuple[Path, bytes]:
    path = out_dir / "results.json"
    if not path.is_file():
        raise ResultsNotFoundError(
            f"{out_dir}: no results.json there, so it is not a pkbench results directory"
        )
    try:
        return path, path.read_bytes()
    except OSError as e:
        raise ResultsNotFoundError(f"{path}: cannot be read as JSON ({e})") from e


def _parsed(path: Path, raw: bytes) -> dict[str, Any]:
    try:
        data = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as e:
        raise ResultsNotFoundError(f"{path}: cannot be read as JSON ({e})") from e
    if not isinstance(data, dict):
        raise ResultsNotFoundError(f"{path}: not a results.json (expected a JSON object at the top level)")
    return checked(data, path)


def from_json(data: dict[str, Any]) -> RunResult:
    """The typed run of a checked results.json; a strategy combined over repeats is a RepeatedStrategy."""
    run = RunResult(
        command=list(data.get("command") or []),
        started_at=str(data.get("started_at")),
        scenario=dict(data.get("scenario") or {}),
        server=dict(data.get("server") or {}),
        machine=dict(data.get("machine") or {}),
        target=dict(data.get("target") or {}),
        finished_at=data.get("finished_at"),
        pkbench_version=str(data.get("pkbench_version") or "unknown"),
        clock=dict(data.get("clock") or {}),
        rounds=typed(RoundsRecord, data["rounds"]) if data.get("rounds") else None,
        baseline=data.get("baseline"),
        completion=typed(Completion, data["completion"]) if data.get("completion") else None,
        verdicts=[typed(Verdict, v) for v in data.get("verdicts") or []],
    )
    run.strategies = [
        typed(RepeatedStrategy if "repeats" in s or "spread" in s else StrategyResult, s)
        for s in data.get("strategies") or []
    ]
    return run


_FIELDS: dict[type[Any], tuple[tuple[str, Callable[[Any], Any]], ...]] = {}


def _fields(cls: type[Any]) -> tuple[tuple[str, Callable[[Any], Any]], ...]:
    """Each field of a model class with the converter of its resolved type: resolving annotations, and
    walking them again for every value, was most of what reading a results.json cost; a class's never
    change."""
    if cls not in _FIELDS:
        hints = typing.get_type_hints(cls)
        _FIELDS[cls] = tuple((f.name, _converter(hints[f.name])) for f in dataclasses.fields(cls))
    return _FIELDS[cls]


def typed(cls: type[Any], data: Mapping[str, Any]) -> Any:
    """An object of the results model from its JSON (fields the class lacks are dropped)."""
    return cls(**{name: convert(data[name]) for name, convert in _fields(cls) if name in data})


def _as_is(value: Any) -> Any:
    return value


@functools.cache
def _converter(hint: Any) -> Callable[[Any], Any]:
    """What turns a JSON value into HINT's type: a dataclass (or an optional one) from its dict, lists and
    dicts of them item by item, anything else as it is; None stays None."""
    origin, arguments = typing.get_origin(hint), typing.get_args(hint)
    if origin in (typing.Union, types.UnionType):
        classes = [a for a in arguments if isinstance(a, type) and dataclasses.is_dataclass(a)]
        inner = [a for a in arguments if a is not type(None)]
        record = classes[0] if classes else None
        single = _converter(inner[0]) if len(inner) == 1 else _as_is

        def union(value: Any) -> Any:
            if value is None:
                return None
            if record is not None and isinstance(value, dict):
                return typed(record, value)
            return single(value)

        return union
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        return lambda value: typed(hint, value) if isinstance(value, dict) else value
    if origin is list:
        item = _converter(arguments[0])
        if item is _as_is:
            return lambda value: None if value is None else list(value)
        return lambda value: None if value is None else [item(v) for v in value]
    if origin is dict and len(arguments) == 2:
        item = _converter(arguments[1])
        if item is _as_is:
            return lambda value: None if value is None else dict(value)
        return lambda value: None if value is None else {k: item(v) for k, v in value.items()}
    return _as_is


def checked(data: dict[str, Any], where: Path | str) -> dict[str, Any]:
    """The results of one run, if their schema_version is the one this pkbench writes."""
    version = data.get("schema_version")
    if version != SCHEMA_VERSION:
        newer = isinstance(version, int) and version > SCHEMA_VERSION
        raise PkbenchError(
            f"{where}: schema_version {version} is {'newer than' if newer else 'not'} the version "
            f"{SCHEMA_VERSION} this pkbench {__version__} reads"
            + ("; upgrade pkbench to read it" if newer else "")
        )
    return data
