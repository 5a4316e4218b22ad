"""Each table's own reads, in short READ ONLY transactions of its own (a partitioned table's a few partitions
to a transaction): its size, a sample of its keys across the whole heap, an integer key's largest value, its
key index's leaf density. A lock another session holds is waited for lock_timeout, then the table is left,
its cause naming the session; a table dropped since the catalog was read is left, saying so."""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

import psycopg
from psycopg import sql

from pkbench.errors import PkbenchError
from pkbench.survey import classify
from pkbench.survey.facts import (
    LEAF_DENSITY_MOST_BYTES,
    LEAVES_PER_TRANSACTION,
    PAGE,
    Leaf,
    Options,
    Reader,
    TableFacts,
    failure,
)

# A sample reads its blocks in this many spans spread over each partition's heap, the last one ending at
# its last block (where the newest rows are appended) and left open, so pages added since the size was
# read are read too.
SPANS = 8
# Rows a page holds where the statistics do not say (never analyzed): a guess that keeps the sample small.
ROWS_PER_PAGE_GUESS = 100
DROPPED = "the table was dropped or renamed while the survey ran"


@dataclass
class _Reading:
    """What a table's transactions have read so far."""

    pages: dict[int, int] = field(default_factory=dict)
    heap: int = 0
    total: int = 0
    index: int = 0
    groups: dict[int, list[tuple[tuple[int, int], str]]] = field(default_factory=dict)
    newest: dict[int, list[tuple[tuple[int, int], str]]] = field(default_factory=dict)
    largest: list[int] = field(default_factory=list)
    density_pages: int = 0
    density: float = 0.0
    sampled: bool = False


def read(reader: Reader, facts: TableFacts, options: Options, allowed: Mapping[str, str | None]) -> None:
    """FACTS's own figures, a few partitions to a transaction; its cause where they cannot be read."""
    if not facts.schema_usable:
        facts.needs["values"] = facts.needs["size"] = f"USAGE on schema {facts.schema}"
        facts.cause = f"its rows were not read (needs USAGE on schema {facts.schema})"
        return
    reading = _Reading()
    chunks = [
        facts.leaves[i : i + LEAVES_PER_TRANSACTION]
        for i in range(0, len(facts.leaves), LEAVES_PER_TRANSACTION)
    ]
    plan = _Plan(facts, options, allowed)
    for number, chunk in enumerate(chunks):
        stages = plan.stages(reader, chunk, reading, first=number == 0)
        if not _run(reader, facts, f"table {facts.qualified}", stages, chunk):
            return
    _settle(facts, reading, plan)


def _run(
    reader: Reader,
    facts: TableFacts,
    what: str,
    stages: list[tuple[str, Callable[[], None]]],
    chunk: Sequence[Leaf],
) -> bool:
    """STAGES in one transaction; a stage that fails for its own reason (a timeout, a privilege) leaves its
    figure unknown and the rest go on in a fresh transaction. False where the table is left."""
    pending = list(stages)
    while pending:
        try:
            with reader.transaction(what):
                while pending:
                    pending[0][1]()
                    pending.pop(0)
        except psycopg.errors.LockNotAvailable:
            facts.cause = facts.blocked = _holder(reader, chunk)
            return False
        except psycopg.errors.UndefinedTable:
            facts.cause = DROPPED
            return False
        except psycopg.Error as e:
            if reader.conn.closed:
                raise PkbenchError(f"the connection was lost while reading {facts.qualified}: {e}") from e
            figure, _ = pending.pop(0)
            facts.needs[figure] = failure(e)
        except _Dropped:
            facts.cause = DROPPED
            return False
    return True


class _Dropped(Exception):
    pass


def _holder(reader: Reader, chunk: Sequence[Leaf]) -> str:
    """Who holds the lock that was waited for: the other sessions' locks on CHUNK's tables that a read
    conflicts with (granted, or queued ahead of it)."""
    with reader.transaction("lock holder"):
        rows = reader.all(
            "SELECT DISTINCT pid, mode FROM pg_locks WHERE relation = ANY(%s::oid[]) "
            "AND pid <> pg_backend_pid() "
            "AND mode = 'AccessExclusiveLock' ORDER BY pid",
            [leaf.oid for leaf in chunk],
        )
    if not rows:
        return "a lock held by another session (released before it could be named)"
    named = ", ".join(f"pid {pid}, {mode}" for pid, mode in rows)
    return f"a lock held by another session ({named})"


