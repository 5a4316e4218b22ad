"""The tables the hand-written documents quote, each computed from one committed source: a results
directory, or sequuid/BENCHMARKS.md's raw benchmark output. `evidence.py` places them between markers."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from pkbench import results
from pkbench.analysis.metrics import key_index
from pkbench.errors import PkbenchError
from pkbench.evidence import (
    advice_text,
    back_to_back,
    calibration,
    decision_examples,
    designs,
    headline,
    machines,
    model_check,
    reproductions_page,
    sequuid_benchmarks,
    work_by_count,
)
from pkbench.results.model import RunResult, StrategyResult, WorkloadResult
from pkbench.scenario import published
from pkbench.summary import contention, pages, runs, waits
from pkbench.summary import partitioned as partitioned_summary
from pkbench.summary import sharded as sharded_summary
from pkbench.summary import verdicts as verdict_tables
from pkbench.summary.headline import rows as summary_rows
from pkbench.text import MIB, MISSING, binary_size, markdown_table

TIMES = "\u00d7"


def _n(value: float | None, pattern: str = ",.0f") -> str:
    return MISSING if value is None else format(value, pattern)


def _x(value: float | None) -> str:
    return MISSING if value is None else f"{value:.2f}\u00d7"


def _pct(value: float | None) -> str:
    return MISSING if value is None else f"{value:.1%}"


def _ratio(mine: float | None, base: float | None) -> float | None:
    return mine / base if mine is not None and base else None


def _ok(run: RunResult) -> list[StrategyResult]:
    return [s for s in run.strategies if s.status == "ok"]


def _baseline(run: RunResult) -> StrategyResult:
    named = {s.name: s for s in _ok(run)}
    chosen = named.get(str(run.baseline)) or named.get("bigint") or run.baseline_strategy()
    if chosen is None:
        raise PkbenchError("the run measured no strategy")
    return chosen


def _workload(strategy: StrategyResult, name: str) -> WorkloadResult | None:
    return next((w for w in strategy.workloads if w.name == name), None)


def _generator(strategy: StrategyResult) -> str:
    return runs.SOURCE_WORDS.get(str(strategy.generator_source), str(strategy.generator_source))


def run_paragraph(run: RunResult, directory: Path) -> list[str]:
    """The run's command, machine, load and generators, as reproductions.md says them."""
    return reproductions_page.run_lines(directory, run)[:-1]


def run_summary(run: RunResult, directory: Path) -> list[str]:
    """The run's Results Summary table and its verdicts, as its summary.md gives them."""
    header, table = summary_rows(run)
    lines = markdown_table(header, table)
    heading = verdict_tables.heading(run)
    if heading:
        lines += ["", f"{heading}:"]
    for found in verdict_tables.tables(run):
        note = ["", found.note] if found.note else []
        lines += ["", f"**{found.workload}**", *note, "", *markdown_table(found.header, found.rows)]
    return lines


def war_study(run: RunResult, directory: Path) -> list[str]:
    """war at the study's scale: the prefill, the window of one million inserts, sizes, cache and WAL."""
    base = _baseline(run)
    window = _workload(base, "insert-one-million")
    rows = []
    for s in _ok(run):
        w = _workload(s, "insert-one-million")
        index = key_index(s)
        hit = w.hit_ratio.get(index) if w is not None and index else None
        size = w.sizes_at_end.total_bytes if w is not None and w.sizes_at_end else None
        base_size = window.sizes_at_end.total_bytes if window is not None and window.sizes_at_end else None
        duration = w.duration_s if w else None
        rows.append(
            [
                s.name,
                _generator(s),
                _n(s.prefill.duration_s if s.prefill else None, ".1f") + " s",
                _n(duration, ".1f") + " s",
                _x(_ratio(duration, window.duration_s if window else None)),
                _n(w.tps if w else None),
                MISSING if size is None else binary_size(size),
                _x(_ratio(size, base_size)),
                _pct(hit),
                _n(w.wal_bytes_per_transaction if w else None),
            ]
        )
    prefill = base.prefill.rows if base.prefill else None
    header = ["strategy", "generator", f"prefill of {_n(prefill)} rows", "one million inserts"]
    versus = f"{TIMES} {base.name}"
    header += [versus, "TPS", "size at finish", versus, "key hit ratio", "WAL bytes / tx"]
    return markdown_table(header, rows)


