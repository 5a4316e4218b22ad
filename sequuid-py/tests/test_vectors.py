"""The shared vectors made from the C extension (sequuid/vectors/): every case of every file must pass here.

A file that is missing fails; a group whose function this library does not map fails too, so that a new
group made from the extension cannot go unread.  Cases with an infinite instant are the only ones that do
not apply: no Python value the library takes is an infinite instant (the test checks that no other case is
left out).
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any
from uuid import UUID

import pytest

import sequuid

VECTORS = Path(os.environ.get("SEQUUID_VECTORS", Path(__file__).resolve().parents[2] / "sequuid" / "vectors"))
FILES = ["v7", "v6", "ulid", "sequential", "striped", "extract", "ranges", "base32hex", "publicid"]

Inputs = dict[str, Any]


def _instant(inputs: Inputs, name: str) -> int:
    return int(inputs[f"{name}_unix_us"])


def _interval(inputs: Inputs, name: str) -> sequuid.Interval:
    parts = inputs[f"{name}_parts"]
    return sequuid.Interval(parts["months"], parts["days"], parts["microseconds"])


def _rows(rows: list[Any]) -> list[dict[str, Any]]:
    return [row._asdict() for row in rows]


def _partitions(inputs: Inputs) -> list[dict[str, Any]]:
    partitions = sequuid.time_partitions(
        inputs["kind"],
        _instant(inputs, "start"),
        _interval(inputs, "step"),
        inputs["count"],
        inputs.get("zone"),
    )
    return [
        {
            "range_start_unix_us": p.range_start,
            "range_end_unix_us": p.range_end,
            "lower": p.lower,
            "upper": p.upper,
        }
        for p in partitions
    ]


def _time_prefixed(inputs: Inputs) -> UUID:
    at = inputs["unix_seconds"] * 1_000_000 if "unix_seconds" in inputs else None
    return sequuid.time_prefixed(inputs["interval_length"], inputs["interval_count"], at=at)


def _uuid7_at(inputs: Inputs) -> UUID:
    return sequuid.uuid7_at(_instant(inputs, "instant"), zero=inputs.get("zero", False))


CALLS: dict[str, Callable[[Inputs], Any]] = {
    "uuid_v7_boundary": lambda i: sequuid.v7_boundary(_instant(i, "instant")),
    "uuid_timestamptz_to_v7": _uuid7_at,
    "uuid_generate_v7": lambda i: sequuid.uuid7_at(
        _instant(i, "instant"), shift=_interval(i, "shift"), time_zone=i["time_zone"]
    ),
    "uuid_v1_to_v6": lambda i: sequuid.v1_to_v6(UUID(i["id"])),
    "uuid_v6_to_v1": lambda i: sequuid.v6_to_v1(UUID(i["id"])),
    "uuid_to_ulid": lambda i: sequuid.uuid_to_ulid(UUID(i["id"])),
    "ulid_to_uuid": lambda i: sequuid.ulid_to_uuid(i["ulid"]),
    "uuid_sequence_nextval": lambda i: sequuid.sequence_prefixed(
        i["value"], i["block_size"], i["block_count"]
    ),
    "uuid_time_nextval": _time_prefixed,
    "uuid_striped_ranges": lambda i: _rows(
        sequuid.striped_ranges(i["stripes"], _instant(i, "from_time"), _instant(i, "to_time"))
    ),
    "uuid_timestamp": lambda i: sequuid.timestamp_us(UUID(i["id"])),
    "ulid_timestamp": lambda i: sequuid.ulid_timestamp_us(UUID(i["id"])),
    "uuid_version": lambda i: sequuid.version(UUID(i["id"])),
    "uuid_variant": lambda i: sequuid.variant(UUID(i["id"])),
    "uuid_time_partitions": _partitions,
    "uuid_to_base32hex": lambda i: sequuid.uuid_to_base32hex(UUID(i["id"])),
    "uuid_from_base32hex": lambda i: sequuid.uuid_from_base32hex(i["base32hex"]),
    "uuid_v7_to_public": lambda i: sequuid.v7_to_public(UUID(i["id"]), bytes.fromhex(i["key"])),
    "uuid_public_to_v7": lambda i: sequuid.public_to_v7(UUID(i["id"]), bytes.fromhex(i["key"])),
    "uuid_v7_to_uuidv47": lambda i: sequuid.v7_to_uuidv47(UUID(i["id"]), bytes.fromhex(i["key"])),
    "uuid_uuidv47_to_v7": lambda i: sequuid.uuidv47_to_v7(UUID(i["id"]), bytes.fromhex(i["key"])),
}


def _not_applicable(inputs: Inputs) -> bool:
    return any(value in ("infinity", "-infinity") for value in inputs.values())


def _expected_value(value: Any, output_type: str) -> Any:
    """The output as the library returns it: uuids as UUID, timestamps as Unix microseconds."""
    if output_type == "uuid":
        return None if value is None else UUID(value)
    return value


def _matches(result: Any, expected: Any, mask: str | None) -> bool:
    if mask is None:
        return bool(result == expected)
    assert isinstance(result, UUID) and isinstance(expected, UUID)
    return result.int & UUID(mask).int == expected.int


def _check_valid(group: dict[str, Any], test: dict[str, Any], result: Any) -> None:
    output_type = group["outputType"]
    mask = test.get("mask", group["mask"])
    if output_type == "timestamptz":
        assert result == (None if test["output"] is None else test["output_unix_us"])
    elif output_type == "rows":
        expected_rows = test["output"]
        if group["function"] == "uuid_striped_ranges":
            # a group of many stripes lists some of their rows: each is matched by its stripe
            assert len(result) == test["input"]["stripes"]
            result = [result[expected["stripe"]] for expected in expected_rows]
        assert len(result) == len(expected_rows)
        for row, expected in zip(result, expected_rows, strict=True):
            for column, value in row.items():
                wanted = expected[column]
                assert value == (UUID(wanted) if isinstance(value, UUID) else wanted), column
    else:
        expected = _expected_value(test["output"], output_type)
        assert _matches(result, expected, mask), f"{result} does not match {expected} under mask {mask}"


def _cases() -> list[Any]:
    cases = []
    for name in FILES:
        path = VECTORS / f"{name}.json"
        if not path.exists():
            cases.append(pytest.param(name, None, None, id=f"{name}.json missing"))
            continue
        document = json.loads(path.read_text(encoding="utf-8"))
        for group in document["testGroups"]:
            for test in group["tests"]:
                cases.append(pytest.param(name, group, test, id=f"{name}-{test['tcId']}"))
    return cases


@pytest.mark.parametrize(("file", "group", "test"), _cases())
def test_vector(file: str, group: dict[str, Any] | None, test: dict[str, Any] | None) -> None:
    assert group is not None and test is not None, f"{VECTORS / (file + '.json')} is missing"
    call = CALLS.get(group["function"])
    assert call is not None, f"no mapping for the extension's {group['function']}: add one to CALLS"
    if _not_applicable(test["input"]):
        assert test["result"] == "invalid", "only invalid infinite instants may be left out"
        return
    if test["result"] == "valid":
        _check_valid(group, test, call(test["input"]))
    else:
        expected_error = {"ValueError": ValueError, "TypeError": TypeError}[test["error"]["python"]]
        with pytest.raises(expected_error):
            call(test["input"])


def test_every_file_counts_its_tests() -> None:
    for name in FILES:
        path = VECTORS / f"{name}.json"
        assert path.exists(), f"{path} is missing"
        document = json.loads(path.read_text(encoding="utf-8"))
        assert document["numberOfTests"] == sum(len(group["tests"]) for group in document["testGroups"])
