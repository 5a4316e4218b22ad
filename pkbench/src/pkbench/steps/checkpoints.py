"""Checkpoints on a schedule inside a measured window (the `checkpoint_every_s` parameter).

A study that ran for hours saw dozens of checkpoints per run, and each one makes the next change to every page
write a full-page image again. checkpoint_timeout cannot go below 30 s, so a window of minutes that is to see
as many checkpoints, relative to its length, asks for them itself: a thread with its own session issues
CHECKPOINT every N seconds while pgbench runs. A checkpoint that takes longer than N seconds (a throttled disk
writing back many scattered pages) delays the next, as a spread checkpoint would overrun its timeout.
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Iterator, Mapping

import psycopg

from pkbench.errors import PkbenchError, first_line
from pkbench.server.connection import ConnectionInfo

PARAMETER = "checkpoint_every_s"
# Below this a checkpoint has barely begun before the next is asked for.
MINIMUM_S = 0.5


def interval_s(parameters: Mapping[str, object]) -> float | None:
    """The interval the parameters ask for (None: no checkpoints of pkbench's inside a window)."""
    value = parameters.get(PARAMETER)
    if value is None or value == 0:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float) or value < MINIMUM_S:
        raise PkbenchError(f"{PARAMETER} must be 0 (none) or at least {MINIMUM_S} seconds (got {value!r})")
    return float(value)


class Checkpointer:
    """Issues CHECKPOINT every `every_s` seconds until stopped; `issued` counts the ones that completed and
    `error` is why it gave up (the role may not checkpoint), or None."""

    def __init__(self, connection: ConnectionInfo, every_s: float) -> None:
        self.connection = connection
        self.every_s = every_s
        self.issued = 0
        self.error: str | None = None
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._loop, name="pkbench-checkpointer", daemon=True)

    def _loop(self) -> None:
        try:
            with self.connection.connect() as conn:
                conn.autocommit = True
                due = time.monotonic() + self.every_s
                while not self._stop.wait(max(0.0, due - time.monotonic())):
                    conn.execute("CHECKPOINT")
                    self.issued += 1
                    due = max(due + self.every_s, time.monotonic())
        except psycopg.Error as error:
            self.error = first_line(error)

    def __enter__(self) -> Checkpointer:
        self._thread.start()
        return self

    def __exit__(self, *_: object) -> None:
        self._stop.set()
        self._thread.join()


@contextlib.contextmanager
def scheduled(connection: ConnectionInfo, parameters: Mapping[str, object]) -> Iterator[Checkpointer | None]:
    """A Checkpointer while the block runs when the parameters ask for one, else None."""
    every = interval_s(parameters)
    if every is None:
        yield None
        return
    with Checkpointer(connection, every) as checkpointer:
        yield checkpointer
