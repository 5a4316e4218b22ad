"""Run the embedded server behind a block-device write limit, so a fast disk can stand in for a slow one.

A study whose disk was saturated (a rotating disk at 99% utilisation) measured the disk as much as the keys:
every page an insert dirties must be written back, and random keys dirty a page per insert where ordered
keys fill one page at a time. On a fast virtual disk those writes cost nothing and the decline never shows.
The block I/O controller's throttle gives the server's cgroup a disk that takes at most N writes a second.

What is charged to the cgroup: under cgroup v1 only I/O that the server's processes submit themselves
(direct I/O, and the writeback an fsync starts); writeback of the page cache is the kernel flusher's and
escapes. So the server should run with ``debug_io_direct = 'data,wal'`` (PostgreSQL 16+), which sends
every data and WAL write through the throttle and makes shared_buffers the only cache for writes. Under
cgroup v2 the flusher's writeback is charged too.

The limit applies while measuring (``during``: pgbench windows and the other measuring steps) and is lifted
for setup, so filling a table to size takes minutes, not the hours a throttled fill would; the fill times
are then those of the fast disk.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Iterator, Mapping
from pathlib import Path

from pkbench.server.memcap import ChildCgroup, Hierarchy, MemoryCapError

# The scenario parameter (`--set disk_write_iops=N`, or a [scale] preset) that asks for the limit.
PARAMETER = "disk_write_iops"
SYS_BLOCK = Path("/sys/dev/block")


class IoLimitError(MemoryCapError):
    """The write limit cannot be set up here; the message is one line saying why."""


def write_iops(parameters: Mapping[str, object], *, embedded: bool) -> int | None:
    """The limit the scenario's parameters ask for (None: none); a clear error for a value that is not one."""
    value = parameters.get(PARAMETER)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise IoLimitError(
            f"{PARAMETER} must be a whole number of writes per second, at least 1 (got {value!r})"
        )
    if not embedded:
        raise IoLimitError(f"{PARAMETER} applies to the embedded server only, not with --dsn")
    return value


def device_of(path: Path, sys_block: Path = SYS_BLOCK) -> str:
    """``major:minor`` of the disk holding PATH (a partition's whole disk: the throttle works per disk)."""
    number = os.stat(path).st_dev
    device = sys_block / f"{os.major(number)}:{os.minor(number)}"
    if not device.exists():
        raise IoLimitError(f"{path} is not on a block device (a tmpfs or overlay?): no disk to limit")
    if (device / "partition").exists():
        device = device.resolve().parent
    return (device / "dev").read_text().strip()


class IoLimit(ChildCgroup):
    """A child block I/O cgroup whose writes to one disk are limited to ``iops`` per second inside
    ``throttled()`` (and ``during`` a measuring step), and free outside it."""

    controller = "blkio"
    option = PARAMETER
    error = IoLimitError

    def __init__(
        self,
        iops: int,
        *,
        device: str | None = None,
        name: str | None = None,
        hierarchy: Hierarchy | None = None,
        exit_wait_s: float = 10.0,
        member_user: str | None = None,
    ) -> None:
        super().__init__(name=name, hierarchy=hierarchy, exit_wait_s=exit_wait_s, member_user=member_user)
        self.iops = iops
        # Where the embedded cluster's temporary directory will be.
        self.device = device or device_of(Path(tempfile.gettempdir()))

    def _limit_file_and_rule(self, iops: int | None) -> tuple[str, str]:
        if self._located().version == 2:
            return "io.max", f"{self.device} wiops={iops or 'max'}"
        # cgroup v1 removes a device's rule when its limit is written as 0.
        return "blkio.throttle.write_iops_device", f"{self.device} {iops or 0}"

    def _set(self, iops: int | None) -> None:
        name, rule = self._limit_file_and_rule(iops)
        try:
            (self.path / name).write_text(rule + "\n")
        except OSError as error:
            raise IoLimitError(
                f"{PARAMETER}: cannot set {rule!r} in {self.path / name} ({error.strerror})"
            ) from error

    def _configure(self, path: Path, hierarchy: Hierarchy) -> None:
        # Set and lift once at the start, so a device the kernel refuses fails here, before the server runs.
        self._set(self.iops)
        self._set(None)

    def limited(self) -> bool:
        """Whether the cgroup's write limit is in force now (read back from the kernel)."""
        name, _ = self._limit_file_and_rule(None)
        text = (self.path / name).read_text()
        for line in text.splitlines():
            device, _, rule = line.partition(" ")
            if device == self.device:
                return "wiops=max" not in rule if "wiops=" in rule else rule.strip() not in ("", "0")
        return False

    @contextlib.contextmanager
    def throttled(self) -> Iterator[None]:
        self._set(self.iops)
        try:
            yield
        finally:
            self._set(None)

    def during(self, measuring: bool) -> contextlib.AbstractContextManager[None]:
        """The limit while a step measures; none while one sets up (a fill, a CHECKPOINT)."""
        return self.throttled() if measuring else contextlib.nullcontext()


def for_server(parameters: Mapping[str, object], member_user: str) -> IoLimit | None:
    """The write limit the embedded server's scenario parameters ask for, if any (not yet entered)."""
    iops = write_iops(parameters, embedded=True)
    return IoLimit(iops, member_user=member_user) if iops is not None else None
