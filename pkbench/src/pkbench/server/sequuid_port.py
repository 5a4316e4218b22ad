"""sequuid's PL/pgSQL port, installed into a run's own schema where the C extension cannot be created
(managed services, a user without the right to create it).

The port's file ships inside the package (a link to sequuid/plpgsql/sequuid.sql that the build resolves)
and is installed whole, every statement as written, in one transaction, with its public functions in the
run's schema and the helpers it keeps in schema `sequuid` moved there too, so nothing outside the run's schema
is created and dropping the schema removes it all. Not by psql, as the port's documentation runs it (a --dsn
machine need not have psql): its psql lines, which only make the file one transaction when psql runs it, are
left out. What the port leaves out for want of a superuser (the operator class) it says in a NOTICE, reported
here.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from importlib import resources

import psycopg
from psycopg import sql

SOURCE = "sequuid PL/pgSQL port"
EXTENSION = "sequuid"
# The helpers' schema, named where it is created, commented, granted or qualifies a name.
_HELPER_SCHEMA = re.compile(r"\bsequuid(?=\.)|(?<=\bSCHEMA )(?:IF NOT EXISTS )?sequuid\b", re.IGNORECASE)
# ... and as a string, where the install looks its owner up.
_HELPER_SCHEMA_LITERAL = "'sequuid'::name"
# psql's own lines (\if, \else, \endif): the file's BEGIN and COMMIT when psql runs it on its own.
_PSQL_LINE = re.compile(r"^\\.*$\n?", re.MULTILINE)
_TRANSACTION_CONTROL = {"BEGIN;", "COMMIT;"}
# A NOTICE the port raises itself (RAISE NOTICE, SQLSTATE 00000) says what it left out.
_PORT_NOTICE = "00000"
# What separates statements: a dollar-quote tag, a quote, a line comment or a semicolon.
_TOKEN = re.compile(r"\$[A-Za-z_][A-Za-z0-9_]*\$|\$\$|'|--[^\n]*|;")


def script() -> str:
    return resources.files("pkbench.server").joinpath("sql/sequuid.sql").read_text()


def split_statements(text: str) -> list[str]:
    """The statements of a psql-free SQL script, split at the semicolons outside quotes and comments."""
    statements: list[str] = []
    start = 0
    dollar_tag: str | None = None
    in_quote = False
    for token in _TOKEN.finditer(text):
        value = token.group()
        if dollar_tag is not None:
            if value == dollar_tag:
                dollar_tag = None
        elif in_quote:
            in_quote = value != "'"
        elif value == "'":
            in_quote = True
        elif value.startswith("$"):
            dollar_tag = value
        elif value == ";":
            statements.append(text[start : token.end()].strip())
            start = token.end()
    rest = text[start:].strip()
    if rest and not all(line.strip().startswith("--") for line in rest.splitlines() if line.strip()):
        statements.append(rest)
    return [s for s in statements if s.strip(" \n;")]


@dataclass
class Installed:
    """What the port installation left out (what needs privileges this user lacks), as the port said it."""

    left_out: list[str] = field(default_factory=list)


def install(conn: psycopg.Connection[tuple[object, ...]], schema: str) -> Installed:
    """Install the port into `schema` (the connection's search_path must start with it); raises
    psycopg.Error if a statement other than a privileged one fails."""
    quoted = sql.Identifier(schema).as_string(conn)
    text = _HELPER_SCHEMA.sub(lambda m: m.group()[: -len("sequuid")] + quoted, script())
    text = text.replace(_HELPER_SCHEMA_LITERAL, sql.Literal(schema).as_string(conn) + "::name")
    text = _PSQL_LINE.sub("", text)
    installed = Installed()

    def port_notice(notice: psycopg.errors.Diagnostic) -> None:
        if notice.sqlstate == _PORT_NOTICE and notice.message_primary:
            installed.left_out.append(notice.message_primary)

    conn.add_notice_handler(port_notice)
    try:
        with conn.transaction():
            for statement in split_statements(text):
                if statement not in _TRANSACTION_CONTROL:
                    conn.execute(statement.encode())
    finally:
        conn.remove_notice_handler(port_notice)
    return installed
