"""Run the embedded server inside a cgroup memory limit, so "larger than RAM" shows on a big machine.

Without a cap, a shared_buffers miss is served from the OS page cache and TPS barely moves. A memory
cgroup charges the page cache a process reads to that process's cgroup, so capping the cgroup also caps
the page cache the server can hit. The page cache is dropped first, because pages read earlier by
processes outside the cgroup are charged elsewhere and would still be hit for free.

Both hierarchies are supported: cgroup v2 (``memory.max`` in a child of a cgroup whose
``cgroup.subtree_control`` enables ``memory``) and cgroup v1 (``memory.limit_in_bytes`` under the
``memory`` controller's mount). The child is created under the cgroup this process is in, so the limit
nests inside whatever limit already applies. ``ChildCgroup`` is the lifecycle any such cgroup shares (the
block I/O limit in iolimit.py is another).
"""

from __future__ import annotations

import contextlib
import os
import pwd
import re
import signal
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import Self

from pkbench.errors import PkbenchError

DROP_CACHES = Path("/proc/sys/vm/drop_caches")

_SIZE = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*([kmgt]?)(i?b)?\s*$", re.IGNORECASE)
_UNIT = {"": 1, "k": 1024, "m": 1024**2, "g": 1024**3, "t": 1024**4}
# Below this PostgreSQL cannot even start with its default shared_buffers.
MINIMUM_LIMIT_BYTES = 64 * 1024**2


class MemoryCapError(PkbenchError):
    """The memory cap cannot be set up or torn down here; the message is one line saying why."""


def parse_size(text: str) -> int:
    """Bytes in a size such as ``700MB``, ``1.5G``, ``512MiB`` or ``1048576`` (powers of 1024)."""
    match = _SIZE.match(text)
    if match is None:
        raise MemoryCapError(f"memory limit {text!r} is not a size such as 700MB or 2GB")
    number, unit, _ = match.groups()
    size = int(float(number) * _UNIT[unit.lower()])
    if size < MINIMUM_LIMIT_BYTES:
        raise MemoryCapError(f"memory limit {text!r} is below the minimum of 64MB a server needs")
    return size


def drop_page_cache() -> None:
    """Write dirty pages back, then drop the clean page cache (root only)."""
    if os.geteuid() != 0:
        raise MemoryCapError("dropping the page cache needs root")
    os.sync()
    try:
        DROP_CACHES.write_text("1\n")
    except OSError as error:
        raise MemoryCapError(f"cannot drop the page cache ({DROP_CACHES}: {error.strerror})") from error


@dataclass(frozen=True)
class Hierarchy:
    """Where this process's memory cgroup lives and which interface version it speaks."""

    version: int  # 1 or 2
    directory: Path  # the cgroup this process is in, as a directory of the mounted hierarchy

    @property
    def limit_file(self) -> str:
        return "memory.max" if self.version == 2 else "memory.limit_in_bytes"

    @property
    def peak_file(self) -> str:
        return "memory.peak" if self.version == 2 else "memory.max_usage_in_bytes"


@dataclass(frozen=True)
class _Mount:
    root: str  # the part of the hierarchy this mount shows (a container may see a subtree)
    point: Path
    fstype: str
    options: frozenset[str]


def _mounts(mountinfo: str) -> Iterator[_Mount]:
    for line in mountinfo.splitlines():
        # "id parent major:minor root point options [optional...] - fstype source superoptions"
        before, _, after = line.partition(" - ")
        fields, tail = before.split(), after.split()
        if len(fields) < 5 or len(tail) < 3:
            continue
        point = fields[4].replace("\\040", " ")
        yield _Mount(fields[3], Path(point), tail[0], frozenset(tail[2].split(",")))


def _inside(mount: _Mount, cgroup_path: str) -> Path | None:
    root = mount.root.rstrip("/")
    if cgroup_path != root and not cgroup_path.startswith(root + "/"):
        return None
    return mount.point / cgroup_path[len(root) :].lstrip("/")


# cgroup v2 names the block I/O controller "io"; v1 named it "blkio".
V2_NAME = {"blkio": "io"}


