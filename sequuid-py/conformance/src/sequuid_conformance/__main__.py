"""python -m sequuid_conformance {setup,run,table} (see the package's docstring)."""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sequuid_conformance import __version__, checks, server, table
from sequuid_conformance.implementations import (
    BY_KEY,
    HARNESS,
    IMPLEMENTATIONS,
    PROGRAMS,
    PYTHON_CONSTRAINTS,
    Implementation,
    python_pins,
    toolchain_present,
)

# 2: version and variant over both bursts; the threads check as threads_shared or threads_isolated
SCHEMA_VERSION = 2
EXPLANATION = HARNESS / "checks.md"

# language -> (toolchain executable, commands run in its program folder)
SETUP_STEPS: dict[str, tuple[str, list[list[str]]]] = {
    "node": ("npm", [["npm", "ci", "--no-audit", "--no-fund"]]),
    "go": ("go", [["go", "mod", "download"], ["go", "build", "-o", "bin/conformance", "."]]),
    "rust": (
        "cargo",
        [["cargo", "fetch", "--locked"], ["cargo", "build", "--release", "--offline", "--locked"]],
    ),
    "java": ("mvn", [["mvn", "-q", "-B", "package"]]),
}


def _python_setup_step() -> list[str]:
    """pip installs the pinned Python libraries into the interpreter that runs the harness."""
    return [sys.executable, "-m", "pip", "install", "-q", "-c", str(PYTHON_CONSTRAINTS), *python_pins()]


def setup() -> int:
    """Install the pinned packages of every language whose toolchain is present and build the programs."""
    failed = 0
    print(f"conformance setup: python: pip install -c {PYTHON_CONSTRAINTS.name}", flush=True)
    if subprocess.run(_python_setup_step(), check=False).returncode != 0:
        print("conformance setup: python failed at pip install")
        failed += 1
    for language, (tool, steps) in SETUP_STEPS.items():
        if shutil.which(tool) is None:
            print(f"conformance setup: {language} skipped: {tool} not found")
            continue
        for step in steps:
            print(f"conformance setup: {language}: {' '.join(step)}", flush=True)
            if subprocess.run(step, cwd=PROGRAMS / language, check=False).returncode != 0:
                print(f"conformance setup: {language} failed at {' '.join(step)}")
                failed += 1
                break
    return 1 if failed else 0


def _machine() -> dict[str, Any]:
    model = ""
    with open("/proc/cpuinfo", encoding="utf-8") as cpuinfo:
        for line in cpuinfo:
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    cores = os.cpu_count() or 0
    return {
        "system": f"{platform.system()} {platform.release()}",
        "cpu": model,
        "cores": cores,
        "description": f"{cores} cores of {model or platform.machine()}",
    }


def _run_program(implementation: Implementation, mode: list[str]) -> checks.Burst | checks.Unavailable:
    result = subprocess.run(
        [*implementation.program, *mode], capture_output=True, text=True, timeout=600, check=False
    )
    if result.returncode != 0:
        raise RuntimeError(f"{implementation.key} exited {result.returncode}: {result.stderr.strip()[:1000]}")
    return checks.parse_output(result.stdout)


def _result(implementation: Implementation, burst: checks.Burst, threaded: checks.Burst) -> dict[str, Any]:
    found = {
        name: check.as_json()
        for name, check in checks.check_burst(burst, implementation.reads_fraction, threaded).items()
    }
    found[implementation.threads_check] = checks.check_threads(threaded).as_json()
    version = burst.version if burst.version and burst.version != "unknown" else implementation.pinned
    failed = {name for name, check in found.items() if check["passed"] is False}
    return {
        "key": implementation.key,
        "language": implementation.language,
        "package": implementation.package,
        "registry": implementation.registry,
        "call": implementation.call,
        "version": version,
        "toolchain": burst.toolchain,
        "reads_fraction": implementation.reads_fraction,
        "checks": found,
        "known_issues": {
            name: issue for name, issue in implementation.known_issues.items() if name in failed
        },
    }


def _not_pinned(implementation: Implementation, burst: checks.Burst) -> str | None:
    """A Python library at another version than constraints.txt pins: the others' lock files see to theirs."""
    if implementation.registry != "PyPI" or burst.version == implementation.pinned:
        return None
    return (
        f"{implementation.package} {burst.version} is installed, {PYTHON_CONSTRAINTS.name} pins "
        f"{implementation.pinned} (python -m sequuid_conformance setup)"
    )


def _not_set_up(implementation: Implementation) -> str | None:
    if not toolchain_present(implementation.toolchain):
        return f"{implementation.toolchain} not found"
    if implementation.built and not (PROGRAMS / implementation.built).exists():
        return f"not set up (python -m sequuid_conformance setup): {implementation.built} missing"
    return None


