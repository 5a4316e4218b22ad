"""The summary's replication section: a table per window of what each strategy cost the standby and the
archive, and the answer in words, each strategy against the baseline (bigint when it ran, else the first).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from pkbench.metrics import REPLICATION_METRICS, Figure, Metric, figure

JSON = dict[str, Any]
MISSING = "\N{EN DASH}"
_BY_KEY = {metric.key: metric for metric in REPLICATION_METRICS}
_COLUMNS = ("wal-shipped", "wal-archived", "replay-lag-p50", "replay-lag-p99", "replay-lag-max", "catch-up")
# synchronous_commit levels whose commits wait for the standby.
_REMOTE = ("remote_write", "on", "remote_apply")


def _measured(results: Mapping[str, Any]) -> list[JSON]:
    return [s for s in results.get("strategies") or [] if isinstance(s, dict) and s.get("status") == "ok"]


def _how_many(results: Mapping[str, Any]) -> str:
    """How many measurements each figure stands for: paired rounds, repeats, or one run."""
    rounds = results.get("rounds") or {}
    count = rounds.get("count") if isinstance(rounds, dict) else None
    if rounds.get("mode") == "paired" and isinstance(count, int) and count > 1:
        return f"medians of {count} paired rounds (TPS against bigint: the ratio of the medians)"
    repeats = (results.get("scenario") or {}).get("parameters", {}).get("repeat", 1)
    return "one run" if repeats == 1 else f"medians of {repeats} runs"


def _windows(strategies: Sequence[JSON]) -> list[str]:
    """Workload names that measured replication, in the order the scenario ran them."""
    names: list[str] = []
    for strategy in strategies:
        for workload in strategy.get("workloads") or []:
            if isinstance(workload.get("replication"), dict) and workload.get("name") not in names:
                names.append(str(workload.get("name")))
    return names


def _workload(strategy: JSON, name: str) -> JSON | None:
    return next((w for w in strategy.get("workloads") or [] if w.get("name") == name), None)


def _read(key: str, strategy: JSON, workload: JSON) -> Figure:
    metric: Metric = _BY_KEY[key]
    return metric.read(strategy, workload)


def _ratio(this: Figure, other: Figure) -> float | None:
    if this.value is None or other.value is None or other.value == 0:
        return None
    return this.value / other.value


def _times(ratio: float) -> str:
    return f"{ratio:.2f}\N{MULTIPLICATION SIGN}"


def _sync_level(workload: JSON) -> str | None:
    level = (workload.get("replication") or {}).get("synchronous_commit")
    return str(level) if level in _REMOTE else None


def lines(results: Mapping[str, Any]) -> list[str]:
    """The section's markdown lines; none when no window measured a standby or an archive."""
    strategies = _measured(results)
    windows = _windows(strategies)
    if not windows:
        return []
    baseline = next((s for s in strategies if s.get("name") == "bigint"), strategies[0])
    runs = _how_many(results)
    out = [
        "## Replication: what each key costs a standby and the WAL archive",
        "",
        f"{runs[0].upper()}{runs[1:]}; the primary, the standby and pgbench share this machine, so lag and "
        "TPS move with its load, while WAL per transaction does not. Archived bytes count whole segment "
        "files (the window is closed by a WAL switch at each end).",
        "",
    ]
    header = ["Window", "Strategy", *(f"{_BY_KEY[k].title} ({_BY_KEY[k].unit})" for k in _COLUMNS)]
    header += ["TPS", f"TPS vs {baseline.get('name')}", "latency mean (ms)"]
    out += ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    for name in windows:
        base = _workload(baseline, name)
        for strategy in strategies:
            workload = _workload(strategy, name)
            if workload is None:
                continue
            cells = [_read(k, strategy, workload) for k in _COLUMNS]
            shown = [
                MISSING if c.value is None else _BY_KEY[k].fmt.format(c.value)
                for k, c in zip(_COLUMNS, cells, strict=True)
            ]
            tps = figure(workload, "tps")
            latency = figure(workload.get("latency_ms"), "mean")
            ratio = _ratio(tps, figure(base, "tps")) if base is not None else None
            level = _sync_level(workload)
            label = f"{name} (synchronous_commit {level})" if level else name
            out.append(
                "| "
                + " | ".join(
                    [
                        label,
                        str(strategy.get("name")),
                        *shown,
                        MISSING if tps.value is None else f"{tps.value:,.0f}",
                        MISSING if ratio is None else _times(ratio),
                        MISSING if latency.value is None else f"{latency.value:,.2f}",
                    ]
                )
                + " |"
            )
    for paragraph in _answers(strategies, baseline, windows):
        out += ["", paragraph]
    out.append("")
    return out