def insert_scaling(run: RunResult, directory: Path) -> list[str]:
    """insert-scaling: each index variant's TPS at the three sizes, as a ratio to the baseline's."""
    base = _baseline(run)
    parameters = run.scenario.get("parameters") or {}
    points = [("empty", "empty"), ("small", f"{_n(parameters.get('rows_small'))} rows")]
    points.append(("large", f"{_n(parameters.get('rows'))} rows"))
    # A preset that measures only some sizes or variants (slow-disk-large: the primary key at two sizes) gets
    # no column or row of windows it never ran.
    ran = {w.name for s in _ok(run) for w in s.workloads}
    variants = [("pk", "primary key"), ("noindex", "no index")]
    points = [(p, label) for p, label in points if any(f"{v}-{p}" in ran for v, _ in variants)]
    variants = [(v, label) for v, label in variants if any(f"{v}-{p}" in ran for p, _ in points)]
    rows = []
    for variant, label in variants:
        for s in _ok(run):
            cells = [s.name, _generator(s), label]
            for point, _ in points:
                mine = _workload(s, f"{variant}-{point}")
                theirs = _workload(base, f"{variant}-{point}")
                tps = mine.tps if mine else None
                ratio = _ratio(tps, theirs.tps if theirs else None)
                cells.append(f"{_n(tps)} ({_x(ratio)})")
            rows.append(cells)
    header = ["strategy", "generator", "index"]
    header += [f"TPS {label} ({TIMES} {base.name})" for _, label in points]
    return markdown_table(header, rows)


def insert_fill(run: RunResult, directory: Path) -> list[str]:
    """insert-scaling: the headline fill's time per million rows, as a ratio to the baseline's."""
    base = _baseline(run)
    item = published.PublishedFigure("", published.INSERT_PER_MILLION, "s", {}, base.name)
    base_time = published.ours(item, base).value
    rows = []
    for s in _ok(run):
        mine = published.ours(item, s).value
        rows.append([s.name, _generator(s), _n(s.prefill.rows if s.prefill else None), _n(mine, ".1f")])
        rows[-1].append(_x(_ratio(mine, base_time)))
    header = ["strategy", "generator", "rows filled", "s per million rows", f"{TIMES} {base.name}"]
    return markdown_table(header, rows)


TIERS = ("tier-1-shared-buffers", "tier-2-page-cache", "tier-3-beyond-memory")


def wal_tiers(run: RunResult, directory: Path) -> list[str]:
    """wal: per insert at each memory tier, WAL as full-page images and as records, and the index's cache."""
    rows = []
    for s in _ok(run):
        index = key_index(s)
        for number, name in enumerate(TIERS, 1):
            w = _workload(s, name)
            if w is None:
                continue
            fpi, records = w.wal_fpi_bytes, w.wal_record_bytes
            total = fpi + records if fpi is not None and records is not None else None
            share = fpi / total if fpi is not None and total else None
            size = (w.sizes_at_end.indexes or {}).get(index) if w.sizes_at_end and index else None
            blocks = (w.wal_distinct_blocks or {}).get(index) if index else None
            rows.append(
                [
                    s.name,
                    str(number),
                    _n(w.tps),
                    _n(w.wal_fpi_bytes_per_transaction),
                    _n(w.wal_record_bytes_per_transaction),
                    _pct(share),
                    _n(blocks),
                    _n(w.checkpoints.get("requested")),
                    _n(w.page_splits_per_transaction, ".4f"),
                    _pct(w.hit_ratio.get(index) if index else None),
                    MISSING if size is None else f"{size / MIB:,.0f} MiB",
                ]
            )
    header = ["strategy", "tier", "TPS", "FPI bytes / insert", "record bytes / insert", "FPI share of WAL"]
    header += ["index blocks in WAL", "checkpoints", "splits / insert", "index hit ratio", "index size"]
    return markdown_table(header, rows)


