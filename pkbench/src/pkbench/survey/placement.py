"""Each surveyed table placed in a condition of the committed which-key table and given that condition's
measured cell for its key, in words, with the run it comes from; and the tables ranked by what switching
would save.

The committed cells are read through one function, `committed_cell`, over evidence.advice: the rule that
reads a cell from a run lives there, not here. A table's condition is its key index's memory tier (what a
random key's inserts pay for); a partitioned table's layout row is given beside it.
"""

from __future__ import annotations

import functools
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from pkbench.evidence import advice, advice_rows
from pkbench.survey import classify
from pkbench.survey.facts import ServerFacts, TableFacts
from pkbench.text import binary_size

# The committed runs in a clone of the repository: pkbench/docs/reproductions beside this package's source.
RUNS_DIR = Path(__file__).resolve().parents[3] / "docs" / "reproductions"
LAYOUT_CONDITIONS = {"range": "range-partitioned", "hash": "hash-partitioned"}
# A uuid key compared, besides bigint, with the UUID that keeps it a UUID.
UUID_ALTERNATIVE = "uuid-v7"
TIMES = advice.TIMES


@functools.cache
def committed_cell(runs_dir: Path, condition: str, strategy: str) -> advice.Cell:
    """The committed which-key table's cell for STRATEGY under CONDITION, from the runs in RUNS_DIR."""
    sources, conditions = advice_rows.committed(runs_dir)
    wanted = [c for c in conditions if c.key == condition]
    table = advice.build(runs_dir, sources, conditions=wanted)
    return table.cells.get(condition, {}).get(strategy, advice.Cell("not measured"))


def _heading(strategy: str) -> str:
    return next((c.heading for c in advice_rows.COLUMNS if c.strategy == strategy), strategy)


def cell_words(strategy: str, cell: advice.Cell) -> str:
    """A committed cell in a sentence: how STRATEGY ran against bigint there, and the run it comes from."""
    name = _heading(strategy)
    if cell.kind == "not measured":
        return f"no committed run measured {name} here"
    cited = f" [{cell.run}]"
    if cell.kind == "baseline":
        return f"bigint is the baseline every cell is measured against{cited}"
    if cell.precise and cell.resolved and cell.ratio is not None and cell.kind == "verdict":
        wal = f" with {cell.work.ratio:.2f}{TIMES} the WAL per transaction" if cell.work is not None else ""
        return (
            f"{name} ran at {cell.ratio:.2f}{TIMES} bigint's rate ({cell.low:.2f}\u2013{cell.high:.2f})"
            f"{wal}{cited}"
        )
    word = cell.word()
    return f"{name} against bigint: {word}{', ' if word else ''}{cell.figures()}{cited}"


def penalty(cell: advice.Cell) -> float:
    """The extra time an insert takes against bigint's where the cell states the key slower (1/ratio - 1),
    else 0: a cell not resolved to the precision rule costs nothing it can show."""
    if cell.kind == "verdict" and cell.resolved and cell.precise and cell.better is False and cell.ratio:
        return 1 / cell.ratio - 1
    return 0.0


@dataclass(frozen=True)
class Placement:
    condition: str
    label: str
    strategy: str
    words: str
    run: str | None
    ratio: float | None
    low: float | None
    high: float | None
    wal_ratio: float | None
    penalty: float
    # Measured, tight enough for the precision rule, and stated (a difference that holds in its run).
    measured: bool = False
    precise: bool = False
    resolved: bool = False
    alternative: str | None = None


