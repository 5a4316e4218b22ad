"""The summary's replication section: a table per window of what each strategy cost the standby and the
archive, and the answer in words, each strategy against the run's baseline.
"""

from __future__ import annotations

from collections.abc import Sequence

from pkbench.analysis.metrics import REPLICATION_METRICS, Figure, Metric, figure
from pkbench.results.model import RunResult, StrategyResult, WorkloadResult
from pkbench.text import MISSING, figure_text, markdown_table

_BY_KEY = {metric.key: metric for metric in REPLICATION_METRICS}
_COLUMNS = ("wal-shipped", "wal-archived", "replay-lag-p50", "replay-lag-p99", "replay-lag-max", "catch-up")
# synchronous_commit levels whose commits wait for the standby.
_REMOTE = ("remote_write", "on", "remote_apply")


def _measured(run: RunResult) -> list[StrategyResult]:
    return [s for s in run.strategies if s.status == "ok"]


def _how_many(run: RunResult) -> str:
    """How many measurements each figure stands for: paired rounds, repeats, or one run."""
    rounds = run.rounds
    if rounds is not None and rounds.mode == "paired" and rounds.count > 1:
        return f"medians of {rounds.count} paired rounds (TPS against bigint: the ratio of the medians)"
    repeats = run.scenario.get("parameters", {}).get("repeat", 1)
    return "one run" if repeats == 1 else f"medians of {repeats} runs"


def _windows(strategies: Sequence[StrategyResult]) -> list[str]:
    """Workload names that measured replication, in the order the scenario ran them."""
    names: list[str] = []
    for strategy in strategies:
        for workload in strategy.workloads:
            if workload.replication is not None and workload.name not in names:
                names.append(workload.name)
    return names


def _workload(strategy: StrategyResult, name: str) -> WorkloadResult | None:
    return next((w for w in strategy.workloads if w.name == name), None)


def _read(key: str, strategy: StrategyResult, workload: WorkloadResult) -> Figure:
    metric: Metric = _BY_KEY[key]
    return metric.read(strategy, workload)


def _ratio(this: Figure, other: Figure) -> float | None:
    if this.value is None or other.value is None or other.value == 0:
        return None
    return this.value / other.value


def _times(ratio: float) -> str:
    return f"{ratio:.2f}\N{MULTIPLICATION SIGN}"


def _sync_level(workload: WorkloadResult | None) -> str | None:
    level = workload.replication.synchronous_commit if workload and workload.replication else None
    return level if level in _REMOTE else None


def _measured_windows(run: RunResult) -> tuple[list[StrategyResult], list[str], StrategyResult] | None:
    """The strategies, the windows that measured a standby or an archive, and the baseline; None without."""
    strategies = _measured(run)
    windows = _windows(strategies)
    if not windows:
        return None
    return list(strategies), list(windows), run.baseline_strategy() or strategies[0]


def lines(run: RunResult) -> list[str]:
    """The section's markdown lines; none when no window measured a standby or an archive."""
    found = _measured_windows(run)
    if found is None:
        return []
    strategies, windows, baseline = found
    runs = _how_many(run)
    out = [
        "## Replication: what each key costs a standby and the WAL archive",
        "",
        f"{runs[0].upper()}{runs[1:]}; the primary, the standby and pgbench share this machine, so lag and "
        "TPS move with its load, while WAL per transaction does not. Archived bytes count whole segment "
        "files (the window is closed by a WAL switch at each end).",
        "",
    ]
    header = ["Window", "Strategy", *(f"{_BY_KEY[k].title} ({_BY_KEY[k].unit})" for k in _COLUMNS)]
    header += ["TPS", f"TPS vs {baseline.name}", "latency mean (ms)"]
    table: list[list[str]] = []
    for name in windows:
        base = _workload(baseline, name)
        for strategy in strategies:
            workload = _workload(strategy, name)
            if workload is None:
                continue
            cells = [_read(k, strategy, workload) for k in _COLUMNS]
            shown = [figure_text(c.value, _BY_KEY[k].fmt) for k, c in zip(_COLUMNS, cells, strict=True)]
            tps = figure(workload, "tps")
            latency = figure(workload.latency_ms, "mean")
            ratio = _ratio(tps, figure(base, "tps")) if base is not None else None
            level = _sync_level(workload)
            label = f"{name} (synchronous_commit {level})" if level else name
            table.append(
                [
                    label,
                    strategy.name,
                    *shown,
                    figure_text(tps.value, "{:,.0f}"),
                    MISSING if ratio is None else _times(ratio),
                    figure_text(latency.value, "{:,.2f}"),
                ]
            )
    out += markdown_table(header, table)
    for paragraph in _answers(strategies, baseline, windows):
        out += ["", paragraph]
    out.append("")
    return out


def answers(run: RunResult) -> list[str]:
    """The section's paragraphs alone (for the console)."""
    found = _measured_windows(run)
    return _answers(found[0], found[2], found[1]) if found else []


def _answers(
    strategies: Sequence[StrategyResult], baseline: StrategyResult, windows: Sequence[str]
) -> list[str]:
    """One paragraph per window: WAL shipped and archived, lag, and under synchronous commit the TPS."""
    paragraphs = []
    base_name = baseline.name
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


def _against_asynchronous(strategies: Sequence[StrategyResult], name: str, windows: Sequence[str]) -> str:
    """What waiting for the standby cost each strategy: its TPS in window NAME over its TPS in the first
    window that did not wait (the same workload, by the scenario's design)."""
    unsynchronised = next(
        (w for w in windows if all(_sync_level(_workload(s, w)) is None for s in strategies)), None
    )
    if unsynchronised is None:
        return ""
    shares = []
    for strategy in strategies:
        waiting, free = _workload(strategy, name), _workload(strategy, unsynchronised)
        ratio = _ratio(figure(waiting, "tps"), figure(free, "tps")) if waiting and free else None
        if ratio is not None:
            shares.append(f"{strategy.name} {_times(ratio)}")
    if not shares:
        return ""
    return (
        f"Waiting for the standby, each strategy kept this share of its TPS in {unsynchronised}: "
        f"{', '.join(shares)}."
    )


def _sentence(
    strategy: StrategyResult,
    workload: WorkloadResult,
    baseline: StrategyResult,
    base: WorkloadResult,
    base_name: str,
) -> str:
    name = strategy.name
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
