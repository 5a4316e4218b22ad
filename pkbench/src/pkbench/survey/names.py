"""Table names as PostgreSQL reads and prints them: an option's SCHEMA.TABLE parsed as SQL identifiers (a name
in double quotes keeps its case and may hold dots; one without is folded to lower case, as psql's and
pg_dump's patterns are), and a name printed so that it can be pasted into SQL (quote_ident's rule)."""

from __future__ import annotations

import re

from psycopg import sql

from pkbench.errors import PkbenchError

# Every keyword of PostgreSQL 15 to 18 that is not unreserved (their parser/kwlist.h): quote_ident quotes
# these, as a column or table name written bare would not parse. (A word list, not a list literal of
# 164 lines.)
KEYWORDS = frozenset(
    """
    all analyse analyze and any array as asc asymmetric authorization between bigint binary bit boolean
    both case cast char character check coalesce collate collation column concurrently constraint create
    cross current_catalog current_date current_role current_schema current_time current_timestamp
    current_user dec decimal default deferrable desc distinct do else end except exists extract false
    fetch float for foreign freeze from full grant greatest group grouping having ilike in initially
    inner inout int integer intersect interval into is isnull join json json_array json_arrayagg
    json_exists json_object json_objectagg json_query json_scalar json_serialize json_table json_value
    lateral leading least left like limit localtime localtimestamp merge_action national natural nchar
    none normalize not notnull null nullif numeric offset on only or order out outer overlaps overlay
    placing position precision primary real references returning right row select session_user setof
    similar smallint some substring symmetric system_user table tablesample then time timestamp to
    trailing treat trim true union unique user using values varchar variadic verbose when where window
    with xmlattributes xmlconcat xmlelement xmlexists xmlforest xmlnamespaces xmlparse xmlpi xmlroot
    xmlserialize xmltable
    """.split()  # noqa: SIM905
)
PLAIN = re.compile(r"[a-z_][a-z0-9_$]*")


def quote_ident(name: str) -> str:
    """NAME as an identifier to paste into SQL: bare where PostgreSQL reads it back as NAME, else in double
    quotes (psycopg's quoting, inner quotes doubled)."""
    if PLAIN.fullmatch(name) and name not in KEYWORDS:
        return name
    return sql.Identifier(name).as_string(None)


def qualified(schema: str, name: str) -> str:
    """SCHEMA.NAME, each quoted where it needs to be."""
    return f"{quote_ident(schema)}.{quote_ident(name)}"


def split_qualified(text: str, option: str) -> tuple[str | None, str]:
    """TEXT, an OPTION's TABLE or SCHEMA.TABLE, as (schema or None, table): each part a quoted identifier
    ("Display", inner quotes doubled) or a bare one folded to lower case."""
    parts: list[str] = []
    at = 0
    while True:
        if text.startswith('"', at):
            end = at + 1
            while True:
                end = text.find('"', end)
                if end < 0:
                    raise PkbenchError(f"{option} {text}: a double quote is not closed")
                if not text.startswith('"', end + 1):
                    break
                end += 2
            parts.append(text[at + 1 : end].replace('""', '"'))
            at = end + 1
        else:
            end = len(text)
            for stop in (".", '"'):
                found = text.find(stop, at)
                end = found if 0 <= found < end else end
            parts.append(text[at:end].strip().lower())
            at = end
        if at == len(text):
            break
        if text[at] != ".":
            raise PkbenchError(f"{option} {text}: expected TABLE or SCHEMA.TABLE (a quote inside a name)")
        at += 1
    if len(parts) > 2 or not all(parts):
        raise PkbenchError(
            f"{option} {text}: expected TABLE or SCHEMA.TABLE (double quotes keep a name's case and dots)"
        )
    return (parts[0], parts[1]) if len(parts) == 2 else (None, parts[0])
