"""`pkbench advise`: the fewest runs that fill the rows of the "which key?" table this server can show, in a
time budget, each an ordinary `pkbench run` (the runner, its rounds, its --resume) in a folder of its own.

A part is one built-in scenario with the arguments that keep it small, and the windows that answer the
table's rows. The parts go in order of what can change the decision: the memory tiers first, where the keys
differ most, then the war's rows, then the conditions that only refine the answer; those that fit the budget
run, each given its share of what is left as `--max-time`: rounds are added until each window's rate and WAL
per transaction is decided (within ±PRECISION, or a direction that holds: `--until-decided`) or the share is
spent, and time a part did not need goes to the parts after it. The memory tiers are sized to the server
(server.sizing): its shared_buffers, and its memory, capped on the embedded cluster so that the largest tier
loads in minutes.
What a part answers is decided from the run it made: its cores (many clients on few or many cores), its
commit setting.
"""

from __future__ import annotations

import itertools
import json
import math
import tempfile
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path

from pkbench import results
from pkbench.advise import windows
from pkbench.errors import PkbenchError
from pkbench.evidence.advice_rows import LOAD, SIZE, TPS, Figure
from pkbench.evidence.cell import PRECISION
from pkbench.server import sizing

PLAN_FILE = "advise.json"
# Cores from which a machine's clients are "many clients on many cores" (the contention study's 16-core
# machine), below it "on few cores".
MANY_CORES = 16
DEFAULT_BUDGET_S = 30 * 60
STRATEGIES = ("bigint", "uuid-v4", "uuid-v4-text", "uuid-v7", "seq-time", "seq-seq-256")
# The memory tiers load millions of rows per key: the keys whose difference they show (a random key against
# the sequential ones), so that the largest tier loads in minutes.
MEMORY_STRATEGIES = ("bigint", "uuid-v4", "uuid-v7")
# The memory tiers' windows: three paired rounds (the fewest whose t quantile, 4.3, leaves a steady ratio
# within ±10%), at least ten seconds each (advise.windows: as long as the model's checkpoint cycle, within
# the budget), and at most this long to load the largest tier.
MEMORY_ROUNDS = 3
MEMORY_WINDOW_S = windows.LEAST_WINDOW_S
MEMORY_LOAD_S = 240
MEMORY_TIERS = 3
# The wal run's own start: its cluster, its schemas.
MEMORY_SETUP_S = 30
# Rows a part answers one of, as its run's machine and server were: its cores and its commit setting.
ALTERNATIVES = {
    "clients": ("few-cores", "many-cores", "many-cores-durable"),
    "commit": ("durable", "asynchronous"),
}
# With --dsn the server's disk cannot be seen: what advise may write there unless --disk-budget says.
DEFAULT_DSN_DISK_BUDGET = 10 * 1024**3


@dataclass(frozen=True)
class Part:
    """One run of the plan: its folder's name, `pkbench run` arguments, the window (None: the run's load or
    size) and figure that answer each row (a key of ALTERNATIVES: whichever its run's machine gives), the
    least time it takes on a small machine (its setup and its scale's rounds), for fitting the budget, and
    what the disk estimate needs: the strategies it runs, the rows of each one's table and their bytes."""

    name: str
    scenario: str
    arguments: tuple[str, ...]
    answers: tuple[tuple[str, str | None, Figure], ...]
    least_s: float
    strategy_count: int
    table_rows: int
    window_s: float
    row_bytes: int = sizing.ROW_BYTES
    # Parts that start servers of their own (a standby, shards) need the embedded cluster.
    embedded_only: bool = False

    @property
    def rows(self) -> tuple[str, ...]:
        return tuple(r for row, _, _ in self.answers for r in ALTERNATIVES.get(row, (row,)))


def memory_part(
    strategies: Sequence[str],
    server: sizing.Server,
    model: windows.Model | None = None,
    budget_s: float = DEFAULT_BUDGET_S,
    embedded: bool = True,
) -> tuple[Part, sizing.Tiers, windows.Windows]:
    """The wal scenario at tiers sized to SERVER, measured in windows the model chooses (advise.windows; fixed
    ones without it), and the tiers and windows."""
    chosen = [s for s in strategies if s in MEMORY_STRATEGIES] or list(strategies)
    fit = model.fit if model is not None else None
    tiers = windows.size_tiers(server, sizing.loadable_rows(MEMORY_LOAD_S, chosen), fit)
    answers: list[tuple[str, str | None, Figure]] = [("shared-buffers", "tier-1-shared-buffers", TPS)]
    if tiers.medium_left_out is None:
        answers.append(("page-cache", "tier-2-page-cache", TPS))
    if tiers.large_left_out is None:
        answers.append(("beyond-ram", "tier-3-beyond-memory", TPS))
    count = MEMORY_TIERS * len(chosen) * MEMORY_ROUNDS
    measured = windows.placed(model, tiers.rows_large, server, count, budget_s, embedded)
    cap = tiers.memory_cap_bytes
    arguments = (
        "--paired",
        "--rounds",
        str(MEMORY_ROUNDS),
        *windows.run_arguments(measured),
        *("--set", f"rows_small={tiers.rows_small}"),
        *("--set", f"rows_medium={tiers.rows_medium}"),
        *("--set", f"rows={tiers.rows_large}"),
        *(("--memory-limit", f"{cap // sizing.MIB}MB") if cap is not None else ()),
        *("--strategies", ",".join(chosen)),
    )
    least_s = MEMORY_LOAD_S + count * (measured.window_s + windows.WINDOW_OVERHEAD_S) + MEMORY_SETUP_S
    part = Part(
        "wal", "wal", arguments, tuple(answers), least_s, len(chosen), tiers.rows_large, measured.window_s
    )
    return part, tiers, measured