def bloat(run: RunResult, directory: Path) -> list[str]:
    """bloat: each stage's time, the key index's size and leaf density after it, its pages VACUUM deleted,
    and for v1 keys the cycles of their low time bits that the fill spanned on the run's clock."""
    rows = []
    clock = run.clock.get("virtual_hours_by_strategy") or {}
    for s in _ok(run):
        hours = ((clock.get(s.name) or {}).get("steps") or {}).get("insert")
        cycles = pages.v1_cycles(hours) if pages.is_v1(s) and isinstance(hours, int | float) else None
        index = key_index(s) or ""
        steps = s.step_durations_s
        after = {
            stage: (s.density.get(stage) or {}).get(index) or {} for stage in ("after-insert", "after-vacuum")
        }
        copy = s.snapshots.get("sizes_after_copy")
        copy_size = (copy.indexes or {}).get(index) if copy else None
        rows.append(
            [
                s.name,
                _generator(s),
                *(_n(steps.get(step), ",.1f") + " s" for step in ("insert", "vacuum", "copy-4n")),
                _n(cycles, ",.2f"),
                _n(_mib(after["after-insert"].get("index_bytes")), ",.0f") + " MiB",
                _pct(_fraction(after["after-insert"].get("avg_leaf_density"))),
                _pct(_fraction(after["after-vacuum"].get("avg_leaf_density"))),
                _n(after["after-vacuum"].get("deleted_pages")),
                _n(after["after-vacuum"].get("reusable_pages")),
                _n(_mib(copy_size), ",.0f") + " MiB",
            ]
        )
    header = ["strategy", "generator", "insert N", "VACUUM", "COPY 4N", "v1 cycles in the insert"]
    header += [
        "key index after insert",
        "leaf density after insert",
        "leaf density after delete + VACUUM",
        "pages deleted",
        "of them reusable",
        "key index after COPY",
    ]
    return markdown_table(header, rows)


def _mib(value: object) -> float | None:
    return float(value) / MIB if isinstance(value, int | float) else None


def _fraction(value: object) -> float | None:
    return float(value) if isinstance(value, int | float) else None


def waits_table(run: RunResult, directory: Path) -> list[str]:
    """What the windows waited on and how much of the cache was pages touched once (timeseries/ CSVs)."""
    series = results.read_series(directory)
    return waits.table(waits.by_window(series["wait_events"], series["usagecount"]))


def partitioned(run: RunResult, directory: Path) -> list[str]:
    """partitioned: where each layout's newest inserts landed, and drop against DELETE, as summary.md says."""
    return partitioned_summary.markdown(run)[2:-1]


def sharded(run: RunResult, directory: Path) -> list[str]:
    """sharded: each routing's inserts by shard and the hottest shard's share, as summary.md says."""
    return sharded_summary.markdown(run)[2:-1]


