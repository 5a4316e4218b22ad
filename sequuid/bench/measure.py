"""sequuid/bench/measure.py: ns per call of each row of cases.tsv, next to the references, in one session.

Run by bench/run inside a throwaway cluster (PGHOST/PGPORT/PGUSER set).  Every round measures each case
once, in file order, each right after its own count(*) baseline; a figure is the median over the rounds of
(case - baseline) / calls.  Time is the backend's CPU time where Linux reports it (/proc/self/schedstat), so
other work on a shared machine does not inflate it, else the wall clock.  Prints one table and exits 1 when
a target is missed.
"""

import argparse
import statistics
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
PLPGSQL_PORT = HERE.parent / "plpgsql" / "sequuid.sql"


class BenchError(Exception):
    """A problem with the inputs or the server, reported as one line."""


@dataclass(frozen=True)
class Case:
    label: str
    expression: str
    target: list[tuple[float, str]]  # empty for a reference row: (factor, reference label) terms
    settings: list[tuple[str, str]]  # (name, value) set for this case's measurement only


def parse_target(text: str, line_number: int) -> list[tuple[float, str]]:
    if text.strip() == "-":
        return []
    terms = []
    for term in text.split("+"):
        factor, _, label = term.strip().rpartition("*")
        try:
            terms.append((float(factor) if factor else 1.0, label.strip()))
        except ValueError:
            raise BenchError(f"cases.tsv line {line_number}: bad target term '{term.strip()}'") from None
    return terms


def load_cases(path: Path) -> list[Case]:
    cases = []
    for number, line in enumerate(path.read_text().splitlines(), start=1):
        if not line.strip() or line.startswith("#"):
            continue
        fields = line.split("\t")
        if len(fields) not in (3, 4):
            raise BenchError(f"{path.name} line {number}: expected 3 or 4 tab-separated fields, got {len(fields)}")
        label, expression, target = fields[:3]
        settings = []
        for assignment in fields[3].split(",") if len(fields) == 4 else []:
            name, equals, value = assignment.partition("=")
            if not equals or not name.strip():
                raise BenchError(f"{path.name} line {number}: bad setting '{assignment}' (expected name=value)")
            settings.append((name.strip(), value.strip()))
        cases.append(Case(label, expression, parse_target(target, number), settings))
    labels = {case.label for case in cases}
    for case in cases:
        for _, reference in case.target:
            if reference not in labels:
                raise BenchError(f"{path.name}: target of '{case.label}' names unknown row '{reference}'")
    return cases


