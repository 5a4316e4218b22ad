"""The Results Summary: one row per strategy, as in the article, for summary.md, the console and the report.

The fill step timed as "time to insert" is the one `prefill` names (the scenario's [summary] insert); further
timed steps and the size compared come from [summary] too (recorded as `scenario.summary` in results.json).
Labels say what was measured (the fill's real row count, the workload or snapshot a size is from); the
pgbench columns appear only when the run measured pgbench workloads.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

from pkbench import verdict_tables
from pkbench.metrics import STRATEGY_METRICS, WORKLOAD_METRICS, Metric, key_index
from pkbench.probes.machine import busy_machine
from pkbench.results import PREFILL_SNAPSHOT, MachineWindow, typed
from pkbench.units import binary_size

MISSING = "\u2013"
TIMES = "\u00d7"
# Within this relative difference two figures are called the same.
SAME_WITHIN = 0.03
BASELINE = "bigint"
SAME_SPEED = "same speed"
SAME_SIZE = "same size"

JSON = Mapping[str, Any]


def _number(n: float | None, digits: int = 0) -> str | None:
    return None if n is None else f"{n:,.{digits}f}"


def _seconds(n: float | None) -> str | None:
    if n is None:
        return None
    # A fill of a few thousand rows takes milliseconds: "0.0 s" would read as nothing measured.
    return f"{n:.2f} s" if n < 1 else f"{n:,.1f} s"


def _relative(this: float, other: float, better: str, worse: str, same: str) -> str:
    """'10% faster' when `this` is smaller than `other` (time, size), as a share of `other`.

    "x% smaller" is 1 - this/other: half the size is "50% smaller". "x% slower/larger" is this/other - 1,
    and from twice the other on it is said as a ratio ("3.0x larger"), which reads better than "200%".
    """
    if this <= 0 or other <= 0:
        return ""
    if abs(this - other) / max(this, other) < SAME_WITHIN:
        return same
    if this < other:
        return f"{(1 - this / other) * 100:.0f}% {better}"
    ratio = this / other
    amount = f"{ratio:.1f}{TIMES}" if ratio >= 2 else f"{(ratio - 1) * 100:.0f}%"
    return f"{amount} {worse}"


@dataclass(frozen=True)
class Headline:
    """What the table headlines for this run, read from results.json."""

    insert_step: str | None
    timed: tuple[str, ...]
    size_step: str | None
    workloads: tuple[str, ...]

    @classmethod
    def of(cls, results: JSON) -> Headline:
        spec = results.get("scenario", {}).get("summary") or {}
        workloads: list[str] = []
        for s in _measured(results):
            for w in s.get("workloads") or []:
                if w["name"] not in workloads:
                    workloads.append(w["name"])
        # The prefill names the fill step it timed; runs from before [summary] existed name none (their
        # prefill is the first fill step).
        steps = {(s.get("prefill") or {}).get("step") for s in _measured(results)} - {None}
        return cls(
            insert_step=str(steps.pop()) if len(steps) == 1 else None,
            timed=tuple(spec.get("timed") or ()),
            size_step=spec.get("size"),
            workloads=tuple(workloads),
        )

    def size(self, strategy: JSON) -> tuple[str | None, float | None]:
        """(where the size was taken, total bytes of table and indexes) for the size column."""
        if self.size_step:
            return self.size_step, _total(sizes_at(strategy, self.size_step))
        return final_size_of(strategy)


def sizes_at(strategy: JSON, step: str) -> JSON | None:
    """The sizes a snapshot step recorded (the prefill snapshot is kept apart from the others)."""
    if step == PREFILL_SNAPSHOT:
        found = strategy.get(PREFILL_SNAPSHOT)
    else:
        found = (strategy.get("snapshots") or {}).get(step)
    return found if isinstance(found, dict) else None


def _measured(results: JSON) -> list[JSON]:
    return [s for s in results.get("strategies", []) if s.get("status") == "ok"]


def _total(sizes: JSON | None) -> float | None:
    total = (sizes or {}).get("total_bytes")
    return float(total) if total else None


def final_size_of(strategy: JSON) -> tuple[str | None, float | None]:
    """The last size the run recorded: at the end of the last workload, else at the last snapshot step."""
    for workload in reversed(strategy.get("workloads") or []):
        total = _total(workload.get("sizes_at_end"))
        if total:
            return f"end of {workload['name']}", total
    # Snapshot steps are recorded in the order they ran.
    for name, sizes in reversed(list((strategy.get("snapshots") or {}).items())):
        if _total(sizes):
            return name, _total(sizes)
    total = _total(strategy.get(PREFILL_SNAPSHOT))
    return (PREFILL_SNAPSHOT, total) if total else (None, None)


def _seconds_per_row(strategy: JSON) -> float | None:
    """Insert time per row of the headlined fill: the time itself when every strategy filled as many rows."""
    prefill = strategy.get("prefill") or {}
    rows, duration = prefill.get("rows"), prefill.get("duration_s")
    return float(duration) / rows if rows and duration else None


def comparison(this: JSON, other: JSON, headline: Headline) -> str:
    """'10% faster and 63% smaller than uuid-v4-text': insert time per row and the headlined size."""
    parts = []
    t_this, t_other = _seconds_per_row(this), _seconds_per_row(other)
    if t_this and t_other:
        parts.append(_relative(t_this, t_other, "faster", "slower", SAME_SPEED))
    s_this, s_other = headline.size(this)[1], headline.size(other)[1]
    if s_this and s_other:
        parts.append(_relative(s_this, s_other, "smaller", "larger", SAME_SIZE))
    sames = [p for p in parts if p in (SAME_SPEED, SAME_SIZE)]
    differences = [p for p in parts if p and p not in sames]
    if differences:
        text = f"{' and '.join(differences)} than {other['name']}"
        return f"{text}, {' and '.join(sames)}" if sames else text
    return f"{' and '.join(sames)} as {other['name']}" if sames else ""


def _inserted(measured: Sequence[JSON]) -> bool:
    """Whether the headlined fill inserted rows (a fill that tops the table up may have had nothing to do)."""
    return any((s.get("prefill") or {}).get("rows") for s in measured)


def _insert_header(measured: Sequence[JSON]) -> tuple[str, bool]:
    """The time-to-insert header, and whether each cell must say its own row count (they differ)."""
    counts = {(s.get("prefill") or {}).get("rows") for s in measured if s.get("prefill")}
    if len(counts) == 1:
        (count,) = counts
        return f"Time to insert {count:,} rows", False
    return "Time to insert", True


def rows(results: JSON) -> tuple[list[str], list[list[str]]]:
    """The table as text: a figure not measured is a dash."""
    header, table = cells(results)
    return header, [[MISSING if cell is None else cell for cell in row] for row in table]


def cells(results: JSON) -> tuple[list[str], list[list[str | None]]]:
    """The table's header and cells; None where the figure was not measured (the report says why)."""
    headline = Headline.of(results)
    strategies: Sequence[JSON] = results.get("strategies", [])
    measured = _measured(results)
    with_prefill = _inserted(measured)
    insert_header, counts_differ = _insert_header(measured)
    # The first workload's window shows the cache pressure of the inserts (the later ones share the cache).
    first = headline.workloads[0] if headline.workloads else ""
    index = next((i for i in map(key_index, measured) if i), None)
    size_where = next((where for where, _ in map(headline.size, measured) if where), None)
    bigint = next((s for s in measured if s["name"] == BASELINE), None)
    header = [
        "Strategy",
        *([insert_header, "Average rate (rows/s)"] if with_prefill else []),
        *[f"Time of {name}" for name in headline.timed],
        *[f"TPS {n}" for n in headline.workloads],
        *(
            [
                f"{'PK' if index and index.endswith('_pkey') else index or 'PK'} hit ratio {first}",
                f"WAL/tx {first}",
            ]
            if first
            else []
        ),
        f"Size at {size_where}" if size_where else "Size",
        "Compared with the one before",
        *(["Compared with bigint"] if bigint else []),
    ]
    table: list[list[str | None]] = []
    previous: JSON | None = None
    for s in strategies:
        if s.get("status") != "ok":
            table.append([s["name"], f"{s.get('status')}: {s.get('error') or ''}", *[""] * (len(header) - 2)])
            continue
        row: list[str | None] = [s["name"]]
        if with_prefill:
            prefill = s.get("prefill") or {}
            time = _seconds(prefill.get("duration_s") if prefill.get("rows") else None)
            if counts_differ and time is not None:
                time += f" ({prefill['rows']:,} rows)"
            row += [time, _number(prefill.get("rows_per_s") if prefill.get("rows") else None)]
        durations = s.get("step_durations_s") or {}
        row += [_seconds(durations.get(name)) for name in headline.timed]
        by_name = {w["name"]: w for w in s.get("workloads") or []}
        row += [_number((by_name.get(n) or {}).get("tps")) for n in headline.workloads]
        if first:
            window = by_name.get(first) or {}
            hit = (window.get("hit_ratio") or {}).get(index) if index else None
            wal = window.get("wal_bytes_per_transaction")
            row += [
                None if hit is None else f"{hit * 100:.1f}%",
                None if wal is None else f"{wal:,.0f} B",
            ]
        size = headline.size(s)[1]
        row += [
            None if size is None else binary_size(size),
            comparison(s, previous, headline) if previous else "",
        ]
        if bigint:
            # Beside the one before, bigint would say the same thing twice.
            row.append(comparison(s, bigint, headline) if bigint is not s and bigint is not previous else "")
        table.append(row)
        previous = s
    return header, table


