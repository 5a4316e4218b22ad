"""Each surveyed table placed in a condition of the committed which-key table and given what the table's rule
says of its key there, in words, with the run it comes from; and the tables ranked by what switching would
save.

The committed table is read through one function, `committed_answer`, over evidence.advice's: how a cell is
read from a run and what the rule makes of it live there, not here. A table's condition is its key index's
memory tier (what a random key's inserts pay for); a partitioned table's layout row is given beside it.
"""

from __future__ import annotations

import functools
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from pkbench.evidence import advice, advice_rows, decision
from pkbench.evidence.cell import BASELINE, TIMES, TOO_WIDE, Speed, WorkSays, reach
from pkbench.survey import classify, names
from pkbench.survey.facts import ServerFacts, TableFacts
from pkbench.text import binary_size


def _committed_runs() -> Path:
    """The committed runs: those the build copies into an installed package (setup.py), else a clone's
    pkbench/docs/reproductions beside this package's source (an editable install, the source tree)."""
    here = Path(__file__).resolve()
    shipped = here.parents[1] / "reproductions"
    return shipped if shipped.is_dir() else here.parents[3] / "docs" / "reproductions"


RUNS_DIR = _committed_runs()
LAYOUT_CONDITIONS = {"range": "range-partitioned", "hash": "hash-partitioned"}
# A uuid key compared, besides bigint, with the UUID that keeps it a UUID.
UUID_ALTERNATIVE = "uuid-v7"
# A table's status, in the order survey/ranking.py lists them: a key running out (or as urgent a check)
# before a key that costs, one an outage, the other a bill.
STATUSES = ("flagged", "costs", "unknown", "not resolved", "fine", "not placed")
# What a table's inserts are counted by for its rank, best first (survey/ranking.py).
BASES = ("rate watched", "rows inserted", "insert rate", "key index size", "nothing known")


@functools.cache
def committed_answer(runs_dir: Path, condition: str, strategy: str) -> decision.Answer | None:
    """What the committed which-key table under RUNS_DIR says of STRATEGY against bigint under CONDITION;
    None for bigint itself and a key no committed run measured there."""
    return advice.committed_answer(condition, strategy, runs_dir)


def _heading(strategy: str) -> str:
    return next((c.heading for c in advice_rows.COLUMNS if c.strategy == strategy), strategy)


def answer_words(strategy: str, answer: decision.Answer | None) -> str:
    """An answer in a sentence: how STRATEGY compares with bigint there, and the run it comes from."""
    name = _heading(strategy)
    if strategy == BASELINE:
        return "bigint is the baseline every cell is measured against"
    if answer is None:
        return f"no committed run measured {name} here"
    return f"{name} against bigint: {answer.decided()} [{answer.cell.run}]"


def quotable(ratio: float | None, low: float | None, high: float | None) -> bool:
    """Whether an interval is one the documents quote: one that does not reach past its own estimate
    (evidence.cell.TOO_WIDE). A figure whose interval is said in words instead decides nothing here."""
    width = reach(ratio, low, high)
    return width is not None and width < TOO_WIDE


def speed(answer: decision.Answer) -> Speed:
    """The rule's reading of the rate, unresolved where its interval is not one to quote."""
    cell = answer.cell
    return answer.speed if quotable(cell.ratio, cell.low, cell.high) else "unresolved"


def work(answer: decision.Answer) -> WorkSays:
    """The rule's reading of the WAL, unresolved where its interval is not one to quote."""
    found = answer.cell.work
    if answer.work in ("heavier", "lighter") and (
        found is None or not quotable(found.ratio, found.low, found.high)
    ):
        return "unresolved"
    return answer.work


def penalty(answer: decision.Answer | None) -> float:
    """The extra time an insert takes against bigint's where the rule finds the key slower (1/ratio - 1),
    else 0."""
    if answer is None or speed(answer) != "slower" or not answer.cell.ratio:
        return 0.0
    return 1 / answer.cell.ratio - 1


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
    # The rule's reading (evidence.decision): the rate faster, slower, level or unresolved; the WAL heavier,
    # lighter, similar, unresolved or not measured; whether the key costs here (slower or heavier). A figure
    # whose interval is too wide to quote reads as unresolved and decides nothing.
    speed: str | None = None
    work: str | None = None
    costs: bool = False
    alternative: str | None = None


@dataclass
class Entry:
    """One table as the survey reports it: what its key is, where it sits, what the committed table says."""

    table: str
    # The table's name to paste into SQL (quoted where it must be).
    identifier: str
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
    # Why the table's answer is not known (a lock held elsewhere, row-level security, a privilege, ...).
    cause: str | None = None
    unlogged: bool = False
    row_security: bool = False
    # Rows inserted since the statistics began, and those into its children's foreign-key indexes.
    inserted_total: int | None = None
    children_inserted: int | None = None
    days_left: float | None = None
    # The DBA's checks (survey/checks.py): kind, words, urgency (0 to 1), most urgent first.
    checks: list[dict[str, Any]] = field(default_factory=list)
    placements: list[Placement] = field(default_factory=list)
    status: str = "fine"
    summary: str = ""
    findings: list[str] = field(default_factory=list)
    saving: float | None = None
    # What the table was ranked by among those of its status, in words (survey/ranking.py).
    rank_by: str = ""
    rank_basis: str = ""
    # The key as the committed runs and the model name it, and the model's answer for this table
    # (survey/modelled.py).
    strategy: str | None = None
    model: dict[str, Any] | None = None

    def as_json(self) -> dict[str, Any]:
        return asdict(self)


