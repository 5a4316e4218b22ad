"""What `pkbench advise --like` writes to advice.md and prints: the user's table named, how its replica was
scaled, each key's cell on the replica with the precision rule stated per cell, and what a switch of the key
to v7 cost on the replica beside what it gains there."""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from pkbench import results
from pkbench.advise import replica as like
from pkbench.advise.replica import size_words
from pkbench.evidence import advice, decision
from pkbench.evidence.cell import BASELINE, PRECISION, TIMES, Cell
from pkbench.survey.shape import TableShape
from pkbench.text import binary_size


@dataclass(frozen=True)
class Change:
    """One change of the switch on the replica: how long it took, the WAL it wrote, and the disk the
    replica's tables held before and after it (None: not recorded)."""

    name: str
    seconds: float | None
    wal_bytes: int | None
    disk_before: int | None
    disk_after: int | None


CHANGE_WORDS = {
    "switch-default": "(a) the default switched to v7 for new rows (ALTER TABLE ... SET DEFAULT)",
    "rewrite-keys": "(b) the existing keys rewritten to v7, the child tables' foreign keys with them "
    "(UPDATE, ON UPDATE CASCADE)",
}


def switch_changes(directory: Path) -> list[Change] | str:
    """The switch's changes as its run recorded them, or why there are none."""
    if not (directory / "results.json").is_file():
        return "its run did not finish"
    run = results.load(directory)
    found = next((s for s in run.strategies if s.name == like.SWITCH_STRATEGY), None)
    if found is None or found.status != "ok":
        return f"its run did not finish ({found.error if found is not None else 'no result'})"
    changes = []
    for name in like.CHANGES:
        before = (found.queries.get(f"before-{name}") or {}).get("figures") or {}
        after = (found.queries.get(f"after-{name}") or {}).get("figures") or {}
        wal = _difference(after.get("wal_bytes"), before.get("wal_bytes"))
        changes.append(
            Change(
                name,
                found.step_durations_s.get(name),
                int(wal) if wal is not None else None,
                _bytes(before.get("disk_bytes")),
                _bytes(after.get("disk_bytes")),
            )
        )
    return changes


def _difference(after: object, before: object) -> float | None:
    if isinstance(after, int | float) and isinstance(before, int | float):
        return float(after) - float(before)
    return None


def _bytes(value: object) -> int | None:
    return int(value) if isinstance(value, int | float) else None


def change_line(change: Change, factor: float) -> str:
    """A change's figures on the replica, and at the table's size (a linear estimate: the rows over f)."""
    took = f"{change.seconds:,.2f} s" if change.seconds is not None else "time not recorded"
    wal = binary_size(change.wal_bytes) if change.wal_bytes is not None else "not recorded"
    if change.disk_before is not None and change.disk_after is not None:
        disk = (
            f"disk {binary_size(change.disk_before)} before, {binary_size(change.disk_after)} after "
            f"({_signed(change.disk_after - change.disk_before)})"
        )
    else:
        disk = "disk not recorded"
    line = f"{CHANGE_WORDS[change.name]}: {took}, {wal} of WAL, {disk} on the replica"
    if 0 < factor < 1 and change.name == "rewrite-keys":
        scaled = []
        if change.seconds is not None:
            scaled.append(f"about {_duration(change.seconds / factor)}")
        if change.wal_bytes is not None:
            scaled.append(f"{binary_size(change.wal_bytes / factor)} of WAL")
        if change.disk_before is not None and change.disk_after is not None:
            scaled.append(f"{_signed((change.disk_after - change.disk_before) / factor)} of disk")
        if scaled:
            line += f"; at your table's size, if it grows with the rows: {', '.join(scaled)}"
    return line


def _signed(size: float) -> str:
    return f"{'+' if size >= 0 else '-'}{binary_size(abs(size))}"