def _setup_line(results: JSON, headline: Headline) -> str:
    server = results.get("server", {})
    params = results.get("scenario", {}).get("parameters", {})
    limit = results.get("machine", {}).get("memory_limit_bytes")
    parts = [
        f"PostgreSQL {server.get('version', '?')}",
        f"shared_buffers {server.get('settings', {}).get('shared_buffers', '?')}",
        f"server memory limited to {binary_size(limit)}" if isinstance(limit, int | float) else "",
        f"pgbench -c {params.get('clients', '?')} -j {params.get('jobs', '?')} "
        f"for {params.get('duration_s', '?')} s per workload"
        if headline.workloads
        else "",
        f"{results.get('machine', {}).get('cores', '?')} cores",
    ]
    return ", ".join(p for p in parts if p) + "."


def clock_line(results: JSON) -> str | None:
    """The virtual clock, when it ran at a rate other than 1: the time it covered, and which strategies'
    keys it did not move."""
    clock = results.get("clock") or {}
    rate = clock.get("rate")
    if not isinstance(rate, int | float) or rate == 1:
        return None
    hours = clock.get("virtual_hours_covered")
    covered = f", covering {hours:,.1f} virtual hours" if isinstance(hours, int | float) else ""
    line = f"Virtual clock: sequuid.clock_rate {rate:g} (virtual seconds per real second){covered}."
    real = [f"{r.get('strategy')} ({r.get('generator')})" for r in clock.get("real_clock_only") or []]
    if real:
        line += f" Real clock only, not moved by the rate: {', '.join(real)}."
    return line


