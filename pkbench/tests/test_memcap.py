"""The memory cap: size parsing and cgroup discovery on captured /proc text, and a real cap here."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import psycopg
import pytest

from pkbench.server import memcap
from pkbench.server.builds import find_pgbench, find_server_bindir
from pkbench.server.embedded import EmbeddedCluster
from pkbench.server.memcap import MemoryCap, MemoryCapError, find_hierarchy, parse_size
from pkbench.server.os_user import SERVER_USER

MB = 1024**2

# A hybrid host: v1 controllers (memory among them) plus a v2 tree without memory; this process sits in a
# container's cgroup.
HYBRID_CGROUP = """9:name=systemd:/
4:memory:/process_api/ae77
1:cpu:/
0::/
"""
HYBRID_MOUNTINFO = """31 23 0:28 / /sys/fs/cgroup rw,relatime - tmpfs tmpfs rw,mode=755
32 31 0:29 / /sys/fs/cgroup/cpu rw,relatime - cgroup cgroup rw,cpu
35 31 0:32 / /sys/fs/cgroup/memory rw,relatime - cgroup cgroup rw,memory
41 31 0:38 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw
"""


def test_parse_size_accepts_common_spellings() -> None:
    assert parse_size("700MB") == 700 * MB
    assert parse_size("700m") == 700 * MB
    assert parse_size("1.5GiB") == 1536 * MB
    assert parse_size(" 2G ") == 2048 * MB
    assert parse_size(str(100 * MB)) == 100 * MB


@pytest.mark.parametrize("text", ["", "lots", "700 XB", "-5MB", "1.2.3G"])
def test_parse_size_rejects_what_is_not_a_size(text: str) -> None:
    with pytest.raises(MemoryCapError, match="is not a size"):
        parse_size(text)


def test_parse_size_rejects_a_limit_too_small_for_a_server() -> None:
    with pytest.raises(MemoryCapError, match="below the minimum"):
        parse_size("10MB")


def test_v1_memory_controller_found_through_its_mount() -> None:
    hierarchy = find_hierarchy(HYBRID_CGROUP, HYBRID_MOUNTINFO)
    assert hierarchy.version == 1
    assert hierarchy.directory == Path("/sys/fs/cgroup/memory/process_api/ae77")
    assert hierarchy.limit_file == "memory.limit_in_bytes"


def test_v1_mount_of_a_subtree_is_resolved_relative_to_its_root() -> None:
    mountinfo = "35 31 0:32 /process_api /sys/fs/cgroup/memory rw - cgroup cgroup rw,memory\n"
    hierarchy = find_hierarchy("4:memory:/process_api/ae77\n", mountinfo)
    assert hierarchy.directory == Path("/sys/fs/cgroup/memory/ae77")


def test_v2_used_when_its_root_offers_memory(tmp_path: Path) -> None:
    (tmp_path / "cgroup.controllers").write_text("cpuset cpu io memory pids\n")
    mountinfo = f"30 23 0:26 / {tmp_path} rw,nosuid - cgroup2 cgroup2 rw,nsdelegate\n"
    hierarchy = find_hierarchy("0::/user.slice/session-1.scope\n", mountinfo)
    assert hierarchy.version == 2
    assert hierarchy.directory == tmp_path / "user.slice/session-1.scope"
    assert hierarchy.limit_file == "memory.max"


def test_v2_without_memory_controller_is_a_clear_error(tmp_path: Path) -> None:
    (tmp_path / "cgroup.controllers").write_text("hugetlb\n")
    mountinfo = f"41 31 0:38 / {tmp_path} rw - cgroup2 cgroup2 rw\n"
    with pytest.raises(MemoryCapError, match="no cgroup memory controller"):
        find_hierarchy("0::/\n", mountinfo)


def test_v2_child_gets_memory_controller_enabled_in_parent(tmp_path: Path) -> None:
    # A fake v2 directory: mkdir gives a plain directory, so the limit and subtree writes land in files.
    (tmp_path / "cgroup.subtree_control").write_text("cpu\n")
    cap = MemoryCap(100 * MB, name="child", drop_caches=False, hierarchy=memcap.Hierarchy(2, tmp_path))
    if os.geteuid() != 0:
        pytest.skip("MemoryCap refuses to start without root")
    with cap:
        assert (tmp_path / "cgroup.subtree_control").read_text() == "+memory\n"
        assert (tmp_path / "child" / "memory.max").read_text() == f"{100 * MB}\n"
        (tmp_path / "child" / "memory.max").unlink()  # a real cgroup directory removes its own files
    assert not (tmp_path / "child").exists()


def test_not_root_is_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(os, "geteuid", lambda: 1000)
    with pytest.raises(MemoryCapError, match="needs root"), MemoryCap(100 * MB):
        pass


def test_unwritable_parent_is_a_clear_error(tmp_path: Path) -> None:
    if os.geteuid() != 0:
        pytest.skip("the root check comes first")
    missing = tmp_path / "not-a-cgroup"
    with (
        pytest.raises(MemoryCapError, match="cannot create a cgroup"),
        MemoryCap(100 * MB, drop_caches=False, hierarchy=memcap.Hierarchy(1, missing)),
    ):
        pass


def _real_cap_available() -> str | None:
    if os.geteuid() != 0:
        return "needs root"
    try:
        find_hierarchy(Path("/proc/self/cgroup").read_text(), Path("/proc/self/mountinfo").read_text())
    except MemoryCapError as error:
        return str(error)
    return None


real_cgroup = pytest.mark.skipif(_real_cap_available() is not None, reason=str(_real_cap_available()))

# Touches every page, so the allocation is really charged (a zeroed bytearray may never be faulted in).
ALLOCATE_200MB = "block = b'\\x01' * (200 * 1024 * 1024); print(len(block))"


@real_cgroup
def test_a_process_over_the_cap_is_killed_and_the_cgroup_removed() -> None:
    with MemoryCap(64 * MB) as cap:
        path = cap.path
        assert path.is_dir()
        done = subprocess.run(
            cap.wrap([sys.executable, "-c", ALLOCATE_200MB]), capture_output=True, check=False
        )
        peak = cap.peak_usage_bytes()
        kills = cap.oom_kills()
    assert done.returncode == -signal.SIGKILL, done
    assert peak is not None and peak <= 64 * MB
    assert kills is None or kills >= 1
    assert not path.exists()


@real_cgroup
def test_the_same_process_under_a_larger_cap_succeeds() -> None:
    # The control for the test above: the kill comes from the cap, not from the child.
    with MemoryCap(400 * MB, drop_caches=False) as cap:
        done = subprocess.run(
            cap.wrap([sys.executable, "-c", ALLOCATE_200MB]), capture_output=True, check=False
        )
        peak = cap.peak_usage_bytes()
    assert done.returncode == 0, done
    assert done.stdout.strip() == str(200 * MB).encode()
    assert peak is not None and peak >= 200 * MB


@real_cgroup
def test_a_process_left_inside_is_moved_out_so_the_cgroup_goes() -> None:
    sleeper = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"])
    try:
        with MemoryCap(100 * MB, drop_caches=False, exit_wait_s=0.2) as cap:
            path = cap.path
            cap.add_pid(sleeper.pid)
            assert cap.pids() == [sleeper.pid]
        assert not path.exists()
        assert sleeper.poll() is None, "moved out, not killed"
    finally:
        sleeper.kill()
        sleeper.wait()


@real_cgroup
def test_a_wrapped_command_run_as_the_server_user_enters_the_cgroup() -> None:
    # The embedded server runs as `postgres`, not root: the wrapper must still get it inside the limit.
    show_cgroup = ["/bin/cat", "/proc/self/cgroup"]
    with MemoryCap(100 * MB, drop_caches=False, member_user="postgres") as cap:
        done = subprocess.run(
            cap.wrap(show_cgroup), capture_output=True, text=True, user="postgres", timeout=30
        )
        name = cap.path.name
    assert done.returncode == 0, done.stderr
    memory_line = next(line for line in done.stdout.splitlines() if "memory" in line.split(":")[1].split(","))
    assert memory_line.endswith("/" + name)


@real_cgroup
def test_a_wrapper_that_may_not_enter_waits_to_be_moved_in() -> None:
    show_cgroup = ["/bin/cat", "/proc/self/cgroup"]
    with MemoryCap(100 * MB, drop_caches=False) as cap:
        waiting = subprocess.Popen(cap.wrap(show_cgroup), stdout=subprocess.PIPE, text=True, user="postgres")
        try:
            with pytest.raises(subprocess.TimeoutExpired):
                waiting.wait(timeout=0.5)
            cap.add_pid(waiting.pid)
            out, _ = waiting.communicate(timeout=30)
        finally:
            waiting.kill()
        name = cap.path.name
    assert name in out


@real_cgroup
def test_the_embedded_server_and_its_backends_run_inside_the_cap() -> None:
    with MemoryCap(256 * MB, member_user=SERVER_USER) as cap:
        cluster = EmbeddedCluster(
            find_server_bindir(None),
            find_pgbench(None),
            {"shared_buffers": "16MB"},
            start_wrapper=cap.wrap([]),
        )
        with cluster, psycopg.connect(cluster.connection.conninfo()) as conn:
            row = conn.execute("SELECT pg_backend_pid()").fetchone()
            assert row is not None
            backend_cgroup = Path(f"/proc/{row[0]}/cgroup").read_text()
            members = cap.pids()
        name = cap.path.name
    assert f"/{name}\n" in backend_cgroup
    assert row[0] in members
    assert len(members) >= 4, "postmaster, checkpointer, background writer, walwriter, ... and the backend"
