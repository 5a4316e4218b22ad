"""A user's table as `pkbench advise --like` measures it: how far its replica is scaled down so that its key
index stands to shared_buffers and memory as the table's does (one factor, f: its rows, its shared_buffers and
its memory cap f times the table's and its server's), the columns, indexes and child tables of the replica,
and whether a switch of its key can be measured. advise.like writes the scenario files and the plan from
these; advise.like_text the words.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass

from pkbench.server import sizing
from pkbench.survey import classify
from pkbench.survey.shape import ROW_OVERHEAD_BYTES, Column, Index, TableShape
from pkbench.text import binary_size

REPLICA = "replica"
SWITCH = "switch"
LIKE_FILE = "like.json"
WINDOW = "insert"
CONDITION = "like"
# bigint is every cell's baseline; v4 and v7 the random and the time-ordered uuid.
DEFAULT_STRATEGIES = ("bigint", "uuid-v4", "uuid-v7")


def default_strategies(own: str | None) -> list[str]:
    """bigint, v4, the table's own kind of key where a strategy makes it, and v7."""
    return list(dict.fromkeys([*DEFAULT_STRATEGIES[:2], *([own] if own else []), *DEFAULT_STRATEGIES[2:]]))


# The switch's table starts with random v4 keys and names sequuid's uuid_generate_v7 (the migrate scenario's).
SWITCH_STRATEGY = "uuid-v4-to-v7"
V7 = "uuid_generate_v7()"
# A shared_buffers below this leaves a few clients' backends too few buffers to pin.
LEAST_SHARED_BUFFERS = 2 * sizing.MIB
# The replica's server, as the wal scenario's: one window is one stretch after a checkpoint.
SETTINGS = {
    "max_wal_size": "8GB",
    "checkpoint_timeout": "30min",
    "synchronous_commit": "on",
    "full_page_writes": "on",
    "autovacuum": "off",
}
CLIENTS = 4
JOBS = 2
BATCH_ROWS = 50_000
# Setting up a run (a cluster, sequuid, the schemas) and a window's checkpoint, for the least time of a part.
SETUP_S = 60
WINDOW_OVERHEAD_S = 5
# A key index's entry besides its key: an index tuple's header and line pointer.
INDEX_ENTRY_OVERHEAD = 12
_PLACEHOLDER = re.compile(r"\{[a-z_][a-z0-9_]*\}")
INTEGER_TYPES = {"smallint": 32767, "integer": 2147483647, "bigint": 9_000_000_000_000_000_000}
TIME_TYPES = ("timestamp", "date", "time")


@dataclass(frozen=True)
class Scaling:
    """How the replica is scaled: the factor, its rows, shared_buffers and memory cap (None: none set), the
    memory the replica may use (the cap, else this machine's), the table's memory tier and the replica's,
    the rows that load in the time allowed, and each ratio not kept, in words."""

    factor: float
    rows: int
    shared_buffers_bytes: int
    memory_cap_bytes: int | None
    replica_memory_bytes: int | None
    table_tier: classify.Tier
    replica_tier: classify.Tier
    load_rows: int
    notes: tuple[str, ...] = ()


