"""What a table's key is, from what the catalog and a sample say about it: pure functions, facts in, words
out, so every rule here is tested without a server.

A key's kind is decided by its sampled values where a sample was read (an application often makes its own
keys over a default it never calls), by the generator its default names otherwise; the default's kind is
given beside it, and a mismatch is a finding. Generators whose values carry no version of their own
(sequential-uuids' prefixes, striped keys) are named by their default. The ordering figure is a rank
correlation between the sampled keys and their heap position,
which is insertion order for a table rows are appended to: 1 where the keys rise as rows arrive, 0 where
they land anywhere.
"""

from __future__ import annotations

import re
import statistics
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime

# The generators people know, by the function a column default calls (schema-qualified or not), and the
# kind of key each makes. uuid_generate_v7 is sequuid's and pg_uuidv7's alike.
GENERATORS: Mapping[str, tuple[str, str]] = {
    "gen_random_uuid": ("gen_random_uuid()", "uuid-v4"),
    "uuid_generate_v4": ("uuid-ossp's uuid_generate_v4()", "uuid-v4"),
    "uuidv4": ("uuidv4()", "uuid-v4"),
    "uuid_generate_v1": ("uuid-ossp's uuid_generate_v1()", "uuid-v1"),
    "uuid_generate_v1mc": ("uuid-ossp's uuid_generate_v1mc()", "uuid-v1"),
    "uuid_generate_v1_random_node": ("sequuid's uuid_generate_v1_random_node()", "uuid-v1"),
    "uuidv7": ("uuidv7()", "uuid-v7"),
    "uuid_generate_v7": ("uuid_generate_v7() (sequuid or pg_uuidv7)", "uuid-v7"),
    "uuid_generate_v6": ("sequuid's uuid_generate_v6()", "uuid-v6"),
    "uuid_generate_ulid": ("sequuid's uuid_generate_ulid()", "ulid-uuid"),
    "uuid_time_nextval": ("uuid_time_nextval() (sequential-uuids or sequuid)", "seq-time"),
    "uuid_sequence_nextval": ("uuid_sequence_nextval() (sequential-uuids or sequuid)", "seq-seq"),
    "uuid_generate_striped": ("sequuid's uuid_generate_striped()", "striped"),
}
MADE_BY_APPLICATION = "made by the application (no default)"

# Each kind in words, and the which-key table's column that measured it (None: no committed run did).
KINDS: Mapping[str, tuple[str, str | None]] = {
    "bigint": ("bigint", "bigint"),
    "integer": ("integer", "bigint"),
    "uuid-v4": ("random UUIDs (v4)", "uuid-v4"),
    "uuid-v4-text": ("random UUIDs (v4) stored as text", "uuid-v4-text"),
    "uuid-v7": ("time-ordered UUIDs (v7)", "uuid-v7"),
    "uuid-v7-text": ("time-ordered UUIDs (v7) stored as text", None),
    "uuid-v1": ("time-based UUIDs (v1), their clock's low bits first", None),
    "uuid-v6": ("time-ordered UUIDs (v6)", None),
    "uuid-v8": ("custom UUIDs (v8)", None),
    "uuid-text": ("UUIDs stored as text", None),
    "uuid-mixed": ("UUIDs of mixed versions", None),
    "uuid-unread": ("UUIDs whose values were not read", None),
    "seq-time": ("sequential UUIDs with a time prefix", "seq-time"),
    "seq-seq": ("sequential UUIDs with a sequence prefix", "seq-seq-256"),
    "striped": ("striped UUIDs", "uuid-striped"),
    "ulid-uuid": ("ULIDs in a uuid column", None),
    "ulid-text": ("ULIDs as 26-character text", None),
    "composite": ("a composite key", None),
    "no-key": ("no key", None),
    "other": ("another kind of key", None),
}
# Keys that land anywhere in the index: v4, and v1, whose text starts with its clock's lowest bits (they
# wrap every seven minutes).
RANDOM_KINDS = frozenset({"uuid-v4", "uuid-v4-text", "uuid-v1"})
# What --fail-on random-keys gates: the random kinds, and a table whose keys are of several versions (mid-way
# through a migration, or made by several applications) until the random ones are gone.
GATED_KINDS = RANDOM_KINDS | {"uuid-mixed"}
# Generators whose values look like another kind's (a version nibble that says nothing of their order): the
# default names them, not the values.
OPAQUE_GENERATORS = frozenset({"seq-time", "seq-seq", "striped"})


INTEGER_RANGE: Mapping[str, int] = {"smallint": 2**15 - 1, "integer": 2**31 - 1, "bigint": 2**63 - 1}
# An integer key past this share of its type's range is flagged (postgres-checkup's L003 warns at half).
RANGE_FLAG = 0.5
# A version is "the" version of a sample when at least this share of the values carry it.
MAJORITY = 0.9
TEXT_TYPES = frozenset({"text", "character varying", "character"})

