"""sequuid/bench/cores.py: calls per second of each generator at 1 and N clients, driven by pgbench.

`measure` runs inside a throwaway cluster that bench/cores starts (PGHOST/PGPORT/PGUSER set) and appends one JSON
line per measurement to the results file; `report` reads them all and prints one table with the ratios: N clients
against 1 (how the rate scales), and the preloaded library against the plain one at N clients (what keeping order
across backends through the shared atomic costs).  Standard library only, so it runs wherever Python 3 does.
"""

import argparse
import json
import re
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

# label, expression called C times per transaction; {clients} is replaced by the client count
GENERATORS = [
    ("gen_random_uuid", "gen_random_uuid()"),
    ("uuid_generate_v7", "uuid_generate_v7()"),
    ("uuid_generate_v6", "uuid_generate_v6()"),
    ("uuid_generate_v1_random_node", "uuid_generate_v1_random_node()"),
    ("uuid_generate_ulid", "uuid_generate_ulid()"),
    ("uuid_generate_striped(N)", "uuid_generate_striped({clients})"),
    ("uuid_time_nextval", "uuid_time_nextval()"),
    ("nextval", "nextval('bench_cores_sequence')"),
    ("uuid_sequence_nextval", "uuid_sequence_nextval('bench_cores_sequence')"),
]
# the generators whose order the preloaded library keeps across backends (the shared clock)
SHARED_CLOCK = {
    "uuid_generate_v7",
    "uuid_generate_v6",
    "uuid_generate_v1_random_node",
    "uuid_generate_striped(N)",
}
TPS_LINE = re.compile(
    r"^tps = ([0-9.]+) \((?:without initial connection time|excluding connections establishing)\)"
)


class BenchError(Exception):
    """A problem with the inputs or the server, reported as one line."""


def run(command: list[str]) -> str:
    result = subprocess.run(command, capture_output=True, text=True, check=False)
    if result.returncode != 0:
        message = (result.stderr or result.stdout).strip().splitlines()
        raise BenchError(f"{command[0]} failed: " + (message[-1] if message else f"exit {result.returncode}"))
    return result.stdout


def calls_per_second(script: Path, clients: int, seconds: int, calls: int) -> float:
    output = run(
        [
            "pgbench",
            "-n",
            "-M",
            "prepared",
            "-c",
            str(clients),
            "-j",
            str(clients),
            "-T",
            str(seconds),
            "-d",
            "sequuid_cores",
            "-f",
            str(script),
        ]
    )
    for line in output.splitlines():
        match = TPS_LINE.match(line)
        if match:
            return float(match.group(1)) * calls
    raise BenchError("pgbench printed no tps line")


def measure(args: argparse.Namespace) -> None:
    run(["psql", "-X", "-q", "-d", "postgres", "-c", "CREATE DATABASE sequuid_cores"])
    run(
        [
            "psql",
            "-X",
            "-q",
            "-v",
            "ON_ERROR_STOP=1",
            "-d",
            "sequuid_cores",
            "-c",
            "CREATE EXTENSION sequuid; CREATE SEQUENCE bench_cores_sequence",
        ]
    )
    preloaded = run(
        ["psql", "-X", "-A", "-t", "-d", "sequuid_cores", "-c", "SHOW shared_preload_libraries"]
    ).strip()
    if (args.mode == "preload") != ("sequuid" in preloaded):
        raise BenchError(f"mode {args.mode} but shared_preload_libraries is '{preloaded}'")
    with tempfile.TemporaryDirectory() as work, open(args.results, "a") as results:
        for clients in sorted({1, args.clients}):
            for label, expression in GENERATORS:
                script = Path(work) / "call.sql"
                script.write_text(
                    f"SELECT count({expression.format(clients=args.clients)}) "
                    f"FROM generate_series(1, {args.calls});\n"
                )
                rates = [
                    calls_per_second(script, clients, args.seconds, args.calls) for _ in range(args.rounds)
                ]
                row = {
                    "mode": args.mode,
                    "generator": label,
                    "clients": clients,
                    "calls_per_s": statistics.median(rates),
                    "rounds": rates,
                }
                results.write(json.dumps(row) + "\n")
                results.flush()
                print(
                    f"   {args.mode:8} {clients:4} clients  {label:30} {row['calls_per_s']:14,.0f} calls/s",
                    file=sys.stderr,
                )


def ratio(numerator: float | None, denominator: float | None) -> str:
    if numerator is None or denominator is None or denominator == 0:
        return "-"
    return f"{numerator / denominator:.2f}"


def report(args: argparse.Namespace) -> None:
    rates: dict[tuple[str, str, int], float] = {}
    for line in Path(args.results).read_text().splitlines():
        row = json.loads(line)
        rates[(row["mode"], row["generator"], row["clients"])] = row["calls_per_s"]
    n = args.clients
    header = (
        f"{'generator':30} {'plain 1':>12} {f'plain {n}':>12} {'scale':>6} {'preload 1':>12} "
        f"{f'preload {n}':>12} {'scale':>6} {f'preload/plain at {n}':>20}"
    )
    print(
        f"calls per second (SELECT count(f()) FROM generate_series(1, C) per transaction); scale = {n} clients / 1"
    )
    print(header)
    print("-" * len(header))
    costly = []
    for label, _ in GENERATORS:
        plain_1, plain_n = rates.get(("plain", label, 1)), rates.get(("plain", label, n))
        preload_1, preload_n = rates.get(("preload", label, 1)), rates.get(("preload", label, n))

        def cell(value: float | None) -> str:
            return f"{value:12,.0f}" if value is not None else f"{'-':>12}"

        print(
            f"{label:30} {cell(plain_1)} {cell(plain_n)} {ratio(plain_n, plain_1):>6} {cell(preload_1)} "
            f"{cell(preload_n)} {ratio(preload_n, preload_1):>6} {ratio(preload_n, plain_n):>20}"
        )
        if label in SHARED_CLOCK and plain_n and preload_n is not None and preload_n < plain_n / 2:
            costly.append(label)
    if costly:
        print(f"order across backends costs more than half the rate at {n} clients: {', '.join(costly)}")
    else:
        print(
            f"order across backends costs at most half the rate at {n} clients for every shared-clock generator"
        )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    measure_parser = commands.add_parser("measure")
    measure_parser.add_argument("--mode", choices=["plain", "preload"], required=True)
    for name in ("--clients", "--seconds", "--calls", "--rounds"):
        measure_parser.add_argument(name, type=int, required=True)
    measure_parser.add_argument("--results", required=True)
    report_parser = commands.add_parser("report")
    report_parser.add_argument("--results", required=True)
    report_parser.add_argument("--clients", type=int, required=True)
    args = parser.parse_args()
    try:
        if args.command == "measure":
            measure(args)
        else:
            report(args)
    except BenchError as error:
        print(f"bench/cores: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
