"""The harness's checks on sequuid's generator and the Python implementations the setup installs, and on
generators broken on purpose, whose faults the checks must catch."""

from __future__ import annotations

import itertools
import json
import random
import threading
import time
from pathlib import Path

import pytest
import sequuid

from sequuid_conformance import checks, table
from sequuid_conformance.__main__ import EXPLANATION, _not_pinned, _result
from sequuid_conformance.implementations import BY_KEY, IMPLEMENTATIONS, PYTHON_CONSTRAINTS, python_pins
from sequuid_conformance.python_program import generator_of, make_burst

BURST = 20_000


def _passed(found: dict[str, checks.Check]) -> dict[str, bool | None]:
    return {name: check.passed for name, check in found.items()}


def test_sequuid_passes_every_check() -> None:
    burst = make_burst(sequuid.uuid7, 1, BURST)
    found = checks.check_burst(burst, reads_fraction=True)
    assert all(check.passed is not False for check in found.values()), found
    assert checks.check_threads(make_burst(sequuid.uuid7, 4, 5000)).passed


@pytest.mark.parametrize("name", ["uuid6", "uuid-utils"])
def test_the_installed_python_implementations(name: str) -> None:
    generate = generator_of(name)
    burst = make_burst(generate, 1, BURST)
    found = _passed(checks.check_burst(burst, reads_fraction=False))
    assert found["version_variant"] and found["timestamp"] and found["order"]
    if name == "uuid6":
        # each id in the same millisecond as the one before moves the time on by a millisecond
        # (uuid6-python#198): far ahead of the clock after a burst
        assert found["ahead"] is False
    else:
        assert found["ahead"]
    assert checks.check_threads(make_burst(generate, 2, 5000)).passed


def _v7(unix_ms: int, rand_a: int, rand_b: int) -> int:
    return (unix_ms << 80) | (7 << 76) | (rand_a << 64) | (0b10 << 62) | rand_b


