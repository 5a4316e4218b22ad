"""Each table's key and what surrounds it, read from the catalog for every table at once: the key's columns,
types, default and identity; the indexes on its leading column; the foreign keys that repeat it; the
sequences that feed it; pg_stats' figures of its leading column; what the role may read. A statement each
for the whole database, none of which opens a table (so none waits on a lock another session holds)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from pkbench.survey import classify
from pkbench.survey.facts import PAGE, Child, KeyIndex, Reader, TableFacts
from pkbench.survey.facts import Sequence as KeySequence

# The leaves of each root (a plain table is its own leaf; a partitioned table's partitions, through every
# level): pg_inherits read directly, since pg_partition_tree locks every partition it lists.
TREE = """
WITH RECURSIVE tree(root, relid) AS (
    SELECT r, r FROM unnest(%(roots)s::oid[]) r
    UNION ALL
    SELECT t.root, i.inhrelid FROM tree t
      JOIN pg_inherits i ON i.inhparent = t.relid
      JOIN pg_class k ON k.oid = i.inhrelid AND k.relispartition
)"""


def read(reader: Reader, tables: Sequence[TableFacts]) -> None:
    """The key of every table in TABLES and the catalog's facts around it."""
    by_oid = {t.oid: t for t in tables}
    # Each read in a transaction of its own: no snapshot outlives one statement over the whole catalog.
    with reader.transaction("catalog: keys"):
        _keys(reader, by_oid)
    keyed = [t for t in tables if t.key_attnum is not None]
    with reader.transaction("catalog: indexes"):
        _key_indexes(reader, keyed)
    with reader.transaction("catalog: foreign keys"):
        _children(reader, by_oid)
    with reader.transaction("catalog: sequences"):
        _sequences(reader, keyed)
    with reader.transaction("catalog: statistics"):
        _statistics(reader, keyed)
    with reader.transaction("catalog: privileges"):
        _privileges(reader, keyed)


def _keys(reader: Reader, by_oid: dict[int, TableFacts]) -> None:
    """The primary key, else the first valid unique index on plain columns without a predicate."""
    rows = reader.all(
        """
        WITH k AS (
            SELECT DISTINCT ON (i.indrelid) i.indrelid, i.indexrelid, i.indisprimary, i.indkey::int2[] AS cols
              FROM pg_index i
             WHERE i.indrelid = ANY(%s::oid[])
               AND (i.indisprimary OR (i.indisunique AND i.indpred IS NULL AND i.indexprs IS NULL
                                       AND i.indisvalid))
             ORDER BY i.indrelid, i.indisprimary DESC, i.indexrelid::regclass::text
        )
        SELECT k.indrelid, k.indexrelid, k.indisprimary, k.indexrelid::regclass::text,
               ARRAY(SELECT a.attname::text FROM unnest(k.cols) WITH ORDINALITY u(n, o)
                       JOIN pg_attribute a ON a.attrelid = k.indrelid AND a.attnum = u.n ORDER BY u.o),
               ARRAY(SELECT format_type(a.atttypid, NULL) FROM unnest(k.cols) WITH ORDINALITY u(n, o)
                       JOIN pg_attribute a ON a.attrelid = k.indrelid AND a.attnum = u.n ORDER BY u.o),
               lead.attnum, lead.attidentity,
               CASE WHEN lead.attgenerated = '' THEN pg_get_expr(d.adbin, 0) END, x.relpages
          FROM k
          JOIN pg_class x ON x.oid = k.indexrelid
          JOIN pg_attribute lead ON lead.attrelid = k.indrelid
                                AND lead.attnum = (SELECT u.n FROM unnest(k.cols) WITH ORDINALITY u(n, o)
                                                    WHERE u.o = 1)
          LEFT JOIN pg_attrdef d ON d.adrelid = lead.attrelid AND d.adnum = lead.attnum
        """,
        list(by_oid),
    )
    for table, index, primary, name, columns, types, attnum, identity, default, pages in rows:
        facts = by_oid[table]
        facts.key_source = "primary key" if primary else "unique index"
        facts.index_oid, facts.key_index = index, name
        facts.index_bytes = int(pages) * PAGE
        facts.key_columns, facts.key_types = tuple(columns), tuple(types)
        facts.key_attnum, facts.identity, facts.default = attnum, identity or "", default
        facts.default_kind = classify.generator(default, facts.identity)[1]