def _duration(seconds: float) -> str:
    if seconds < 10:
        return f"{seconds:,.2f} s"
    if seconds < 120:
        return f"{seconds:,.0f} s"
    if seconds < 7200:
        return f"{seconds / 60:,.0f} min"
    return f"{seconds / 3600:,.1f} h"


def gain_line(table: advice.Table, shape: TableShape) -> str | None:
    """What v7 gains over the table's own kind of key on the replica, from the two cells against bigint."""
    own = shape.strategy
    row = table.cells.get(like.CONDITION, {})
    if own is None or own == "uuid-v7" or own not in row or "uuid-v7" not in row:
        return None
    mine, seven = row[own], row["uuid-v7"]
    if mine.ratio is None or seven.ratio is None:
        return None
    rate = seven.ratio / mine.ratio
    said = f"the gain: on the replica v7 ran at {rate:.2f}{TIMES} the rate of your key's kind"
    if mine.work is not None and seven.work is not None and mine.work.ratio:
        said += f" with {seven.work.ratio / mine.work.ratio:.2f}{TIMES} its WAL per insert"
    return said + " (the ratio of the two cells' estimates against bigint; their intervals are in the table)"


def cell_text(cell: Cell) -> str:
    if cell.kind == "baseline":
        return "baseline"
    if cell.kind == "not measured":
        return "not measured"
    return f"{cell.word()} {cell.figures()}".strip()


def document(
    out: Path,
    shape: TableShape,
    scaling: like.Scaling,
    replica: like.Replica,
    table: advice.Table,
    memory_words: str,
    switch_why: str | None,
    measured: Sequence[str],
    windows_words: str = "",
) -> list[str]:
    """advice.md's lines; MEASURED says how each cell's rounds ended (advise.outcome's lines for the
    replica's run), WINDOWS_WORDS how its windows were chosen."""
    row = table.conditions[0] if table.conditions else None
    lines = [
        f"# Which key for {shape.table}? Measured on a replica of its shape",
        "",
        f"Written by `pkbench advise --like {shape.table}` from the runs in this folder (each an ordinary "
        "`pkbench run` on an embedded cluster: its own results.json, summary.md and time series; the "
        "scenario files they ran are replica.toml and switch.toml). The server the table is on was only "
        "read, in one READ ONLY transaction, as `pkbench inspect` reads it.",
        "",
        "## The table",
        "",
        f"- {shape.table}: {shape.rows:,} rows, {binary_size(shape.total_bytes)} with its indexes; key "
        f"{shape.key.name} {shape.key.type} ({shape.key_source}, index {binary_size(shape.index_bytes)}), "
        f"{shape.kind_words}" + (f" from {shape.generator}" if shape.generator else "") + ".",
        f"- {len(shape.columns)} other column(s), {len(shape.indexes)} other index(es), "
        f"{len(shape.children)} table(s) whose foreign keys reference it; PostgreSQL {shape.server_version}.",
        "",
        "## The replica",
        "",
        in_words(shape, scaling, memory_words),
        "",
        *([f"Its windows: {windows_words}.", ""] if windows_words else []),
        *(f"- {note}." for note in scaling.notes),
        *(f"- {said}." for said in replica.said),
        *([""] if scaling.notes or replica.said else []),
        "## Each key on the replica",
        "",
        "Each key's insert rate (a row and its children) over bigint's, with its 95% interval, and its WAL "
        "per insert over bigint's beside it:",
        "",
        "| key | against bigint |",
        "|---|---|",
    ]
    if row is not None:
        for column in table.columns:
            cell = table.cells[row.key][column.strategy]
            lines.append(f"| {column.heading} | {cell_text(cell)} |")
        lines += ["", "What the rule makes of each (evidence.decision):", ""]
        for column in table.columns:
            if column.strategy == BASELINE:
                continue
            found = decision.answer(row, column.strategy, table.cells[row.key][column.strategy])
            lines.append(f"- {column.heading}: {found.decided() if found is not None else 'not measured'}.")
        if table.runs:
            links = ", ".join(table.link(run, out) for run in table.runs)
            lines += ["", f"Runs: {links}."]
    lines += [
        "",
        "Each cell was measured until it was decided (its 95% interval within "
        f"±{PRECISION:.0%} of its estimate, or a direction its interval holds with its WAL beside), "
        "or its run's share of the budget ended:",
        "",
        *measured,
        "",
        "## What a switch to v7 would cost",
        "",
        *_switch_lines(out, shape, scaling, table, switch_why),
    ]
    return lines


