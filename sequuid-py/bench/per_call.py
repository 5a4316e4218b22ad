"""Per-call cost of sequuid.uuid7() next to uuid.uuid4(), uuid6.uuid7() and uuid_utils.uuid7(), in one run.

    python bench/per_call.py [--calls N] [--repeats R] [--output FILE]

Each generator is timed over N calls in a loop, R times, interleaved so that a change in the machine's load
touches all of them alike; the median of the R timings is reported, with the ratio to sequuid's.  Not a test:
the figures depend on the machine.  --output writes the same lines to a file as well (for committing).
"""

from __future__ import annotations

import argparse
import platform
import statistics
import sys
import time
import uuid
from collections.abc import Callable
from datetime import UTC, datetime
from importlib import metadata

import sequuid


def _generators() -> dict[str, Callable[[], object]]:
    generators: dict[str, Callable[[], object]] = {
        "sequuid.uuid7()": sequuid.uuid7,
        "uuid.uuid4()": uuid.uuid4,
    }
    try:
        import uuid6

        generators[f"uuid6.uuid7() ({metadata.version('uuid6')})"] = uuid6.uuid7
    except ImportError:
        print("uuid6 not installed: pip install './sequuid-py[test]'", file=sys.stderr)
    try:
        import uuid_utils

        generators[f"uuid_utils.uuid7() ({metadata.version('uuid-utils')})"] = uuid_utils.uuid7
    except ImportError:
        print("uuid-utils not installed: pip install './sequuid-py[test]'", file=sys.stderr)
    return generators


def _time_calls(generate: Callable[[], object], calls: int) -> float:
    loop = range(calls)
    started = time.perf_counter_ns()
    for _ in loop:
        generate()
    return (time.perf_counter_ns() - started) / calls


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=200_000)
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--output", help="also write the report to this file")
    arguments = parser.parse_args(argv)

    generators = _generators()
    timings: dict[str, list[float]] = {name: [] for name in generators}
    for _ in range(arguments.repeats):
        for name, generate in generators.items():
            timings[name].append(_time_calls(generate, arguments.calls))
    medians = {name: statistics.median(values) for name, values in timings.items()}
    reference = medians["sequuid.uuid7()"]

    lines = [
        f"# sequuid-py per-call cost, {datetime.now(UTC):%Y-%m-%d %H:%M} UTC",
        f"# {platform.python_implementation()} {platform.python_version()}, {platform.machine()}, "
        f"{platform.processor() or platform.system()}; {arguments.calls} calls x {arguments.repeats}, median",
        f"{'generator':<34} {'ns/call':>9} {'x sequuid.uuid7()':>18}",
    ]
    for name, median in medians.items():
        lines.append(f"{name:<34} {median:>9.0f} {median / reference:>18.2f}")
    report = "\n".join(lines) + "\n"
    print(report, end="")
    if arguments.output:
        with open(arguments.output, "w", encoding="utf-8") as output:
            output.write(report)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