def find_hierarchy(proc_cgroup: str, mountinfo: str, controller: str = "memory") -> Hierarchy:
    """The cgroup of the process described by /proc/<pid>/cgroup and /proc/<pid>/mountinfo text, in the
    hierarchy of CONTROLLER (its cgroup v1 name: ``memory`` or ``blkio``).

    cgroup v1's controller wins when it is mounted, since on hybrid hosts the v2 tree then lacks it;
    otherwise v2 is used when its root lists the controller in ``cgroup.controllers``.
    """
    v2_controller = V2_NAME.get(controller, controller)
    v1_path = v2_path = None
    for line in proc_cgroup.splitlines():
        number, _, rest = line.partition(":")
        controllers, _, path = rest.partition(":")
        if number == "0" and controllers == "":
            v2_path = path
        elif controller in controllers.split(","):
            v1_path = path
    mounts = list(_mounts(mountinfo))
    if v1_path is not None:
        for mount in mounts:
            if mount.fstype == "cgroup" and controller in mount.options:
                directory = _inside(mount, v1_path)
                if directory is not None:
                    return Hierarchy(1, directory)
    if v2_path is not None:
        for mount in mounts:
            if mount.fstype != "cgroup2":
                continue
            directory = _inside(mount, v2_path)
            if directory is None:
                continue
            try:
                offered = (mount.point / "cgroup.controllers").read_text().split()
            except OSError:
                continue
            if v2_controller in offered:
                return Hierarchy(2, directory)
    raise MemoryCapError(
        f"no cgroup {controller} controller is mounted here "
        f"(neither cgroup v1 {controller} nor v2 {v2_controller})"
    )


def _pids(cgroup: Path) -> list[int]:
    try:
        return [int(pid) for pid in (cgroup / "cgroup.procs").read_text().split()]
    except OSError:
        return []


class ChildCgroup:
    """A child cgroup of this process's cgroup in one controller's hierarchy, for a ``with`` block.

    On entry it creates the cgroup and calls ``_configure``; ``wrap()`` gives a command line that enters the
    cgroup before it execs (children, such as a postmaster started by pg_ctl and its backends, inherit it),
    and ``add_pid()`` moves a running process in. On exit it waits for the processes inside to end, moves
    any that remain to the parent cgroup, and removes the cgroup.
    """

    # The cgroup v1 controller name, and what error messages call the feature.
    controller = "memory"
    option = "--memory-limit"
    error: type[MemoryCapError] = MemoryCapError

    def __init__(
        self,
        *,
        name: str | None = None,
        hierarchy: Hierarchy | None = None,
        exit_wait_s: float = 10.0,
        member_user: str | None = None,
    ) -> None:
        self.member_user = member_user
        self.name = name or f"pkbench-{os.getpid()}-{time.monotonic_ns()}"
        self._hierarchy = hierarchy
        self.exit_wait_s = exit_wait_s
        self._path: Path | None = None

    @property
    def path(self) -> Path:
        if self._path is None:
            raise self.error(f"the {self.controller} cgroup exists only inside the with block")
        return self._path

    @property
    def version(self) -> int:
        return self._located().version

    def _located(self) -> Hierarchy:
        if self._hierarchy is None:
            self._hierarchy = find_hierarchy(
                Path("/proc/self/cgroup").read_text(),
                Path("/proc/self/mountinfo").read_text(),
                self.controller,
            )
        return self._hierarchy

    def _configure(self, path: Path, hierarchy: Hierarchy) -> None:
        """Set the cgroup's limits (the cgroup exists; a failure here removes it again)."""

    def __enter__(self) -> Self:
        if os.geteuid() != 0:
            raise self.error(f"{self.option} needs root (it creates a {self.controller} cgroup)")
        hierarchy = self._located()
        parent = hierarchy.directory
        if hierarchy.version == 2:
            _enable_controller(parent, V2_NAME.get(self.controller, self.controller), self.error)
        path = parent / self.name
        try:
            path.mkdir()
        except OSError as error:
            raise self.error(
                f"{self.option}: cannot create a cgroup in {parent} ({error.strerror}): not writable here"
            ) from error
        self._path = path
        try:
            self._configure(path, hierarchy)
            if self.member_user is not None:
                self._let_user_enter(path, self.member_user)
        except BaseException:
            self._remove()
            raise
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self._remove()

    def wrap(self, command: Sequence[str]) -> list[str]:
        """``command`` preceded by a shell that enters the cgroup and then execs it.

        The shell moves itself in when it may (as root, or as ``member_user`` on cgroup v1); otherwise it
        waits until someone with the right (pkbench as root) moves it in with ``add_pid``, so the command
        never runs a moment outside the limit.
        """
        enter = (
            'echo $$ 2>/dev/null > "$0/cgroup.procs" || '
            'until grep -qx "$$" "$0/cgroup.procs"; do sleep 0.05; done; exec "$@"'
        )
        # Known before the cgroup exists, so a launcher can be built before the with block starts it.
        planned = self._located().directory / self.name
        return ["/bin/sh", "-c", enter, str(planned), *command]

    def _let_user_enter(self, path: Path, user: str) -> None:
        # cgroup v1 lets a process move itself when it may write the target's cgroup.procs; v2 also wants
        # the common ancestor's, which stays root's: there the wrapper waits for add_pid instead.
        try:
            entry = pwd.getpwnam(user)
        except KeyError:
            raise self.error(f"no OS user {user!r} to let into the {self.controller} cgroup") from None
        for name in ("cgroup.procs", "tasks"):
            if (path / name).exists():
                os.chown(path / name, entry.pw_uid, entry.pw_gid)

    def add_pid(self, pid: int) -> None:
        try:
            (self.path / "cgroup.procs").write_text(f"{pid}\n")
        except OSError as error:
            raise self.error(f"cannot move process {pid} into {self.path} ({error.strerror})") from error

    def pids(self) -> list[int]:
        return _pids(self.path)

    def _remove(self) -> None:
        path, self._path = self._path, None
        if path is None:
            return
        deadline = time.monotonic() + self.exit_wait_s
        while _pids(path) and time.monotonic() < deadline:
            time.sleep(0.05)
        for pid in _pids(path):
            # A straggler keeps running, outside the limit: removing the cgroup must not depend on it.
            try:
                (path.parent / "cgroup.procs").write_text(f"{pid}\n")
            except OSError:
                _kill(pid)
        for _ in range(100):
            try:
                path.rmdir()
                return
            except FileNotFoundError:
                return
            except OSError:
                # The kernel removes an exited process from cgroup.procs a moment after it is reaped.
                time.sleep(0.05)
        raise self.error(f"cannot remove the cgroup {path}: processes are still in it")


