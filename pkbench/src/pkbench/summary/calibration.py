"""An A/A calibration as a document: `pkbench run --calibrate N` writes it to calibration.md, and the docs
quote the same lines from the committed runs (evidence/calibration.py): how often the design resolved a
difference between two identical strategies, and how narrow its intervals were, overall and figure by
figure."""

from __future__ import annotations

import weakref
from collections.abc import Sequence
from datetime import datetime
from pathlib import Path

from pkbench.analysis import judge
from pkbench.analysis.calibration import Calibration, RunSpread, by_figure, run_spread, summed
from pkbench.analysis.metrics import verdict_title
from pkbench.analysis.stats import wilson
from pkbench.results import is_shared
from pkbench.results.model import RunResult, Verdict
from pkbench.summary import runs as run_words
from pkbench.text import MISSING, markdown_table

# The folder of each A/A run under the calibration's directory: aa-1, aa-2, ...
RUN_PREFIX = "aa-"


def marked_verdicts(run: RunResult) -> list[Verdict]:
    """The run's verdicts with the familywise mark, judged from the run's rounds by this pkbench, whatever the
    pkbench that made the run recorded: a calibration measures how often the judgement a run gets today
    resolves a difference between identical strategies."""
    if not is_shared(run):
        return _judged_now(run)
    # The documents read each calibration for several blocks, each handed the same shared run: judged once
    # (judging every A/A run's rounds again was a third of a documents' check), kept while the run lives.
    key = id(run)
    if key not in _judged:
        _judged[key] = _judged_now(run)
        weakref.finalize(run, _judged.pop, key, None)
    return list(_judged[key])


_judged: dict[int, list[Verdict]] = {}


def _judged_now(run: RunResult) -> list[Verdict]:
    baseline, design = _judged_as(run)
    return judge.records(judge.judge(run.strategies, baseline, design), baseline or "")


def _judged_as(run: RunResult) -> tuple[str | None, str]:
    """The baseline and the design the run's verdicts were judged against."""
    if run.rounds is None:
        return None, "paired"
    return run.rounds.baseline, run.rounds.design


def calibrated(aa_runs: Sequence[RunResult]) -> tuple[Calibration, list[list[Verdict]]]:
    """The A/A runs summed up, and each run's verdicts."""
    first = aa_runs[0].rounds
    verdicts = [marked_verdicts(run) for run in aa_runs]
    return summed(first.design if first is not None else "paired", verdicts), verdicts


def spreads(aa_runs: Sequence[RunResult]) -> dict[tuple[str, str], RunSpread]:
    """Each figure's spread from run to run beyond what its rounds predict, by (window, figure)."""
    figures = [judge.paired(run.strategies, *_judged_as(run)) for run in aa_runs]
    return {(s.workload, s.metric): s for s in run_spread(figures)}


def _spread(found: RunSpread | None) -> str:
    if found is None:
        return MISSING
    answer = "yes" if found.holds else "no"
    figures = f"F {found.f_statistic:.2f}, p {found.p_value:.4f}"
    return f"{answer} ({figures}; ±{found.between_sd:.1%} from run to run)"


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


def lines(
    aa_runs: Sequence[RunResult],
    directory: Path,
    judged: tuple[Calibration, list[list[Verdict]]] | None = None,
    rounds_each: str | None = None,
) -> list[str]:
    """What the calibration in DIRECTORY found, from its A/A runs (JUDGED: their calibration, when the caller
    has it already; ROUNDS_EACH: how many rounds each was judged on, in words, when not all it recorded)."""
    if rounds_each is None:
        recorded = aa_runs[0].rounds
        rounds_each = f"{recorded.count if recorded else '?'} rounds each"
    first_run, last = aa_runs[0], aa_runs[-1]
    found, verdicts = judged or calibrated(aa_runs)
    design = found.design
    names = [s.name for s in first_run.strategies]
    machine, server = first_run.machine, first_run.server
    load = run_words.load_over([run_words.load(run) for run in aa_runs])
    paragraph = (
        f"Ours: `{run_words.shown_command(first_run, directory)}`: {found.runs} A/A runs of "
        f"{' against '.join(names)} (scenario {first_run.scenario.get('name')}, {design} design, "
        f"{rounds_each}), {_minutes(first_run, last)}, on "
        f"{machine.get('cores', '?')} cores, {machine.get('cpu_model') or 'CPU unknown'}; PostgreSQL "
        f"{server.get('version', '?')}. {run_words.load_words(load)}"
    )
    overall = markdown_table(
        [
            "design",
            "A/A runs",
            "runs with a false positive",
            "runs with a verdict alone resolved",
            "verdicts resolved",
            "median half-width",
        ],
        [
            [
                design,
                str(found.runs),
                _rate(found.false_positives, found.runs, found.rate_interval),
                _rate(found.any_verdict, found.runs, wilson(found.any_verdict, found.runs)),
                f"{found.verdicts_resolved} of {found.verdicts}",
                _width(found.median_half_width),
            ]
        ],
    )
    spread = spreads(aa_runs)
    figures = markdown_table(
        [
            "window",
            "figure",
            "verdicts",
            "resolved a difference",
            "held taken together",
            "median half-width",
            "widest",
            "runs differ beyond their rounds",
        ],
        [
            [
                f.workload,
                verdict_title(f.metric),
                str(f.verdicts),
                _rate(f.resolved, f.verdicts, f.interval),
                str(f.familywise),
                _width(f.median_half_width),
                _width(f.widest_half_width),
                _spread(spread.get((f.workload, f.metric))),
            ]
            for f in by_figure(verdicts)
        ],
    )
    return [
        paragraph,
        "",
        *overall,
        "",
        "A run is a false positive when the copy's verdicts taken together resolved a difference from the "
        "baseline at 5% familywise (Holm over Student's t on the log ratios, the run's own answer), which "
        "should happen about one time in 20; at 95% confidence a verdict alone resolves one about one time "
        "in 20 too, so a run of a dozen verdicts often has one. Rates carry their 95% Wilson interval; a "
        "half-width is the smallest effect a verdict's interval resolves.",
        "",
        *figures,
        "",
        "Each table is loaded once per run, so whatever its load left the same for the whole run is sampled "
        "by the runs and never by the rounds, and a verdict's interval, made of one run's rounds, leaves it "
        "out. The last column tests for such a part: a one-way analysis of variance of each round's log "
        "ratio with the runs as groups, F about 1 when the rounds account for the runs' spread; yes where "
        "the runs differ at 5% familywise over the figures (Holm), with the run-to-run part's standard "
        "deviation.",
    ]


def write(aa_runs: Sequence[RunResult], directory: Path) -> str:
    """calibration.md in DIRECTORY, from its A/A runs; the calibration in words."""
    judged = calibrated(aa_runs)
    words = f"{judged[0].words()}."
    document = "".join(f"{line}\n" for line in lines(aa_runs, directory, judged))
    (directory / "calibration.md").write_text(f"# A/A calibration\n\n{words}\n\n{document}")
    return words
