"""The pgbench driver and the pure parsers of its output.

pgbench prints per-statement latency only as a mean (--report-per-command). Percentiles here come from its
per-transaction log (--log): a transaction is one run of one script, so a script holding a single SQL
statement gives that statement's own latency percentiles; for a script of several statements the
percentiles are of the whole script and the statements get means only.
"""

from __future__ import annotations

import contextlib
import gzip
import math
import queue
import re
import shutil
import subprocess
import threading
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from pkbench.errors import PkbenchError

# -------------------------------------------------------------------------------------------- parsers (pure)

_NUMBER = r"[-+]?(?:\d+(?:\.\d*)?|nan|NaN|inf)"
_PROGRESS = re.compile(
    rf"^progress: (?P<elapsed>{_NUMBER}) s, (?P<tps>{_NUMBER}) tps, lat (?P<lat>{_NUMBER}) ms "
    rf"stddev (?P<stddev>{_NUMBER})(?:, (?P<failed>\d+) failed)?"
)


def _float(text: str | None) -> float | None:
    if text is None:
        return None
    value = float(text)
    return None if math.isnan(value) or math.isinf(value) else value


@dataclass(frozen=True)
class ProgressSample:
    elapsed_s: float
    tps: float
    latency_ms_mean: float | None
    latency_ms_stddev: float | None
    failed: int | None


def parse_progress(line: str) -> ProgressSample | None:
    """One `progress: ...` line (pgbench --progress, on stderr); None for any other line."""
    match = _PROGRESS.match(line.strip())
    if not match:
        return None
    tps = _float(match["tps"])
    return ProgressSample(
        elapsed_s=float(match["elapsed"]),
        tps=tps if tps is not None else 0.0,
        latency_ms_mean=_float(match["lat"]),
        latency_ms_stddev=_float(match["stddev"]),
        failed=int(match["failed"]) if match["failed"] is not None else None,
    )


@dataclass(frozen=True)
class StatementLatency:
    latency_ms: float
    failures: int | None
    text: str


@dataclass(frozen=True)
class ScriptSummary:
    name: str
    weight: int | None
    transactions: int | None
    tps: float | None
    latency_ms_mean: float | None
    statements: tuple[StatementLatency, ...]


@dataclass(frozen=True)
class Summary:
    transactions: int | None
    failed_transactions: int | None
    tps: float | None
    latency_ms_mean: float | None
    latency_ms_stddev: float | None
    scripts: tuple[ScriptSummary, ...]
    errors: tuple[str, ...] = ()


_TOP = {
    "transactions": re.compile(r"^number of transactions actually processed: (\d+)"),
    "failed": re.compile(r"^number of failed transactions: (\d+)"),
    "latency": re.compile(r"^latency average = ([\d.]+) ms"),
    "stddev": re.compile(r"^latency stddev = ([\d.]+) ms"),
    "tps": re.compile(r"^tps = ([\d.]+) \(without initial connection time\)"),
    "single": re.compile(r"^transaction type: (.+)$"),
}
_SCRIPT_HEADER = re.compile(r"^SQL script \d+: (.+)$")
_SCRIPT_WEIGHT = re.compile(r"^ - weight: (\d+)")
_SCRIPT_TRANSACTIONS = re.compile(r"^ - (\d+) transactions \([^,]*, tps = ([\d.]+)\)")
_SCRIPT_LATENCY = re.compile(r"^ - latency average = ([\d.]+) ms")
# "   0.359   0  INSERT ..." (pgbench 15+: latency, failures, text); older versions print no failures column.
_STATEMENT = re.compile(r"^\s+([\d.]+)\s+(?:(\d+)\s+)?(\S.*)$")