def _random_sub_ms() -> int:
    """Random bits after the millisecond, as Node's crypto.randomUUIDv7 fills them: not ordered within one."""
    return _v7(time.time_ns() // 1_000_000, random.getrandbits(12), random.getrandbits(62))


def test_a_generator_with_random_bits_after_the_millisecond_is_not_ordered() -> None:
    burst = make_burst(_random_sub_ms, 1, BURST)
    assert checks.check_order(burst).passed is False


def test_a_wrong_version_or_variant_is_caught() -> None:
    version_4 = make_burst(lambda: sequuid.uuid7().int & ~(0xF << 76) | (4 << 76), 1, 100)
    variant_0 = make_burst(lambda: sequuid.uuid7().int & ~(0b11 << 62), 1, 100)
    assert checks.check_version_variant(version_4).passed is False
    assert checks.check_version_variant(variant_0).passed is False


def test_version_and_variant_are_checked_on_the_threads_burst_too() -> None:
    good = make_burst(sequuid.uuid7, 1, 100)
    one_bad_thread = make_burst(sequuid.uuid7, 2, 50)
    one_bad_thread.ids[1][-1] &= ~(0xF << 76)
    found = checks.check_burst(good, reads_fraction=True, threaded=one_bad_thread)["version_variant"]
    assert found.passed is False
    assert found.figures == {"ids": 200, "wrong_version": 1, "wrong_variant": 0}


def test_threads_are_one_column_or_the_other() -> None:
    shared = _result(
        BY_KEY["sequuid/python"], make_burst(sequuid.uuid7, 1, 100), make_burst(sequuid.uuid7, 2, 50)
    )
    isolated = _result(
        BY_KEY["sequuid/c"], make_burst(sequuid.uuid7, 1, 100), make_burst(sequuid.uuid7, 2, 50)
    )
    assert "threads_shared" in shared["checks"] and "threads_isolated" not in shared["checks"]
    assert "threads_isolated" in isolated["checks"] and "threads_shared" not in isolated["checks"]
    run = {
        "date": "2026-01-01T00:00:00+00:00",
        "machine": {"description": "a test"},
        "settings": {"burst": 100, "threads": 2, "per_thread": 50},
        "implementations": [shared, isolated],
    }
    rows = [line for line in table.render(run, "test.json").splitlines() if line.startswith("| `sequuid`")]
    threads_columns = [i + 4 for i, (name, _) in enumerate(table.COLUMNS) if name.startswith("threads_")]
    cells = [[cell.strip() for cell in row.strip("|").split("|")] for row in rows]
    assert [cells[0][i] for i in threads_columns] == ["yes", "—"]
    assert [cells[1][i] for i in threads_columns] == ["—", "yes"]


def test_python_libraries_are_pinned_and_checked() -> None:
    pins = python_pins()
    python_libraries = [i for i in IMPLEMENTATIONS if i.registry == "PyPI"]
    assert {i.package for i in python_libraries} == set(pins)
    for implementation in python_libraries:
        assert implementation.pinned == pins[implementation.package]
        # what setup installed from the constraints is what a run finds
        assert _not_pinned(implementation, checks.Burst(0, 1, [[0]], implementation.pinned)) is None
        refused = _not_pinned(implementation, checks.Burst(0, 1, [[0]], "0.0.1"))
        assert refused is not None and PYTHON_CONSTRAINTS.name in refused


def test_a_generator_that_runs_ahead_of_the_clock_is_caught() -> None:
    counter = itertools.count()
    start_ms = time.time_ns() // 1_000_000
    burst = make_burst(lambda: _v7(start_ms + next(counter), 0, 0), 1, 5000)
    assert checks.check_ahead(burst, reads_fraction=False).passed is False
    assert checks.check_order(burst).passed


def test_a_clock_behind_the_wall_clock_is_caught() -> None:
    burst = make_burst(lambda: _v7(time.time_ns() // 1_000_000 - 60_000, 0, 0), 1, 100)
    assert checks.check_timestamp(burst, reads_fraction=False).passed is False


def test_a_12_bit_counter_that_wraps_is_caught_past_4096_in_a_millisecond() -> None:
    # Bun's fault: a counter of 12 bits, wrapping at the 4,097th id of one millisecond
    counter = itertools.count()
    frozen_ms = time.time_ns() // 1_000_000
    burst = make_burst(lambda: _v7(frozen_ms, next(counter) % 4096, 0), 1, 5000)
    order = checks.check_order(burst)
    assert order.passed is False
    assert checks.check_past_4096_per_ms(burst, order).passed is False


def test_threads_sharing_unguarded_state_are_caught() -> None:
    shared = {"last": 0}
    lock = threading.Lock()

    def duplicated() -> int:
        with lock:
            shared["last"] += 1
            value = shared["last"]
        # every id made twice, once per pair of threads
        return _v7(time.time_ns() // 1_000_000, 0, value // 2)

    assert checks.check_threads(make_burst(duplicated, 2, 1000)).passed is False


def test_the_committed_table_is_what_the_committed_run_gives(tmp_path: Path) -> None:
    run = table.newest_run()
    document = json.loads(run.read_text(encoding="utf-8"))
    assert document["schema_version"] == 2
    assert len(document["implementations"]) >= 8
    assert len({result["language"] for result in document["implementations"]}) >= 4
    explanation = EXPLANATION.read_text(encoding="utf-8")
    assert table.write_or_check(explanation, check=True) == 0
    changed = tmp_path / "conformance.md"
    changed.write_text("stale\n", encoding="utf-8")
    assert table.write_or_check(explanation, check=True, document=changed) == 1


def test_a_program_output_is_parsed() -> None:
    text = (
        "version 1.0\ntoolchain x 1\nstart 10\nid 0 0190-1\n"
        "id 1 00000000-0000-7000-8000-000000000000\nend 20\n"
    )
    burst = checks.parse_output(text)
    assert isinstance(burst, checks.Burst)
    assert burst.ids == [[0x1901], [0x7000_8000_0000_0000_0000]]
    assert isinstance(checks.parse_output("unavailable no such thing\n"), checks.Unavailable)
    with pytest.raises(ValueError, match="unexpected line"):
        checks.parse_output("start 1\nnoise\nend 2\n")