def answers(results: Mapping[str, Any]) -> list[str]:
    """The section's paragraphs alone (for the console)."""
    strategies = _measured(results)
    windows = _windows(strategies)
    if not windows:
        return []
    baseline = next((s for s in strategies if s.get("name") == "bigint"), strategies[0])
    return _answers(strategies, baseline, windows)


def _answers(strategies: Sequence[JSON], baseline: JSON, windows: Sequence[str]) -> list[str]:
    """One paragraph per window: WAL shipped and archived, lag, and under synchronous commit the TPS."""
    paragraphs = []
    base_name = str(baseline.get("name"))
    for name in windows:
        base = _workload(baseline, name)
        if base is None:
            continue
        sentences = []
        for strategy in strategies:
            workload = _workload(strategy, name)
            if strategy is baseline or workload is None:
                continue
            sentences.append(_sentence(strategy, workload, baseline, base, base_name))
        level = _sync_level(base)
        where = f"In {name}" + (
            f" (commits wait for the standby: synchronous_commit {level})" if level else ""
        )
        if level:
            sentences.append(_against_asynchronous(strategies, name, windows))
        paragraphs.append(f"{where}: " + " ".join(s for s in sentences if s) if sentences else "")
    return [p for p in paragraphs if p]


def _against_asynchronous(strategies: Sequence[JSON], name: str, windows: Sequence[str]) -> str:
    """What waiting for the standby cost each strategy: its TPS in window NAME over its TPS in the first
    window that did not wait (the same workload, by the scenario's design)."""
    unsynchronised = next(
        (w for w in windows if all(_sync_level(_workload(s, w) or {}) is None for s in strategies)), None
    )
    if unsynchronised is None:
        return ""
    shares = []
    for strategy in strategies:
        waiting, free = _workload(strategy, name), _workload(strategy, unsynchronised)
        ratio = _ratio(figure(waiting, "tps"), figure(free, "tps")) if waiting and free else None
        if ratio is not None:
            shares.append(f"{strategy.get('name')} {_times(ratio)}")
    if not shares:
        return ""
    return (
        f"Waiting for the standby, each strategy kept this share of its TPS in {unsynchronised}: "
        f"{', '.join(shares)}."
    )


def _sentence(strategy: JSON, workload: JSON, baseline: JSON, base: JSON, base_name: str) -> str:
    name = str(strategy.get("name"))
    parts = []
    shipped = _ratio(_read("wal-shipped", strategy, workload), _read("wal-shipped", baseline, base))
    if shipped is not None:
        parts.append(f"shipped {_times(shipped)} the WAL per transaction of {base_name}")
    archived = _ratio(_read("wal-archived", strategy, workload), _read("wal-archived", baseline, base))
    if archived is not None:
        parts.append(f"archived {_times(archived)}")
    lag, base_lag = _read("replay-lag-p99", strategy, workload), _read("replay-lag-p99", baseline, base)
    if lag.value is not None and base_lag.value is not None:
        parts.append(f"its replay lag p99 was {lag.value:,.1f} ms against {base_lag.value:,.1f} ms")
    if _sync_level(workload):
        tps = _ratio(figure(workload, "tps"), figure(base, "tps"))
        if tps is not None:
            parts.append(f"and it committed at {_times(tps)} {base_name}'s TPS")
    return f"{name} {', '.join(parts)}." if parts else ""