@dataclass
class Entry:
    """One table as the survey reports it: what its key is, where it sits, what the committed table says."""

    table: str
    kind: str
    leading_kind: str
    kind_words: str
    key: list[str]
    key_types: list[str]
    key_source: str | None
    key_index: str | None
    generator: str | None
    values: str | None
    versions: dict[str, float]
    ulid_share: float | None
    ordering: float | None
    ordering_words: str
    ordering_how: str
    pg_stats_correlation: float | None
    range_used: float | None
    total_bytes: int | None
    index_bytes: int | None
    index_over_shared_buffers: float | None
    index_over_memory: float | None
    tier: str | None
    partitioned: str | None
    partitions: int
    children: list[dict[str, Any]]
    inserts_per_s: float | None
    inserts_how: str
    fpi_share: float | None
    leaf_density: float | None
    cached_share: float | None
    unknown: dict[str, str]
    placements: list[Placement] = field(default_factory=list)
    status: str = "fine"
    summary: str = ""
    findings: list[str] = field(default_factory=list)
    saving: float | None = None

    def as_json(self) -> dict[str, Any]:
        return asdict(self)


def entry(facts: TableFacts, server: ServerFacts, memory: int | None, runs_dir: Path | None) -> Entry:
    """FACTS classified, placed and put in words."""
    lead_type = facts.key_types[0] if facts.key_types else None
    text = lead_type in classify.TEXT_TYPES
    sample_values = [v for group in facts.sample or [] for v in group]
    shape = classify.shape(sample_values, text) if facts.sample is not None else None
    generator, made = (
        classify.generator(facts.default, facts.identity) if lead_type is not None else (None, None)
    )
    kind = classify.kind(facts.key_types, made, shape)
    # A composite key's inserts land where its leading column puts them: it is placed by that column.
    leading = classify.kind(facts.key_types[:1], made, shape)
    kind_words, strategy = classify.KINDS[leading]
    if kind == "composite":
        kind_words = f"a composite key led by {kind_words}"
    ordering = (
        classify.rank_correlation(classify.ordered_keys(lead_type, facts.sample))
        if facts.sample is not None
        else None
    )
    tier = (
        classify.memory_tier(facts.index_bytes, server.shared_buffers, memory)
        if facts.index_bytes is not None
        else None
    )
    rate = (
        facts.inserts / facts.inserts_over_s if facts.inserts is not None and facts.inserts_over_s else None
    )
    found = Entry(
        table=facts.qualified,
        kind=kind,
        leading_kind=leading,
        kind_words=kind_words,
        key=list(facts.key_columns),
        key_types=list(facts.key_types),
        key_source=facts.key_source,
        key_index=facts.key_index,
        generator=generator,
        values=shape.words() if shape is not None else None,
        versions={f"v{v}": share for v, share in shape.versions.items()} if shape else {},
        ulid_share=shape.ulid if shape is not None else None,
        ordering=ordering,
        ordering_words=classify.ordering_words(ordering),
        ordering_how=facts.sample_how,
        pg_stats_correlation=facts.correlation,
        range_used=classify.range_used(lead_type or "", facts.largest),
        total_bytes=facts.total_bytes,
        index_bytes=facts.index_bytes,
        index_over_shared_buffers=tier.over_shared_buffers if tier else None,
        index_over_memory=tier.over_memory if tier else None,
        tier=tier.words if tier else None,
        partitioned=facts.partition_strategy,
        partitions=facts.partitions,
        children=[
            {"table": c.name, "columns": list(c.columns), "total_bytes": c.total_bytes, "indexed": c.indexed}
            for c in facts.children
        ],
        inserts_per_s=rate,
        inserts_how=facts.inserts_since,
        fpi_share=facts.fpi_share,
        leaf_density=facts.leaf_density,
        cached_share=facts.cached_share,
        unknown=dict(facts.needs),
    )
    _place(found, strategy, tier, runs_dir)
    _judge(found, strategy, runs_dir)
    return found