def entry(facts: TableFacts, server: ServerFacts, memory: int | None, runs_dir: Path | None) -> Entry:
    """FACTS classified, placed and put in words."""
    lead_type = facts.key_types[0] if facts.key_types else None
    key = classify.key_kind(facts.key_types, facts.default, facts.identity, facts.sample)
    shape, generator, kind, leading = key.values, key.generator, key.kind, key.leading
    kind_words, strategy = key.words, key.strategy
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
    children_inserted = [
        c.inserted_total for c in facts.children if c.indexed and c.inserted_total is not None
    ]
    found = Entry(
        table=facts.qualified,
        identifier=names.qualified(facts.schema, facts.name),
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
            {
                "table": c.name,
                "columns": list(c.columns),
                "total_bytes": c.total_bytes,
                "indexed": c.indexed,
                "inserted_total": c.inserted_total,
            }
            for c in facts.children
        ],
        inserts_per_s=rate,
        inserts_how=facts.inserts_since,
        fpi_share=facts.fpi_share,
        leaf_density=facts.leaf_density,
        cached_share=facts.cached_share,
        unknown=dict(facts.needs),
        cause=facts.cause,
        unlogged=facts.persistence == "u",
        row_security=facts.row_security,
        inserted_total=facts.inserted_total,
        children_inserted=sum(children_inserted) if children_inserted else None,
        days_left=facts.days_left,
        checks=[{"kind": c.kind, "words": c.words, "urgency": c.urgency} for c in facts.checks],
    )
    found.strategy = strategy
    _place(found, strategy, tier, runs_dir)
    _judge(found, strategy, runs_dir)
    return found


def _placement(runs_dir: Path, condition: str, strategy: str) -> Placement:
    found = committed_answer(runs_dir, condition, strategy)
    cell = found.cell if found is not None else None
    label = advice_rows.BY_KEY[condition].label
    alternative = None
    if strategy not in (BASELINE, UUID_ALTERNATIVE):
        other = committed_answer(runs_dir, condition, UUID_ALTERNATIVE)
        alternative = answer_words(UUID_ALTERNATIVE, other) if other is not None else None
    return Placement(
        condition,
        label,
        strategy,
        answer_words(strategy, found),
        cell.run if cell is not None else None,
        cell.ratio if cell is not None else None,
        cell.low if cell is not None else None,
        cell.high if cell is not None else None,
        cell.work.ratio if cell is not None and cell.work is not None else None,
        penalty(found),
        speed(found) if found is not None else None,
        work(found) if found is not None else None,
        found is not None and (speed(found) == "slower" or work(found) == "heavier"),
        alternative,
    )


def _place(found: Entry, strategy: str | None, tier: classify.Tier | None, runs_dir: Path | None) -> None:
    if strategy is None or tier is None or tier.condition is None or runs_dir is None:
        return
    found.placements.append(_placement(runs_dir, tier.condition, strategy))
    layout = LAYOUT_CONDITIONS.get(found.partitioned or "")
    if layout is not None:
        found.placements.append(_placement(runs_dir, layout, strategy))


def _findings(found: Entry) -> None:
    if found.range_used is not None and found.range_used >= classify.RANGE_FLAG:
        found.findings.append(
            f"{found.key_types[0]} key at {found.range_used:.0%} of its type's range: plan the move to bigint"
        )
    found.findings += [c["words"] for c in found.checks]
    if found.leading_kind in classify.RANDOM_KINDS:
        found.findings.append("random key: every insert lands anywhere in the index")
    unindexed = [c["table"] for c in found.children if not c["indexed"]]
    if unindexed:
        found.findings.append(f"foreign keys without an index leading with them: {', '.join(unindexed)}")


def flagged(found: Entry) -> bool:
    """An integer key past classify.RANGE_FLAG of its range, or a check as urgent as that."""
    urgency = max([found.range_used or 0.0, *(float(c["urgency"]) for c in found.checks)])
    return urgency >= classify.RANGE_FLAG


def _judge(found: Entry, strategy: str | None, runs_dir: Path | None) -> None:
    """The table's status (STATUSES), its one-line summary, its findings and its saving. A
    table whose answer is not known says why and is "unknown", never "fine" or "not placed"; one that asks
    for action now (flagged) is flagged whatever else is known of it."""
    _findings(found)
    where = _where(found)
    if found.cause is None and "key" in found.unknown:
        found.cause = f"its key was not read ({found.unknown['key']})"
    if found.cause is not None:
        found.status = "flagged" if flagged(found) else "unknown"
        found.summary = f"{found.kind_words}{where}: not known: {found.cause}"
        return
    if found.kind == "no-key":
        found.status = "not placed"
        found.summary = f"{found.kind_words}: no which-key condition measures it"
    elif strategy is None:
        found.status = "not placed"
        found.summary = f"{found.kind_words}{where}: no committed run measured this kind of key"
    elif runs_dir is None:
        found.status = "not placed"
        found.summary = f"{found.kind_words}{where}: the committed runs are not here (give --runs DIR)"
    elif not found.placements:
        found.status = "not placed"
        found.summary = f"{found.kind_words}: its key index's size is not known"
    else:
        first = found.placements[0]
        found.summary = f"{found.kind_words}{where}: in that condition {first.words}"
        found.status = (
            "costs"
            if first.costs
            else "not resolved"
            if "unresolved" in (first.speed, first.work)
            else "fine"
        )
        if first.costs and first.penalty > 0 and found.inserts_per_s is not None:
            found.saving = found.inserts_per_s * first.penalty
    if flagged(found):
        found.status = "flagged"


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
