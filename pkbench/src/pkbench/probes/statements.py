"""Each strategy's share of an interleaved window's work, from pg_stat_statements by query id.

In an interleaved window every strategy's statements run in the same sessions, so the database's totals
(probes/work.py) mix them. Each strategy's statements are on its own table, so PostgreSQL 15 to 17 give them
query ids of their own; each SQL command of a strategy's script carries a comment naming the strategy, which
pg_stat_statements keeps in the text of the entry it creates for that query id. Snapshots before and after
the window, subtracted (a user's statistics are never reset), give each strategy's execution time, buffers and
WAL, divided by its transactions as pgbench counted them.

PostgreSQL 18 identifies a table by its name, not its schema, in query ids: the strategies' statements share
entries, and their figures are unavailable (a strategy's entries then count more calls than its transactions
can have made, or carry another strategy's comment).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import psycopg

from pkbench.errors import first_line
from pkbench.probes import Connection
from pkbench.results.model import Unavailable, WorkPerTransaction

TAG = "/* pkbench strategy "
_TAG_END = " */ "
SOURCE = "pg_stat_statements, the strategy's own statements (by query id)"
FIGURES = (
    "statement_time_ms",
    "shared_blocks_hit",
    "shared_blocks_read",
    "shared_blocks_dirtied",
    "shared_blocks_written",
    "wal_bytes",
    "wal_fpi",
)

_PG18 = " (PostgreSQL 18 gives tables of one name in different schemas one query id)"
_COUNTERS = """
SELECT userid::bigint, queryid, toplevel, calls, total_exec_time, shared_blks_hit, shared_blks_read,
       shared_blks_dirtied, shared_blks_written, wal_bytes::bigint, wal_fpi, query
  FROM pg_stat_statements(true)
 WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database())
   AND (query LIKE '/* pkbench strategy %' OR query IS NULL)
"""


def tag(strategy: str) -> str:
    return f"{TAG}{strategy}{_TAG_END}"


def tagged(script: str, strategy: str) -> tuple[str, int]:
    """SCRIPT with every SQL command starting with the strategy's tag, and how many SQL commands it has.
    Meta-commands (backslash lines) and comment lines stay as they are; a command ends at a semicolon outside
    quotes and comments, as pgbench splits them."""
    out: list[str] = []
    commands = 0
    i, n = 0, len(script)
    while i < n:
        char = script[i]
        if char.isspace():
            out.append(char)
            i += 1
        elif char == "\\" or script.startswith("--", i):
            end = _line_end(script, i, continued=char == "\\")
            out.append(script[i:end])
            i = end
        else:
            end = _command_end(script, i)
            out.append(tag(strategy) + script[i:end])
            commands += 1
            i = end
    return "".join(out), commands


def _line_end(script: str, start: int, *, continued: bool) -> int:
    """The end of the line at START; a meta-command goes on past a line ending in a backslash."""
    i = start
    while True:
        newline = script.find("\n", i)
        if newline < 0:
            return len(script)
        if not (continued and script[:newline].rstrip("\r").endswith("\\")):
            return newline
        i = newline + 1


def _command_end(script: str, start: int) -> int:
    """Just past the semicolon that ends the SQL command at START, or the script's end."""
    i, n = start, len(script)
    while i < n:
        char = script[i]
        if char in "'\"":
            close = script.find(char, i + 1)
            i = n if close < 0 else close + 1
        elif script.startswith("--", i):
            i = _line_end(script, i, continued=False)
        elif script.startswith("/*", i):
            close = script.find("*/", i + 2)
            i = n if close < 0 else close + 2
        elif char == ";":
            return i + 1
        else:
            i += 1
    return n


@dataclass(frozen=True)
class Entry:
    """One pg_stat_statements entry of a tagged statement."""

    strategy: str | None  # None: the entry's text was unreadable at that moment
    calls: int
    exec_time_ms: float
    shared_blocks_hit: int
    shared_blocks_read: int
    shared_blocks_dirtied: int
    shared_blocks_written: int
    wal_bytes: int
    wal_fpi: int


@dataclass(frozen=True)
class Snapshot:
    entries: Mapping[tuple[int, int, bool], Entry]  # by (userid, queryid, toplevel)
    deallocations: int | None  # entries evicted so far: any in the window loses counts