def run(arguments: argparse.Namespace) -> int:
    chosen = [i for i in IMPLEMENTATIONS if not arguments.only or i.key in arguments.only]
    results: list[dict[str, Any]] = []
    skipped: list[dict[str, str]] = []
    burst_mode = ["burst", str(arguments.burst)]
    threads_mode = ["threads", str(arguments.threads), str(arguments.per_thread)]

    for implementation in chosen:
        if implementation.toolchain == "postgres":
            continue
        reason = _not_set_up(implementation)
        if reason is None:
            print(f"conformance: {implementation.key}", file=sys.stderr, flush=True)
            burst = _run_program(implementation, burst_mode)
            if isinstance(burst, checks.Unavailable):
                reason = burst.reason
            elif (reason := _not_pinned(implementation, burst)) is not None:
                pass
            else:
                threaded = _run_program(implementation, threads_mode)
                assert isinstance(threaded, checks.Burst)
                results.append(_result(implementation, burst, threaded))
        if reason is not None:
            skipped.append({"key": implementation.key, "reason": reason})

    in_server = [i for i in chosen if i.toolchain == "postgres"]
    if in_server:
        _run_in_server(in_server, arguments, results, skipped)

    _say_skipped(skipped)
    document = {
        "schema_version": SCHEMA_VERSION,
        "tool": f"sequuid_conformance {__version__}",
        "date": datetime.now(UTC).isoformat(timespec="seconds"),
        "machine": _machine(),
        "settings": {
            "burst": arguments.burst,
            "threads": arguments.threads,
            "per_thread": arguments.per_thread,
        },
        "implementations": results,
        "skipped": skipped,
    }
    output = Path(arguments.output or table.RUNS / f"{datetime.now(UTC):%Y-%m-%d}.json")
    output.parent.mkdir(parents=True, exist_ok=True)
    output.write_text(json.dumps(document, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {output}", file=sys.stderr)
    return 0


def _say_skipped(skipped: list[dict[str, str]]) -> None:
    """One line per language and reason: a missing toolchain skips all of that language's implementations."""
    grouped: dict[tuple[str, str], list[str]] = {}
    for entry in skipped:
        language = BY_KEY[entry["key"]].language
        grouped.setdefault((language, entry["reason"]), []).append(entry["key"])
    for (language, reason), keys in grouped.items():
        print(f"conformance: skipped {language} ({', '.join(keys)}): {reason}", file=sys.stderr)


def _run_in_server(
    chosen: list[Implementation],
    arguments: argparse.Namespace,
    results: list[dict[str, Any]],
    skipped: list[dict[str, str]],
) -> None:
    bindir = server.find_bindir(arguments.pg_bin)
    if bindir is None:
        skipped.extend({"key": i.key, "reason": "no PostgreSQL server found (--pg-bin)"} for i in chosen)
        return
    with_extension = server.sequuid_installed(bindir)
    with server.throwaway_cluster(bindir) as cluster:
        server.prepare(cluster, with_extension)
        for implementation in chosen:
            database = "c" if implementation.key == "sequuid/c" else "plpgsql"
            if database == "c" and not with_extension:
                skipped.append({"key": implementation.key, "reason": f"sequuid is not installed in {bindir}"})
                continue
            print(f"conformance: {implementation.key}", file=sys.stderr, flush=True)
            burst = server.server_burst(cluster, database, 1, arguments.burst)
            threaded = server.server_burst(cluster, database, arguments.threads, arguments.per_thread)
            results.append(_result(implementation, burst, threaded))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m sequuid_conformance", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    commands.add_parser("setup", help="install the pinned packages and build the programs (once)")
    run_parser = commands.add_parser("run", help="run every implementation and write a run")
    run_parser.add_argument("--burst", type=int, default=100_000, help="ids in the one-thread burst")
    run_parser.add_argument("--threads", type=int, default=4)
    run_parser.add_argument("--per-thread", type=int, default=25_000)
    run_parser.add_argument("--only", nargs="*", help="implementation keys, e.g. go/google-uuid")
    run_parser.add_argument("--pg-bin", help="the PostgreSQL bin directory for sequuid's C and PL/pgSQL")
    run_parser.add_argument("--output", help="the run's JSON (default conformance/runs/DATE.json)")
    table_parser = commands.add_parser("table", help="write sequuid/docs/conformance.md from the newest run")
    table_parser.add_argument("--check", action="store_true", help="only compare; exit 1 when it differs")
    arguments = parser.parse_args(argv)

    if not PROGRAMS.is_dir():
        print(
            "sequuid_conformance runs from the repository (pip install -e ./sequuid-py/conformance): "
            f"{PROGRAMS} is missing",
            file=sys.stderr,
        )
        return 2
    if arguments.command == "setup":
        return setup()
    if arguments.command == "run":
        return run(arguments)
    return table.write_or_check(EXPLANATION.read_text(encoding="utf-8"), arguments.check)


if __name__ == "__main__":
    raise SystemExit(main())