def _switch_lines(
    out: Path, shape: TableShape, scaling: like.Scaling, table: advice.Table, switch_why: str | None
) -> list[str]:
    if switch_why is not None:
        return [f"Not measured: {switch_why}."]
    changes = switch_changes(out / like.SWITCH)
    if isinstance(changes, str):
        return [f"Not measured: {changes}."]
    gain = gain_line(table, shape)
    return [
        "The migrate scenario's steps on the replica loaded with random v4 keys (each change timed, its WAL "
        "the difference of the WAL position around it, its disk the replica's tables around it, before any "
        "VACUUM):",
        "",
        *(f"- {change_line(c, scaling.factor)}." for c in changes),
        *([f"- Beside it, {gain}."] if gain is not None else []),
    ]


def summary_lines(
    out: Path,
    shape: TableShape,
    scaling: like.Scaling,
    table: advice.Table,
    switch_why: str | None,
    memory_words: str,
) -> list[str]:
    """What the command prints after the table: the scaling and the switch's cost beside the gain."""
    return [
        in_words(shape, scaling, memory_words),
        *_switch_lines(out, shape, scaling, table, switch_why),
        f"pkbench: advice in {os.path.join(out, 'advice.md')}",
    ]


def in_words(shape: TableShape, scaling: like.Scaling, memory_words: str) -> str:
    """How the replica was scaled, in a sentence."""
    f = scaling.factor
    # 1/25 where f is the inverse of a whole number, else f itself.
    shown = f"1/{round(1 / f):,}" if 0 < f < 1 and abs(1 / f - round(1 / f)) < 0.01 else f"{f:.3g}"
    memory = (
        f"memory capped at {size_words(scaling.memory_cap_bytes)}"
        if scaling.memory_cap_bytes is not None
        else f"this machine's memory ({size_words(scaling.replica_memory_bytes)}), not capped"
        if scaling.replica_memory_bytes is not None
        else "this machine's memory, not capped"
    )
    over_memory = (
        f" and {_ratio(scaling.table_tier.over_memory)} memory ({memory_words})"
        if scaling.table_tier.over_memory is not None
        else f" (memory: {memory_words})"
    )
    replica_over_memory = (
        f" and {_ratio(scaling.replica_tier.over_memory)}"
        if scaling.replica_tier.over_memory is not None
        else ""
    )
    return (
        f"The replica of {shape.table} was scaled by {shown}: {scaling.rows:,} of its {shape.rows:,} rows, "
        f"shared_buffers {size_words(scaling.shared_buffers_bytes)} for its server's "
        f"{size_words(shape.shared_buffers)}, {memory}. Your key index ({size_words(shape.index_bytes)}) is "
        f"{_ratio(scaling.table_tier.over_shared_buffers)} shared_buffers{over_memory}, "
        f"{scaling.table_tier.words}; the replica's {_ratio(scaling.replica_tier.over_shared_buffers)}"
        f"{replica_over_memory}, {scaling.replica_tier.words}."
    )


def _ratio(ratio: float) -> str:
    """A ratio to two decimals, or to two significant digits below 0.1 (a small index's share)."""
    if ratio < 0.001:
        return f"under 0.001{TIMES}"
    return f"{ratio:.2f}{TIMES}" if ratio >= 0.1 else f"{ratio:.2g}{TIMES}"
