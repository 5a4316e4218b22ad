"""What a DBA checks beside a key's kind, from what the survey read (pure functions, facts in, checks out):
integer foreign keys that reference a bigint key, the time an integer key has left at its insert rate, a
sequence whose own limit is below its column's, sequences shared or not owned by their column, duplicate and
invalid indexes on the key, a bloated key index, children's foreign-key indexes that take a random key's
inserts too, a default the application never calls, a table mid-way between two kinds of UUID, an integer
key filled at random.

Each check has an urgency from 0 to 1 for ranking: the share of a range used, or how soon it runs out; a
fixed small weight for what costs but does not break.
"""

from __future__ import annotations

from collections.abc import Sequence

from pkbench.survey import classify
from pkbench.survey.facts import Check, TableFacts
from pkbench.text import binary_size

# A key index whose leaves are on average less full than this is bloated (a B-tree's leaves fill to about
# 90% with rising keys and settle near 70% with random ones).
BLOATED_LEAVES = 0.5
# A smaller index (a few pages, its leaves half full by their nature) is not worth a REINDEX.
BLOAT_LEAST_BYTES = 256 * 1024
# Days left under which an integer key running out is urgent (urgency 1), and the scale it falls off over.
URGENT_DAYS = 30.0
# Random-looking: an integer key's rank correlation with heap position at most this (classify's "random").
RANDOM_ORDERING = 0.2
# The fewest sampled values the ordering or a default's mismatch is judged from.
FEWEST_SAMPLED = 30
SECONDS_A_DAY = 86_400.0
# Urgencies of what costs but breaks nothing; an integer key filled at random is as urgent as one at
# half its range (both flagged): nothing else in the survey would say it.
RANDOM_INTEGER = classify.RANGE_FLAG
COSTS = 0.3
TIDY = 0.1


def attach(tables: Sequence[TableFacts]) -> None:
    """Every check of every table, onto its facts (after the insert rate is known)."""
    for facts in tables:
        facts.days_left = days_left(facts)
        facts.checks = table_checks(facts)


def days_left(facts: TableFacts) -> float | None:
    """The days before an integer key reaches its type's (or its sequence's) limit at the current insert
    rate; None where the rate or the key's largest value is not known, or no rows arrive."""
    limit = _limit(facts)
    if limit is None or facts.largest is None or not facts.inserts or not facts.inserts_over_s:
        return None
    rate = facts.inserts / facts.inserts_over_s
    step = max((abs(s.increment) for s in facts.sequences), default=1)
    if rate <= 0:
        return None
    return max(0, limit - facts.largest) / (rate * step) / SECONDS_A_DAY


def _limit(facts: TableFacts) -> int | None:
    if not facts.key_types or facts.key_types[0] not in classify.INTEGER_RANGE:
        return None
    limits = [classify.INTEGER_RANGE[facts.key_types[0]]] + [
        s.max_value for s in facts.sequences if not s.cycle
    ]
    return min(limits)


def table_checks(facts: TableFacts) -> list[Check]:
    found = (
        _foreign_key_types(facts)
        + _runs_out(facts)
        + _sequences(facts)
        + _key_indexes(facts)
        + _bloat(facts)
        + _children_indexes(facts)
        + _values(facts)
    )
    return sorted(found, key=lambda c: -c.urgency)


def _foreign_key_types(facts: TableFacts) -> list[Check]:
    """A child's integer column referencing a bigint key: its inserts fail once the key passes the column's
    range, however far the key's own type goes."""
    found = []
    for child in facts.children:
        for column, own, referenced in zip(
            child.columns, child.column_types, child.referenced_types, strict=False
        ):
            if referenced == "bigint" and own in ("integer", "smallint"):
                most = classify.INTEGER_RANGE[own]
                used = (facts.largest or 0) / most
                found.append(
                    Check(
                        "int4-fk-to-bigint",
                        f"{child.name} ({column}) is {own} referencing this bigint key: its inserts fail "
                        "once the "
                        f"key passes {most:,} ({used:.0%} of the way now)",
                        min(1.0, max(used, TIDY)),
                    )
                )
    return found


def _runs_out(facts: TableFacts) -> list[Check]:
    days = facts.days_left
    if days is None:
        return []
    limit = _limit(facts)
    return [
        Check(
            "runs-out",
            f"the key reaches its limit ({limit:,}) in about {_duration(days)} at the current insert rate "
            f"({facts.inserts_since})",
            min(1.0, URGENT_DAYS / max(days, URGENT_DAYS / 1000)),
        )
    ]


def _duration(days: float) -> str:
    if days >= 730:
        return f"{days / 365:,.0f} years"
    if days >= 2:
        return f"{days:,.0f} days"
    return f"{days * 24:,.1f} hours"