class _Plan:
    """Which of a table's reads are made, and how."""

    def __init__(self, facts: TableFacts, options: Options, allowed: Mapping[str, str | None]) -> None:
        self.facts = facts
        self.options = options
        lead_type = facts.key_types[0] if facts.key_types else None
        self.integer = lead_type in classify.INTEGER_RANGE
        self.density = allowed.get("leaf density") if facts.index_oid is not None else "no key index"
        if self.density is None and (facts.index_bytes or 0) > LEAF_DENSITY_MOST_BYTES:
            self.density = "an index of at most 1 GiB (pgstatindex reads every page)"
        self.pgstattuple = allowed.get("pgstattuple schema")

    def stages(
        self, reader: Reader, chunk: Sequence[Leaf], reading: _Reading, first: bool
    ) -> list[tuple[str, Callable[[], None]]]:
        facts = self.facts
        found: list[tuple[str, Callable[[], None]]] = [
            ("size", lambda: _sizes(reader, facts, chunk, reading))
        ]
        readable = [leaf for leaf in chunk if leaf.readable]
        if facts.key_columns and readable:
            found.append(
                ("values", lambda: _sample(reader, facts, readable, reading, self.options.sample_rows))
            )
        usable = [] if facts.row_security else readable
        sequences = first and any(s.readable for s in facts.sequences)
        if self.integer and (usable or sequences):
            found.append(("range used", lambda: _largest(reader, facts, usable, reading, first)))
        if self.options.extension_figures and self.density is None and self.pgstattuple:
            schema = self.pgstattuple
            found.append(("leaf density", lambda: _leaf_density(reader, facts, chunk, reading, schema)))
        return found


def _sizes(reader: Reader, facts: TableFacts, chunk: Sequence[Leaf], reading: _Reading) -> None:
    """Each leaf's heap and total bytes and its key index's bytes (each relation opened in turn and let go,
    so a lock held on it is waited for here, first)."""
    rows = reader.all(
        "SELECT r.oid, pg_relation_size(r.oid), pg_total_relation_size(r.oid), "
        "(SELECT sum(pg_relation_size(x.indexrelid)) FROM pg_index x "
        "  WHERE x.indrelid = r.oid AND x.indexrelid = ANY(%s::oid[])) "
        "FROM unnest(%s::oid[]) r(oid)",
        list(facts.key_index_leaves),
        [leaf.oid for leaf in chunk],
    )
    for oid, heap, total, index in rows:
        if heap is None:
            raise _Dropped
        reading.pages[oid] = int(heap) // PAGE
        reading.heap += int(heap)
        reading.total += int(total)
        reading.index += int(index or 0)