def parse_summary(stdout: str, stderr: str = "") -> Summary:
    """The final report pgbench prints on stdout (with -r), plus the error lines of stderr."""
    top: dict[str, str] = {}
    scripts: list[dict[str, object]] = []
    current: dict[str, object] | None = None
    single_name: str | None = None
    in_statements = False
    for line in stdout.splitlines():
        header = _SCRIPT_HEADER.match(line)
        if header:
            current = {"name": header[1].strip(), "statements": []}
            scripts.append(current)
            in_statements = False
            continue
        if "statement latencies in milliseconds" in line:
            if current is None:
                current = {"name": single_name or "script", "statements": []}
                scripts.append(current)
            in_statements = True
            continue
        if in_statements and current is not None:
            statement = _STATEMENT.match(line)
            if statement and not line.startswith(" - "):
                statements = current["statements"]
                assert isinstance(statements, list)
                statements.append(
                    StatementLatency(
                        float(statement[1]),
                        int(statement[2]) if statement[2] is not None else None,
                        statement[3].strip(),
                    )
                )
                continue
            in_statements = False
        if current is not None:
            for key, pattern in (("weight", _SCRIPT_WEIGHT), ("latency", _SCRIPT_LATENCY)):
                found = pattern.match(line)
                if found:
                    current[key] = found[1]
            found = _SCRIPT_TRANSACTIONS.match(line)
            if found:
                current["transactions"], current["tps"] = found[1], found[2]
            continue
        for key, pattern in _TOP.items():
            found = pattern.match(line)
            if found and key not in top:
                top[key] = found[1]
        if "single" in top and single_name is None:
            single_name = top["single"].strip()
    if len(scripts) == 1 and "transactions" not in scripts[0]:
        # One script: its figures are the run's.
        scripts[0].update(
            {"transactions": top.get("transactions"), "tps": top.get("tps"), "latency": top.get("latency")}
        )

    def opt_int(v: object) -> int | None:
        return int(str(v)) if v is not None else None

    def opt_float(v: object) -> float | None:
        return float(str(v)) if v is not None else None

    errors = tuple(line.strip() for line in stderr.splitlines() if line.startswith("pgbench: error:"))
    return Summary(
        transactions=opt_int(top.get("transactions")),
        failed_transactions=opt_int(top.get("failed")),
        tps=opt_float(top.get("tps")),
        latency_ms_mean=opt_float(top.get("latency")),
        latency_ms_stddev=opt_float(top.get("stddev")),
        scripts=tuple(
            ScriptSummary(
                name=str(s["name"]),
                weight=opt_int(s.get("weight")),
                transactions=opt_int(s.get("transactions")),
                tps=opt_float(s.get("tps")),
                latency_ms_mean=opt_float(s.get("latency")),
                statements=tuple(s["statements"]),  # type: ignore[arg-type]
            )
            for s in scripts
        ),
        errors=errors,
    )


def parse_log(lines: Iterable[str]) -> dict[int, list[float]]:
    """Per-transaction log lines → latencies in ms of the completed transactions, by script number (0-based).

    Format: client_id transaction_no time_us script_no time_epoch time_us [lag] [retries]; time is `failed`
    or `skipped` for transactions that did not complete.
    """
    by_script: dict[int, list[float]] = {}
    for line in lines:
        fields = line.split()
        if len(fields) < 6 or not fields[2].isdigit():
            continue
        by_script.setdefault(int(fields[3]), []).append(int(fields[2]) / 1000.0)
    return by_script


def percentile(sorted_values: Sequence[float], fraction: float) -> float:
    """Linear interpolation between closest ranks (numpy's default)."""
    if not sorted_values:
        raise ValueError("percentile of nothing")
    position = (len(sorted_values) - 1) * fraction
    low = math.floor(position)
    high = min(low + 1, len(sorted_values) - 1)
    return sorted_values[low] + (sorted_values[high] - sorted_values[low]) * (position - low)


def latency_summary(values: Iterable[float]) -> dict[str, float | None]:
    ordered = sorted(values)
    if not ordered:
        return {"mean": None, "p50": None, "p95": None, "p99": None, "max": None}
    return {
        "mean": round(sum(ordered) / len(ordered), 4),
        "p50": round(percentile(ordered, 0.50), 4),
        "p95": round(percentile(ordered, 0.95), 4),
        "p99": round(percentile(ordered, 0.99), 4),
        "max": round(ordered[-1], 4),
    }


# ------------------------------------------------------------------------------------------------ the driver


@dataclass(frozen=True)
class ScriptFile:
    name: str
    weight: int
    sql: str


@dataclass
class Run:
    returncode: int
    summary: Summary
    progress: list[ProgressSample]
    latencies_ms: dict[int, list[float]]
    duration_s: float
    stderr_tail: list[str] = field(default_factory=list)


