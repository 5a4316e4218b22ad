"""The disk write limit: its parameter and device checks, a real throttle here, and a run that uses it."""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import tempfile
import time
from pathlib import Path

import pytest
from conftest import OTHER_MAJOR, run_cli
from test_cli_errors import assert_one_line_error

from pkbench.run import runner
from pkbench.run.options import Options
from pkbench.scenario import file as scenario
from pkbench.server import iolimit, memcap
from pkbench.server.iolimit import IoLimit, IoLimitError, device_of, write_iops
from pkbench.steps import kind_of

WRITES = 40


def test_the_parameter_is_read_and_checked() -> None:
    assert write_iops({}, embedded=True) is None
    assert write_iops({"disk_write_iops": 100}, embedded=True) == 100
    for bad in (0, -5, 2.5, "fast", True):
        with pytest.raises(IoLimitError, match="must be a whole number of writes per second"):
            write_iops({"disk_write_iops": bad}, embedded=True)
    with pytest.raises(IoLimitError, match="embedded server only"):
        write_iops({"disk_write_iops": 100}, embedded=False)


def _fake_sys_block(tmp_path: Path, partition: bool) -> Path:
    """A /sys/dev/block whose entry for tmp_path's device is a partition of disk 8:0, or that disk itself."""
    number = os.stat(tmp_path).st_dev
    sys_block = tmp_path / "dev-block"
    disk = tmp_path / "devices" / "sda"
    (disk / "sda1").mkdir(parents=True)
    (disk / "dev").write_text("8:0\n")
    (disk / "sda1" / "dev").write_text("8:1\n")
    (disk / "sda1" / "partition").write_text("1\n")
    sys_block.mkdir()
    (sys_block / f"{os.major(number)}:{os.minor(number)}").symlink_to(disk / "sda1" if partition else disk)
    return sys_block


@pytest.mark.parametrize("partition", [True, False])
def test_the_limit_goes_on_the_whole_disk(tmp_path: Path, partition: bool) -> None:
    assert device_of(tmp_path, _fake_sys_block(tmp_path, partition)) == "8:0"


def test_a_directory_on_no_block_device_is_refused(tmp_path: Path) -> None:
    with pytest.raises(IoLimitError, match="not on a block device"):
        device_of(tmp_path, tmp_path / "empty-sys-block")


def test_only_measuring_steps_run_under_the_limit() -> None:
    limit = IoLimit(10, device="8:0", hierarchy=memcap.Hierarchy(1, Path("/nonexistent")))
    found = {step.name: kind_of(step).measuring for step in scenario.load("insert-scaling").all_steps}
    for setup in ("pk-table", "pk-fill-small", "pk-maintenance-small", "sizes_after_prefill"):
        assert isinstance(limit.during(found[setup]), contextlib.nullcontext), setup
    assert not isinstance(limit.during(found["pk-small"]), contextlib.nullcontext)


def test_not_root_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(os, "geteuid", lambda: 1000)
    with pytest.raises(IoLimitError, match="disk_write_iops needs root"), IoLimit(10, device="8:0"):
        pass


def test_an_unwritable_controller_is_refused(tmp_path: Path) -> None:
    if os.geteuid() != 0:
        pytest.skip("the root check comes first")
    missing = memcap.Hierarchy(1, tmp_path / "not-a-cgroup")
    with (
        pytest.raises(IoLimitError, match="cannot create a cgroup"),
        IoLimit(10, device="8:0", hierarchy=missing),
    ):
        pass


def _blkio_hierarchy() -> memcap.Hierarchy:
    return memcap.find_hierarchy(
        Path("/proc/self/cgroup").read_text(), Path("/proc/self/mountinfo").read_text(), "blkio"
    )


def _real_blkio() -> str | None:
    if os.geteuid() != 0:
        return "needs root"
    try:
        _blkio_hierarchy()
    except memcap.MemoryCapError as error:
        return str(error)
    return None


real_blkio = pytest.mark.skipif(_real_blkio() is not None, reason=str(_real_blkio()))


