"""The pure parsers of pgbench's output: its progress lines, its final report, its per-transaction log,
and the latency percentiles taken from that log.

pgbench prints per-statement latency only as a mean (--report-per-command). Percentiles here come from its
per-transaction log (--log): a transaction is one run of one script, so a script holding a single SQL
statement gives that statement's own latency percentiles; for a script of several statements the
percentiles are of the whole script and the statements get means only.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

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
# pgbench 17 and later print a script's tps on a line of its own.
_SCRIPT_PROCESSED = re.compile(r"^ - number of transactions actually processed: (\d+) \(tps = ([\d.]+)\)")
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
            found = _SCRIPT_TRANSACTIONS.match(line) or _SCRIPT_PROCESSED.match(line)
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