def _sequences(facts: TableFacts) -> list[Check]:
    found = []
    column_most = classify.INTEGER_RANGE.get(facts.key_types[0]) if facts.key_types else None
    for sequence in facts.sequences:
        if column_most is not None and sequence.max_value < column_most and not sequence.cycle:
            used = (sequence.last_value or facts.largest or 0) / sequence.max_value
            found.append(
                Check(
                    "sequence-max-below-type",
                    f"sequence {sequence.name} stops at {sequence.max_value:,} ({sequence.type}), below the "
                    f"{facts.key_types[0]} column's range: nextval fails there ({used:.0%} used); "
                    f"ALTER SEQUENCE {sequence.name} AS {facts.key_types[0]}",
                    min(1.0, max(used, TIDY)),
                )
            )
        if sequence.users > 1:
            found.append(
                Check(
                    "sequence-shared",
                    f"sequence {sequence.name} feeds {sequence.users} columns' defaults: they draw on one "
                    "range, "
                    "which runs out for all of them at once",
                    TIDY,
                )
            )
        if not sequence.owned_by_key:
            owner = f"owned by {sequence.owner}" if sequence.owner else "owned by no column"
            found.append(
                Check(
                    "sequence-not-owned",
                    f"sequence {sequence.name} is {owner}: dropping or renaming this table leaves it behind "
                    f"(ALTER SEQUENCE ... OWNED BY {facts.qualified}.{facts.key_columns[0]})",
                    TIDY,
                )
            )
    return found


def _key_indexes(facts: TableFacts) -> list[Check]:
    """Another index on exactly the key's columns (every insert writes both; a random key pays twice), and
    an invalid index on them (a CREATE INDEX CONCURRENTLY that failed: written to, never used)."""
    found = []
    for index in facts.key_indexes:
        if index.name == facts.key_index:
            continue
        if not index.valid:
            found.append(
                Check(
                    "invalid-key-index",
                    f"index {index.name} on ({', '.join(index.columns)}) is invalid (a CREATE INDEX "
                    "CONCURRENTLY "
                    f"that failed?): inserts still maintain it, queries never use it; drop it or REINDEX",
                    COSTS,
                )
            )
        elif index.columns == facts.key_columns and not index.predicate:
            found.append(
                Check(
                    "duplicate-key-index",
                    f"index {index.name} ({binary_size(index.bytes)}) repeats the key index's columns "
                    f"({', '.join(index.columns)}): every insert writes both; drop one",
                    COSTS,
                )
            )
    return found


def _bloat(facts: TableFacts) -> list[Check]:
    if facts.leaf_density is None or facts.leaf_density >= BLOATED_LEAVES:
        return []
    if facts.index_bytes is None or facts.index_bytes < BLOAT_LEAST_BYTES:
        return []
    spare = facts.index_bytes * (1 - facts.leaf_density / 0.9)
    return [
        Check(
            "key-index-bloat",
            f"key index leaves {facts.leaf_density:.0%} full: REINDEX CONCURRENTLY would free about "
            f"{binary_size(int(spare))}",
            COSTS,
        )
    ]


def _children_indexes(facts: TableFacts) -> list[Check]:
    """A random key's children index it too: each such index takes inserts anywhere, as the key's does."""
    kind = classify.key_kind(facts.key_types, facts.default, facts.identity, facts.sample).leading
    if kind not in classify.RANDOM_KINDS:
        return []
    return [
        Check(
            "child-random-fk-index",
            f"{child.name}'s index on ({', '.join(child.columns)}, {binary_size(child.index_bytes)}) "
            "takes this "
            "key's random values too: its inserts land anywhere in it",
            COSTS,
        )
        for child in facts.children
        if child.index_bytes is not None
    ]


def _values(facts: TableFacts) -> list[Check]:
    """What the sample says against the catalog: a default the application does not call, a table between
    two kinds of UUID, an integer key filled at random."""
    if facts.sample is None:
        return []
    lead_type = facts.key_types[0] if facts.key_types else None
    key = classify.key_kind(facts.key_types, facts.default, facts.identity, facts.sample, facts.sample_newest)
    shape = key.values
    if shape is None or shape.count < FEWEST_SAMPLED:
        return []
    found = []
    made = facts.default_kind
    if (
        made is not None
        and made not in classify.OPAQUE_GENERATORS
        and key.leading not in (made, f"{made}-text", "uuid-mixed")
    ):
        share = _share_of(shape, made)
        said = "never used" if share == 0 else f"made {share:.0%} of them"
        found.append(Check("default-unused", f"default {key.generator} {said}: {shape.words()}", COSTS))
    if key.leading == "uuid-mixed":
        newest = classify.shape(facts.sample_newest or [], lead_type in classify.TEXT_TYPES)
        found.append(
            Check(
                "mid-migration",
                f"UUIDs of several versions ({shape.words()}); the newest pages: {newest.words()}",
                COSTS,
            )
        )
    ordering = classify.rank_correlation(classify.ordered_keys(lead_type, facts.sample))
    fed = bool(facts.sequences) or bool(facts.identity)
    if (
        lead_type in classify.INTEGER_RANGE
        and not fed
        and ordering is not None
        and ordering <= RANDOM_ORDERING
    ):
        found.append(
            Check(
                "random-integer-key",
                f"{lead_type} key filled at random by the application (ordering {ordering:.2f} in the "
                "sample): "
                "its inserts land anywhere in the index, as a random UUID's do",
                RANDOM_INTEGER,
            )
        )
    return found


def _share_of(shape: classify.Shape, kind: str) -> float:
    if kind.startswith("ulid"):
        return shape.ulid
    version = {"uuid-v4": 4, "uuid-v7": 7, "uuid-v1": 1, "uuid-v6": 6}.get(kind.removesuffix("-text"))
    return shape.versions.get(version, 0.0) if version is not None else 0.0