RunTable = Callable[[RunResult, Path], list[str]]
FileTable = Callable[[Path], list[str]]
RUN_TABLES: dict[str, RunTable] = {
    "run": run_paragraph,
    "run-summary": run_summary,
    "war-study": war_study,
    "insert-scaling": insert_scaling,
    "insert-fill": insert_fill,
    "wal-tiers": wal_tiers,
    "model-conditions": lambda _, source: model_check.conditions_lines(source),
    "bloat": bloat,
    "waits": waits_table,
    "partitioned": partitioned,
    "sharded": sharded,
    "interval-widths": lambda run, _: designs.widths(run),
    "work-by-count": lambda run, _: work_by_count.lines(run),
}
FILE_TABLES: dict[str, FileTable] = {
    "sequuid-per-call": sequuid_benchmarks.per_call,
    "sequuid-port-cost": sequuid_benchmarks.port_cost,
    "sequuid-cores": sequuid_benchmarks.on_many_cores,
    "public-ids": sequuid_benchmarks.public_ids,
    "sequuid-v7-cost": sequuid_benchmarks.v7_cost,
    # what benchmarks/inspect_footprint.py --out wrote: the command, then its figures
    "inspect-footprint": lambda source: ["```", *source.read_text().splitlines(), "```"],
}
# From a directory of several runs: a `pkbench run --calibrate N` directory (its A/A runs in aa-1 ... aa-N),
# one run of each design in paired/ and interleaved/ (or a folder of those per scenario), or two runs back to
# back in run-1/ and run-2/.
CALIBRATION_TABLES: dict[str, FileTable] = {
    "calibration": lambda source: _calibration(source),
    # the folder of committed runs the model (pkbench.model) is fitted to and checked on
    "model-calibration": model_check.calibration_lines,
    "model-check": model_check.check_lines,
    "designs": lambda source: designs.lines(*designs.load(source)),
    "designs-by-scenario": lambda source: designs.by_scenario(designs.load_scenarios(source)),
    "back-to-back": lambda source: back_to_back.lines(*back_to_back.load(source)),
    "load-layout": lambda source: work_by_count.by_load(calibration.load_runs(source)),
    # A sweep of the contention scenario (pkbench/bench/many-cores/run): where it ran, its async and sync
    # inserts by client count, the whole table of sweep.md, and what order costs.
    "contention-run": lambda source: contention.machine_line(*_sweep(source)[::2], source),
    "contention-headline": lambda source: contention.headline(
        _sweep(source)[1], ("insert-async", "insert-sync")
    ),
    "contention": lambda source: contention.table(*_sweep(source)[:2], heading="**{}**")[1:],
    # From its note on (what the brackets compare, what the two queries read), without sweep.md's heading.
    "contention-order-costs": lambda source: contention.order_costs(_sweep(source)[2])[3:],
    # From the folder of committed runs (pkbench/docs/reproductions): advice.md's table beside it, and the
    # README's short one at the repository's root, two levels up.
    "advice": lambda source: advice_text.page_lines(source),
    # The README's first screen: the decision in a few lines, from the same cells.
    "which-key-short": lambda source: headline.block(source, source.parents[2]),
    # ... and the machines its figures were measured on, from the runs' records.
    "which-key-machines": lambda source: machines.block(source),
    # statistics.md beside the folder: the which-key rule worked through committed cells.
    "decision-examples": lambda source: decision_examples.lines(source, source.parent),
}


def _sweep(source: Path) -> tuple[str, list[contention.Row], dict[float, RunResult]]:
    return contention.load(source)


def _calibration(source: Path, first: int | None = None) -> list[str]:
    return calibration.block(source, first)


# Blocks that can judge a calibration's A/A runs on their first rounds only.
FIRST_ROUNDS_TABLES: dict[str, Callable[[Path, int], list[str]]] = {"calibration": _calibration}


def table(name: str, source: Path, first: int | None = None) -> list[str]:
    """The lines of block NAME from SOURCE (a results directory, or a file for the file tables); FIRST: judge
    on the first rounds only, where the block can."""
    if first is not None:
        if name not in FIRST_ROUNDS_TABLES:
            raise PkbenchError(f"block {name!r} takes no round count (only {', '.join(FIRST_ROUNDS_TABLES)})")
        return FIRST_ROUNDS_TABLES[name](source, first)
    if name in FILE_TABLES:
        if not source.is_file():
            raise PkbenchError(f"{source} is not there")
        return FILE_TABLES[name](source)
    if name in CALIBRATION_TABLES:
        return CALIBRATION_TABLES[name](source)
    if name not in RUN_TABLES:
        known = ", ".join(sorted([*RUN_TABLES, *FILE_TABLES, *CALIBRATION_TABLES]))
        raise PkbenchError(f"unknown block {name!r} (known: {known})")
    if not (source / "results.json").is_file():
        raise PkbenchError(f"{source}: no committed run there (no results.json)")
    return RUN_TABLES[name](results.load(source), source)