def _notes(results: JSON, headline: Headline) -> str:
    measured = _measured(results)
    notes = []
    step = f"fill step {headline.insert_step}" if headline.insert_step else "the first fill step"
    if any(s.get("prefill") for s in measured) and not _inserted(measured):
        notes.append(f"No time to insert: {step} found the table at its size already and inserted no rows.")
    elif _inserted(measured):
        notes.append(
            f"Time to insert: {step} (batched INSERT ... SELECT into the table as its indexes stand then); "
            "the comparisons compare its time per row."
        )
    if headline.timed:
        notes.append(f"Time of a step: how long the scenario's step {', '.join(headline.timed)} took.")
    if headline.workloads:
        notes.append(
            "TPS: pgbench transactions per second (one run of one script). Hit ratio (shared buffers) and "
            f"WAL per transaction: the {headline.workloads[0]} window."
        )
    notes.append("Size: table and indexes, in powers of 1024 (MiB, GiB).")
    return " ".join(notes)


def markdown(results: JSON) -> str:
    headline = Headline.of(results)
    header, table = rows(results)
    lines = [
        f"# Results Summary: {results.get('scenario', {}).get('name', '')}",
        "",
        _setup_line(results, headline),
        "",
        *([line, ""] if (line := clock_line(results)) else []),
        "| " + " | ".join(header) + " |",
        "|" + "|".join("---" for _ in header) + "|",
    ]
    lines += ["| " + " | ".join(cell.replace("|", "\\|") for cell in row) + " |" for row in table]
    lines += ["", _notes(results, headline), ""]
    lines += verdict_tables.markdown(results)
    noise = machine_noise(results)
    lines += [noise, ""] if noise else []
    lines += _figures(results)
    return "\n".join(lines)


