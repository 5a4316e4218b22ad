"""The verdicts of paired rounds as tables: one per workload, a row per strategy, a column per headline
figure of the registry, each cell its verdict in words against the baseline. summary.md, the console and the
report show the same cells."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from pkbench.analysis.family import Family, families
from pkbench.analysis.metrics import LOAD_METRIC, WORKLOAD_METRICS, verdict_title
from pkbench.probes.machine import disturbed, disturbed_words
from pkbench.results.model import RunResult
from pkbench.text import markdown_table


@dataclass(frozen=True)
class VerdictTable:
    workload: str
    header: list[str]
    rows: list[list[str]]
    note: str = ""  # how the table's verdicts were made, where not as the heading says (the load's)


def tables(run: RunResult) -> list[VerdictTable]:
    verdicts = run.verdicts
    if not verdicts:
        return []
    found: list[VerdictTable] = []
    for workload in dict.fromkeys(v.workload for v in verdicts):
        mine = [v for v in verdicts if v.workload == workload]
        # In the registry's order, which puts the paired design's headline figures in the same order as
        # verdict_metrics(); a figure it does not judge appears where a design judged it (--interleave's).
        every = [LOAD_METRIC, *WORKLOAD_METRICS]
        metrics = [m for m in every if any(v.metric == m.key for v in mine)]
        cells: dict[str, dict[str, str]] = {}
        for v in mine:
            cells.setdefault(v.strategy, {})[v.metric] = v.words
        # In the mixed design each column says which windows judged it.
        designs = (
            {v.metric: v.design for v in mine if v.design and v.metric != LOAD_METRIC.key}
            if _mixed(run)
            else {}
        )
        header = [
            "Strategy",
            *(f"{m.title} ({designs[m.key]})" if m.key in designs else m.title for m in metrics),
        ]
        rows = [[name, *(by.get(m.key, "") for m in metrics)] for name, by in cells.items()]
        load = next((v for v in mine if v.metric == LOAD_METRIC.key), None)
        note = _load_note(load.rounds, load.method) if load else _paired_only_note(run, workload)
        found.append(VerdictTable(workload, header, rows, note))
    return found


def _mixed(run: RunResult) -> bool:
    return run.rounds is not None and run.rounds.design == "mixed"


def _paired_only_note(run: RunResult, workload: str) -> str:
    why = run.rounds.paired_only.get(workload) if run.rounds is not None and _mixed(run) else None
    return f"Measured in paired rounds only, speed included: {why}." if why else ""


def _load_note(parts: int, method: str | None) -> str:
    return (
        f"The load in {parts} parts, each after a CHECKPOINT, every strategy's part k in turn (the order "
        "rotating) before part k + 1: the ratio of seconds per row part by part, "
        f"{_ESTIMATES.get(method or '', 'without an interval').format(each='part')}."
    )


# How each interval method a verdict can be recorded with makes its estimate and interval (runs of an older
# pkbench bootstrapped the median).
_ESTIMATES = {
    "t on log ratios": "the geometric mean of the per-{each} ratios and its 95% interval "
    "(Student's t on their logs)",
    "bootstrap": "the median of the per-{each} ratios and its 95% interval (bootstrap over {each}s)",
    "range of rounds": "the median of the per-{each} ratios and the range of the {each}s "
    "(no confidence interval)",
}


def estimate_words(methods: Sequence[str | None]) -> str:
    """How estimates and intervals made by these interval methods (a verdict's ``method``) were made, the
    commonest way first."""
    counted = Counter(m for m in methods if m in _ESTIMATES)
    if not counted:
        return "the per-round ratios (no interval)"
    ways = [_ESTIMATES[str(m)].format(each="round") for m, _ in counted.most_common()]
    return ways[0] + "".join(f"; for others, {way}" for way in ways[1:])


def heading(run: RunResult) -> str | None:
    rounds = run.rounds
    if rounds is None or rounds.mode != "paired":
        return None
    count, baseline = rounds.count, rounds.baseline
    methods = [v.method for v in run.verdicts if v.metric != LOAD_METRIC.key]
    method = estimate_words(methods) if count > 1 else "the ratio of the one round (no interval)"
    # Runs of an older pkbench recorded their words without it.
    reach = (
        "; the ± after an interval that resolves no difference is how far it reaches from the estimate, the "
        "smallest effect it could have resolved"
        if any("; ±" in v.words for v in run.verdicts)
        else ""
    )
    designs = {
        "interleaved": "; every strategy's script interleaved in one pgbench window per round "
        "(--interleave), judged on its latency mean and, from pg_stat_statements, its statements' "
        "execution time, buffers and WAL per transaction",
        "mixed": "; each round runs every strategy's window alone (paired) and then one window interleaving "
        "every strategy's script: speed is judged on the interleaved windows, which cancel the machine's "
        "speed of the moment (the latency mean, and TPS derived from it as clients over latency), work per "
        "transaction and the hit ratio on the paired ones, where each strategy has the server to itself"
        + (
            " and runs as many transactions as the round's first paired window ran in its time (work per "
            "transaction falls as a window's transactions return to pages already imaged since its "
            "checkpoint, so it compares only at equal counts)"
            if rounds.equal_transactions
            else ""
        )
        + "; each column names its windows",
    }
    return (
        f"Against {baseline}, over {count} {'' if rounds.design == 'mixed' else 'paired '}"
        f"round{'s' if count != 1 else ''}"
        f"{designs.get(rounds.design, '')}: {method}; a figure equal to the baseline's in every round is "
        f"left out{reach}"
    )


def family_lines(run: RunResult) -> list[str]:
    """What each strategy's verdicts say taken together, at 5% familywise (analysis.family)."""
    found = families(run.verdicts)
    if not found:
        return []
    return [
        "Taken together, each strategy's verdicts at 5% familywise (Holm over Student's t on the log ratios, "
        "so that chance alone makes a copy identical to the baseline differ in about one run of 20 at most): "
        + "; ".join(family_words(f) for f in found)
        + "."
    ]


def family_words(found: Family) -> str:
    if not found.holding:
        return (
            f"{found.strategy}: no difference from {found.baseline} resolved on any of its "
            f"{found.figures} figures"
        )
    named = ", ".join(f"{v.workload} {verdict_title(v.metric)}" for v in found.holding)
    return (
        f"{found.strategy}: differs from {found.baseline} on {len(found.holding)} of its {found.figures} "
        f"figures ({named})"
    )


def after_the_tables(run: RunResult) -> list[str]:
    """What the verdicts say taken together, how much the figures moved between rounds, and what to do when
    a verdict is left unresolved."""
    verdicts = run.verdicts
    rounds = run.rounds
    lines: list[str] = family_lines(run)
    first = next((v.workload for v in verdicts), None)
    cvs = {
        v.strategy: float(v.strategy_cv)
        for v in verdicts
        if v.metric == "tps" and v.workload == first and v.strategy_cv is not None
    }
    if cvs:
        spread = ", ".join(f"{name} {cv:.0%}" for name, cv in cvs.items())
        lines.append(f"TPS of {first} varied across rounds (coefficient of variation) by: {spread}.")
    unresolved = [v for v in verdicts if not v.holds and v.ratio is not None]
    if unresolved:
        busy, stolen = _disturbed_windows(run)
        if busy or stolen:
            when = "the machine is idle" if busy else "its host is quieter"
            advice = f"{disturbed_words(busy, stolen)}, so run again when {when}, or add rounds"
        else:
            advice = (
                "add rounds (--rounds N, or --precision 5% to add them until the intervals are that narrow)"
            )
        lines.append(f"{len(unresolved)} of {len(verdicts)} verdicts are unresolved: {advice}.")
    if rounds is not None and rounds.precision is not None:
        target = f"±{float(rounds.precision) * 100:g}%"
        if rounds.unresolved:
            lines.append(
                f"Precision {target} not reached ({rounds.stopped}) for: {', '.join(rounds.unresolved)}."
            )
        else:
            lines.append(f"Precision {target} reached for every headline ratio.")
    return lines


def _disturbed_windows(run: RunResult) -> tuple[int, int]:
    return disturbed(
        window.machine_window
        for strategy in run.strategies
        for workload in strategy.workloads
        for window in workload.rounds or [workload]
    )


def markdown(run: RunResult) -> list[str]:
    found = tables(run)
    if not found:
        return []
    lines = ["## Verdicts", "", f"{heading(run) or ''}.", ""]
    for table in found:
        lines += [
            f"### {table.workload}",
            "",
            *([table.note, ""] if table.note else []),
            *markdown_table(table.header, table.rows),
            "",
        ]
    lines += [*after_the_tables(run), ""]
    return lines
