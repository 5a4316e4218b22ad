"""The Results Summary's table: one row per strategy, as in the article, for summary.md, the console and the
report.

The fill step timed as "time to insert" is the one `prefill` names (the scenario's [summary] insert); further
timed steps and the size compared come from [summary] too (recorded as `scenario.summary` in results.json).
Labels say what was measured (the fill's real row count, the workload or snapshot a size is from); the
pgbench columns appear only when the run measured pgbench workloads.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from pkbench.analysis.judge import judge_load, load_parts
from pkbench.analysis.metrics import key_index
from pkbench.results.model import PREFILL_SNAPSHOT, RunResult, Sizes, StrategyResult
from pkbench.text import MISSING, binary_size

TIMES = "\u00d7"
# Within this relative difference two figures are called the same.
SAME_WITHIN = 0.03
SAME_SPEED = "same speed"
SAME_SIZE = "same size"


def _number(n: float | None, digits: int = 0) -> str | None:
    return None if n is None else f"{n:,.{digits}f}"


def _seconds(n: float | None) -> str | None:
    if n is None:
        return None
    # A fill of a few thousand rows takes milliseconds: "0.0 s" would read as nothing measured.
    return f"{n:.2f} s" if n < 1 else f"{n:,.1f} s"


# Beyond these ratios a percentage misleads ("100% slower" for twice the time, "100% faster" for none of it),
# so the comparison is said as a ratio of the quantity instead: "2.0x the time", "0.40x the size".
AS_RATIO_FROM = 1.5
AS_RATIO_BELOW = 0.5


def relative(this: float, other: float, better: str, worse: str, same: str, *, noun: str) -> str:
    """'10% faster' when `this` is smaller than `other` (time, size), as a share of `other`.

    "x% smaller" is 1 - this/other: half the size is "50% smaller". "x% slower/larger" is this/other - 1.
    Outside [0.5, 1.5) it is said as a ratio of NOUN ("2.0x the time", "0.40x the size"): no percentage
    above 50% is ever written.
    """
    if this <= 0 or other <= 0:
        return ""
    if abs(this - other) / max(this, other) < SAME_WITHIN:
        return same
    ratio = this / other
    if ratio >= AS_RATIO_FROM:
        return f"{ratio:.1f}{TIMES} the {noun}"
    if ratio < AS_RATIO_BELOW:
        return f"{ratio:.2f}{TIMES} the {noun}"
    if ratio < 1:
        return f"{(1 - ratio) * 100:.0f}% {better}"
    return f"{(ratio - 1) * 100:.0f}% {worse}"


def _as_ratio(text: str) -> bool:
    return f"{TIMES} the " in text


@dataclass(frozen=True)
class Headline:
    """What the table headlines for this run, read from its results."""

    insert_step: str | None
    timed: tuple[str, ...]
    size_step: str | None
    workloads: tuple[str, ...]

    @classmethod
    def of(cls, run: RunResult) -> Headline:
        spec = run.scenario.get("summary") or {}
        workloads: list[str] = []
        for s in measured(run):
            for w in s.workloads:
                if w.name not in workloads:
                    workloads.append(w.name)
        # The prefill names the fill step it timed; runs from before [summary] existed name none (their
        # prefill is the first fill step).
        steps = {s.prefill.step for s in measured(run) if s.prefill} - {None}
        return cls(
            insert_step=str(steps.pop()) if len(steps) == 1 else None,
            timed=tuple(spec.get("timed") or ()),
            size_step=spec.get("size"),
            workloads=tuple(workloads),
        )

    def size(self, strategy: StrategyResult) -> tuple[str | None, float | None]:
        """(where the size was taken, total bytes of table and indexes) for the size column."""
        if self.size_step:
            return self.size_step, _total(sizes_at(strategy, self.size_step))
        return final_size_of(strategy)


def sizes_at(strategy: StrategyResult, step: str) -> Sizes | None:
    """The sizes a snapshot step recorded (the prefill snapshot is kept apart from the others)."""
    if step == PREFILL_SNAPSHOT:
        return strategy.sizes_after_prefill
    return strategy.snapshots.get(step)


def measured(run: RunResult) -> list[StrategyResult]:
    """The strategies that ran (failed and skipped ones have a row of their own, without figures)."""
    return [s for s in run.strategies if s.status == "ok"]


def _total(sizes: Sizes | None) -> float | None:
    return float(sizes.total_bytes) if sizes is not None and sizes.total_bytes else None


def final_size_of(strategy: StrategyResult) -> tuple[str | None, float | None]:
    """The last size the run recorded: at the end of the last workload, else at the last snapshot step."""
    for workload in reversed(strategy.workloads):
        total = _total(workload.sizes_at_end)
        if total:
            return f"end of {workload.name}", total
    # Snapshot steps are recorded in the order they ran.
    for name, sizes in reversed(list(strategy.snapshots.items())):
        if _total(sizes):
            return name, _total(sizes)
    total = _total(strategy.sizes_after_prefill)
    return (PREFILL_SNAPSHOT, total) if total else (None, None)


def _seconds_per_row(strategy: StrategyResult) -> float | None:
    """Insert time per row of the headlined fill: the time itself when every strategy filled as many rows."""
    prefill = strategy.prefill
    if prefill is None or not prefill.rows or not prefill.duration_s:
        return None
    return float(prefill.duration_s) / prefill.rows


def comparison(this: StrategyResult, other: StrategyResult, headline: Headline) -> str:
    """'10% faster and 63% smaller than uuid-v4-text': insert time per row and the headlined size."""
    parts = []
    t_this, t_other = _seconds_per_row(this), _seconds_per_row(other)
    if t_this and t_other:
        parts.append(_speed(this, other, t_this / t_other))
    s_this, s_other = headline.size(this)[1], headline.size(other)[1]
    if s_this and s_other:
        parts.append(relative(s_this, s_other, "smaller", "larger", SAME_SIZE, noun="size"))
    sames = [p for p in parts if p in (SAME_SPEED, SAME_SIZE)]
    differences = [p for p in parts if p and p not in sames]
    if differences:
        # "2.0x the size of bigint", "25% larger than bigint": the last difference takes the preposition.
        text = f"{' and '.join(differences)} {'of' if _as_ratio(differences[-1]) else 'than'} {other.name}"
        return f"{text}, {' and '.join(sames)}" if sames else text
    return f"{' and '.join(sames)} as {other.name}" if sames else ""


def _speed(this: StrategyResult, other: StrategyResult, ratio: float) -> str:
    """Insert speed against OTHER: from the load's parts when both loaded in parts (a difference they do not
    resolve is the same speed), else from the one timing each."""
    if load_parts(this) and load_parts(other):
        judged = judge_load(this, other)
        if not judged or not judged[0].verdict.resolved or judged[0].verdict.ratio is None:
            return SAME_SPEED
        ratio = judged[0].verdict.ratio
    return relative(ratio, 1.0, "faster", "slower", SAME_SPEED, noun="time")


def inserted(strategies: Sequence[StrategyResult]) -> bool:
    """Whether the headlined fill inserted rows (a fill that tops the table up may have had nothing to do)."""
    return any(s.prefill is not None and s.prefill.rows for s in strategies)


def _insert_header(strategies: Sequence[StrategyResult]) -> tuple[str, bool]:
    """The time-to-insert header, and whether each cell must say its own row count (they differ)."""
    counts = {s.prefill.rows for s in strategies if s.prefill is not None}
    if len(counts) == 1:
        (count,) = counts
        return f"Time to insert {count:,} rows", False
    return "Time to insert", True


def rows(run: RunResult) -> tuple[list[str], list[list[str]]]:
    """The table as text: a figure not measured is a dash."""
    header, table = cells(run)
    return header, [[MISSING if cell is None else cell for cell in row] for row in table]


def cells(run: RunResult) -> tuple[list[str], list[list[str | None]]]:
    """The table's header and cells; None where the figure was not measured (the report says why)."""
    headline = Headline.of(run)
    ran = measured(run)
    with_prefill = inserted(ran)
    insert_header, counts_differ = _insert_header(ran)
    # The first workload's window shows the cache pressure of the inserts (the later ones share the cache).
    first = headline.workloads[0] if headline.workloads else ""
    index = next((i for i in map(key_index, ran) if i), None)
    size_where = next((where for where, _ in map(headline.size, ran) if where), None)
    baseline = run.baseline_strategy()
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
        *([f"Compared with {baseline.name}"] if baseline else []),
    ]
    table: list[list[str | None]] = []
    previous: StrategyResult | None = None
    for s in run.strategies:
        if s.status != "ok":
            table.append([s.name, f"{s.status}: {s.error or ''}", *[""] * (len(header) - 2)])
            continue
        row: list[str | None] = [s.name]
        if with_prefill:
            prefill = s.prefill
            rows_inserted = prefill.rows if prefill is not None else 0
            time = _seconds(prefill.duration_s if prefill is not None and rows_inserted else None)
            if counts_differ and time is not None:
                time += f" ({rows_inserted:,} rows)"
            row += [time, _number(prefill.rows_per_s if prefill is not None and rows_inserted else None)]
        row += [_seconds(s.step_durations_s.get(name)) for name in headline.timed]
        by_name = {w.name: w for w in s.workloads}
        row += [_number(w.tps if (w := by_name.get(n)) else None) for n in headline.workloads]
        if first:
            window = by_name.get(first)
            hit = (window.hit_ratio or {}).get(index) if window is not None and index else None
            wal = window.wal_bytes_per_transaction if window is not None else None
            row += [
                None if hit is None else f"{hit * 100:.1f}%",
                None if wal is None else f"{wal:,.0f} B",
            ]
        size = headline.size(s)[1]
        row += [
            None if size is None else binary_size(size),
            comparison(s, previous, headline) if previous else "",
        ]
        if baseline:
            # Beside the one before, the baseline would say the same thing twice.
            row.append(
                comparison(s, baseline, headline) if baseline is not s and baseline is not previous else ""
            )
        table.append(row)
        previous = s
    return header, table