def scale(
    rows: int,
    index_bytes: int,
    shared_buffers: int,
    memory: int | None,
    machine_memory: int | None,
    can_cap: bool,
    load_rows: int,
    rows_given: int | None = None,
) -> Scaling:
    """The replica of a table of ROWS rows whose key index is INDEX_BYTES on a server of SHARED_BUFFERS and
    MEMORY (None: not known): scaled by the factor that loads LOAD_ROWS rows (1 for a table that small), or
    to ROWS_GIVEN."""
    notes: list[str] = []
    whole = max(rows, 1)
    factor = rows_given / whole if rows_given is not None else min(1.0, load_rows / whole)
    if rows_given is None and factor < 1 and shared_buffers * factor < LEAST_SHARED_BUFFERS:
        # More rows than load in the time, rather than a shared_buffers too small to run clients.
        factor = min(1.0, LEAST_SHARED_BUFFERS / shared_buffers)
        notes.append(
            f"a shared_buffers of {size_words(LEAST_SHARED_BUFFERS)} at least takes "
            f"{round(whole * factor):,} rows, "
            f"more than load in the time allowed ({load_rows:,}): the load takes longer"
        )
    wanted_buffers = shared_buffers * factor
    buffers = max(LEAST_SHARED_BUFFERS, _round_up(wanted_buffers, 8192))
    if buffers > wanted_buffers + 8192:
        notes.append(
            f"shared_buffers is {size_words(buffers)}, the least the replica runs with, not "
            f"{size_words(wanted_buffers)}: "
            "its key index is a smaller share of it than yours"
        )
    cap: int | None = None
    replica_memory = machine_memory
    if memory is None:
        notes.append(
            "your server's memory is not known (give --server-memory): the replica's is this machine's, "
            "not capped"
        )
    else:
        wanted = memory * factor
        rounded = _round_up(max(wanted, sizing.LEAST_CAP_BYTES, 2 * buffers), sizing.CAP_STEP_BYTES)
        if machine_memory is not None and rounded >= machine_memory:
            if wanted < machine_memory:
                notes.append(
                    f"a cap of {size_words(rounded)} is no less than this machine's memory "
                    f"({size_words(machine_memory)}): not capped"
                )
        elif not can_cap:
            notes.append(
                f"the replica's memory should be capped at {size_words(rounded)}, which needs root and a "
                "memory cgroup: not capped, so it has this machine's memory"
            )
        else:
            cap = replica_memory = rounded
            if rounded > wanted * 1.05 + sizing.CAP_STEP_BYTES:
                notes.append(
                    f"the cap is {size_words(rounded)}, the least a server and its clients run in, not "
                    f"{size_words(wanted)}: the replica's data is a smaller share of its memory than yours"
                )
    replica_rows = rows_given if rows_given is not None else round(whole * factor) if rows > 0 else 0
    table_tier = classify.memory_tier(index_bytes, shared_buffers, memory)
    replica_tier = classify.memory_tier(round(index_bytes * factor), buffers, replica_memory)
    if replica_tier.condition != table_tier.condition:
        notes.append(
            f"the replica's key index is {replica_tier.words} where yours is {table_tier.words}: its cells "
            "answer for the replica's tier"
        )
    return Scaling(
        factor, replica_rows, buffers, cap, replica_memory, table_tier, replica_tier, load_rows, tuple(notes)
    )


def row_bytes(shape: TableShape) -> int:
    """Bytes a row of the table takes with its indexes, and its children's rows with theirs."""
    own = shape.total_bytes / max(shape.rows, 1)
    children = sum(
        per_parent(shape, c.rows)
        * (c.other_bytes + ROW_OVERHEAD_BYTES + 2 * (shape.key.width + INDEX_ENTRY_OVERHEAD))
        for c in shape.children
    )
    return max(1, math.ceil(own + children))


def per_parent(shape: TableShape, child_rows: float) -> float:
    return child_rows / shape.rows if shape.rows > 0 else 1.0


def seconds_per_row(shape: TableShape, strategies: Sequence[str]) -> float:
    """Seconds a row of the replica takes to load for every strategy: advise's load rates (server.sizing),
    slower by the bytes a row of it writes beyond the narrow row those rates were measured with."""
    narrow = sum(
        1 / (sizing.RANDOM_LOAD_ROWS_PER_S if s in sizing.RANDOM_KEYS else sizing.SEQUENTIAL_LOAD_ROWS_PER_S)
        for s in strategies
    )
    return narrow * max(1.0, row_bytes(shape) / sizing.ROW_BYTES)


def load_rows(shape: TableShape, seconds: float, strategies: Sequence[str]) -> int:
    """Rows of the replica that load in SECONDS for every strategy."""
    return int(seconds / seconds_per_row(shape, strategies))


# ---- The replica as a scenario file ----