def parts(
    strategies: Sequence[str],
    cores: int,
    server: sizing.Server,
    model: windows.Model | None = None,
    budget_s: float = DEFAULT_BUDGET_S,
    embedded: bool = True,
) -> list[Part]:
    """Every part, in the order of what can change the decision: the memory tiers first (where the keys
    differ most, several times in rate and WAL), then the war's rows (clients, commit, layout, the load and
    the size), then the conditions that only refine the answer."""
    chosen = ",".join(strategies)
    few = [s for s in strategies if s in ("bigint", "uuid-v4", "uuid-v7", "seq-time")]
    small = ("--duration", "3", "--rounds", "3", "--strategies", ",".join(few))
    clients = str(max(10, 2 * cores))
    window = "lookup-by-data"
    # A war row: a key, a foreign key and a number, in a table with two indexes and a sample of its keys.
    war_row_bytes = 300
    war_window_s = 3
    return [
        memory_part(strategies, server, model, budget_s, embedded)[0],
        Part(
            "war",
            "war",
            ("--scale", "quick", "--clients", clients, "--jobs", str(max(1, cores)), "--strategies", chosen),
            (
                ("clients", window, TPS),
                ("commit", window, TPS),
                ("one-table", window, TPS),
                ("bulk-load", None, LOAD),
                ("storage-size", None, SIZE),
            ),
            300,
            len(strategies),
            200_000,
            war_window_s,
            war_row_bytes,
        ),
        Part(
            "replication",
            "replication",
            ("--rows", "100000", *small),
            (("sync-standby", "insert-sync", TPS),),
            240,
            len(few),
            100_000,
            3,
            embedded_only=True,
        ),
        Part(
            "sharded",
            "sharded",
            ("--shards", "3", "--rows", "20000", "--duration", "5", *small[2:]),
            (("sharded-range", "insert-range", TPS), ("sharded-hash", "insert-hash", TPS)),
            300,
            2 * len(few),
            20_000,
            5,
            embedded_only=True,
        ),
        Part(
            "one-writer",
            "war",
            ("--scale", "quick", "--clients", "1", "--jobs", "1", "--strategies", chosen),
            (("one-writer", window, TPS),),
            240,
            len(strategies),
            200_000,
            war_window_s,
            war_row_bytes,
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
    # Rows a part that runs leaves out, and why (a memory tier this server cannot show in the time).
    rows_left_out: dict[str, str] = field(default_factory=dict)
    # What the memory tiers were sized from and to, in words, for the plan's report and advice.md.
    sizing: str = ""
    # With --dsn: the bytes the runs may write on the server (--disk-budget).
    disk_budget_bytes: int | None = None

    def share_s(self, part: Part) -> float:
        """The part's --max-time as planned, before any has run: `share_left_s` with the earlier parts taking
        their planned shares."""
        spent = 0.0
        for earlier in self.parts[: self.parts.index(part)]:
            spent += self.share_left_s(earlier, spent)
        return self.share_left_s(part, spent)

    def share_left_s(self, part: Part, spent_s: float) -> float:
        """The part's --max-time once the parts before it took SPENT_S: what is left of the budget less the
        least times of the parts after it, so that the part that can change the decision most, first, gets
        the slack, and what it did not need (its cells decided early) goes to the next; where less is left
        than their least times, shared in proportion to them (a run still measures its scale's rounds when
        its share is spent before them; at least a second)."""
        rest = self.parts[self.parts.index(part) :]
        left = max(self.budget_s - spent_s, 0.0)
        later = sum(p.least_s for p in rest[1:])
        if left >= part.least_s + later:
            return left - later
        total = part.least_s + later
        return max(left * part.least_s / total if total else left, 1.0)

    def disk_bytes(self, part: Part) -> int:
        """What PART's run writes at most (its tables, indexes and WAL), by server.sizing's estimate."""
        rows = _given_rows(self.common) or part.table_rows
        return sizing.disk_bytes(part.strategy_count, rows, self.share_s(part), part.window_s, part.row_bytes)

    def arguments(self, part: Part, out: Path, spent_s: float | None = None) -> list[str]:
        """`pkbench run`'s arguments for PART: its share of the budget (of what is left once the parts before
        it took SPENT_S, where given), and rounds added until each window's rate and WAL are decided."""
        share = math.ceil(self.share_s(part) if spent_s is None else self.share_left_s(part, spent_s))
        return [
            part.scenario,
            *part.arguments,
            *self.common,
            "--precision",
            f"{PRECISION:.0%}",
            "--until-decided",
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
            "rows_left_out": self.rows_left_out,
            "sizing": self.sizing,
            "disk_budget_bytes": self.disk_budget_bytes,
        }

    @classmethod
    def from_json(cls, data: dict[str, object]) -> Plan:
        found = data.get("parts")
        if not isinstance(found, list):
            raise PkbenchError(f"{PLAN_FILE}: no parts recorded")
        parts_found = [
            Part(
                **{
                    **p,
                    "arguments": tuple(p["arguments"]),
                    "answers": tuple(tuple(a) for a in p["answers"]),
                }
            )
            for p in found
        ]
        left_out = data.get("left_out")
        rows_left_out = data.get("rows_left_out")
        common = data.get("common")
        budget = data.get("disk_budget_bytes")
        return cls(
            float(str(data.get("budget_s"))),
            parts_found,
            dict(left_out) if isinstance(left_out, dict) else {},
            tuple(str(a) for a in common) if isinstance(common, list) else (),
            data.get("on_dsn") is True,
            dict(rows_left_out) if isinstance(rows_left_out, dict) else {},
            str(data.get("sizing") or ""),
            budget if isinstance(budget, int) else None,
        )


def _given_rows(common: Sequence[str]) -> int | None:
    """--rows among the arguments every part gets: it replaces each part's own table size."""
    for option, value in itertools.pairwise(common):
        if option == "--rows" and value.isdigit():
            return int(value)
    return None


def make_plan(
    budget_s: float,
    strategies: Sequence[str],
    cores: int,
    server: sizing.Server,
    embedded: bool = True,
    common: Sequence[str] = (),
    disk_budget_bytes: int | None = None,
    model: windows.Model | None = None,
) -> Plan:
    """The parts this server can run that fit the budget, in `parts`' order (what can change the decision
    first), each while the least times of those chosen fit; where none fits, the one that fills the most
    rows for its time, alone (the table has nothing without a run). MODEL places the memory tiers."""
    chosen: list[Part] = []
    left_out: dict[str, str] = {}
    spent = 0.0
    runnable = []
    for part in parts(strategies, cores, server, model, budget_s, embedded):
        if part.embedded_only and not embedded:
            left_out[part.name] = "it starts servers of its own: embedded cluster only"
        else:
            runnable.append(part)
    for part in runnable:
        if spent + part.least_s <= budget_s:
            chosen.append(part)
            spent += part.least_s
    if not chosen and runnable:
        chosen.append(max(runnable, key=lambda p: len(p.rows) / p.least_s))
    for part in runnable:
        if part not in chosen:
            left_out[part.name] = f"beyond the budget (it takes {part.least_s / 60:.0f} min at least)"
    _, tiers, measured = memory_part(strategies, server, model, budget_s, embedded)
    rows_left_out = {
        row: why
        for row, why in (("page-cache", tiers.medium_left_out), ("beyond-ram", tiers.large_left_out))
        if why is not None
    }
    return Plan(
        budget_s,
        chosen,
        left_out,
        tuple(common),
        on_dsn=not embedded,
        rows_left_out=rows_left_out,
        sizing=f"{sizing.in_words(server, tiers)}; {measured.words}",
        disk_budget_bytes=disk_budget_bytes,
    )


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


def check_disk(plan: Plan, part: Part) -> None:
    """Stop before a part whose estimate does not fit: in the free space of the embedded cluster's
    directory, or with --dsn in the disk budget (less what earlier parts keep when their schemas stay)."""
    needed = plan.disk_bytes(part)
    if plan.disk_budget_bytes is None:
        directory = Path(tempfile.gettempdir())
        sizing.check_disk(
            part.name, needed, sizing.free_bytes(directory), f"{directory} (the cluster's directory) free"
        )
        return
    kept = 0
    if "--keep" in plan.common:
        kept = sum(plan.disk_bytes(p) for p in plan.parts[: plan.parts.index(part)])
    sizing.check_disk(part.name, needed, plan.disk_budget_bytes - kept, "--disk-budget left")
