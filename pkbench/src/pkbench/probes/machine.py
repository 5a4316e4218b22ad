"""The machine during a measured window: how busy it was with work not ours, the hypervisor's steal, iowait.

Read from /proc/stat and /proc/loadavg before and after a window. What the benchmark itself used (pkbench,
its pgbench children, the server's process tree) is read from /proc/PID/stat too, so that 'other processes'
means the rest of the machine: other tenants, other benchmarks, a build. Parsing is pure and tested on
recorded text; the readers return None where /proc is not there (not Linux).
"""

from __future__ import annotations

import os
import platform
import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pkbench.results.model import MachineWindow

PROC = Path("/proc")
# The CPU fields of /proc/stat's `cpu` line, in clock ticks (proc(5)); guest time is already inside user.
_CPU_FIELDS = ("user", "nice", "system", "idle", "iowait", "irq", "softirq", "steal")

BUSY_MACHINE_FRACTION = 0.10
STEAL_FRACTION = 0.05


@dataclass(frozen=True)
class CpuTicks:
    user: int
    nice: int
    system: int
    idle: int
    iowait: int
    irq: int
    softirq: int
    steal: int

    @property
    def total(self) -> int:
        return sum(getattr(self, name) for name in _CPU_FIELDS)

    @property
    def busy(self) -> int:
        """Ticks a CPU ran something in this machine (steal is time the hypervisor gave to someone else)."""
        return self.user + self.nice + self.system + self.irq + self.softirq


@dataclass(frozen=True)
class LoadAverage:
    one: float
    five: float
    fifteen: float
    runnable: int
    processes: int


def parse_proc_stat(text: str) -> CpuTicks:
    """The all-CPU line of /proc/stat. Old kernels lack the last fields; they count as 0."""
    for line in text.splitlines():
        fields = line.split()
        if fields and fields[0] == "cpu":
            values = [int(v) for v in fields[1 : 1 + len(_CPU_FIELDS)]]
            values += [0] * (len(_CPU_FIELDS) - len(values))
            return CpuTicks(*values)
    raise ValueError("no 'cpu' line in /proc/stat text")


def parse_loadavg(text: str) -> LoadAverage:
    """/proc/loadavg: '0.52 0.58 0.59 2/412 12345'."""
    fields = text.split()
    if len(fields) < 4 or "/" not in fields[3]:
        raise ValueError(f"not /proc/loadavg text: {text.strip()!r}")
    runnable, processes = fields[3].split("/")
    return LoadAverage(float(fields[0]), float(fields[1]), float(fields[2]), int(runnable), int(processes))


@dataclass(frozen=True)
class ProcessTimes:
    """From /proc/PID/stat: the process's own CPU ticks and those of its children it has waited for."""

    pid: int
    parent: int
    own_ticks: int  # utime + stime
    reaped_children_ticks: int  # cutime + cstime


def parse_process_stat(text: str) -> ProcessTimes:
    """/proc/PID/stat. The command name (field 2) may hold spaces and parentheses, so split after its ')'."""
    pid = int(text.split(" ", 1)[0])
    fields = text.rsplit(")", 1)[1].split()
    # After the name: state is field 3, ppid 4, utime 14, stime 15, cutime 16, cstime 17 (proc(5)).
    return ProcessTimes(
        pid, int(fields[1]), int(fields[11]) + int(fields[12]), int(fields[13]) + int(fields[14])
    )


def tree_ticks(root: int, processes: Mapping[int, ProcessTimes]) -> int | None:
    """CPU ticks of a process tree: every live member's own ticks plus what each has reaped from its children.

    The difference of two readings is exactly what the tree used in between: a child alive at the first and
    gone by the second leaves the first's own ticks and reappears whole in its parent's reaped ticks.
    """
    if root not in processes:
        return None
    children: dict[int, list[int]] = {}
    for times in processes.values():
        children.setdefault(times.parent, []).append(times.pid)
    total, pending = 0, [root]
    while pending:
        pid = pending.pop()
        total += processes[pid].own_ticks + processes[pid].reaped_children_ticks
        pending += children.get(pid, [])
    return total


def read_processes(proc: Path = PROC) -> dict[int, ProcessTimes]:
    """Every process /proc shows, skipping those that end while it is read."""
    processes = {}
    for entry in proc.iterdir():
        if not entry.name.isdigit():
            continue
        try:
            processes[int(entry.name)] = parse_process_stat((entry / "stat").read_text())
        except (OSError, ValueError, IndexError):
            continue
    return processes


@dataclass(frozen=True)
class MachineSnapshot:
    monotonic_s: float
    cpu: CpuTicks
    load: LoadAverage
    own_ticks: int  # this process, its waited-for children (pgbench), and the server trees given


