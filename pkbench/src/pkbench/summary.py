"""The Results Summary: one row per strategy, as in the article, for summary.md and the console."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

MISSING = "\u2013"
TIMES = "\u00d7"
# Within this relative difference two figures are called the same.
SAME_WITHIN = 0.03


def _bytes(n: float | None) -> str:
    if n is None:
        return MISSING
    for unit, scale in (("GB", 1024**3), ("MB", 1024**2), ("kB", 1024)):
        if n >= scale:
            return f"{n / scale:.2f} {unit}" if unit == "GB" else f"{n / scale:.0f} {unit}"
    return f"{n:.0f} B"


def _number(n: float | None, digits: int = 0) -> str:
    return MISSING if n is None else f"{n:,.{digits}f}"


def _relative(this: float, other: float, better: str, worse: str, same: str) -> str:
    """'10% faster' when `this` is smaller than `other` (time, size); the percentage is of the smaller."""
    if this <= 0 or other <= 0:
        return ""
    if abs(this - other) / max(this, other) < SAME_WITHIN:
        return same
    ratio = max(this, other) / min(this, other)
    # "3.0x slower" reads better than "200% slower" once one takes twice the other.
    amount = f"{ratio:.1f}{TIMES}" if ratio >= 2 else f"{(ratio - 1) * 100:.0f}%"
    return f"{amount} {better if this < other else worse}"


def comparison(this: Mapping[str, Any], other: Mapping[str, Any]) -> str:
    """'10% faster and 63% smaller than uuid-v4-text': insert time (prefill) and size at finish."""
    parts = []
    t_this, t_other = _prefill_s(this), _prefill_s(other)
    if t_this and t_other:
        parts.append(_relative(t_this, t_other, "faster", "slower", "same speed"))
    s_this, s_other = final_size(this), final_size(other)
    if s_this and s_other:
        parts.append(_relative(s_this, s_other, "smaller", "larger", "same size"))
    parts = [p for p in parts if p]
    return f"{' and '.join(parts)} than {other['name']}" if parts else ""


def _prefill_s(strategy: Mapping[str, Any]) -> float | None:
    prefill = strategy.get("prefill") or {}
    value = prefill.get("duration_s")
    return float(value) if value else None


def final_size(strategy: Mapping[str, Any]) -> float | None:
    for workload in reversed(strategy.get("workloads") or []):
        sizes = workload.get("sizes_at_end") or {}
        if sizes.get("total_bytes"):
            return float(sizes["total_bytes"])
    sizes = strategy.get("sizes_after_prefill") or {}
    return float(sizes["total_bytes"]) if sizes.get("total_bytes") else None


def rows(results: Mapping[str, Any]) -> tuple[list[str], list[list[str]]]:
    strategies: Sequence[Mapping[str, Any]] = results.get("strategies", [])
    workload_names: list[str] = []
    for s in strategies:
        for w in s.get("workloads") or []:
            if w["name"] not in workload_names:
                workload_names.append(w["name"])
    prefill_rows = results.get("scenario", {}).get("parameters", {}).get("rows")
    # The first workload's window shows the cache pressure of the inserts (the later ones share the cache).
    first = workload_names[0] if workload_names else ""
    header = [
        "Strategy",
        f"Time to insert {prefill_rows:,} rows" if prefill_rows else "Prefill time",
        "Average rate (rows/s)",
        *[f"TPS {n}" for n in workload_names],
        f"PK hit ratio {first}".strip(),
        f"WAL/tx {first}".strip(),
        "Size at finish",
        "Compared with the one before",
        "Compared with bigint",
    ]
    measured = [s for s in strategies if s.get("status") == "ok"]
    bigint = next((s for s in measured if s["name"] == "bigint"), None)
    table: list[list[str]] = []
    previous: Mapping[str, Any] | None = None
    for s in strategies:
        if s.get("status") != "ok":
            table.append([s["name"], f"{s.get('status')}: {s.get('error') or ''}", *[""] * (len(header) - 2)])
            continue
        prefill = s.get("prefill") or {}
        by_name = {w["name"]: w for w in s.get("workloads") or []}
        tps = [_number((by_name.get(n) or {}).get("tps")) for n in workload_names]
        last = by_name.get(first) or {}
        pk = _primary_key_name(s)
        hit = (last.get("hit_ratio") or {}).get(pk) if pk else None
        wal = last.get("wal_bytes_per_transaction")
        table.append(
            [
                s["name"],
                f"{prefill['duration_s']:.1f} s" if prefill.get("duration_s") else MISSING,
                _number(prefill.get("rows_per_s")),
                *tps,
                MISSING if hit is None else f"{hit * 100:.1f}%",
                MISSING if wal is None else f"{wal:,.0f} B",
                _bytes(final_size(s)),
                comparison(s, previous) if previous else "",
                comparison(s, bigint) if bigint and bigint is not s and bigint is not previous else "",
            ]
        )
        previous = s
    return header, table


def _primary_key_name(strategy: Mapping[str, Any]) -> str | None:
    sizes = strategy.get("sizes_after_prefill") or {}
    indexes = sizes.get("indexes") or {}
    keys = [name for name in indexes if name.endswith("_pkey")]
    return keys[0] if keys else None


def markdown(results: Mapping[str, Any]) -> str:
    header, table = rows(results)
    scenario = results.get("scenario", {})
    server = results.get("server", {})
    params = scenario.get("parameters", {})
    lines = [
        f"# Results Summary: {scenario.get('name', '')}",
        "",
        f"PostgreSQL {server.get('version', '?')}, "
        f"shared_buffers {server.get('settings', {}).get('shared_buffers', '?')}, "
        f"{params.get('rows', '?'):,} rows prefilled with the indexes in place, "
        f"pgbench -c {params.get('clients', '?')} "
        f"-j {params.get('jobs', '?')} for {params.get('duration_s', '?')} s per workload; "
        f"{results.get('machine', {}).get('cores', '?')} cores.",
        "",
        "| " + " | ".join(header) + " |",
        "|" + "|".join("---" for _ in header) + "|",
    ]
    lines += ["| " + " | ".join(cell.replace("|", "\\|") for cell in row) + " |" for row in table]
    lines += [
        "",
        "Time to insert: the prefill with the indexes in place. TPS: pgbench transactions per second "
        "(each a single insert or lookup). PK hit ratio (shared buffers) and WAL per transaction: the first "
        "workload's window, which starts right after a checkpoint. "
        "Size at finish: table and indexes after the last workload.",
        "",
    ]
    return "\n".join(lines)


def write(out_dir: Path, results: Mapping[str, Any]) -> Path:
    path = out_dir / "summary.md"
    path.write_text(markdown(results))
    return path


def print_table(console: Console, results: Mapping[str, Any]) -> None:
    header, table = rows(results)
    rich_table = Table(title=f"Results Summary: {results.get('scenario', {}).get('name', '')}")
    for i, name in enumerate(header):
        rich_table.add_column(name, justify="left" if i == 0 or i >= len(header) - 2 else "right")
    for row in table:
        rich_table.add_row(*row)
    console.print(rich_table)
