"""An A/A calibration as a document: `pkbench run --calibrate N` writes it to calibration.md, and the docs
quote it from the committed runs (summary/evidence_tables.py) — how often the design resolved a difference
between two identical strategies, and how narrow its intervals were, overall and figure by figure."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from pathlib import Path

from pkbench import results
from pkbench.analysis.calibration import by_figure, summed
from pkbench.analysis.metrics import LOAD_METRIC, WORKLOAD_METRICS
from pkbench.errors import PkbenchError
from pkbench.results import RunResult
from pkbench.summary import runs as run_words
from pkbench.text import MISSING, markdown_table

# The folder of each A/A run under the calibration's directory: aa-1, aa-2, ...
RUN_PREFIX = "aa-"


def load_runs(directory: Path) -> list[RunResult]:
    """The A/A runs under DIRECTORY, in the order they ran."""
    numbered = sorted(
        (int(p.name.removeprefix(RUN_PREFIX)), p)
        for p in directory.glob(f"{RUN_PREFIX}*")
        if p.name.removeprefix(RUN_PREFIX).isdigit() and (p / "results.json").is_file()
    )
    if not numbered:
        raise PkbenchError(f"{directory}: no A/A run there ({RUN_PREFIX}N/results.json)")
    return [results.load(path) for _, path in numbered]


def _width(value: float | None) -> str:
    return MISSING if value is None else f"±{value:.1%}"


def _rate(count: int, total: int, interval: tuple[float, float]) -> str:
    return f"{count / total:.0%} ({interval[0]:.0%}-{interval[1]:.0%})" if total else MISSING


def _minutes(first: RunResult, last: RunResult) -> str:
    try:
        seconds = (
            datetime.fromisoformat(str(last.finished_at)) - datetime.fromisoformat(first.started_at)
        ).total_seconds()
    except ValueError:
        return "wall time unknown"
    return f"wall time {seconds / 60:,.1f} min"


def lines(aa_runs: Sequence[RunResult], directory: Path) -> list[str]:
    """What the calibration in DIRECTORY found, from its A/A runs."""
    first, last = aa_runs[0], aa_runs[-1]
    rounds = first.rounds
    design = rounds.design if rounds is not None else "paired"
    verdicts = [list(run.verdicts) for run in aa_runs]
    found, resolved, total = summed(design, verdicts)
    names = [s.name for s in first.strategies]
    machine, server = first.machine, first.server
    load = run_words.load_over([run_words.load(run) for run in aa_runs])
    paragraph = (
        f"Ours: `{run_words.shown_command(first, directory)}`: {found.runs} A/A runs of "
        f"{' against '.join(names)} (scenario {first.scenario.get('name')}, {design} design, "
        f"{rounds.count if rounds else '?'} rounds each), {_minutes(first, last)}, on "
        f"{machine.get('cores', '?')} cores, {machine.get('cpu_model') or 'CPU unknown'}; PostgreSQL "
        f"{server.get('version', '?')}. {run_words.load_words(load)}"
    )
    overall = markdown_table(
        [
            "design",
            "A/A runs",
            "runs with a false positive",
            "verdicts resolved",
            "median half-width",
        ],
        [
            [
                design,
                str(found.runs),
                _rate(found.false_positives, found.runs, found.rate_interval),
                f"{resolved} of {total}",
                _width(found.median_half_width),
            ]
        ],
    )
    titles = {m.key: m.title for m in (LOAD_METRIC, *WORKLOAD_METRICS)}
    figures = markdown_table(
        ["window", "figure", "verdicts", "resolved a difference", "median half-width", "widest"],
        [
            [
                f.workload,
                titles.get(f.metric, f.metric),
                str(f.verdicts),
                _rate(f.resolved, f.verdicts, f.interval),
                _width(f.median_half_width),
                _width(f.widest_half_width),
            ]
            for f in by_figure(verdicts)
        ],
    )
    return [
        paragraph,
        "",
        *overall,
        "",
        "A run is a false positive when any of its verdicts resolved a difference between the two identical "
        "strategies; at 95% confidence a verdict alone should resolve one about one time in 20. Rates "
        "carry their 95% Wilson interval; a half-width is the smallest effect a verdict's interval resolves.",
        "",
        *figures,
    ]
