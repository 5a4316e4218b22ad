"""Order within a process: a burst, several threads, a clock stepped back, a fork."""

from __future__ import annotations

import ctypes
import ctypes.util
import itertools
import os
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from uuid import UUID

import pytest

import sequuid
from sequuid import _generate

ORDERED = [sequuid.uuid7, sequuid.uuid6, sequuid.ulid, lambda: sequuid.striped(4, 1)]
ORDERED_IDS = ["uuid7", "uuid6", "ulid", "striped"]


@pytest.fixture
def frozen_clock(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[int]]:
    """A clock the test moves by hand: the generators read it through _generate._time_ns."""
    now = [_generate._time_ns()]
    monkeypatch.setattr(_generate, "_time_ns", lambda: now[0])
    yield now


@pytest.mark.parametrize("generate", ORDERED, ids=ORDERED_IDS)
def test_a_burst_is_strictly_increasing(generate: Callable[[], UUID]) -> None:
    made = [generate() for _ in range(100_000)]
    assert all(a < b for a, b in itertools.pairwise(made))


def test_v1_time_strictly_increases() -> None:
    made = [sequuid.timestamp_us(sequuid.v1_to_v6(sequuid.uuid1_random_node())) for _ in range(10_000)]
    assert all(a is not None and b is not None and a <= b for a, b in itertools.pairwise(made))


@pytest.mark.parametrize("generate", ORDERED, ids=ORDERED_IDS)
def test_order_holds_through_a_clock_step_back(frozen_clock: list[int], generate: Callable[[], UUID]) -> None:
    before = [generate() for _ in range(5000)]
    frozen_clock[0] -= 3_600 * 10**9
    after = [generate() for _ in range(5000)]
    made = before + after
    assert all(a < b for a, b in itertools.pairwise(made))


def test_more_than_4096_v7_in_one_millisecond_stay_ordered(frozen_clock: list[int]) -> None:
    made = [sequuid.uuid7() for _ in range(10_000)]
    assert all(a < b for a, b in itertools.pairwise(made))
    # the clock stands still: each value is 245 ns on, so the time runs ahead by the burst, no more
    last = sequuid.timestamp_us(made[-1])
    assert last is not None
    assert last * 1000 - frozen_clock[0] <= 10_000 * 245 + 1000


def test_ulid_moves_to_the_next_millisecond_when_its_random_bits_overflow(frozen_clock: list[int]) -> None:
    first = sequuid.ulid()
    _generate._previous_ulid_random = (1 << 80) - 1
    second = sequuid.ulid()
    assert second.int >> 80 == (first.int >> 80) + 1
    assert second > first


@pytest.mark.parametrize("generate", ORDERED, ids=ORDERED_IDS)
def test_threads_each_see_strict_order_and_no_value_repeats(generate: Callable[[], UUID]) -> None:
    made: list[list[UUID]] = [[] for _ in range(4)]
    start = threading.Barrier(4)

    def burst(into: list[UUID]) -> None:
        start.wait()
        for _ in range(20_000):
            into.append(generate())

    threads = [threading.Thread(target=burst, args=(into,)) for into in made]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    for per_thread in made:
        assert all(a < b for a, b in itertools.pairwise(per_thread))
    assert len({made_id for per_thread in made for made_id in per_thread}) == 4 * 20_000


def _libc_fork() -> int:
    """fork() called through libc, as uWSGI or an embedding application calls it: Python's at-fork hooks
    never run."""
    libc = ctypes.CDLL(ctypes.util.find_library("c"), use_errno=True)
    pid: int = libc.fork()
    if pid < 0:
        raise OSError(ctypes.get_errno(), "fork failed")
    return pid


FORKS = [os.fork, _libc_fork]
FORK_IDS = ["os.fork", "libc-fork"]


def _ids_of_a_child(
    generate: Callable[[], UUID], count: int, fork: Callable[[], int] = os.fork
) -> list[UUID]:
    """Forks; the child makes count ids and writes them back through a pipe."""
    read_end, write_end = os.pipe()
    pid = fork()
    if pid == 0:
        os.close(read_end)
        try:
            payload = b"".join(generate().bytes for _ in range(count))
            with os.fdopen(write_end, "wb") as pipe:
                pipe.write(payload)
        finally:
            os._exit(0)
    os.close(write_end)
    with os.fdopen(read_end, "rb") as pipe:
        payload = pipe.read()
    os.waitpid(pid, 0)
    return [UUID(bytes=payload[i : i + 16]) for i in range(0, len(payload), 16)]


@pytest.mark.parametrize("fork", FORKS, ids=FORK_IDS)
@pytest.mark.parametrize("generate", ORDERED, ids=ORDERED_IDS)
def test_a_forked_child_never_repeats_its_parents_values(
    frozen_clock: list[int], generate: Callable[[], UUID], fork: Callable[[], int]
) -> None:
    # with the clock standing still, a child that kept the parent's random words or ULID would make exactly
    # the values the parent makes next; fork() through libc runs none of Python's at-fork hooks, so there
    # only the pid check on each call stands between the two
    before = [generate() for _ in range(100)]
    child = _ids_of_a_child(generate, 2000, fork)
    parent = [generate() for _ in range(2000)]
    assert len(child) == 2000
    assert not set(child) & set(parent)
    assert min(child) > max(before)
    assert all(a < b for a, b in itertools.pairwise(child))


@pytest.mark.parametrize("fork", FORKS, ids=FORK_IDS)
def test_random_tails_of_a_forked_child_and_its_parent_never_meet(fork: Callable[[], int]) -> None:
    # the parent's buffer holds unspent random words at the fork; a child that kept them would hand out the
    # very tails the parent hands out next
    sequuid.uuid7()
    child = _ids_of_a_child(lambda: sequuid.uuid7(), 2000, fork)
    parent = [sequuid.uuid7() for _ in range(2000)]
    tail = (1 << 62) - 1
    assert len(child) == 2000
    assert not {made.int & tail for made in child} & {made.int & tail for made in parent}


def test_the_library_works_where_the_platform_has_no_fork() -> None:
    # Windows and WASI have neither os.fork nor os.register_at_fork; the library must import and make values
    # there, its pid check standing in for the hooks
    script = """
import os
del os.register_at_fork
del os.fork
import itertools, sequuid
made = [sequuid.uuid7() for _ in range(1000)] + [sequuid.uuid7() for _ in range(1000)]
assert all(a < b for a, b in itertools.pairwise(made))
ulids = [sequuid.ulid() for _ in range(1000)]
assert all(a < b for a, b in itertools.pairwise(ulids))
assert sequuid.version(sequuid.uuid6()) == 6
print("ok")
"""
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stderr
    assert result.stdout == "ok\n"
