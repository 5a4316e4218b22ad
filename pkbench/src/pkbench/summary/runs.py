"""What a committed run was: its command as it can be rerun, which build served each strategy's generator,
and what the machine was doing while it measured. Read from results.json alone, for every page that
quotes the run (reproductions.md and the generated blocks of the READMEs)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from pkbench.results.model import RunResult

# How results.json's generator_source reads in a sentence: a reader must be able to tell the C extension
# from its PL/pgSQL port, whose generators cost tens of times more per call.
SOURCE_WORDS = {
    "core": "core PostgreSQL",
    "extension sequuid": "sequuid, the C extension",
    "sequuid PL/pgSQL port": "sequuid's PL/pgSQL port",
}
# Below this share of the CPU used by other processes the machine counts as otherwise idle: the verdicts'
# own threshold for "the machine was busy" (docs/statistics.md).
IDLE_OTHER = 0.10


def shown_command(run: RunResult, directory: Path) -> str:
    """The run's command as a reader reruns it, with no path of the machine that ran it: `--out` names the
    committed DIRECTORY, and `--pg-bin` (a folder of that machine's server build, often a temporary one)
    becomes `--pg MAJOR`, the recorded server's major version, which selects the same build here; `--pg-bin
    PG_BIN` where no version was recorded."""
    words: list[str] = []
    given = iter(run.command)
    for word in given:
        option, sign, _ = word.partition("=")
        if option not in ("--out", "--pg-bin"):
            words.append(word)
            continue
        if not sign:
            next(given, None)
        words += ["--out", directory.name] if option == "--out" else _server_words(run)
    return " ".join(words)


def _server_words(run: RunResult) -> list[str]:
    version_num = run.server.get("version_num")
    if isinstance(version_num, int) and version_num >= 100000:
        return ["--pg", str(version_num // 10000)]
    return ["--pg-bin", "PG_BIN"]


def generators(run: RunResult) -> list[tuple[str, str]]:
    """Each strategy that ran with where its generator came from, in run order."""
    return [
        (s.name, SOURCE_WORDS.get(str(s.generator_source), str(s.generator_source or "not recorded")))
        for s in run.strategies
        if s.status == "ok"
    ]


def generator_text(run: RunResult) -> str:
    return "; ".join(f"{name}: {source}" for name, source in generators(run))


@dataclass(frozen=True)
class Load:
    """The machine over a run's measured windows: ranges of shares of its whole CPU."""

    windows: int
    busy: tuple[float, float]
    other: tuple[float, float]
    steal_max: float


def load(run: RunResult) -> Load | None:
    """The machine-noise fields of every measured window of the run; None when no window recorded them."""
    found = [
        w.machine_window
        for s in run.strategies
        for w in s.workloads
        if s.status == "ok" and w.machine_window is not None
    ]
    if not found:
        return None
    busy = [m.busy_fraction for m in found]
    other = [m.other_fraction for m in found]
    return Load(
        len(found), (min(busy), max(busy)), (min(other), max(other)), max(m.steal_fraction for m in found)
    )


def _span(values: tuple[float, float]) -> str:
    low, high = (round(v * 100) for v in values)
    return f"{low}%" if low == high else f"{low}-{high}%"


def load_text(run: RunResult) -> str:
    """One sentence on how busy the machine was, from the run's own measurements."""
    return load_words(load(run))


def load_over(found: Sequence[Load | None]) -> Load | None:
    """The machine over several runs' windows (the A/A runs of a calibration)."""
    loads = [f for f in found if f is not None]
    if not loads:
        return None
    return Load(
        sum(f.windows for f in loads),
        (min(f.busy[0] for f in loads), max(f.busy[1] for f in loads)),
        (min(f.other[0] for f in loads), max(f.other[1] for f in loads)),
        max(f.steal_max for f in loads),
    )


def load_words(measured: Load | None) -> str:
    """One sentence on how busy the machine was over the measured windows."""
    if measured is None:
        return "The machine's load was not recorded (no measured window): compare ratios, not absolute ones."
    head = (
        f"Over its {measured.windows} measured windows the CPU was {_span(measured.busy)} busy, "
        f"{_span(measured.other)} of it by other processes, steal at most {measured.steal_max:.1%}"
    )
    if measured.other[1] < IDLE_OTHER:
        return f"{head}: the machine was otherwise idle."
    return f"{head}: a shared machine, so ratios, not absolute figures, are what can be compared."
