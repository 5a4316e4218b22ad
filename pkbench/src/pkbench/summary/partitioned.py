"""The summary's partitioned section: per strategy and layout (range, hash, none), where the newest inserts
landed and the answer in words (does the key concentrate them on one partition?), and retention of the oldest
partition by dropping it against DELETE and VACUUM of the same rows (time and WAL, one measurement each).

The figures are the partitioned scenario's query steps (`spread`, `oldest-partition`, `retention`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pkbench.analysis.stats import wilson
from pkbench.results.model import RunResult, StrategyResult
from pkbench.summary.sharded import CONCENTRATED
from pkbench.text import MISSING, binary_size, markdown_table


def _layout(strategy: StrategyResult) -> str:
    """What p_range is partitioned on: the key itself (its time) or created_at."""
    by_key = strategy.queries.get("time-range", {}).get("range-by-key", {})
    return "created_at" if "skipped" in by_key else "the key's time"


def spread_verdict(found: Mapping[str, Any]) -> str:
    """In words: the newest inserts concentrated on one partition, or spread over several."""
    inserts, hottest, touched = (
        int(found["inserts"]),
        int(found["hottest_inserts"]),
        int(found["partitions_touched"]),
    )
    if inserts == 0:
        return "no inserts were counted"
    low, high = wilson(hottest, inserts)
    share = f"{hottest / inserts:.1%} [{low:.1%}, {high:.1%}]"
    if low >= CONCENTRATED:
        return f"concentrated: one partition received {share} of the newest {inserts:,} inserts"
    return f"spread over {touched} partitions: the hottest received {share} of the newest {inserts:,} inserts"


def _fill(strategy: StrategyResult, layout: str) -> list[str]:
    """The layout's fill: rows per second of its step, and WAL bytes per row (runs before the fill's WAL was
    noted have no WAL)."""
    step = f"insert-{layout}"
    rows, seconds = strategy.step_rows.get(step), strategy.step_durations_s.get(step)
    rate = f"{rows / seconds:,.0f}" if rows and seconds else MISSING
    wal = strategy.queries["spread"].get("insert-wal", {}).get(f"{layout}_wal_bytes")
    return [rate, f"{float(wal) / rows:,.0f} B" if wal is not None and rows else MISSING]


def _measured(run: RunResult) -> list[StrategyResult]:
    return [
        s
        for s in run.strategies
        if s.status == "ok" and {"spread", "retention", "oldest-partition"} <= set(s.queries)
    ]


def _retention(strategy: StrategyResult) -> list[str]:
    wal = strategy.queries["retention"]["wal"]
    rows = strategy.queries["oldest-partition"]["rows"]
    times = strategy.step_durations_s
    drop_wal, delete_wal = float(wal["drop_wal_bytes"]), float(wal["delete_vacuum_wal_bytes"])
    delete_s = times.get("delete-oldest-rows", 0.0) + times.get("vacuum-after-delete", 0.0)
    return [
        strategy.name,
        f"{int(rows['partition_rows']):,}",
        f"{times.get('drop-oldest-partition', 0.0):.3f} s, {binary_size(drop_wal)}",
        f"{delete_s:.3f} s, {binary_size(delete_wal)}",
        f"{delete_wal / drop_wal:.1f}x" if drop_wal > 0 else MISSING,
        binary_size(float(wal["copy_pkey_bytes_after"])),
    ]


def markdown(run: RunResult) -> list[str]:
    found = _measured(run)
    if not found:
        return []
    lines = [
        "## Partitioned: where the inserts land, and retention",
        "",
        "Each layout's fill (rows per second of its step, one measurement, and WAL per row) and where its "
        "newest inserts landed by partition (the hottest partition's share, 95% interval).",
        "",
    ]
    rows = []
    for s in found:
        spread = s.queries["spread"]
        rows.append([s.name, f"range on {_layout(s)}", *_fill(s, "range"), spread_verdict(spread["range"])])
        rows.append([s.name, "hash", *_fill(s, "hash"), spread_verdict(spread["hash"])])
        rows.append([s.name, "none", *_fill(s, "none"), "one table: every insert enters its one key index"])
    lines += markdown_table(["Strategy", "Layout", "Inserts / s", "WAL / insert", "So"], rows)
    lines += [
        "",
        "Retention of the oldest partition that holds rows: detach and drop it, against DELETE of the same "
        "rows from an unpartitioned copy and VACUUM (one measurement each; WAL from the server's insert "
        "position, autovacuum off).",
        "",
    ]
    lines += markdown_table(
        ["Strategy", "Rows", "Drop: time, WAL", "DELETE + VACUUM: time, WAL", "WAL ratio", "Key index after"],
        [_retention(s) for s in found],
    )
    lines.append("")
    return lines


def answers(run: RunResult) -> list[str]:
    """One sentence per strategy: range and hash spread, and drop against DELETE on WAL."""
    sentences = []
    for s in _measured(run):
        spread = s.queries["spread"]
        wal = s.queries["retention"]["wal"]
        drop_wal, delete_wal = float(wal["drop_wal_bytes"]), float(wal["delete_vacuum_wal_bytes"])
        sentences.append(
            f"{s.name}: range on {_layout(s)} {spread_verdict(spread['range'])}; hash "
            f"{spread_verdict(spread['hash'])}; dropping the oldest partition wrote {binary_size(drop_wal)} "
            f"of WAL, DELETE and VACUUM of its rows {binary_size(delete_wal)}."
        )
    return sentences