def machine_noise(results: JSON) -> str | None:
    """One line when the machine was busy with other work during some measured windows: the worst of them."""
    windows = [
        (strategy["name"], workload.get("name"), typed(MachineWindow, workload["machine_window"]))
        for strategy in _measured(results)
        for workload in strategy.get("workloads") or []
        if isinstance(workload.get("machine_window"), dict)
    ]
    busy = [(w.other_fraction + w.steal_fraction, s, n, w) for s, n, w in windows if busy_machine(w)]
    if not busy:
        return None
    _, strategy, workload, worst = max(busy, key=lambda found: found[0])
    return (
        f"Machine noise: the machine was busy during {len(busy)} of {len(windows)} measured windows; the "
        f"most, {strategy} {workload}: {'; '.join(busy_machine(worst))}. TPS and latency move with it; "
        "work per transaction (buffers, WAL, CPU) does not."
    )


def _figures(results: JSON) -> list[str]:
    """Every figure of the metric registry, one table per workload and one per strategy figure."""
    measured = _measured(results)
    scopes: list[tuple[str, str, list[Metric]]] = [
        (f"Workload {name}", name, WORKLOAD_METRICS) for name in Headline.of(results).workloads
    ]
    scopes.append(("Per strategy", "", STRATEGY_METRICS))
    lines = []
    for title, workload, metrics in scopes:
        header = ["Strategy", *(f"{m.title} ({m.unit})" for m in metrics)]
        rows = []
        for strategy in measured:
            found = next((w for w in strategy.get("workloads") or [] if w.get("name") == workload), None)
            if workload and found is None:
                continue
            cells = [m.read(dict(strategy), found or {}) for m in metrics]
            rows.append(
                [
                    strategy["name"],
                    *(
                        MISSING if c.value is None else m.fmt.format(c.value)
                        for m, c in zip(metrics, cells, strict=True)
                    ),
                ]
            )
        if rows:
            lines += [
                f"## {title}",
                "",
                "| " + " | ".join(header) + " |",
                "|" + "|".join("---" for _ in header) + "|",
            ]
            lines += ["| " + " | ".join(row) + " |" for row in rows]
            lines.append("")
    return lines


def write(out_dir: Path, results: JSON) -> Path:
    path = out_dir / "summary.md"
    path.write_text(markdown(results))
    return path


def print_table(console: Console, results: JSON) -> None:
    header, table = rows(results)
    rich_table = Table(title=f"Results Summary: {results.get('scenario', {}).get('name', '')}")
    comparisons = sum(1 for name in header if name.startswith("Compared with"))
    for i, name in enumerate(header):
        rich_table.add_column(name, justify="left" if i == 0 or i >= len(header) - comparisons else "right")
    for row in table:
        rich_table.add_row(*row)
    console.print(rich_table)
    line = clock_line(results)
    if line:
        console.print(line, highlight=False, markup=False, soft_wrap=True)
    for verdicts in verdict_tables.tables(results):
        shown = Table(title=f"Verdicts: {verdicts.workload}", caption=verdict_tables.heading(results))
        for name in verdicts.header:
            shown.add_column(name)
        for verdict_row in verdicts.rows:
            shown.add_row(*verdict_row)
        console.print(shown)
    for noise_line in verdict_tables.noise_lines(results):
        console.print(noise_line, highlight=False, markup=False, soft_wrap=True)
