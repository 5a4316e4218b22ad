"""A machine whose speed changes under a run: one core switched between busy and idle while a command runs.

    .venv/bin/python pkbench/benchmarks/busy_core.py [--period 20] -- .venv/bin/pkbench run --out DIR

This process spins one core for PERIOD seconds, then sleeps for PERIOD seconds, over and over, until the
command after `--` ends, and exits with the command's status. The command runs as its child, so the machine
probe of a `pkbench run` counts the spinning as another process's CPU (its own is pkbench's process tree
only), and every window says how much of the machine it took.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time


def spin_until(deadline: float, child: subprocess.Popen[bytes]) -> bool:
    """Keeps one core busy until DEADLINE; whether the child is still running."""
    while time.monotonic() < deadline:
        for _ in range(100_000):
            pass
        if child.poll() is not None:
            return False
    return True


def sleep_until(deadline: float, child: subprocess.Popen[bytes]) -> bool:
    """Leaves the core idle until DEADLINE; whether the child is still running."""
    try:
        child.wait(timeout=max(0.0, deadline - time.monotonic()))
    except subprocess.TimeoutExpired:
        return True
    return False


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--period", type=float, default=20.0, help="seconds busy, then as many idle")
    parser.add_argument("command", nargs=argparse.REMAINDER, help="the command to run, after --")
    args = parser.parse_args()
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    if not command or args.period <= 0:
        parser.error("give a positive --period and a command after --")
    child = subprocess.Popen(command)
    try:
        running, busy = True, True
        while running:
            deadline = time.monotonic() + args.period
            running = spin_until(deadline, child) if busy else sleep_until(deadline, child)
            busy = not busy
    except KeyboardInterrupt:
        child.terminate()
    return child.wait()


if __name__ == "__main__":
    sys.exit(main())