def _key_indexes(reader: Reader, tables: Sequence[TableFacts]) -> None:
    """Every index whose leading column is the key's (the key's own among them), with its leaves' bytes by
    pg_class.relpages, and the key index's leaves."""
    by_oid = {t.oid: t for t in tables}
    rows = reader.all(
        """
        WITH RECURSIVE ix AS (
            SELECT i.indrelid, i.indexrelid, i.indisunique, i.indisvalid, i.indisprimary,
                   i.indpred IS NOT NULL AS partial,
                   ARRAY(SELECT coalesce(a.attname::text, 'an expression')
                           FROM unnest(i.indkey::int2[]) WITH ORDINALITY u(n, o)
                           LEFT JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = u.n
                          WHERE u.o <= i.indnkeyatts ORDER BY u.o) AS cols
              FROM pg_index i
              JOIN unnest(%s::oid[], %s::int2[]) k(tbl, attnum)
                ON k.tbl = i.indrelid AND i.indkey[0] = k.attnum
        ), tree(root, relid) AS (
            SELECT ix.indexrelid, ix.indexrelid FROM ix
            UNION ALL
            SELECT t.root, i.inhrelid FROM tree t
              JOIN pg_inherits i ON i.inhparent = t.relid
              JOIN pg_class k ON k.oid = i.inhrelid AND k.relispartition
        ), sized AS (
            SELECT t.root, coalesce(array_agg(t.relid ORDER BY t.relid) FILTER (WHERE c.relkind = 'i'), '{}')
                       AS leaves,
                   coalesce(sum(c.relpages), 0) AS pages
              FROM tree t JOIN pg_class c ON c.oid = t.relid GROUP BY t.root
        )
        SELECT ix.indrelid, ix.indexrelid, ix.indexrelid::regclass::text, ix.cols, ix.indisunique,
               ix.indisvalid, ix.indisprimary, ix.partial, s.leaves, s.pages
          FROM ix JOIN sized s ON s.root = ix.indexrelid ORDER BY 1, 3
        """,
        [t.oid for t in tables],
        [t.key_attnum for t in tables],
    )
    for table, index, name, columns, unique, valid, primary, partial, leaves, pages in rows:
        facts = by_oid[table]
        if index == facts.index_oid:
            facts.key_index_leaves = tuple(leaves)
            facts.index_bytes = int(pages) * PAGE
        facts.key_indexes.append(
            KeyIndex(
                name, tuple(columns), bool(unique), bool(valid), bool(primary), bool(partial), pages * PAGE
            )
        )


