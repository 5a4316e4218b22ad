"""`pkbench advise`: the fewest runs that fill the rows of the "which key?" table this server can show, in a
time budget, each an ordinary `pkbench run` (the runner, its rounds, its --resume) in a folder of its own.

A part is one built-in scenario with the arguments that keep it small, and the table's rows it answers. The
parts go in order of how many rows they fill; those that fit the budget run, each given its share of it as
`--max-time` (rounds are added while time is left, with `--precision`). What a part answers is decided from
the run it made: its cores (many clients on few or many cores), its commit setting, whether its server was
capped below its data.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path

from pkbench import results
from pkbench.errors import PkbenchError
from pkbench.evidence import advice
from pkbench.evidence.advice import LOAD, SIZE, TPS, Source
from pkbench.results import RunResult

PLAN_FILE = "advise.json"
# Cores from which a machine's clients are "many clients on many cores" (the contention study's 16-core
# machine), below it "on few cores".
MANY_CORES = 16
DEFAULT_BUDGET_S = 30 * 60
PRECISION = "5%"
STRATEGIES = ("bigint", "uuid-v4", "uuid-v4-text", "uuid-v7", "seq-time", "seq-seq-256")


@dataclass(frozen=True)
class Part:
    """One run of the plan: its folder's name, `pkbench run` arguments, the rows it can answer, and the
    least time it takes on a small machine (its setup and its scale's rounds), for fitting the budget."""

    name: str
    scenario: str
    arguments: tuple[str, ...]
    rows: tuple[str, ...]
    least_s: float
    # Parts that start servers of their own (a standby, shards) or cap the server's memory need the embedded
    # cluster.
    embedded_only: bool = False


def parts(strategies: Sequence[str], cores: int) -> list[Part]:
    """Every part, most rows first."""
    chosen = ",".join(strategies)
    few = ",".join(s for s in strategies if s in ("bigint", "uuid-v4", "uuid-v7", "seq-time"))
    clients = str(max(10, 2 * cores))
    return [
        Part(
            "war",
            "war",
            ("--scale", "quick", "--clients", clients, "--jobs", str(max(1, cores)), "--strategies", chosen),
            (
                "few-cores",
                "many-cores",
                "many-cores-durable",
                "durable",
                "asynchronous",
                "one-table",
                "bulk-load",
                "storage-size",
            ),
            300,
        ),
        Part(
            "wal",
            "wal",
            ("--memory-limit", "128MB", "--duration", "3", "--rounds", "3", "--strategies", few),
            ("shared-buffers", "page-cache", "beyond-ram"),
            300,
            embedded_only=True,
        ),
        Part(
            "replication",
            "replication",
            ("--rows", "100000", "--duration", "3", "--rounds", "3", "--strategies", few),
            ("sync-standby",),
            240,
            embedded_only=True,
        ),
        Part(
            "sharded",
            "sharded",
            ("--shards", "3", "--rows", "20000", "--duration", "5", "--rounds", "3", "--strategies", few),
            ("sharded-range", "sharded-hash"),
            300,
            embedded_only=True,
        ),
        Part(
            "one-writer",
            "war",
            ("--scale", "quick", "--clients", "1", "--jobs", "1", "--strategies", chosen),
            ("one-writer",),
            240,
        ),
    ]


@dataclass
class Plan:
    """What `pkbench advise` runs, as advise.json records it (so that --resume runs the same parts)."""

    budget_s: float
    parts: list[Part]
    left_out: dict[str, str] = field(default_factory=dict)  # part -> why it does not run
    # Arguments every part gets (--pg, --pg-bin, --rows, --duration, run options), never a DSN.
    common: tuple[str, ...] = ()
    # Whether the runs measure a server given by --dsn (which --resume must be given again).
    on_dsn: bool = False

    def share_s(self, part: Part) -> float:
        """The part's --max-time: the budget shared in proportion to each part's least time (a run still
        measures its scale's rounds when its share is spent before them)."""
        total = sum(p.least_s for p in self.parts)
        return self.budget_s * part.least_s / total if total else self.budget_s

    def arguments(self, part: Part, out: Path) -> list[str]:
        share = math.ceil(self.share_s(part))
        return [
            part.scenario,
            *part.arguments,
            *self.common,
            "--precision",
            PRECISION,
            "--max-time",
            f"{share}s",
            "--no-report",
            "--out",
            str(out / part.name),
        ]

    def to_json(self) -> dict[str, object]:
        return {
            "budget_s": self.budget_s,
            "parts": [asdict(p) for p in self.parts],
            "left_out": self.left_out,
            "common": list(self.common),
            "on_dsn": self.on_dsn,
        }

    @classmethod
    def from_json(cls, data: dict[str, object]) -> Plan:
        found = data.get("parts")
        if not isinstance(found, list):
            raise PkbenchError(f"{PLAN_FILE}: no parts recorded")
        parts_found = [
            Part(**{**p, "arguments": tuple(p["arguments"]), "rows": tuple(p["rows"])}) for p in found
        ]
        left_out = data.get("left_out")
        common = data.get("common")
        return cls(
            float(str(data.get("budget_s"))),
            parts_found,
            dict(left_out) if isinstance(left_out, dict) else {},
            tuple(str(a) for a in common) if isinstance(common, list) else (),
            data.get("on_dsn") is True,
        )


def make_plan(
    budget_s: float, strategies: Sequence[str], cores: int, embedded: bool, common: Sequence[str] = ()
) -> Plan:
    """The parts this server can run that fit the budget, most rows first: the first part always runs (the
    table has nothing without it), each further one while the least times of those chosen fit."""
    chosen: list[Part] = []
    left_out: dict[str, str] = {}
    spent = 0.0
    for part in parts(strategies, cores):
        if part.embedded_only and not embedded:
            left_out[part.name] = (
                "it starts servers of its own or sets the server's memory: embedded cluster only"
            )
        elif chosen and spent + part.least_s > budget_s:
            left_out[part.name] = f"beyond the budget (it takes {part.least_s / 60:.0f} min at least)"
        else:
            chosen.append(part)
            spent += part.least_s
    return Plan(budget_s, chosen, left_out, tuple(common), on_dsn=not embedded)


def write_plan(out: Path, plan: Plan) -> None:
    out.mkdir(parents=True, exist_ok=True)
    (out / PLAN_FILE).write_text(json.dumps(plan.to_json(), indent=2) + "\n")


def read_plan(out: Path) -> Plan:
    path = out / PLAN_FILE
    if not path.is_file():
        raise PkbenchError(f"--resume {out}: no {PLAN_FILE} there, so it is not a `pkbench advise` folder")
    try:
        return Plan.from_json(json.loads(path.read_text()))
    except (ValueError, TypeError, KeyError) as e:
        raise PkbenchError(f"{path}: cannot be read ({e})") from None


def state(out: Path, part: Part) -> str:
    """'done', 'interrupted' (results written, rounds left) or 'new' (nothing measured yet)."""
    directory = out / part.name
    if not (directory / "results.json").is_file():
        return "new"
    return "interrupted" if results.load(directory).incomplete else "done"


def sources(out: Path, plan: Plan) -> dict[str, list[Source]]:
    """Which window of which part's run answers each row, from what each run recorded of its machine and
    server: its cores, its commit setting and whether its data outgrew a memory cap."""
    found: dict[str, list[Source]] = {}
    for part in plan.parts:
        directory = out / part.name
        if not (directory / "results.json").is_file():
            continue
        run = results.load(directory)
        for row, source in _answers(part, run):
            found.setdefault(row, []).append(source)
    return found


def _answers(part: Part, run: RunResult) -> list[tuple[str, Source]]:
    name = part.name
    if name == "one-writer":
        return [("one-writer", Source(name, "lookup-by-data", TPS))]
    if name == "war":
        cores = run.machine.get("cores")
        many = isinstance(cores, int) and cores >= MANY_CORES
        durable = str((run.server.get("settings") or {}).get("synchronous_commit", "on")) != "off"
        window = Source(name, "lookup-by-data", TPS)
        return [
            (("many-cores-durable" if durable else "many-cores") if many else "few-cores", window),
            ("durable" if durable else "asynchronous", window),
            ("one-table", window),
            ("bulk-load", Source(name, None, LOAD)),
            ("storage-size", Source(name, None, SIZE)),
        ]
    if name == "wal":
        tiers = [
            ("shared-buffers", "tier-1-shared-buffers"),
            ("page-cache", "tier-2-page-cache"),
        ]
        if run.machine.get("memory_limit_bytes"):
            tiers.append(("beyond-ram", "tier-3-beyond-memory"))
        return [(row, Source(name, window, TPS)) for row, window in tiers]
    if name == "replication":
        return [("sync-standby", Source(name, "insert-sync", TPS))]
    if name == "sharded":
        return [
            ("sharded-range", Source(name, "insert-range", TPS)),
            ("sharded-hash", Source(name, "insert-hash", TPS)),
        ]
    return []


def not_measured_why(out: Path, plan: Plan) -> list[str]:
    """Why each row stays "not measured" here: its run was left out, the server has the other side of it
    (few cores, durable commit), its run did not finish, or no run of advise measures it."""
    answered = sources(out, plan)
    every = {p.name: p for p in parts(STRATEGIES, 1)}
    lines = []
    for condition in advice.CONDITIONS:
        if condition.key in answered:
            continue
        owner = next((p for p in plan.parts if condition.key in p.rows), None)
        left = next(
            (name for name, p in every.items() if condition.key in p.rows and name in plan.left_out), None
        )
        if owner is not None and (out / owner.name / "results.json").is_file():
            why = _other_side(condition.key, results.load(out / owner.name))
        elif owner is not None:
            why = f"its run ({owner.name}) did not finish"
        elif left is not None:
            why = f"{left} was not run: {plan.left_out[left]}"
        else:
            why = "no run of `pkbench advise` measures it yet"
        lines.append(f"- {condition.label}: {why}.")
    return lines


def _other_side(row: str, run: RunResult) -> str:
    """Why a run that ran answers the other side of ROW on this server."""
    if row in ("few-cores", "many-cores", "many-cores-durable"):
        return f"this machine has {run.machine.get('cores', '?')} cores (many from {MANY_CORES})"
    if row in ("durable", "asynchronous"):
        setting = (run.server.get("settings") or {}).get("synchronous_commit", "?")
        return f"the server's synchronous_commit is {setting}"
    if row == "beyond-ram":
        return "the server ran without a memory cap below its data"
    return "its run measured no verdict for it"
