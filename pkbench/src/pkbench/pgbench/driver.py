"""The pgbench driver: one run of pgbench with pkbench's options, its output kept and parsed (the parsers are
pure functions in output.py)."""

from __future__ import annotations

import contextlib
import gzip
import queue
import shutil
import signal
import subprocess
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from pkbench.errors import PkbenchError
from pkbench.pgbench.output import ProgressSample, Summary, parse_log, parse_progress, parse_summary


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
    log_sampling_rate: float | None = None,
) -> Run:
    """Run pgbench once for `duration_s`, or for `transactions` per client (pgbench -t) when given, calling
    on_progress about twice a second; always stops pgbench.

    With `rate_tps` pgbench schedules transactions at that rate (--rate); a transaction's latency is then
    counted from its scheduled start, so time spent waiting behind a slow one is in the figures. With
    `log_sampling_rate` below 1 the per-transaction log (the latency percentiles) keeps that fraction of the
    transactions: at hundreds of thousands a second, logging and reading every one would cost more than the
    window.
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
    if log_sampling_rate is not None and log_sampling_rate < 1:
        argv.append(f"--sampling-rate={log_sampling_rate:g}")
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
    if result.returncode < 0:
        return f"pgbench was killed by {signal.Signals(-result.returncode).name}"
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