def _placement(runs_dir: Path, condition: str, strategy: str) -> Placement:
    cell = committed_cell(runs_dir, condition, strategy)
    label = advice_rows.BY_KEY[condition].label
    alternative = None
    if strategy not in ("bigint", UUID_ALTERNATIVE):
        other = committed_cell(runs_dir, condition, UUID_ALTERNATIVE)
        alternative = cell_words(UUID_ALTERNATIVE, other) if other.measured else None
    return Placement(
        condition,
        label,
        strategy,
        cell_words(strategy, cell),
        cell.run,
        cell.ratio,
        cell.low,
        cell.high,
        cell.work.ratio if cell.work is not None else None,
        penalty(cell),
        cell.measured and cell.kind != "baseline",
        cell.precise,
        cell.resolved,
        alternative,
    )


def _place(found: Entry, strategy: str | None, tier: classify.Tier | None, runs_dir: Path | None) -> None:
    if strategy is None or tier is None or tier.condition is None or runs_dir is None:
        return
    found.placements.append(_placement(runs_dir, tier.condition, strategy))
    layout = LAYOUT_CONDITIONS.get(found.partitioned or "")
    if layout is not None:
        found.placements.append(_placement(runs_dir, layout, strategy))


def _judge(found: Entry, strategy: str | None, runs_dir: Path | None) -> None:
    """The table's status (costs, fine, not placed), its one-line summary, its findings and its saving."""
    if found.range_used is not None and found.range_used >= classify.RANGE_FLAG:
        found.findings.append(
            f"{found.key_types[0]} key at {found.range_used:.0%} of its type's range: plan the move to bigint"
        )
    if found.leading_kind in classify.RANDOM_KINDS:
        found.findings.append("random key: every insert lands anywhere in the index")
    unindexed = [c["table"] for c in found.children if not c["indexed"]]
    if unindexed:
        found.findings.append(f"foreign keys without an index leading with them: {', '.join(unindexed)}")
    where = _where(found)
    if "key" in found.unknown:
        found.status = "not placed"
        found.summary = f"its key was not read ({found.unknown['key']})"
        return
    if found.kind == "no-key":
        found.status = "not placed"
        found.summary = f"{found.kind_words}: no which-key condition measures it"
        return
    if strategy is None:
        found.status = "not placed"
        found.summary = f"{found.kind_words}{where}: no committed run measured this kind of key"
        return
    if runs_dir is None:
        found.status = "not placed"
        found.summary = f"{found.kind_words}{where}: the committed runs are not here (give --runs DIR)"
        return
    if not found.placements:
        found.status = "not placed"
        found.summary = f"{found.kind_words}: its key index's size is not known"
        return
    first = found.placements[0]
    found.summary = f"{found.kind_words}{where}: in that condition {first.words}"
    if first.penalty > 0:
        found.status = "costs"
        found.saving = found.inserts_per_s * first.penalty if found.inserts_per_s is not None else None
    elif found.range_used is not None and found.range_used >= classify.RANGE_FLAG:
        found.status = "flagged"
    elif first.measured and not first.precise and not first.resolved:
        found.status = "not resolved"
    else:
        found.status = "fine"


def _where(found: Entry) -> str:
    made = (
        ", made by the application"
        if found.generator == classify.MADE_BY_APPLICATION
        else f" from {found.generator}"
        if found.generator
        else ""
    )
    if found.index_bytes is None:
        return made
    over = found.index_over_shared_buffers
    shown = f", {over:.1f}{TIMES} shared buffers" if over is not None and over > 1 else ""
    return f"{made}, {found.key_source} index {binary_size(found.index_bytes)}{shown}, {found.tier}"


def ranked(entries: list[Entry]) -> list[Entry]:
    """Tables that cost first, by what switching would save (insert rate x the cell's penalty; a table
    whose insert rate is not known after those whose is), then flagged, fine and not placed."""
    order = {"costs": 0, "flagged": 1, "not resolved": 2, "fine": 3, "not placed": 4}

    def key(e: Entry) -> tuple[int, int, float, float, str]:
        first = e.placements[0].penalty if e.placements else 0.0
        return (order[e.status], e.saving is None, -(e.saving or 0.0), -first, e.table)

    return sorted(entries, key=key)
