"""The program of the Python implementations: ``python -m sequuid_conformance.python_program NAME MODE ...``.

It speaks the protocol of checks.py, as the Node, Go, Rust and Java programs do.  make_burst() is the same
burst in-process, for the tests.
"""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Callable
from importlib import import_module, metadata

from sequuid_conformance.checks import Burst

Generator = Callable[[], object]

# name -> (module, function, distribution whose version is reported)
PYTHON_GENERATORS = {
    "sequuid": ("sequuid", "uuid7", "sequuid"),
    "uuid6": ("uuid6", "uuid7", "uuid6"),
    "uuid-utils": ("uuid_utils", "uuid7", "uuid-utils"),
}


def generator_of(name: str) -> Generator:
    module, function, _ = PYTHON_GENERATORS[name]
    generate: Generator = getattr(import_module(module), function)
    return generate


def _now_us() -> int:
    return time.time_ns() // 1000


def _as_int(made: object) -> int:
    if isinstance(made, int):
        return made
    value = getattr(made, "int", None)
    return value if isinstance(value, int) else int(str(made).replace("-", ""), 16)


def make_burst(generate: Generator, threads: int, count: int) -> Burst:
    """threads threads, started together, each making count ids."""
    made: list[list[object]] = [[] for _ in range(threads)]
    barrier = threading.Barrier(threads + 1)

    def run(into: list[object]) -> None:
        barrier.wait()
        for _ in range(count):
            into.append(generate())

    workers = [threading.Thread(target=run, args=(into,)) for into in made]
    for worker in workers:
        worker.start()
    # the clock is read before the threads are let go, so that no id can be made before it
    start_us = _now_us()
    barrier.wait()
    for worker in workers:
        worker.join()
    end_us = _now_us()
    return Burst(start_us, end_us, [[_as_int(value) for value in ids] for ids in made])


def main(argv: list[str]) -> int:
    name, mode, *numbers = argv
    threads, count = (int(numbers[0]), int(numbers[1])) if mode == "threads" else (1, int(numbers[0]))
    try:
        generate = generator_of(name)
    except ImportError as error:
        print(f"unavailable {error}")
        return 0
    burst = make_burst(generate, threads, count)
    lines = [
        f"version {metadata.version(PYTHON_GENERATORS[name][2])}",
        f"toolchain python {sys.version.split()[0]}",
        f"start {burst.start_us}",
    ]
    for thread, ids in enumerate(burst.ids):
        lines.extend(f"id {thread} {value:032x}" for value in ids)
    lines.append(f"end {burst.end_us}")
    sys.stdout.write("\n".join(lines) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
