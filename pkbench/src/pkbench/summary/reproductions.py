"""Published figures beside ours: the rows under a run's summary, the console and the report (the page over
many runs, docs/reproductions.md, is evidence.reproductions_page).

A run records its scenario's studies (results.json `scenario.published`); the rows read them back from the
run, so they can be made again from its results.json.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace

from pkbench.results.model import RunResult, StrategyResult
from pkbench.scenario import builtin, published
from pkbench.scenario.published import Comparison, Published, PublishedFigure
from pkbench.summary import waits
from pkbench.text import MISSING, markdown_table

COUNT_HEADER = [
    "Seed",
    "Reproduced",
    "Same direction, smaller",
    "Same direction, larger",
    "Not reproduced",
    "Not measured",
]
HEADER = ["Figure", "Strategy", "Study", "Ours", "Study ratio", "Our ratio", "Agreement"]
RULE = (
    "Agreement compares ratios, never absolute figures: each figure of a strategy is divided by the same "
    f"figure of the table's baseline, in the study and in our run. A ratio within {published.SAME_BAND:.0%} "
    "of 1 is no difference. *Reproduced*: ours points the same way as the study's and its effect (the "
    f"ratio's logarithm) lies within a factor of {published.FACTOR_REPRODUCED:g} of the study's either way "
    "(or both show no difference); *same direction, smaller* or *larger*: it points the same way but lies "
    "outside that factor; *not reproduced*: no difference where the study saw one, a difference where it "
    "saw none, or the other way round. A share the study states outright (a percentage of its WAL, or of an "
    "index's pages) is "
    f"compared as it is, within the same factor of {published.FACTOR_REPRODUCED:g}; a direction it states "
    "without a figure (its results are charts) is reproduced when ours points the same way, beyond the band. "
    "`scenario/agreement.py` decides, and docs/statistics.md describes it with worked examples."
)


def _number(value: float | None) -> str:
    if value is None:
        return MISSING
    return f"{value:,.0f}" if abs(value) >= 100 else f"{value:.3g}"


def _ratio(value: float | None) -> str:
    return MISSING if value is None else f"{value:.2f}\u00d7"


def studies_of(run: RunResult) -> tuple[Published, ...]:
    """The studies of a run's scenario: a built-in scenario's as this pkbench has them (a study's figures
    are facts about the study, so a corrected mapping reaches old results too), a scenario file's as the
    run recorded them; only those that score the run's scale."""
    recorded = run.scenario
    name = str(recorded.get("name"))
    if str(recorded.get("source")) == builtin.source(name) and name in builtin.names():
        studies = published.of_builtin(name)
    else:
        studies = published.from_json(recorded.get("published"))
    scale = str(recorded.get("scale") or "default")
    return tuple(study for study in studies if not study.scales or scale in study.scales)


def by_name(run: RunResult) -> dict[str, StrategyResult]:
    """The run's strategies that measured, by name."""
    return {s.name: s for s in run.strategies if s.status == "ok"}


def sampled_of(series: Mapping[str, Sequence[Sequence[object]]]) -> published.Sampled:
    """The figures a study may state that only the sampled time series hold, per strategy and window: the
    share of active backends waiting on IO:DataFileRead, and of shared buffers at a low usage count."""
    found: dict[str, dict[str, dict[str, float]]] = {}
    windows = waits.by_window(series.get("wait_events", []), series.get("usagecount", []))
    for (strategy, workload), window in windows.items():
        figures = found.setdefault(strategy, {}).setdefault(workload, {})
        if (io := window.share("IO:DataFileRead")) is not None:
            figures[published.WAIT_DATAFILEREAD] = 100 * io
        if window.low_usage_share is not None:
            figures[published.LOW_USAGE_BUFFERS] = 100 * window.low_usage_share
    return found


def figure_rows(
    study: Published,
    item: PublishedFigure,
    strategies: Mapping[str, StrategyResult],
    sampled: published.Sampled | None = None,
) -> list[list[str]]:
    """One row per strategy of ITEM: theirs and ours, in their units, both ratios, and the word."""
    rows = []
    for found in published.compare(item, strategies, sampled):
        rows.append(_row(study, item, found))
    return rows