def sql_literal(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


def measurement_script(cases: list[Case], calls: int, rounds: int, clock: str) -> str:
    """One SELECT per case and round, so psql runs them in order; a warm-up first loads the library."""
    clock = sql_literal(clock)
    lines = []
    # the warm-up runs each case under its settings too: a case may need one (a key) to run at all
    for c in cases:
        lines += [f"SELECT set_config({sql_literal(n)}, {sql_literal(v)}, false) IS NULL;" for n, v in c.settings]
        lines.append(f"SELECT 'warmup', 0, 0, bench_elapsed({sql_literal(c.expression)}, 1000, {clock});")
        lines += [f"RESET {n};" for n, _ in c.settings]
    for round_number in range(1, rounds + 1):
        for c in cases:
            lines += [f"SELECT set_config({sql_literal(n)}, {sql_literal(v)}, false) IS NULL;" for n, v in c.settings]
            lines.append(
                f"SELECT {sql_literal(c.label)}, {round_number}, bench_elapsed(NULL, {calls}, {clock}),"
                f" bench_elapsed({sql_literal(c.expression)}, {calls}, {clock});"
            )
            lines += [f"RESET {n};" for n, _ in c.settings]
    return "\n".join(lines) + "\n"


def psql(args: list[str], script: str) -> str:
    result = subprocess.run(
        ["psql", "-X", "-q", "-v", "ON_ERROR_STOP=1", *args],
        input=script,
        capture_output=True,
        text=True,
        check=False,
    )
    if result.returncode != 0:
        message = result.stderr.strip().splitlines()
        raise BenchError("psql failed: " + (message[-1] if message else f"exit {result.returncode}"))
    return result.stdout


def cpu_clock_available() -> bool:
    try:
        psql(["-d", "sequuid_bench", "-c", "SELECT bench_cpu_seconds()"], "")
    except BenchError:
        return False
    return True


def measure(cases: list[Case], calls: int, rounds: int) -> tuple[dict[str, float], str]:
    """ns per call of each case, baseline subtracted, and the clock used."""
    psql(["-d", "postgres", "-c", "CREATE DATABASE sequuid_bench"], "")
    psql(["-d", "sequuid_bench"], (HERE / "setup.sql").read_text())
    # the PL/pgSQL port beside the extension, in a schema of its own (rows "plpgsql_port.*" of cases.tsv)
    psql(
        ["-d", "sequuid_bench"],
        "CREATE SCHEMA plpgsql_port;\nSET search_path = plpgsql_port;\n" + PLPGSQL_PORT.read_text(),
    )
    clock = "cpu" if cpu_clock_available() else "wall"
    script = measurement_script(cases, calls, rounds, clock)
    output = psql(["-d", "sequuid_bench", "-A", "-t", "-F", "\t"], script)
    per_call_ns: dict[str, list[float]] = {}
    for line in output.splitlines():
        if line in ("t", "f"):  # a setting's set_config
            continue
        label, round_number, baseline, elapsed = line.split("\t")
        if round_number != "0":
            per_call_ns.setdefault(label, []).append((float(elapsed) - float(baseline)) / calls * 1e9)
    return {c.label: statistics.median(per_call_ns[c.label]) for c in cases}, clock


def report(cases: list[Case], ns: dict[str, float], clock: str, calls: int, rounds: int) -> bool:
    reference = ns.get("gen_random_uuid")
    clock_name = "backend CPU time" if clock == "cpu" else "wall-clock time"
    print(
        f"sequuid per-call cost: SELECT count(f()) FROM generate_series(1, {calls}), "
        f"count(*) baseline subtracted, median of {rounds}, {clock_name}"
    )
    header = f"{'function':<28} {'ns/call':>8} {'x gen_random_uuid':>18}  {'target':<42} result"
    print(header)
    print("-" * len(header))
    all_met = True
    for case in cases:
        ratio = f"{ns[case.label] / reference:.3f}" if reference else "-"
        if case.target:
            limit = sum(factor * ns[label] for factor, label in case.target)
            text = " + ".join(f"{f:g}*{label}" if f != 1 else label for f, label in case.target)
            target = f"<= {limit:.0f} ({text})"
            met = ns[case.label] <= limit
            all_met &= met
            result = "PASS" if met else "FAIL"
        else:
            target, result = "-", "reference"
        print(f"{case.label:<28} {ns[case.label]:>8.0f} {ratio:>18}  {target:<42} {result}")
    print("all targets met" if all_met else "TARGETS MISSED")
    return all_met


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--calls", type=int, default=2_000_000, help="calls per measurement (default 2000000)"
    )
    parser.add_argument("--rounds", type=int, default=3, help="rounds; the median is reported (default 3)")
    parser.add_argument(
        "--cases", type=Path, default=HERE / "cases.tsv", help="cases file (default bench/cases.tsv)"
    )
    options = parser.parse_args()
    try:
        if options.calls < 1000 or options.rounds < 1:
            raise BenchError("--calls must be at least 1000 and --rounds at least 1")
        cases = load_cases(options.cases)
        ns, clock = measure(cases, options.calls, options.rounds)
    except (BenchError, OSError) as error:
        print(f"bench: {error}", file=sys.stderr)
        return 2
    return 0 if report(cases, ns, clock, options.calls, options.rounds) else 1


if __name__ == "__main__":
    sys.exit(main())
