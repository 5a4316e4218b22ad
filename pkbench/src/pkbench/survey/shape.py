"""One table's shape, read from a live server as the survey reads it (catalog.survey's READ ONLY
transaction, its timeouts, nothing created): what `pkbench advise --like` builds a replica of.

Beside what the survey says of the table's key (its kind, its index's size, its memory tier, the tables whose
foreign keys repeat it), the shape holds each other column's type, average width, share of NULLs and
pg_stats correlation; the table's secondary indexes (what each covers, and why one cannot be rebuilt on an
embedded cluster); and each child table's rows and row width. A figure the role may not read (pg_stats hides
the columns it may not SELECT) is assumed from the type and said to be.
"""

from __future__ import annotations

from dataclasses import dataclass

from pkbench.errors import PkbenchError
from pkbench.server.connection import ConnectionInfo
from pkbench.survey import catalog, classify, names
from pkbench.survey.facts import Options, Reader, TableFacts, read_only

# A heap tuple's header and its line pointer: what a row takes besides its columns.
ROW_OVERHEAD_BYTES = 28
# A variable-width column whose width pg_stats does not give (never analyzed, or hidden from the role).
ASSUMED_VARIABLE_WIDTH = 32
# Index methods whose default operator classes the embedded cluster has for the built-in types.
REBUILT_METHODS = frozenset({"btree", "hash", "gin", "gist", "brin"})


@dataclass(frozen=True)
class Column:
    name: str
    type: str
    # pg_type.typtype and typcategory: what the replica can make values of.
    typtype: str
    category: str
    width: int
    null_share: float
    correlation: float | None
    # Whether the width is pg_stats's, not assumed from the type.
    width_known: bool


@dataclass(frozen=True)
class Index:
    name: str
    method: str
    unique: bool
    # pg_get_indexdef's text of each key column or expression, then the INCLUDE columns.
    keys: tuple[str, ...]
    include: tuple[str, ...]
    predicate: str | None
    # The table's columns it reads (its keys, expressions and predicate).
    columns: tuple[str, ...]
    # Why the replica cannot have it (None: it is rebuilt).
    left_out: str | None


@dataclass(frozen=True)
class ChildShape:
    table: str
    columns: tuple[str, ...]
    rows: float
    # Bytes of a row's other columns (its heap row less the foreign key's and the tuple's overhead).
    other_bytes: int
    indexed: bool


@dataclass(frozen=True)
class TableShape:
    table: str
    server_version: str
    shared_buffers: int
    key: Column
    key_source: str
    key_index: str
    index_bytes: int
    kind: str
    kind_words: str
    # The which-key column measuring this kind of key (None: none does), and what makes the key in words.
    strategy: str | None
    generator: str | None
    rows: int
    heap_bytes: int
    total_bytes: int
    columns: tuple[Column, ...]
    indexes: tuple[Index, ...]
    children: tuple[ChildShape, ...]
    partitioned: str | None


def read(connection: ConnectionInfo, like: str) -> TableShape:
    """The shape of the table --like names, read-only; one line where it is not a table with one key column
    the role may read."""
    schema, name = names.split_qualified(like, "--like")
    # The WAL, the key index's pages and the shared buffers are no part of a shape: none of them is read.
    options = Options(schema, name, table_option="--like", extension_figures=False)
    server, tables = catalog.survey(connection, options)
    if len(tables) > 1:
        schemas = ", ".join(t.schema for t in tables)
        raise PkbenchError(f"--like {like}: a table of that name is in schemas {schemas}; give SCHEMA.TABLE")
    facts = tables[0]
    key_kind = classify.key_kind(facts.key_types, facts.default, facts.identity, facts.sample)
    if "key" in facts.needs or facts.blocked is not None:
        raise PkbenchError(f"--like {facts.qualified}: its key was not read ({facts.needs.get('key')})")
    if not facts.key_columns:
        raise PkbenchError(f"--like {facts.qualified}: it has no primary key or unique index to measure")
    if len(facts.key_columns) > 1:
        raise PkbenchError(
            f"--like {facts.qualified}: its key ({', '.join(facts.key_columns)}) has several columns; "
            "--like measures a key of one column"
        )
    with read_only(connection) as reader:
        columns = _columns(reader, facts)
        indexes = _indexes(reader, facts)
    children = _children(facts)
    key = next(c for c in columns if c.name == facts.key_columns[0])
    rows = _rows(facts, columns)
    return TableShape(
        facts.qualified,
        server.version,
        server.shared_buffers,
        key,
        facts.key_source or "primary key",
        facts.key_index or "",
        facts.index_bytes or 0,
        key_kind.leading,
        key_kind.words,
        placement_strategy(key_kind.leading),
        key_kind.generator,
        rows,
        facts.heap_bytes,
        facts.total_bytes or facts.heap_bytes,
        tuple(c for c in columns if c.name != key.name),
        indexes,
        children,
        facts.partition_strategy,
    )


def placement_strategy(kind: str) -> str | None:
    """The which-key column that measured KIND (None: no committed run did)."""
    return classify.KINDS[kind][1] if kind in classify.KINDS else None