def strategy_of(query: str) -> str | None:
    """The strategy whose tag opens QUERY."""
    if not query.startswith(TAG):
        return None
    name, found, _ = query[len(TAG) :].partition(_TAG_END.rstrip())
    return name if found else None


def read(conn: Connection) -> Snapshot | str:
    """The tagged statements' counters now, or why they cannot be read. The caller has checked that
    pg_stat_statements is there (probes.work.statement_statistics)."""
    try:
        rows = conn.execute(_COUNTERS).fetchall()
        info = conn.execute("SELECT dealloc FROM pg_stat_statements_info").fetchone()
    except psycopg.Error as error:
        return f"pg_stat_statements: {first_line(error)}"
    entries: dict[tuple[int, int, bool], Entry] = {}
    for userid, queryid, toplevel, calls, exec_ms, hit, read_, dirtied, written, wal, fpi, query in rows:
        # pg_stat_statements returns no text while it garbage-collects its text file: such an entry is kept,
        # and the other snapshot's text names its strategy.
        strategy = None if query is None else strategy_of(str(query))
        if (strategy is None and query is not None) or queryid is None:
            continue
        counts = (int(str(v)) for v in (calls, hit, read_, dirtied, written, wal, fpi))
        calls_, hit_, read__, dirtied_, written_, wal_, fpi_ = counts
        entries[(int(str(userid)), int(str(queryid)), bool(toplevel))] = Entry(
            strategy, calls_, float(str(exec_ms)), hit_, read__, dirtied_, written_, wal_, fpi_
        )
    return Snapshot(entries, int(str(info[0])) if info else None)


def per_strategy(
    before: Snapshot,
    after: Snapshot,
    transactions: Mapping[str, int],
    commands: Mapping[str, int],
    *,
    clients: int,
) -> dict[str, WorkPerTransaction]:
    """Each strategy's work in the window per transaction: its entries' growth between the snapshots over
    its TRANSACTIONS. COMMANDS: the most SQL commands one transaction of the strategy runs, so that more calls
    than its transactions could make show an entry it shares with another strategy. pgbench does not count
    the transactions its CLIENTS had under way when the window ended, whose statements ran: at most one
    each, a bias of a few per mille that every strategy shares."""
    totals = {name: dict.fromkeys(("calls", *FIGURES), 0.0) for name in transactions}
    broken: str | None = None
    if before.deallocations is not None and after.deallocations != before.deallocations:
        broken = "pg_stat_statements evicted entries in the window (raise pg_stat_statements.max)"
    for key, new in after.entries.items():
        old = before.entries.get(key)
        strategy = new.strategy or (old.strategy if old is not None else None)
        if strategy not in totals:
            continue
        if old is not None and (
            new.calls < old.calls
            or (None not in (old.strategy, new.strategy) and old.strategy != new.strategy)
        ):
            broken = "pg_stat_statements was reset in the window"
            continue
        sums = totals[strategy]
        sums["calls"] += new.calls - (old.calls if old else 0)
        sums["statement_time_ms"] += new.exec_time_ms - (old.exec_time_ms if old else 0.0)
        for name in FIGURES[1:]:
            sums[name] += getattr(new, name) - (getattr(old, name) if old else 0)
    found: dict[str, WorkPerTransaction] = {}
    for name, count in transactions.items():
        sums = totals[name]
        reason = broken
        if reason is None and not sums["calls"]:
            reason = (
                f"no statement of this strategy's under a query id of its own in pg_stat_statements{_PG18}"
            )
        elif reason is None and sums["calls"] > (count + clients) * commands.get(name, 0):
            reason = f"its statements share pg_stat_statements entries with another strategy's{_PG18}"
        if reason is None and count > 0:
            spent = WorkPerTransaction(transactions=count, sources=dict.fromkeys(FIGURES, SOURCE))
            for figure in FIGURES:
                setattr(spent, figure, round(sums[figure] / count, 6))
            found[name] = spent
        else:
            why = reason or "the window ran no transaction of this strategy"
            found[name] = WorkPerTransaction(
                transactions=count, unavailable=[Unavailable(figure, why) for figure in FIGURES]
            )
    return found