class MemoryCap(ChildCgroup):
    """A child memory cgroup with a limit, for the lifetime of a ``with`` block; on entry it also drops the
    page cache (unless told not to)."""

    def __init__(
        self,
        limit_bytes: int,
        *,
        name: str | None = None,
        drop_caches: bool = True,
        hierarchy: Hierarchy | None = None,
        exit_wait_s: float = 10.0,
        member_user: str | None = None,
    ) -> None:
        super().__init__(name=name, hierarchy=hierarchy, exit_wait_s=exit_wait_s, member_user=member_user)
        self.limit_bytes = limit_bytes
        self.drop_caches = drop_caches

    def _configure(self, path: Path, hierarchy: Hierarchy) -> None:
        (path / hierarchy.limit_file).write_text(f"{self.limit_bytes}\n")
        if self.drop_caches:
            drop_page_cache()

    def peak_usage_bytes(self) -> int | None:
        """The most memory (including page cache) the cgroup held; None when the kernel does not record it."""
        try:
            return int((self.path / self._located().peak_file).read_text())
        except (OSError, ValueError):
            return None

    def oom_kills(self) -> int | None:
        """How many processes the kernel killed in this cgroup for lack of memory (None when not reported)."""
        for name in ("memory.events", "memory.oom_control"):
            # cgroup v1 reports "oom_kill N" in memory.oom_control from Linux 4.13.
            try:
                text = (self.path / name).read_text()
            except OSError:
                continue
            for line in text.splitlines():
                key, _, value = line.partition(" ")
                if key == "oom_kill":
                    return int(value)
        return None


def _kill(pid: int) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.kill(pid, signal.SIGKILL)


def _enable_controller(parent: Path, controller: str, error_type: type[MemoryCapError]) -> None:
    """cgroup v2 only hands a controller to children whose parent lists it in cgroup.subtree_control."""
    subtree = parent / "cgroup.subtree_control"
    try:
        if controller in subtree.read_text().split():
            return
        subtree.write_text(f"+{controller}\n")
    except OSError as error:
        raise error_type(
            f"cannot enable the {controller} controller for children of {parent} ({error.strerror}); "
            f"run pkbench in a cgroup that delegates {controller} (for example under systemd-run --scope)"
        ) from error
