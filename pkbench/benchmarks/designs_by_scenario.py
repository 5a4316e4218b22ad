"""Does interleaving measure what paired rounds measure? Every built-in scenario that has pgbench windows, run
once --paired and once --interleave with the same small options, side by side.

    .venv/bin/python pkbench/benchmarks/designs_by_scenario.py [--out DIR] [SCENARIO ...]
    .venv/bin/python pkbench/benchmarks/designs_by_scenario.py --again DIR   (the table of earlier runs)

Each scenario's pair lands in DIR/SCENARIO/paired and DIR/SCENARIO/interleaved (verdict_targets.py --designs),
and the table at the end is the `designs-by-scenario` block of docs/statistics.md. The options keep each pair
to a few minutes on two cores: three strategies, three rounds, short windows, small tables, except wal, whose
third tier outgrows the memory cap it runs under (root, for the cgroup), so one scenario is measured under the
cap. bloat, retention, partitioned and sharded have no window that interleaving could share.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

from pkbench.evidence import designs

TARGETS = Path(__file__).with_name("verdict_targets.py")
THREE = "--rounds 3 --strategies bigint,uuid-v4,uuid-v7"
# pkbench run options per scenario, split on spaces.
SCENARIOS: dict[str, str] = {
    "read": f"--rows 100000 --set key_sample=2000 --duration 2 {THREE}",
    "mixed": f"--rows 100000 --duration 3 {THREE}",
    "migrate": "--rows 100000 --duration 3 --rounds 3",
    "replication": f"--rows 100000 --duration 3 {THREE}",
    "insert-scaling": "--scale quick --duration 2 --rounds 3 --strategies bigint,uuid-v4-char32,uuid-v7",
    "wal": f"--memory-limit 128MB --duration 3 {THREE}",
}


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--out", type=Path, default=Path("designs-by-scenario"))
    parser.add_argument("--again", type=Path, help="the table of the pairs already in DIR; runs nothing")
    parser.add_argument("scenarios", nargs="*", help=f"of {', '.join(SCENARIOS)} (default: all)")
    args = parser.parse_args()
    if args.again is None:
        unknown = [name for name in args.scenarios if name not in SCENARIOS]
        if unknown:
            raise SystemExit(f"designs_by_scenario: no options for {', '.join(unknown)}")
        args.out.mkdir(parents=True, exist_ok=False)
        for name in args.scenarios or SCENARIOS:
            print(f"== {name}", flush=True)
            command = [sys.executable, str(TARGETS), "--designs", "--out", str(args.out / name)]
            done = subprocess.run([*command, "--", name, *SCENARIOS[name].split()])
            if done.returncode != 0:
                # Out of the table's way (it reads every folder holding paired/), kept to be read.
                (args.out / "failed").mkdir(exist_ok=True)
                (args.out / name).rename(args.out / "failed" / name)
                print(f"designs_by_scenario: {name} failed (exit {done.returncode}); going on", flush=True)
    print("\n".join(designs.by_scenario(designs.load_scenarios(args.again or args.out))))


if __name__ == "__main__":
    main()