def _rows(facts: TableFacts, columns: tuple[Column, ...]) -> int:
    """The table's rows by its statistics, else as many as its heap holds at its columns' widths."""
    if facts.rows is not None and facts.rows >= 0:
        return int(facts.rows)
    width = ROW_OVERHEAD_BYTES + sum(c.width for c in columns)
    return facts.heap_bytes // max(width, 1)


def _columns(reader: Reader, facts: TableFacts) -> tuple[Column, ...]:
    rows = reader.all(
        """
        SELECT a.attname, format_type(a.atttypid, a.atttypmod), t.typtype, t.typcategory, a.attlen,
               s.avg_width, s.null_frac, s.correlation
          FROM pg_attribute a
          JOIN pg_type t ON t.oid = a.atttypid
          LEFT JOIN LATERAL (SELECT st.avg_width, st.null_frac, st.correlation FROM pg_stats st
                              WHERE st.schemaname = %s AND st.tablename = %s AND st.attname = a.attname
                              ORDER BY st.inherited DESC LIMIT 1) s ON true
         WHERE a.attrelid = %s AND a.attnum > 0 AND NOT a.attisdropped AND a.attgenerated = ''
         ORDER BY a.attnum
        """,
        facts.schema,
        facts.name,
        facts.oid,
    )
    found = []
    for name, type_name, typtype, category, length, width, nulls, correlation in rows:
        known = width is not None
        assumed = length if length > 0 else ASSUMED_VARIABLE_WIDTH
        found.append(
            Column(
                name,
                type_name,
                str(typtype),
                str(category),
                int(width) if known else int(assumed),
                float(nulls or 0.0),
                float(correlation) if correlation is not None else None,
                known,
            )
        )
    return tuple(found)


def _indexes(reader: Reader, facts: TableFacts) -> tuple[Index, ...]:
    """The table's indexes but its key's, each with why the replica cannot rebuild it, if it cannot: a
    method or operator class of an extension, or a function outside pg_catalog."""
    rows = reader.all(
        """
        SELECT c.relname, am.amname, i.indisunique, i.indnkeyatts,
               ARRAY(SELECT pg_get_indexdef(i.indexrelid, k, true) FROM generate_series(1, i.indnatts) k
                      ORDER BY k),
               pg_get_expr(i.indpred, i.indrelid, true),
               ARRAY(SELECT DISTINCT a.attname FROM pg_attribute a
                      WHERE a.attrelid = i.indrelid
                        AND (a.attnum = ANY(i.indkey::int2[])
                             OR a.attnum IN (
                                 SELECT d.refobjsubid FROM pg_depend d
                                  WHERE d.classid = 'pg_class'::regclass AND d.objid = i.indexrelid
                                    AND d.refclassid = 'pg_class'::regclass AND d.refobjid = i.indrelid))
                      ORDER BY 1),
               EXISTS (SELECT 1 FROM unnest(i.indclass::oid[]) oc JOIN pg_opclass o ON o.oid = oc
                        WHERE NOT o.opcdefault),
               EXISTS (SELECT 1 FROM pg_depend d JOIN pg_proc p ON p.oid = d.refobjid
                        WHERE d.classid = 'pg_class'::regclass AND d.objid = i.indexrelid
                          AND d.refclassid = 'pg_proc'::regclass
                          AND p.pronamespace <> 'pg_catalog'::regnamespace)
          FROM pg_index i
          JOIN pg_class c ON c.oid = i.indexrelid
          JOIN pg_am am ON am.oid = c.relam
         WHERE i.indrelid = %s AND i.indexrelid IS DISTINCT FROM %s::oid
         ORDER BY c.relname
        """,
        facts.oid,
        facts.index_oid,
    )
    found = []
    for name, method, unique, key_count, texts, predicate, columns, other_class, other_function in rows:
        left_out = (
            f"its method {method} is not one the embedded cluster has"
            if method not in REBUILT_METHODS
            else "an operator class other than its type's default"
            if other_class
            else "it calls a function outside pg_catalog"
            if other_function
            else None
        )
        found.append(
            Index(
                name,
                method,
                bool(unique),
                tuple(texts[:key_count]),
                tuple(texts[key_count:]),
                predicate,
                tuple(columns),
                left_out,
            )
        )
    return tuple(found)


def _children(facts: TableFacts) -> tuple[ChildShape, ...]:
    """One child per foreign key that references the table (as the survey read them): its rows, and the
    bytes of its other columns (its heap's bytes a row, less the foreign key's width and a tuple's
    overhead)."""
    key_width = 16 if facts.key_types and facts.key_types[0] == "uuid" else 8
    found = []
    for child in facts.children:
        count = child.rows or 0.0
        per_row = child.heap_bytes / count if count > 0 else 0.0
        other = max(0, round(per_row - ROW_OVERHEAD_BYTES - key_width)) if per_row else 0
        found.append(ChildShape(child.name, child.columns, count, other, child.indexed))
    return tuple(found)