def quoted(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def _text(width: int) -> str:
    """SQL for a random text of WIDTH characters (md5's hex repeated: its bytes are its characters)."""
    return f"left(repeat(md5(random()::text), {math.ceil(width / 32)}), {width})"


def _base_type(type_name: str) -> str:
    return type_name.split("(")[0].strip()


def column_value(column: Column) -> tuple[str, str, str | None]:
    """The replica's type for COLUMN, the SQL that makes a value of it at its width (its NULLs among them),
    and what it stands for where the replica cannot make its type (None: its own type)."""
    base = _base_type(column.type)
    text_width = max(1, column.width - 1)
    text = _text(text_width)
    stands: str | None = None
    type_name = column.type
    if column.typtype != "b" or column.category == "A":
        # A domain, an enum, a composite, a range or an array: its type may not exist on the replica.
        value, type_name = text, "text"
        stands = f"{column.type} stored as text of its width"
    elif base in INTEGER_TYPES:
        value = f"(random() * {INTEGER_TYPES[base]})::{base}"
    elif base in ("numeric", "real", "double precision"):
        value = f"(random() * 0.9)::{column.type}"
    elif base == "boolean":
        value = "random() < 0.5"
    elif base == "uuid":
        value = "gen_random_uuid()"
    elif base in ("text", "character varying", "character", "varchar", "bpchar"):
        value = text
    elif base == "bytea":
        hex_text = f"left(repeat(md5(random()::text), {math.ceil(text_width / 16)}), {2 * text_width})"
        value = f"decode({hex_text}, 'hex')"
    elif base in ("json", "jsonb"):
        inner = max(1, text_width - 10)
        inner_text = f"left(repeat(md5(random()::text), {math.ceil(inner / 32)}), {inner})"
        value = f"json_build_object('v', {inner_text})::{base}"
    elif base.startswith(TIME_TYPES):
        # A time column rises with the rows where pg_stats says it does (created_at), else lands anywhere.
        rising = column.correlation is None or column.correlation > 0.5
        value = (
            f"clock_timestamp()::{column.type}"
            if rising
            else f"(clock_timestamp() - random() * interval '3650 days')::{column.type}"
        )
    elif base == "interval":
        value = "random() * interval '1 day'"
    else:
        value, type_name = text, "text"
        stands = f"{column.type} stored as text of its width"
    if column.null_share >= 0.005:
        value = f"CASE WHEN random() < {column.null_share:.3f} THEN NULL ELSE {value} END"
    return type_name, value, stands


@dataclass(frozen=True)
class Replica:
    """What the scenario files are made of: the schema's statements (with and without cascading foreign
    keys), the insert of N rows and their children, and what the replica left out or stands in for."""

    columns: tuple[tuple[str, str, str], ...]  # (quoted name, type, value SQL)
    indexes: tuple[str, ...]
    children: tuple[tuple[str, float, int, bool], ...]  # (name, children per row, other bytes, indexed)
    key: str
    said: tuple[str, ...]

    def schema(self, cascade: bool = False) -> list[str]:
        columns = "".join(f", {name} {type_name}" for name, type_name, _ in self.columns)
        statements = [f"CREATE TABLE records ({self.key} {{key_type}} PRIMARY KEY {{key_default}}{columns})"]
        statements += self.indexes
        action = " ON UPDATE CASCADE" if cascade else ""
        for name, _, other, indexed in self.children:
            # A rewrite of the keys needs each child's foreign key indexed: without one, every key it
            # rewrites scans the child.
            indexed = indexed or cascade
            data = ", data text" if other > 0 else ""
            statements.append(
                f"CREATE TABLE {name} (id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, "
                f"ref {{key_type}} NOT NULL REFERENCES records{action}{data})"
            )
            if indexed:
                statements.append(f"CREATE INDEX {name}_ref ON {name} (ref)")
        return statements

    def insert(self, rows: str) -> str:
        """ROWS rows (a number or {batch}) and their children, in one statement."""
        names = ", ".join(name for name, _, _ in self.columns)
        values = ", ".join(value for _, _, value in self.columns)
        parent = (
            f"INSERT INTO records ({names}) SELECT {values} FROM generate_series(1, {rows})"
            if self.columns
            else f"INSERT INTO records SELECT FROM generate_series(1, {rows})"
        )
        if not self.children:
            return parent
        parts = [f"WITH p AS ({parent} RETURNING {self.key} AS ref)"]
        for number, (name, ratio, other, _) in enumerate(self.children, 1):
            whole, part = math.floor(ratio), ratio - math.floor(ratio)
            data = f", {_text(other)}" if other > 0 else ""
            columns = "ref, data" if other > 0 else "ref"
            parts.append(
                f"c{number} AS (INSERT INTO {name} ({columns}) SELECT p.ref{data} FROM p "
                f"CROSS JOIN generate_series(1, {whole + 1}) g WHERE g <= {whole} OR random() < {part:.4f})"
            )
        return ", ".join(parts) + " SELECT count(*) FROM p"

    def tables(self) -> list[str]:
        return ["records", *(name for name, _, _, _ in self.children)]


def replica(shape: TableShape) -> Replica:
    """The replica of SHAPE: its columns, the indexes it can rebuild and the children, and in words what it
    left out or stores otherwise."""
    said: list[str] = []
    columns = []
    renamed: set[str] = set()
    for number, column in enumerate(shape.columns, 1):
        name = quoted(column.name)
        if _PLACEHOLDER.search(name):
            renamed.add(column.name)
            name = f"column_{number}"
            said.append(f"column {column.name} is named {name} on the replica")
        type_name, value, stands = column_value(column)
        if stands is not None:
            said.append(f"column {column.name}: {stands} ({column.width} bytes)")
        if not column.width_known:
            said.append(
                f"column {column.name}: its width is not in pg_stats (ANALYZE it, or the role may not read "
                f"it): {column.width} bytes assumed"
            )
        columns.append((name, type_name, value))
    as_text = {c.name for c in shape.columns if column_value(c)[2] is not None}
    indexes = []
    for index in shape.indexes:
        why = _left_out(index, shape, as_text, renamed)
        if why is not None:
            said.append(f"index {index.name} is not on the replica: {why}")
            continue
        include = f" INCLUDE ({', '.join(index.include)})" if index.include else ""
        where = f" WHERE {index.predicate}" if index.predicate else ""
        keys = ", ".join(index.keys)
        indexes.append(f"CREATE INDEX ON records USING {index.method} ({keys}){include}{where}")
        if index.unique:
            said.append(f"index {index.name} is rebuilt without UNIQUE (the replica's values may repeat)")
    children = tuple(
        (f"child_{n}", per_parent(shape, c.rows), c.other_bytes, c.indexed)
        for n, c in enumerate(shape.children, 1)
    )
    for (name, ratio, other, indexed), child in zip(children, shape.children, strict=True):
        said.append(
            f"{name} stands for {child.table} ({', '.join(child.columns)}): {ratio:.2f} rows per row of "
            f"{shape.table}, {other} bytes of other columns{', its foreign key indexed' if indexed else ''}"
        )
    if shape.partitioned is not None:
        said.append(f"the table is {shape.partitioned}-partitioned; the replica is one table")
    return Replica(tuple(columns), tuple(indexes), children, quoted(shape.key.name), tuple(said))


def _left_out(index: Index, shape: TableShape, as_text: set[str], renamed: set[str]) -> str | None:
    """Why the replica cannot rebuild INDEX (None: it can): what the server said, braces the scenario
    file would read as placeholders, a column renamed, or a column stored as text under an index that is
    not a plain btree on columns (an expression or operator class of its own type would not apply)."""
    if index.left_out is not None:
        return index.left_out
    texts = [*index.keys, *index.include, index.predicate or ""]
    if any(_PLACEHOLDER.search(t) for t in texts):
        return "its definition has braces the scenario file would read as placeholders"
    if set(index.columns) & renamed:
        return "it reads a column renamed on the replica"
    touched = sorted(set(index.columns) & as_text)
    plain = (
        index.method == "btree"
        and index.predicate is None
        and all(k.strip('"') in {c.name for c in shape.columns} | {shape.key.name} for k in index.keys)
    )
    if touched and not plain:
        return f"it reads {', '.join(touched)}, which the replica stores otherwise"
    return None


CHANGES = ("switch-default", "rewrite-keys")


def can_switch(shape: TableShape) -> str | None:
    """Why the switch is not measured for SHAPE's key (None: it is): the migrate scenario's steps switch a
    random uuid column to v7."""
    if shape.key.type != "uuid":
        return (
            f"its key is {shape.key.type}: the switch measured here is a uuid column's, from random v4 to v7"
        )
    if shape.kind not in classify.RANDOM_KINDS:
        return f"its keys are {shape.kind_words}, not random: there is no random key to switch from"
    return None


def _round_up(size: float, step: int) -> int:
    return math.ceil(size / step) * step


def size_words(size: float | None) -> str:
    return binary_size(size) if size is not None else "not known"