def _row(study: Published, item: PublishedFigure, found: Comparison) -> list[str]:
    ours = (
        f"{_number(found.ours.value)} {published.unit_of(item)}"
        if found.ours.available
        else f"{MISSING} ({found.ours.reason})"
    )
    word = f"baseline ({item.relative_to})" if found.word is None else found.word
    name = study.name_of(found.strategy)
    theirs = f"{_number(found.theirs)} {item.unit}"
    if found.claim is not None:
        theirs = MISSING if found.claim == "baseline" else f"{found.claim} ({item.relative_to} = 1)"
    return [
        item.label,
        found.strategy if name == found.strategy else f"{found.strategy} ({name})",
        theirs,
        ours,
        "(a direction)" if item.direction else "(a share)" if item.share else _ratio(found.theirs_ratio),
        "(a share)" if item.share else _ratio(found.ours_ratio),
        word,
    ]


def _table(rows: Sequence[Sequence[str]]) -> list[str]:
    return markdown_table(HEADER, rows)


def study_header(study: Published, level: str = "##") -> list[str]:
    """A study's heading and its setup."""
    settings = ", ".join(f"{k} = {v}" for k, v in study.settings.items())
    return [
        f"{level} Seed {study.study}: {study.title}",
        "",
        f"Study: {study.hardware}; {study.version}"
        + (f"; {settings}" if settings else "")
        + f". Its command: `{study.command}`."
        + (f" {study.note[0].upper()}{study.note[1:]}." if study.note else ""),
        "",
    ]


def figure_table(
    study: Published, strategies: Mapping[str, StrategyResult], sampled: published.Sampled | None = None
) -> list[str]:
    """The study's figures beside ours, or a line saying it published none in its text."""
    rows = [row for item in study.figures for row in figure_rows(study, item, strategies, sampled)]
    if not rows:
        return ["The study states no figure in its text that a run measures (its results are charts).", ""]
    notes = [f"- {item.label}: {item.note}." for item in study.figures if item.note]
    return [*_table(rows), "", *notes, *([""] if notes else [])]


def measured(run: RunResult) -> list[tuple[Published, list[PublishedFigure]]]:
    """Each study of the run with the figures this run measured for at least one strategy: a figure read
    from a step of another scale (war's study window in a default run) is left out of the run's own pages."""
    strategies, sampled = by_name(run), sampled_of(run.series)
    return [
        (
            study,
            [
                item
                for item in study.figures
                if any(found.ours.available for found in published.compare(item, strategies, sampled))
            ],
        )
        for study in studies_of(run)
    ]


def summary_lines(run: RunResult) -> list[str]:
    """The published-vs-ours section of summary.md: empty when the scenario carries no study."""
    studies = measured(run)
    if not studies:
        return []
    strategies, sampled = by_name(run), sampled_of(run.series)
    lines = ["## Published figures beside ours", "", RULE, ""]
    for study, figures in studies:
        lines += study_header(study, "###")
        if figures or not study.figures:
            lines += figure_table(replace(study, figures=tuple(figures)), strategies, sampled)
        else:
            scale = run.scenario.get("scale", "default")
            lines += [
                f"This run measured none of its figures: they come from steps this scale ({scale}) lacks.",
                "",
            ]
    return lines


def console_rows(run: RunResult) -> list[list[str]]:
    """The same rows for the console table, each led by the study's seed."""
    strategies, sampled = by_name(run), sampled_of(run.series)
    return [
        [study.study, *row]
        for study, figures in measured(run)
        for item in figures
        for row in figure_rows(study, item, strategies, sampled)
    ]


REPORT_HEADER = ["Strategy", "Seed", "Figure", "Study's name", *HEADER[2:]]


def report_rows(run: RunResult) -> list[tuple[str, list[str]]]:
    """The rows for the HTML report: our strategy name (for its colour), then the cells of REPORT_HEADER."""
    strategies, sampled = by_name(run), sampled_of(run.series)
    rows = []
    for study, figures in measured(run):
        for item in figures:
            for found in published.compare(item, strategies, sampled):
                row = _row(study, item, found)
                rows.append(
                    (found.strategy, [study.study, item.label, study.name_of(found.strategy), *row[2:]])
                )
    return rows