def _spans(pages: int, blocks: int) -> list[tuple[int, int | None]]:
    """Block ranges [start, end) of BLOCKS blocks in all spread over a heap of PAGES, the last ending open
    (None) at the heap's end; the whole heap where BLOCKS covers it."""
    if blocks >= pages:
        return [(0, None)]
    count = min(SPANS, max(blocks, 1))
    lengths = [blocks // count + (1 if i < blocks % count else 0) for i in range(count)]
    found: list[tuple[int, int | None]] = []
    for i, length in enumerate(lengths[:-1]):
        start = (pages - length) * i // max(count - 1, 1)
        found.append((start, start + length))
    found.append((pages - lengths[-1], None))
    return found


def _leaf_rows(leaf: Leaf, pages: int) -> float:
    per_page = leaf.tuples / leaf.pages if leaf.tuples is not None and leaf.pages else ROWS_PER_PAGE_GUESS
    return pages * max(per_page, 1.0)


def _sample(reader: Reader, facts: TableFacts, leaves: Sequence[Leaf], reading: _Reading, bound: int) -> None:
    """Key values from block ranges spread over each leaf's whole heap, its last blocks included: as many
    blocks as hold about BOUND rows over the whole table, each leaf's share by its size."""
    column = sql.Identifier(facts.key_columns[0])
    estimated = sum(_leaf_rows(leaf, reading.pages.get(leaf.oid, leaf.pages)) for leaf in facts.leaves)
    share = min(1.0, bound / estimated) if estimated else 1.0
    parts = []
    for number, leaf in enumerate(leaves):
        pages = reading.pages.get(leaf.oid, leaf.pages)
        per_page = _leaf_rows(leaf, pages) / pages if pages else 1.0
        blocks = math.ceil(pages * share) if share < 1 else pages
        blocks = max(blocks, min(pages, math.ceil(1 / per_page)))
        spans = _spans(pages, blocks)
        for span, (start, end) in enumerate(spans):
            last = span == len(spans) - 1
            where = [sql.SQL("{} IS NOT NULL").format(column)]
            if start:
                where.append(sql.SQL("ctid >= {}::tid").format(sql.Literal(f"({start},0)")))
            if end is not None:
                where.append(sql.SQL("ctid < {}::tid").format(sql.Literal(f"({end},0)")))
            parts.append(
                sql.SQL("SELECT {}::int, {}, ctid, {}::text FROM ONLY {} WHERE {}").format(
                    sql.Literal(number),
                    sql.Literal(last),
                    column,
                    sql.Identifier(leaf.schema, leaf.name),
                    sql.SQL(" AND ").join(where),
                )
            )
    if not parts:
        return
    for number, last, ctid, value in reader.all(sql.SQL(" UNION ALL ").join(parts)):
        block, offset = str(ctid).strip("()").split(",")
        position = ((int(block), int(offset)), value)
        oid = leaves[number].oid
        reading.groups.setdefault(oid, []).append(position)
        if last:
            reading.newest.setdefault(oid, []).append(position)
    reading.sampled = True
    facts.sample_how = (
        f"{'every row' if share >= 1 else f'about {share:.2%} of the blocks'}, in up to {SPANS} block ranges "
        "spread over each partition's heap, its last blocks included: the keys' rank correlation with their "
        "heap position (insertion order where rows are appended)"
    )


def _largest(
    reader: Reader, facts: TableFacts, leaves: Sequence[Leaf], reading: _Reading, first: bool
) -> None:
    """An integer key's largest value (each leaf's index's last entry), and its sequences' last values."""
    column = sql.Identifier(facts.key_columns[0])
    maxima = [
        sql.SQL("(SELECT max({}) FROM ONLY {})").format(column, sql.Identifier(leaf.schema, leaf.name))
        for leaf in leaves
    ]
    sequences = [s.oid for s in facts.sequences if s.readable] if first else []
    query = sql.SQL(
        "SELECT greatest(NULL::numeric, {}), ARRAY(SELECT pg_sequence_last_value(s) FROM unnest({}::oid[]) s)"
    ).format(sql.SQL(", ").join(maxima) if maxima else sql.SQL("NULL"), sql.Literal(sequences))
    (most, last_values) = reader.one(query)
    reading.largest += [int(most)] if most is not None else []
    reading.largest += [int(v) for v in last_values if v is not None]


def _leaf_density(
    reader: Reader, facts: TableFacts, chunk: Sequence[Leaf], reading: _Reading, schema: str
) -> None:
    rows = reader.all(
        sql.SQL(
            "SELECT s.leaf_pages, s.avg_leaf_density FROM pg_index x, "
            "LATERAL {}.pgstatindex(x.indexrelid::regclass) s "
            "WHERE x.indrelid = ANY(%s::oid[]) AND x.indexrelid = ANY(%s::oid[])"
        ).format(sql.Identifier(schema)),
        [leaf.oid for leaf in chunk],
        list(facts.key_index_leaves),
    )
    for pages, density in rows:
        if pages and density == density:  # NaN for an empty index
            reading.density_pages += pages
            reading.density += pages * density


def _settle(facts: TableFacts, reading: _Reading, plan: _Plan) -> None:
    """What the reads add up to, and why what they could not read is not known."""
    if "size" not in facts.needs:
        facts.heap_bytes, facts.total_bytes = reading.heap, reading.total
        if facts.index_oid is not None:
            facts.index_bytes = reading.index
    if reading.density_pages:
        facts.leaf_density = reading.density / reading.density_pages / 100
    elif plan.density is not None and facts.index_oid is not None:
        facts.needs["leaf density"] = plan.density
    if not facts.key_columns:
        return
    lead = facts.key_columns[0]
    unreadable = [leaf for leaf in facts.leaves if not leaf.readable]
    need = (
        f"SELECT on {facts.qualified} ({lead})"
        if not facts.key_readable or len(unreadable) == len(facts.leaves)
        else f"SELECT on its partitions ({', '.join(f'{u.schema}.{u.name}' for u in unreadable[:3])})"
        if unreadable
        else None
    )
    if reading.sampled:
        facts.sample = [[v for _, v in sorted(group)] for group in reading.groups.values()]
        facts.sample_newest = [v for group in reading.newest.values() for _, v in sorted(group)]
    elif need is not None and "values" not in facts.needs:
        facts.needs["values"] = need
    if need is not None:
        facts.needs.setdefault("pg_stats correlation", need)
    count = sum(len(g) for g in reading.groups.values())
    if facts.row_security and reading.sampled and count == 0 and (facts.rows or 0) > 0:
        facts.cause = f"row-level security hides the rows from this role (0 of ~{facts.rows:,.0f} rows seen)"
        facts.needs["values"] = facts.cause
    elif facts.row_security and reading.sampled:
        facts.sample_how += "; only the rows row-level security shows this role"
    _range(facts, reading, plan, need)
    if facts.cause is None and facts.sample is None and not plan.integer:
        why = facts.needs.get("values") or need
        if why:
            facts.cause = (
                f"its values were not read (needs {why}): its default is not proof of what makes its keys"
            )
    if facts.cause is None and facts.persistence == "u" and not plan.integer:
        facts.cause = (
            "an unlogged table writes no WAL: the committed cells, measured on logged tables, do not answer "
            "for it"
        )
    if facts.persistence == "u":
        facts.needs["full-page image share"] = "a logged table (an unlogged one writes no WAL)"


def _range(facts: TableFacts, reading: _Reading, plan: _Plan, need: str | None) -> None:
    """An integer key's largest value: its index's, its sequences', or pg_stats' largest histogram bound; the
    range used unknown with its cause where none could be read."""
    if not plan.integer:
        return
    found = list(reading.largest)
    if facts.stats_largest is not None:
        found.append(facts.stats_largest)
    if found:
        facts.largest = max(found)
        facts.needs.pop("range used", None)
        return
    why = (
        facts.needs.get("range used")
        or ("row-level security hides the rows from this role" if facts.row_security else need)
        or None
    )
    if why is None:
        return
    facts.needs["range used"] = f"{why}, or USAGE on its sequence"
    if facts.key_types[0] != "bigint" and facts.cause is None:
        facts.cause = (
            f"the range its {facts.key_types[0]} key has used was not read "
            f"(needs {facts.needs['range used']})"
        )
