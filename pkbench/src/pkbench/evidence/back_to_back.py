"""Two runs of the same options back to back, kept as `run-1/` and `run-2/` in one directory
(benchmarks/verdict_targets.py makes them): how stable the verdicts are on this machine. Each TPS verdict's
interval in both runs, its half-width against the target, and whether the two intervals overlap; then the same
count over every verdict both runs made. Two identical runs whose intervals do not overlap say the intervals
are narrower than the machine's run-to-run drift.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from pkbench import results
from pkbench.analysis.family import families
from pkbench.analysis.metrics import verdict_title
from pkbench.errors import PkbenchError
from pkbench.evidence.designs import cell, half_width, overlap, recorded
from pkbench.results.model import RunResult
from pkbench.summary.verdicts import estimate_words
from pkbench.text import MISSING, markdown_table

RUNS = ("run-1", "run-2")
# The half-width the TPS verdicts of a default run are meant to reach (docs/statistics.md).
HALF_WIDTH_TARGET = 0.05


def lines(first: RunResult, second: RunResult) -> list[str]:
    """The TPS table of the two runs, then how many of all their shared verdicts' intervals overlap."""
    one, two = recorded(first), recorded(second)
    rows: list[Sequence[str]] = []
    widths: list[float] = []
    for key in sorted(k for k in one.keys() | two.keys() if k[2] == "tps"):
        a, b = one.get(key), two.get(key)
        widths += [half_width(v) for v in (a, b) if v is not None]
        agree = MISSING if a is None or b is None else ("yes" if overlap(a, b) else "no")
        rows.append((key[0], key[1], cell(a), cell(b), agree))
    shared = sorted(one.keys() & two.keys())
    apart = [k for k in shared if not overlap(one[k], two[k])]
    within = sum(1 for w in widths if w <= HALF_WIDTH_TARGET)
    estimate = estimate_words([v.method for v in first.verdicts])
    widest = f" (widest ±{max(widths):.1%})" if widths else ""
    named = ", ".join(f"{k[1]} {k[0]} {verdict_title(k[2])}" for k in apart)
    summary = (
        f"TPS intervals within ±{HALF_WIDTH_TARGET:.0%}: {within} of {len(widths)}{widest}. Of the "
        f"{len(shared)} verdicts both runs made, the intervals of {len(shared) - len(apart)} overlap"
        + (f"; not those of {named}." if apart else ".")
    )
    return [
        *markdown_table(("Window", "Strategy", RUNS[0], RUNS[1], "intervals overlap"), rows),
        "",
        f"Each cell: the strategy's TPS over the baseline's ({estimate}), with its half-width"
        + (
            "; in the mixed design, the TPS each strategy's latency mean gives in the interleaved windows. "
            if any(r.rounds is not None and r.rounds.design == "mixed" for r in (first, second))
            else ". "
        )
        + summary
        + _answers(first, second),
    ]


def _answers(first: RunResult, second: RunResult) -> str:
    """Which shared verdicts state a difference in one run and not in the other (each as its run states it:
    held in its strategy's family where the run judged families), how many did so on their own intervals,
    and whether each strategy's answer taken together (at 5% familywise) is the same in both."""
    one, two = ({(v.workload, v.strategy, v.metric): v for v in run.verdicts} for run in (first, second))
    both = sorted(one.keys() & two.keys())
    flipped = [k for k in both if one[k].holds != two[k].holds]
    alone = sum(1 for k in both if one[k].resolved != two[k].resolved)
    words = " Verdict by verdict, as each run states it, "
    if flipped:
        ratios = [v.ratio for k in flipped for v in (one[k], two[k]) if v.holds and v.ratio is not None]
        largest = max((abs(r - 1) for r in ratios), default=0.0)
        named = ", ".join(f"{k[1]} {k[0]} {verdict_title(k[2])}" for k in flipped)
        words += (
            f"{len(flipped)} {'states' if len(flipped) == 1 else 'state'} a difference in one run and "
            f"not in the other ({named}; the one stated at most {largest:.1%} from no difference)."
        )
    else:
        words += "each states a difference in both runs or in neither."
    if alone != len(flipped):
        words += (
            f" On its own interval, without its strategy's other figures, {alone} "
            f"{'resolves' if alone == 1 else 'resolve'} a difference in one run only."
        )
    answers = [
        {f.strategy: {(v.workload, v.metric) for v in f.holding} for f in families(run.verdicts)}
        for run in (first, second)
    ]
    shared = sorted(answers[0].keys() & answers[1].keys())
    differ = [name for name in shared if answers[0][name] != answers[1][name]]
    if not shared:
        return words
    return words + (
        f" Taken together at 5% familywise, {len(shared) - len(differ)} of {len(shared)} strategies' answers "
        "are the same in both runs" + (f"; not {', '.join(differ)}'s." if differ else ".")
    )


def load(source: Path) -> tuple[RunResult, RunResult]:
    """The two runs kept in SOURCE."""
    found = []
    for name in RUNS:
        if not (source / name / "results.json").is_file():
            raise PkbenchError(f"{source}: no {name}/results.json (two runs back to back)")
        found.append(results.load(source / name))
    return found[0], found[1]