def _direct_writes(limit: IoLimit, target: Path) -> float:
    """Seconds WRITES synchronous 4 kB direct writes take from inside the cgroup."""
    started = time.monotonic()
    done = subprocess.run(
        limit.wrap(
            ["dd", "if=/dev/zero", f"of={target}", "bs=4096", f"count={WRITES}", "oflag=direct,dsync"]
        ),
        capture_output=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return time.monotonic() - started


@real_blkio
def test_writes_are_held_to_the_limit_only_while_throttled(disk_tmpdir: Path) -> None:
    with IoLimit(20, device=device_of(disk_tmpdir)) as limit:
        path = limit.path
        assert not limit.limited()
        free = _direct_writes(limit, disk_tmpdir / "free")
        with limit.throttled():
            assert limit.limited()
            held = _direct_writes(limit, disk_tmpdir / "held")
        assert not limit.limited()
    # 40 writes at 20 a second: two seconds, less the first slice the throttle lets through at once.
    assert held >= 1.5, held
    assert free < held / 3, (free, held)
    assert not path.exists()


@real_blkio
def test_the_cgroup_goes_on_ctrl_c(disk_tmpdir: Path) -> None:
    with pytest.raises(KeyboardInterrupt), IoLimit(20, device=device_of(disk_tmpdir)) as limit:
        path = limit.path
        with limit.throttled():
            raise KeyboardInterrupt
    assert not path.exists()


@real_blkio
def test_a_device_the_kernel_refuses_is_one_line_and_leaves_no_cgroup(tmp_path: Path) -> None:
    hierarchy = _blkio_hierarchy()
    before = set(hierarchy.directory.iterdir())
    # 1:3 is /dev/null, a character device: no queue to throttle.
    with pytest.raises(IoLimitError, match="cannot set '1:3 10'"), IoLimit(10, device="1:3"):
        pass
    assert set(hierarchy.directory.iterdir()) == before


# Commits by one client: each needs its WAL written, so each is at least one write on the disk.
COMMITS = f"""
name = "commits"
[parameters]
rows = 1
duration_s = 1
clients = 1
jobs = 1
transactions = {WRITES}
disk_write_iops = 20

[settings]
shared_buffers = "16MB"
debug_io_direct = "data,wal"

[[steps]]
kind = "sql"
name = "schema"
statements = ["CREATE TABLE records (id {{key_type}} PRIMARY KEY {{key_default}})"]

[[steps]]
kind = "sql"
name = "setup-commits"
statements = [{", ".join(['"INSERT INTO records DEFAULT VALUES"'] * WRITES)}]

[[steps]]
kind = "pgbench"
name = "measured-commits"
scripts = [{{ name = "insert", sql = "INSERT INTO records DEFAULT VALUES;" }}]
"""


@real_blkio
def test_the_server_commits_at_the_disk_rate_while_measuring_only(
    tmp_path: Path, disk_tmpdir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    scenario = tmp_path / "commits.toml"
    scenario.write_text(COMMITS)
    out = tmp_path / "results"
    hierarchy = _blkio_hierarchy()
    # The cluster's directory, and so the disk the limit is on, is under the temporary directory.
    monkeypatch.setattr(tempfile, "tempdir", str(disk_tmpdir))
    runner.execute(
        Options(report=False, scenario=str(scenario), strategies=["bigint"], pg_major=OTHER_MAJOR, out=out)
    )
    data = json.loads((out / "results.json").read_text())
    (strategy,) = data["strategies"]
    assert strategy["status"] == "ok", strategy["error"]
    window = strategy["workloads"][0]
    assert window["transactions"] == WRITES
    # The same number of commits: two seconds at 20 writes a second while measuring, free while setting up.
    assert window["duration_s"] >= 1.5, window["duration_s"]
    assert strategy["step_durations_s"]["setup-commits"] < window["duration_s"] / 3
    assert not list(hierarchy.directory.glob(f"pkbench-{os.getpid()}-*"))


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["--set", "disk_write_iops=0"], "disk_write_iops must be a whole number of writes per second"),
        (
            ["--dsn", "postgresql://nobody@127.0.0.1:1/x", "--set", "disk_write_iops=100"],
            "embedded server only",
        ),
    ],
)
def test_bad_limits_on_the_command_line(args: list[str], expected: str, tmp_path: Path) -> None:
    result = run_cli("run", "insert-scaling", *args, "--out", str(tmp_path / "out"), timeout=120)
    assert_one_line_error(result, expected)
    assert iolimit.PARAMETER == "disk_write_iops"
