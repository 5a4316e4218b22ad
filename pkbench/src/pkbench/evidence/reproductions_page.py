"""docs/reproductions.md: the studies' figures beside ours over many committed runs (`pkbench reproductions`,
checked by `./dev docs`), per study its setup, then each run that carried it and its figures beside the
study's. One run's rows beside the studies are summary.reproductions's."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from pathlib import Path

from pkbench import results
from pkbench.errors import PkbenchError
from pkbench.results.model import RunResult
from pkbench.scenario import published
from pkbench.server import iolimit
from pkbench.summary import runs
from pkbench.summary.reproductions import (
    COUNT_HEADER,
    RULE,
    by_name,
    figure_table,
    sampled_of,
    studies_of,
    study_header,
)
from pkbench.text import markdown_table


def run_lines(directory: Path, run: RunResult) -> list[str]:
    """The paragraph that says what a run was: command, wall time, machine and its load, the generators."""
    scenario, machine, server = run.scenario, run.machine, run.server
    memory = machine.get("memory_bytes")
    limit = machine.get("memory_limit_bytes")
    iops = (scenario.get("parameters") or {}).get(iolimit.PARAMETER)
    machine_text = (
        f"{machine.get('cores', '?')} cores"
        + (f", {memory / 2**30:.0f} GiB RAM" if isinstance(memory, int | float) else "")
        + (f", server capped at {limit / 2**20:,.0f} MiB" if isinstance(limit, int | float) else "")
        + (f", disk writes held to {iops:,} a second while measuring" if isinstance(iops, int) else "")
        + (f", {machine['cpu_model']}" if machine.get("cpu_model") else "")
    )
    return [
        f"Ours: `{runs.shown_command(run, directory)}` (scenario {scenario.get('name')}, scale "
        f"{scenario.get('scale') or 'default'}; results in `{directory.name}`), {_wall_time(run)}, on "
        f"{machine_text}; PostgreSQL {server.get('version', '?')}. Generators: {runs.generator_text(run)}. "
        f"{runs.load_text(run)}",
        "",
    ]


def _wall_time(run: RunResult) -> str:
    try:
        started = datetime.fromisoformat(run.started_at)
        finished = datetime.fromisoformat(str(run.finished_at))
    except ValueError:
        return "wall time unknown"
    seconds = (finished - started).total_seconds()
    return f"wall time {seconds / 60:,.1f} min"


def notes_by_seed(text: str) -> dict[str, list[str]]:
    """A notes file's sections by seed: the lines under each `## Seed NNN` heading, written by a person
    (why a figure was or was not reproduced), placed under that seed's generated tables."""
    sections: dict[str, list[str]] = {}
    current: list[str] | None = None
    for line in text.splitlines():
        if line.startswith("## Seed "):
            current = sections.setdefault(line.removeprefix("## Seed ").split()[0].rstrip(":"), [])
        elif current is not None:
            current.append(line)
    return {seed: [*lines, ""] for seed, lines in sections.items() if any(s.strip() for s in lines)}


def page(directories: Sequence[Path], command: str, notes: str = "") -> str:
    """docs/reproductions.md from results directories: per study (in seed order) its setup, then each run
    that carried it: command, wall time, machine, PostgreSQL version, figures beside the study's."""
    headers: dict[str, list[str]] = {}
    runs: dict[str, list[str]] = {}
    words: dict[str, list[str]] = {}
    for directory in directories:
        run = results.load(directory)
        strategies, sampled = by_name(run), sampled_of(results.read_series(directory))
        for study in studies_of(run):
            headers.setdefault(study.study, study_header(study))
            runs.setdefault(study.study, []).extend(
                [*run_lines(directory, run), *figure_table(study, strategies, sampled)]
            )
            words.setdefault(study.study, []).extend(
                str(found.word)
                for item in study.figures
                for found in published.compare(item, strategies, sampled)
                if found.word is not None
            )
    kinds = (
        published.REPRODUCED,
        published.SMALLER,
        published.LARGER,
        published.NOT_REPRODUCED,
        published.NOT_MEASURED,
    )
    out = [
        "# Reproductions: the studies' figures beside ours",
        "",
        "Generated from results directories by `pkbench reproductions`; not edited by hand. Regenerate:",
        "",
        "```",
        command,
        "```",
        "",
        RULE,
        "",
        *markdown_table(
            COUNT_HEADER,
            ([seed, *(str(words[seed].count(kind)) for kind in kinds)] for seed in sorted(headers)),
        ),
        "",
    ]
    written = notes_by_seed(notes)
    for seed in sorted(headers):
        out += [*headers[seed], *runs[seed]]
        out += (
            ["**Why** (from the notes file, written by hand):", "", *written[seed]] if seed in written else []
        )
    return "\n".join(out).rstrip() + "\n"


def write(directories: Sequence[Path], out: Path, command: str, notes: Path | None = None) -> Path:
    text = ""
    if notes is not None:
        try:
            text = notes.read_text()
        except OSError as e:
            raise PkbenchError(f"--notes {notes}: {e.strerror}") from e
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(page(directories, command, text))
    return out