_UUID = re.compile(r"^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$", re.IGNORECASE)
_ULID = re.compile(r"^[0-7][0-9A-HJKMNP-TV-Z]{25}$", re.IGNORECASE)
# A ULID's or v7's first 48 bits are Unix milliseconds: a value in these years is a timestamp, not chance.
_EARLIEST_MS = int(datetime(2010, 1, 1, tzinfo=UTC).timestamp() * 1000)
_LATEST_MS = int(datetime(2100, 1, 1, tzinfo=UTC).timestamp() * 1000)


def generator(default: str | None, identity: str) -> tuple[str, str | None]:
    """What makes a key column's values, in words, and the kind of key it makes (None: the values say)."""
    if identity:
        return ("identity (GENERATED ALWAYS)" if identity == "a" else "identity (GENERATED BY DEFAULT)", None)
    if not default:
        return MADE_BY_APPLICATION, None
    called = re.findall(r"([a-z_][a-z0-9_]*)\s*\(", default.lower())
    for name in called:
        if name in GENERATORS:
            return GENERATORS[name]
    if "nextval" in called:
        return "a sequence (serial, nextval)", None
    return f"the default {default}", None


@dataclass(frozen=True)
class Shape:
    """What a sample of a key's values is: how many were read, the share of each UUID version among those
    that parse as UUIDs (or as text holding one), of ULIDs, and whether they were stored as text."""

    count: int
    versions: Mapping[int, float]
    ulid: float
    text: bool

    def majority(self) -> int | None:
        return next((v for v, share in self.versions.items() if share >= MAJORITY), None)

    def words(self) -> str:
        if not self.count:
            return "no rows sampled"
        parts = [f"v{v} {share:.0%}" for v, share in sorted(self.versions.items()) if share]
        if self.ulid:
            parts.append(f"ULID {self.ulid:.0%}")
        stored = " stored as text" if self.text else ""
        return f"{self.count:,} sampled{stored}: {', '.join(parts) or 'none a UUID or ULID'}"


def uuid_version(value: str) -> int | None:
    """The version nibble of a UUID in its text form (with or without hyphens); None if it is not one."""
    if not _UUID.match(value):
        return None
    return int(value.replace("-", "")[12], 16)


def _rfc_variant(value: str) -> bool:
    return value.replace("-", "")[16].lower() in "89ab"


def _timestamp_prefix(value: str) -> bool:
    return _EARLIEST_MS <= int(value.replace("-", "")[:12], 16) <= _LATEST_MS


def shape(values: Sequence[str], text: bool) -> Shape:
    """The versions and ULIDs among VALUES (a key's values as text); TEXT: the column stores text."""
    versions: Counter[int] = Counter()
    ulids = stamped = stamped_v7 = 0
    for value in values:
        value = value.strip()
        if text and _ULID.match(value):
            ulids += 1
            continue
        version = uuid_version(value)
        if version is None:
            continue
        versions[version] += 1
        if not text and _timestamp_prefix(value):
            stamped += 1
            stamped_v7 += version == 7 and _rfc_variant(value)
    count = len(values)
    # A ULID in a uuid column has no version bits: its first 48 bits are a millisecond timestamp, as a v7's
    # are, and the rest is chance, or (a monotonic ULID) the same bits counted up within a millisecond, so
    # its "version" and "variant" may be one value throughout. Time-stamped values that are not v7 are
    # ULIDs; a random key's first bits fall in the plausible years about once in a hundred.
    if not text and count and stamped / count >= MAJORITY and stamped_v7 / count < MAJORITY:
        ulids, versions = stamped, Counter()
    shares = {v: versions[v] / count for v in sorted(versions)} if count else {}
    return Shape(count, shares, ulids / count if count else 0.0, text)


def kind(types: Sequence[str], made: str | None, sample: Shape | None) -> str:
    """The key's kind from its columns' TYPES, the kind its generator makes (MADE) and its SAMPLE."""
    if not types:
        return "no-key"
    if len(types) > 1:
        return "composite"
    type_name = types[0]
    if type_name in ("bigint", "integer", "smallint"):
        return "bigint" if type_name == "bigint" else "integer"
    text = type_name in TEXT_TYPES
    decided = sample is not None and sample.count > 0
    if made is not None and type_name == "uuid" and (made in OPAQUE_GENERATORS or not decided):
        return made
    if made in ("uuid-v4", "uuid-v7") and text and not decided:
        return f"{made}-text"
    if sample is None or not sample.count or not (type_name == "uuid" or text):
        return "uuid-unread" if type_name == "uuid" else "other"
    if sample.ulid >= MAJORITY:
        return "ulid-text" if text else "ulid-uuid"
    version = sample.majority()
    if text:
        if version in (4, 7):
            return f"uuid-v{version}-text"
        return "uuid-text" if sum(sample.versions.values()) >= MAJORITY else "other"
    return f"uuid-v{version}" if version in (1, 4, 6, 7, 8) else "uuid-mixed"