def _children(reader: Reader, by_oid: dict[int, TableFacts]) -> None:
    """The foreign keys that reference each table: the child, its columns and their types against the key's,
    whether an index leads with the foreign key, and (by pg_class, all partitions) its rows, heap, total
    bytes and that index's bytes."""
    rows = reader.all(
        """
        WITH RECURSIVE con AS (
            SELECT c.oid, c.conname, c.confrelid, c.conrelid, c.conkey, c.confkey,
                   (SELECT a.attname FROM pg_attribute a
                     WHERE a.attrelid = c.conrelid AND a.attnum = c.conkey[1]) AS lead
              FROM pg_constraint c
             WHERE c.contype = 'f' AND c.confrelid = ANY(%(roots)s::oid[]) AND c.conparentid = 0
        ), tree(root, relid) AS (
            SELECT DISTINCT con.conrelid, con.conrelid FROM con
            UNION ALL
            SELECT t.root, i.inhrelid FROM tree t
              JOIN pg_inherits i ON i.inhparent = t.relid
              JOIN pg_class k ON k.oid = i.inhrelid AND k.relispartition
        ), leaf AS (
            SELECT t.root, c.oid, c.relpages, c.reltuples, c.reltoastrelid
              FROM tree t JOIN pg_class c ON c.oid = t.relid WHERE c.relkind = 'r'
        ), child AS (
            SELECT l.root, CASE WHEN bool_and(l.reltuples >= 0) THEN sum(l.reltuples) END AS tuples,
                   coalesce(sum(l.relpages), 0) AS heap,
                   coalesce(sum((SELECT sum(x.relpages) FROM pg_index i
                                   JOIN pg_class x ON x.oid = i.indexrelid WHERE i.indrelid = l.oid)), 0)
                       AS indexes,
                   coalesce(sum((SELECT s.relpages FROM pg_class s WHERE s.oid = l.reltoastrelid)), 0)
                       AS toast,
                   sum((SELECT s.n_tup_ins FROM pg_stat_user_tables s WHERE s.relid = l.oid)) AS inserted
              FROM leaf l GROUP BY l.root
        ), fk AS (
            SELECT con.oid, sum(x.relpages) AS pages
              FROM con JOIN leaf l ON l.root = con.conrelid
              JOIN pg_index i ON i.indrelid = l.oid
              JOIN pg_attribute a ON a.attrelid = l.oid AND a.attnum = i.indkey[0] AND a.attname = con.lead
              JOIN pg_class x ON x.oid = i.indexrelid
             GROUP BY con.oid
        )
        SELECT con.confrelid, con.conrelid::regclass::text,
               ARRAY(SELECT a.attname::text FROM unnest(con.conkey) WITH ORDINALITY k(n, o)
                       JOIN pg_attribute a ON a.attrelid = con.conrelid AND a.attnum = k.n ORDER BY k.o),
               ARRAY(SELECT format_type(a.atttypid, NULL) FROM unnest(con.conkey) WITH ORDINALITY k(n, o)
                       JOIN pg_attribute a ON a.attrelid = con.conrelid AND a.attnum = k.n ORDER BY k.o),
               ARRAY(SELECT format_type(a.atttypid, NULL) FROM unnest(con.confkey) WITH ORDINALITY k(n, o)
                       JOIN pg_attribute a ON a.attrelid = con.confrelid AND a.attnum = k.n ORDER BY k.o),
               EXISTS (SELECT 1 FROM pg_index x
                        WHERE x.indrelid = con.conrelid AND x.indkey[0] = con.conkey[1]),
               ch.tuples, ch.heap, ch.indexes, ch.toast, fk.pages, ch.inserted
          FROM con JOIN child ch ON ch.root = con.conrelid LEFT JOIN fk ON fk.oid = con.oid
         ORDER BY 1, 2, con.conname
        """,
        {"roots": list(by_oid)},
    )
    for parent, name, cols, types, referenced, indexed, tuples, heap, index, toast, fk_index, ins in rows:
        by_oid[parent].children.append(
            Child(
                name,
                tuple(cols),
                int(heap + index + toast) * PAGE,
                bool(indexed),
                float(tuples) if tuples is not None else None,
                int(heap) * PAGE,
                tuple(types),
                tuple(referenced),
                int(fk_index) * PAGE if fk_index is not None else None,
                int(ins) if ins is not None else None,
            )
        )


def _sequences(reader: Reader, tables: Sequence[TableFacts]) -> None:
    """The sequences that feed each key's leading column (its default's nextval, or its identity), with their
    type, limit, owner, and how many tables' columns call them."""
    by_oid = {t.oid: t for t in tables}
    rows = reader.all(
        """
        WITH k(tbl, attnum) AS (SELECT * FROM unnest(%(tables)s::oid[], %(attnums)s::int2[])),
        feeds AS (
            SELECT k.tbl, k.attnum, dep.refobjid AS seq
              FROM k JOIN pg_attrdef d ON d.adrelid = k.tbl AND d.adnum = k.attnum
              JOIN pg_depend dep ON dep.classid = 'pg_attrdef'::regclass AND dep.objid = d.oid
                                AND dep.refclassid = 'pg_class'::regclass
              JOIN pg_sequence s ON s.seqrelid = dep.refobjid
            UNION
            SELECT k.tbl, k.attnum, dep.objid
              FROM k JOIN pg_depend dep ON dep.classid = 'pg_class'::regclass
                                        AND dep.refclassid = 'pg_class'::regclass
                                        AND dep.refobjid = k.tbl AND dep.refobjsubid = k.attnum
                                        AND dep.deptype = 'i'
        )
        SELECT f.tbl, s.seqrelid,
               (SELECT format('%%I.%%I', n.nspname, c.relname) FROM pg_class c
                  JOIN pg_namespace n ON n.oid = c.relnamespace WHERE c.oid = s.seqrelid),
               format_type(s.seqtypid, NULL), s.seqmax,
               s.seqincrement, s.seqcycle,
               (SELECT format('%%s (%%I)', o.refobjid::regclass, a.attname) FROM pg_depend o
                  JOIN pg_attribute a ON a.attrelid = o.refobjid AND a.attnum = o.refobjsubid
                 WHERE o.classid = 'pg_class'::regclass AND o.objid = s.seqrelid
                   AND o.refclassid = 'pg_class'::regclass AND o.deptype IN ('a', 'i') LIMIT 1),
               EXISTS (SELECT 1 FROM pg_depend o
                        WHERE o.classid = 'pg_class'::regclass AND o.objid = s.seqrelid
                          AND o.refclassid = 'pg_class'::regclass AND o.refobjid = f.tbl
                          AND o.refobjsubid = f.attnum AND o.deptype IN ('a', 'i')),
               (SELECT count(DISTINCT (d.adrelid, d.adnum)) FROM pg_depend u
                  JOIN pg_attrdef d ON d.oid = u.objid
                 WHERE u.classid = 'pg_attrdef'::regclass AND u.refclassid = 'pg_class'::regclass
                   AND u.refobjid = s.seqrelid
                   AND NOT EXISTS (SELECT 1 FROM pg_inherits i WHERE i.inhrelid = d.adrelid)),
               has_sequence_privilege(s.seqrelid, 'SELECT,USAGE')
          FROM feeds f JOIN pg_sequence s ON s.seqrelid = f.seq
         ORDER BY 1, 3
        """,
        {"tables": list(by_oid), "attnums": [t.key_attnum for t in tables]},
    )
    for table, oid, name, type_name, most, increment, cycle, owner, owned, users, readable in rows:
        by_oid[table].sequences.append(
            KeySequence(
                oid,
                name,
                type_name,
                int(most),
                int(increment),
                bool(cycle),
                owner,
                bool(owned),
                int(users),
                bool(readable),
            )
        )