def _stop(process: subprocess.Popen[str]) -> None:
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def run(
    pgbench: Path,
    database: str,
    environment: Mapping[str, str],
    scripts: Sequence[ScriptFile],
    *,
    clients: int,
    jobs: int,
    duration_s: int,
    progress_interval_s: int,
    workdir: Path,
    on_progress: Callable[[float, ProgressSample | None], None],
    check_alive: Callable[[], None],
    transactions: int | None = None,
    rate_tps: float | None = None,
) -> Run:
    """Run pgbench once for `duration_s`, or for `transactions` per client (pgbench -t) when given, calling
    on_progress about twice a second; always stops pgbench.

    With `rate_tps` pgbench schedules transactions at that rate (--rate); a transaction's latency is then
    counted from its scheduled start, so time spent waiting behind a slow one is in the figures.
    """
    workdir.mkdir(parents=True, exist_ok=True)
    work = ["--transactions", str(transactions)] if transactions else ["--time", str(duration_s)]
    argv = [
        str(pgbench),
        "--no-vacuum",
        "--client",
        str(clients),
        "--jobs",
        str(jobs),
        *work,
        "--protocol",
        "prepared",
        f"--progress={progress_interval_s}",
        "--report-per-command",
        "--log",
        "--log-prefix=pgbench_log",
    ]
    if rate_tps is not None:
        argv.append(f"--rate={rate_tps:g}")
    for script in scripts:
        (workdir / f"{script.name}.sql").write_text(script.sql.rstrip() + "\n")
        argv += ["--file", f"{script.name}.sql@{script.weight}"]
    argv.append(database)
    (workdir / "command.txt").write_text(" ".join(argv[:-1]) + " DBNAME\n")
    lines: queue.Queue[str | None] = queue.Queue()
    started = time.monotonic()
    process = subprocess.Popen(
        argv,
        cwd=workdir,
        env=dict(environment),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    stdout_chunks: list[str] = []

    def pump_stderr() -> None:
        assert process.stderr is not None
        for line in process.stderr:
            lines.put(line)
        lines.put(None)

    def pump_stdout() -> None:
        assert process.stdout is not None
        stdout_chunks.append(process.stdout.read())

    readers = [
        threading.Thread(target=pump_stderr, daemon=True),
        threading.Thread(target=pump_stdout, daemon=True),
    ]
    for reader in readers:
        reader.start()
    progress: list[ProgressSample] = []
    stderr_lines: list[str] = []
    try:
        finished = False
        while not finished:
            try:
                line = lines.get(timeout=0.5)
            except queue.Empty:
                line = ""
            if line is None:
                finished = True
            elif line:
                stderr_lines.append(line)
                sample = parse_progress(line)
                if sample is not None:
                    progress.append(sample)
                    on_progress(time.monotonic() - started, sample)
                    continue
            on_progress(time.monotonic() - started, None)
            check_alive()
        process.wait()
    finally:
        _stop(process)
    for reader in readers:
        reader.join(timeout=5)
    duration = time.monotonic() - started
    stdout = "".join(stdout_chunks)
    stderr = "".join(stderr_lines)
    (workdir / "pgbench.stdout").write_text(stdout)
    (workdir / "pgbench.stderr").write_text(stderr)
    latencies = _read_and_compress_logs(workdir)
    return Run(
        process.returncode,
        parse_summary(stdout, stderr),
        progress,
        latencies,
        duration,
        [line.rstrip() for line in stderr_lines if not line.startswith("progress:")][-5:],
    )


def _read_and_compress_logs(workdir: Path) -> dict[int, list[float]]:
    latencies: dict[int, list[float]] = {}
    for path in sorted(workdir.glob("pgbench_log.*")):
        if path.suffix == ".gz":
            continue
        with path.open() as f:
            for script, values in parse_log(f).items():
                latencies.setdefault(script, []).extend(values)
        with path.open("rb") as src, gzip.open(path.with_name(path.name + ".gz"), "wb") as dst:
            shutil.copyfileobj(src, dst)
        with contextlib.suppress(OSError):
            path.unlink()
    return latencies


def failure_reason(result: Run) -> str | None:
    """Why a run measured nothing usable, in one line; None when it measured."""
    if result.summary.transactions and result.returncode == 0:
        return None
    if result.summary.errors:
        return result.summary.errors[0].removeprefix("pgbench: error: ")
    if result.returncode != 0:
        tail = result.stderr_tail[-1] if result.stderr_tail else "no output"
        return f"pgbench exited with code {result.returncode}: {tail}"
    if not result.summary.transactions:
        return "pgbench completed no transaction"
    return None


def check_version(pgbench: Path) -> str:
    try:
        out = subprocess.run([str(pgbench), "--version"], capture_output=True, text=True, timeout=10)
    except OSError as e:
        raise PkbenchError(f"cannot run {pgbench}: {e.strerror}") from e
    return out.stdout.strip()