def rank_correlation(groups: Sequence[Sequence[str]] | Sequence[Sequence[int]]) -> float | None:
    """How far the keys rise with their heap position: Spearman's rank correlation of each group's keys (in
    heap order, one group per partition) with their position, averaged weighted by size; None under 3 keys."""
    total, weighted = 0, 0.0
    for keys in groups:
        n = len(keys)
        ranks = _ranks(keys)
        if n < 3 or len(set(ranks)) < 2:
            continue
        # Pearson's correlation of the ranks is Spearman's, ties included.
        weighted += n * statistics.correlation([float(i) for i in range(n)], ranks)
        total += n
    return weighted / total if total else None


def _ranks(keys: Sequence[str] | Sequence[int]) -> list[float]:
    """Each key's rank among KEYS, ties given their mean rank."""
    order = sorted(range(len(keys)), key=keys.__getitem__)
    ranks = [0.0] * len(keys)
    start = 0
    while start < len(order):
        end = start
        while end + 1 < len(order) and keys[order[end + 1]] == keys[order[start]]:
            end += 1
        for i in order[start : end + 1]:
            ranks[i] = (start + end) / 2
        start = end + 1
    return ranks


def ordering_words(figure: float | None) -> str:
    if figure is None:
        return "not known"
    if figure >= 0.9:
        return "sequential"
    if figure <= 0.2:
        return "random"
    return "partly ordered"


def ordered_keys(
    type_name: str | None, groups: Sequence[Sequence[str]]
) -> Sequence[Sequence[str]] | Sequence[Sequence[int]]:
    """Sampled keys as the index orders them: integers by value, the rest by their text (a uuid's text
    sorts as its bytes do)."""
    if type_name in INTEGER_RANGE:
        return [[int(v) for v in group] for group in groups]
    return groups


def range_used(type_name: str, largest: int | None) -> float | None:
    """The share of an integer type's positive range the largest key (or its sequence) has reached."""
    most = INTEGER_RANGE.get(type_name)
    if most is None or largest is None:
        return None
    return max(largest, 0) / most


@dataclass(frozen=True)
class Tier:
    """Where the key index sits against the server's memory: the which-key condition it places the table in
    (None where it cannot be placed), its words, and the index over shared_buffers and over memory."""

    condition: str | None
    words: str
    over_shared_buffers: float
    over_memory: float | None


def memory_tier(index_bytes: int, shared_buffers: int, memory: int | None) -> Tier:
    """The memory tier of an index of INDEX_BYTES. An insert with a random key reads and dirties an index
    page anywhere: what matters is whether the whole index stays in shared_buffers, in the page cache (the
    memory the server may use), or in neither."""
    over_sb = index_bytes / shared_buffers if shared_buffers else float("inf")
    over_memory = index_bytes / memory if memory else None
    if index_bytes <= shared_buffers:
        return Tier("shared-buffers", "within shared buffers", over_sb, over_memory)
    if over_memory is None:
        return Tier(
            "page-cache",
            "beyond shared buffers (the server's memory not known: within RAM assumed)",
            over_sb,
            None,
        )
    if over_memory <= 1:
        return Tier("page-cache", "beyond shared buffers, within RAM", over_sb, over_memory)
    return Tier("beyond-ram", "beyond RAM", over_sb, over_memory)


@dataclass(frozen=True)
class KeyKind:
    """What a table's key is, from its column types, its default and a sample of its values: its kind,
    the kind of its leading column (where its inserts land), that in words, the generator that makes it
    and what its values look like (None without a sample)."""

    kind: str
    leading: str
    words: str
    strategy: str | None
    generator: str | None
    values: Shape | None


def key_kind(
    key_types: Sequence[str],
    default: str | None,
    identity: str,
    sample: Sequence[Sequence[str]] | None,
    newest: Sequence[str] | None = None,
) -> KeyKind:
    """The key's kind; NEWEST, the values of the newest pages sampled: where their kind is not the whole
    sample's, the table is between two kinds (mid-way through a migration) and is "uuid-mixed"."""
    lead_type = key_types[0] if key_types else None
    text = lead_type in TEXT_TYPES
    values = [v for group in sample or [] for v in group]
    found = shape(values, text) if sample is not None else None
    made_by, made = generator(default, identity) if lead_type is not None else (None, None)
    whole = kind(key_types, made, found)
    # A composite key's inserts land where its leading column puts them: it is placed by that column.
    leading = kind(key_types[:1], made, found)
    if newest and leading.startswith("uuid-v") and made not in OPAQUE_GENERATORS:
        recent = kind(key_types[:1], made, shape(newest, text))
        if recent != leading:
            leading = "uuid-mixed"
            whole = "composite" if whole == "composite" else leading
    words, strategy = KINDS[leading]
    if whole == "composite":
        words = f"a composite key led by {words}"
    return KeyKind(whole, leading, words, strategy, made_by, found)