def _statistics(reader: Reader, tables: Sequence[TableFacts]) -> None:
    """pg_stats of each key's leading column: its correlation, and an integer key's largest histogram bound
    (a value the key has reached, read without SELECT on the table where pg_stats shows it)."""
    by_oid = {t.oid: t for t in tables}
    rows = reader.all(
        """
        SELECT k.tbl, st.inherited = k.partitioned, st.correlation,
               CASE WHEN k.integer THEN (st.histogram_bounds::text::text[])[
                   array_upper(st.histogram_bounds::text::text[], 1)]::numeric END
          FROM unnest(%s::oid[], %s::text[], %s::text[], %s::text[], %s::bool[], %s::bool[])
               k(tbl, sch, rel, col, integer, partitioned)
          JOIN pg_stats st ON st.schemaname = k.sch AND st.tablename = k.rel AND st.attname = k.col
         ORDER BY 1, 2
        """,
        [t.oid for t in tables],
        [t.schema for t in tables],
        [t.name for t in tables],
        [t.key_columns[0] for t in tables],
        [t.key_types[0] in classify.INTEGER_RANGE for t in tables],
        # A partitioned table's statistics are its partitions' together; an inheritance parent's own are
        # its rows without its children's.
        [t.partition_strategy is not None for t in tables],
    )
    # The preferred row of each table comes last.
    for table, _, correlation, largest in rows:
        facts = by_oid[table]
        facts.correlation = float(correlation) if correlation is not None else None
        facts.stats_largest = int(largest) if largest is not None else None
    for facts in tables:
        if facts.correlation is None and not facts.needs.get("pg_stats correlation"):
            facts.needs["pg_stats correlation"] = f"ANALYZE {facts.qualified} (no statistics yet)"


def _privileges(reader: Reader, tables: Sequence[TableFacts]) -> None:
    """Whether the role may SELECT each key's leading column, on the table and on each partition (a partition
    read directly is checked on its own)."""
    pairs = [(t, leaf.oid) for t in tables for leaf in t.leaves] + [(t, t.oid) for t in tables]
    rows = reader.all(
        "SELECT u.rel, has_column_privilege(u.rel, u.col, 'SELECT') "
        "FROM unnest(%s::oid[], %s::text[]) u(rel, col)",
        [oid for _, oid in pairs],
        [t.key_columns[0] for t, _ in pairs],
    )
    allowed = {oid: bool(ok) for oid, ok in rows}
    for facts in tables:
        facts.key_readable = allowed.get(facts.oid, False)
        facts.leaves = [replace(leaf, readable=allowed.get(leaf.oid, False)) for leaf in facts.leaves]
