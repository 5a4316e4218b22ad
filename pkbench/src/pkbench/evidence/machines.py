"""The machines the which-key table was measured on, in one sentence for the README's first screen: each kind
of machine the cited runs recorded (cores, memory, processor) with the PostgreSQL versions run there and the
conditions it answered, read from the runs' own records so that a run measured elsewhere changes it."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from pkbench.evidence.advice import Table, build, load
from pkbench.evidence.advice_rows import committed


@dataclass
class Machine:
    """One kind of machine: what its runs recorded, and what they answer in the table."""

    cores: object
    gib: int | None
    processors: list[str] = field(default_factory=list)
    versions: list[str] = field(default_factory=list)
    runs: list[str] = field(default_factory=list)
    conditions: list[str] = field(default_factory=list)

    def said(self) -> str:
        memory = f" and {self.gib} GiB" if self.gib is not None else ""
        # as recorded, less the trademark signs
        made = " or ".join(p.replace("(R)", "").replace("(TM)", "") for p in self.processors)
        versions = ", ".join(self.versions) or "?"
        count = f"{len(self.runs)} run{'' if len(self.runs) == 1 else 's'}"
        made = made or "processor not recorded"
        return f"{self.cores} cores{memory} ({made}), PostgreSQL {versions} ({count})"


def machines(table: Table) -> list[Machine]:
    """The kinds of machine of TABLE's cited runs, the one answering most conditions first."""
    found: dict[tuple[object, int | None], Machine] = {}
    for run_name in table.runs:
        run = load(table.runs_dir / run_name)
        if run is None:
            continue
        memory = run.machine.get("memory_bytes")
        gib = round(memory / 2**30) if isinstance(memory, int | float) else None
        kind = found.setdefault(
            (run.machine.get("cores", "?"), gib), Machine(run.machine.get("cores", "?"), gib)
        )
        processor = run.machine.get("cpu_model")
        if isinstance(processor, str) and processor not in kind.processors:
            kind.processors.append(processor)
        version = run.server.get("version")
        if isinstance(version, str) and version not in kind.versions:
            kind.versions.append(version)
        kind.runs.append(run_name)
        for condition in table.conditions:
            cited = any(cell.run == run_name for cell in table.cells[condition.key].values())
            if cited and condition.label not in kind.conditions:
                kind.conditions.append(condition.label)
    return sorted(found.values(), key=lambda m: -len(m.conditions))


def line(table: Table) -> list[str]:
    """Where the table's figures were measured: the main machine, then each other one with what it answers."""
    kinds = machines(table)
    if not kinds:
        return ["No committed run is cited, so no machine measured these figures."]
    first, others = kinds[0], kinds[1:]
    said = f"Measured on {first.said()}"
    for other in others:
        rows = " and ".join(f'"{c}"' for c in other.conditions)
        said += f"; the row{'' if len(other.conditions) == 1 else 's'} {rows} on {other.said()}"
    return [
        said + ". Each run, its machine and its server are listed in [advice.md](pkbench/docs/advice.md): "
        "a ratio to bigint on the same machine, not an absolute rate, is what carries to yours."
    ]


def block(runs_dir: Path) -> list[str]:
    """The README's machine sentence from the committed runs under RUNS_DIR."""
    sources, conditions = committed(runs_dir)
    return line(build(runs_dir, sources, conditions=conditions))
