"""The machine probe: /proc/stat, /proc/loadavg and process times parsed from recorded text, and read live."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from pkbench.probes import machine

# Recorded on the 2-core machine (kernel 6.1), two seconds apart while pgbench ran and a build competed.
PROC_STAT_BEFORE = """\
cpu  4705163 1121 1032442 95320416 21807 0 18933 3312 0 0
cpu0 2352100 560 516100 47660200 10900 0 9466 1656 0 0
cpu1 2353063 561 516342 47660216 10907 0 9467 1656 0 0
intr 1234567 0 0
ctxt 987654321
btime 1763800000
processes 1234567
procs_running 3
procs_blocked 0
"""
PROC_STAT_AFTER = """\
cpu  4705463 1121 1032502 95320446 21817 0 18943 3332 0 0
cpu0 2352250 560 516130 47660215 10905 0 9471 1666 0 0
cpu1 2353213 561 516372 47660231 10912 0 9472 1666 0 0
intr 1234999 0 0
"""
LOADAVG = "2.71 1.93 1.20 5/612 123456\n"
# A server backend: the name holds a space and a parenthesis, which must not shift the fields.
BACKEND_STAT = (
    "4242 (postgres: x (y)) S 4000 4000 4000 0 -1 4194560 1720 0 0 0 130 25 7 3 20 0 1 0 "
    "51234 222330880 3342 18446744073709551615 1 1 0 0 0 0 4194304 19935232 84487 0 0 0 17 1 0 0 0 0 0"
)


def test_parse_proc_stat_reads_the_all_cpu_line() -> None:
    ticks = machine.parse_proc_stat(PROC_STAT_BEFORE)
    assert ticks.user == 4705163 and ticks.idle == 95320416 and ticks.steal == 3312
    assert ticks.busy == 4705163 + 1121 + 1032442 + 0 + 18933
    assert ticks.total == ticks.busy + 95320416 + 21807 + 3312
    old_kernel = machine.parse_proc_stat("cpu  10 0 5 100\n")
    assert old_kernel.iowait == 0 and old_kernel.steal == 0 and old_kernel.total == 115
    with pytest.raises(ValueError, match="no 'cpu' line"):
        machine.parse_proc_stat("intr 1\n")


def test_parse_loadavg() -> None:
    load = machine.parse_loadavg(LOADAVG)
    assert (load.one, load.five, load.fifteen, load.runnable, load.processes) == (2.71, 1.93, 1.20, 5, 612)
    with pytest.raises(ValueError, match="not /proc/loadavg"):
        machine.parse_loadavg("garbage")


def test_parse_process_stat_survives_odd_command_names() -> None:
    times = machine.parse_process_stat(BACKEND_STAT)
    assert (times.pid, times.parent, times.own_ticks, times.reaped_children_ticks) == (4242, 4000, 155, 10)


def test_tree_ticks_counts_live_members_and_what_they_reaped() -> None:
    def times(pid: int, parent: int, own: int, reaped: int) -> machine.ProcessTimes:
        return machine.ProcessTimes(pid, parent, own, reaped)

    before = {1: times(1, 0, 5, 0), 100: times(100, 1, 10, 0), 101: times(101, 100, 40, 0)}
    # Backend 101 used 20 more ticks and exited: its whole 60 ticks are now in its parent's reaped ticks.
    after = {1: times(1, 0, 5, 0), 100: times(100, 1, 12, 60), 102: times(102, 100, 7, 0)}
    before_ticks, after_ticks = machine.tree_ticks(100, before), machine.tree_ticks(100, after)
    assert before_ticks == 50 and after_ticks == 79
    assert after_ticks - before_ticks == 2 + 20 + 7
    assert machine.tree_ticks(999, after) is None


def test_window_shares_of_the_machine(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(os, "cpu_count", lambda: 2)
    before = machine.MachineSnapshot(
        10.0, machine.parse_proc_stat(PROC_STAT_BEFORE), machine.parse_loadavg(LOADAVG), 1000
    )
    after = machine.MachineSnapshot(
        12.0, machine.parse_proc_stat(PROC_STAT_AFTER), machine.parse_loadavg(LOADAVG), 1300
    )
    figures = machine.window(before, after)
    # 430 ticks elapsed in all: 300 user + 60 system + 10 softirq busy, 30 idle, 10 iowait, 20 steal.
    assert figures.duration_s == 2.0 and figures.cores == 2
    assert figures.busy_fraction == pytest.approx(370 / 430, abs=1e-4)
    assert figures.own_fraction == pytest.approx(300 / 430, abs=1e-4)
    assert figures.other_fraction == pytest.approx(70 / 430, abs=1e-4)
    assert figures.steal_fraction == pytest.approx(20 / 430, abs=1e-4)
    assert figures.iowait_fraction == pytest.approx(10 / 430, abs=1e-4)
    assert figures.load_average_1min == 2.71


def _window(other: float = 0.0, steal: float = 0.0) -> machine.MachineWindow:
    return machine.MachineWindow(60.0, 0.9, 0.9 - other, other, steal, 0.0, 2.0, 2)


def test_a_busy_or_stolen_from_machine_is_said_in_words() -> None:
    assert machine.busy_machine(_window()) == []
    assert machine.busy_machine(_window(other=0.31)) == [
        "the machine was busy: 31% of CPU was used by other processes"
    ]
    assert machine.busy_machine(_window(steal=0.06)) == [
        "the hypervisor took 6% of CPU from this machine (steal)"
    ]


def test_windows_disturbed_by_other_processes_and_by_the_host_are_counted_apart() -> None:
    # an idle virtual machine whose host gives its CPU away is not a busy machine: it is told apart
    windows = [_window(), _window(other=0.2), _window(steal=0.1), _window(other=0.3, steal=0.2), None]
    assert machine.disturbed(windows) == (2, 2)
    assert (
        machine.disturbed_words(0, 3) == "the hypervisor took CPU from this virtual machine (steal) during 3"
    )
    assert machine.disturbed_words(2, 0) == "other processes used the machine during 2 windows"
    assert machine.disturbed_words(0, 0) == ""


@pytest.mark.skipif(not Path("/proc/stat").exists(), reason="needs Linux /proc")
def test_live_proc_sees_our_own_busy_child() -> None:
    before = machine.snapshot()
    assert before is not None
    # A child that spins for a while, waited for: os.times() charges it to us.
    subprocess.run(
        [sys.executable, "-c", "import time\nt=time.process_time()\nwhile time.process_time()-t<0.5: pass"],
        check=True,
    )
    after = machine.snapshot()
    assert after is not None
    figures = machine.window(before, after)
    assert after.own_ticks - before.own_ticks >= 0.4 * os.sysconf("SC_CLK_TCK")
    assert 0 < figures.busy_fraction <= 1 and 0 < figures.own_fraction <= 1
    assert figures.duration_s >= 0.5 and figures.load_average_1min >= 0


@pytest.mark.skipif(not Path("/proc/stat").exists(), reason="needs Linux /proc")
def test_live_server_tree_is_counted_as_ours() -> None:
    # A parent that starts a spinning child and waits for it: the tree's ticks grow by the child's CPU.
    script = (
        "import subprocess, sys, time\n"
        "sys.stdout.write('ready\\n'); sys.stdout.flush(); sys.stdin.readline()\n"
        "subprocess.run([sys.executable, '-c', 'import time\\nt=time.process_time()\\n"
        "while time.process_time()-t<0.5: pass'])\n"
        "sys.stdout.write('done\\n'); sys.stdout.flush(); sys.stdin.readline()\n"
    )
    parent = subprocess.Popen(
        [sys.executable, "-c", script], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )
    try:
        assert parent.stdout is not None and parent.stdin is not None
        assert parent.stdout.readline() == "ready\n"
        before = machine.tree_ticks(parent.pid, machine.read_processes())
        parent.stdin.write("\n")
        parent.stdin.flush()
        assert parent.stdout.readline() == "done\n"
        after = machine.tree_ticks(parent.pid, machine.read_processes())
        assert before is not None and after is not None
        assert after - before >= 0.4 * os.sysconf("SC_CLK_TCK")
        parent.stdin.write("\n")
        parent.stdin.flush()
    finally:
        parent.wait(timeout=30)


class _Server:
    def __init__(self, pid: int | None) -> None:
        self.pid = pid


class _Target:
    def __init__(self, standby: object | None, shards: list[object]) -> None:
        self.standby = standby
        self.shards = shards


def test_every_server_the_run_started_is_the_benchmarks_own() -> None:
    # The standby and the shards pkbench started are counted with the target's postmaster; a server named by
    # --standby-dsn or --shard-dsn (no pid) is not the run's; a pid given twice is counted once.
    target = _Target(_Server(200), [_Server(301), _Server(302), object()])
    assert machine.benchmark_servers(target, 100) == [100, 200, 301, 302]
    assert machine.benchmark_servers(_Target(_Server(None), []), None) == []
    assert machine.benchmark_servers(_Target(None, [_Server(100)]), 100) == [100]


@pytest.mark.skipif(not Path("/proc/stat").exists(), reason="needs Linux /proc")
def test_a_spinning_shard_reads_as_ours_not_as_the_machines_other_load() -> None:
    # A process the run started and has not waited for (a shard's postmaster) spins through a window: given
    # as one of the benchmark's servers its CPU is "own"; left out, it was "other" on an idle machine.
    shard = subprocess.Popen(
        [sys.executable, "-c", "input()\nwhile True: pass"], stdin=subprocess.PIPE, text=True
    )
    try:
        servers = machine.benchmark_servers(_Target(None, [_Server(shard.pid)]), None)
        before = machine.snapshot(servers)
        assert shard.stdin is not None
        shard.stdin.write("\n")
        shard.stdin.flush()
        tick = os.sysconf("SC_CLK_TCK")
        deadline = time.monotonic() + 30
        while (machine.tree_ticks(shard.pid, machine.read_processes()) or 0) < 0.4 * tick:
            assert time.monotonic() < deadline
            time.sleep(0.05)
        after = machine.snapshot(servers)
        assert before is not None and after is not None
        assert after.own_ticks - before.own_ticks >= 0.4 * tick
    finally:
        shard.kill()
        shard.wait(timeout=30)