def snapshot(server_pids: Iterable[int] = (), proc: Path = PROC) -> MachineSnapshot | None:
    """The machine now; ``server_pids`` are roots of process trees that are ours (the embedded postmaster).
    None where /proc/stat cannot be read."""
    try:
        cpu = parse_proc_stat((proc / "stat").read_text())
        load = parse_loadavg((proc / "loadavg").read_text())
    except (OSError, ValueError):
        return None
    processes = read_processes(proc) if server_pids else {}
    # os.times counts this process and the children it has waited for: the pgbench runs of the window.
    times = os.times()
    own_seconds = times.user + times.system + times.children_user + times.children_system
    own = round(own_seconds * os.sysconf("SC_CLK_TCK"))
    own += sum(tree_ticks(pid, processes) or 0 for pid in server_pids)
    return MachineSnapshot(time.monotonic(), cpu, load, own)


def benchmark_servers(target: object, postmaster: int | None) -> list[int]:
    """The roots of the process trees of every server the benchmark runs on: POSTMASTER (the target's, found
    from a connection; None when /proc does not show it), and the standby and shards pkbench started. Their
    CPU is the benchmark's own: left out, an idle machine running a sharded or replicated scenario reads as
    one busy with other processes. Servers named by --standby-dsn or --shard-dsn have no pid here: they are
    not the run's, and what they use counts as the machine's other load."""
    standby = getattr(target, "standby", None)
    started = [
        getattr(standby, "pid", None),
        *(getattr(s, "pid", None) for s in getattr(target, "shards", ())),
    ]
    pids = [postmaster, *started]
    return list(dict.fromkeys(pid for pid in pids if isinstance(pid, int)))


def window(before: MachineSnapshot, after: MachineSnapshot) -> MachineWindow:
    ticks = after.cpu.total - before.cpu.total

    def share(value: int) -> float:
        return round(max(0.0, min(1.0, value / ticks)), 4) if ticks > 0 else 0.0

    busy = after.cpu.busy - before.cpu.busy
    own = after.own_ticks - before.own_ticks
    return MachineWindow(
        duration_s=round(after.monotonic_s - before.monotonic_s, 3),
        busy_fraction=share(busy),
        own_fraction=share(own),
        other_fraction=share(busy - own),
        steal_fraction=share(after.cpu.steal - before.cpu.steal),
        iowait_fraction=share(after.cpu.iowait - before.cpu.iowait),
        load_average_1min=after.load.one,
        cores=os.cpu_count(),
    )


def cores() -> int:
    """The cores of the machine pkbench runs on: what a scenario's `cores` defaults are counted in."""
    return os.cpu_count() or 1


def busy_machine(machine: MachineWindow | None) -> list[str]:
    """What the machine did besides the benchmark during a window, when it was enough to move time figures."""
    said = []
    if machine is not None and machine.other_fraction >= BUSY_MACHINE_FRACTION:
        said.append(f"the machine was busy: {machine.other_fraction:.0%} of CPU was used by other processes")
    if machine is not None and machine.steal_fraction >= STEAL_FRACTION:
        said.append(f"the hypervisor took {machine.steal_fraction:.0%} of CPU from this machine (steal)")
    return said


def description() -> dict[str, Any]:
    """The machine a run ran on, for results.json: cores, memory, kernel, CPU model."""
    uname = platform.uname()
    memory = None
    cpu_model = None
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemTotal:"):
                memory = int(line.split()[1]) * 1024
    except OSError:
        pass
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu_model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return {
        "cores": os.cpu_count(),
        "memory_bytes": memory,
        "kernel": f"{uname.system} {uname.release} {uname.machine}",
        "cpu_model": cpu_model,
        "memory_limit_bytes": None,
    }


def disturbed(machines: Iterable[MachineWindow | None]) -> tuple[int, int]:
    """Of the windows MACHINES describes, how many other processes on this machine made busy, and in how many
    the hypervisor gave this virtual machine's CPU to another (steal): the first is this machine's doing and
    gone when it is idle; the second is the host's, and an idle machine still sees it."""
    found = [m for m in machines if m is not None]
    return (
        sum(m.other_fraction >= BUSY_MACHINE_FRACTION for m in found),
        sum(m.steal_fraction >= STEAL_FRACTION for m in found),
    )


def disturbed_words(busy: int, stolen: int) -> str:
    """The counts of `disturbed` in words (empty where neither)."""
    said = []
    if busy:
        said.append(f"other processes used the machine during {busy} windows")
    if stolen:
        said.append(f"the hypervisor took CPU from this virtual machine (steal) during {stolen}")
    return " and ".join(said)
