"""What `pkbench inspect` writes: the versioned JSON document (docs/inspect.md describes every field), the
markdown to paste into a ticket (within what a ticket holds), the summary and cells the terminal shows, and
the CI check (--fail-on).

Whatever the format, counts per status come first, then what was not read (each reason once, with how many
tables it kept a figure from), then the tables in ranked order; names are printed as SQL identifiers."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pkbench.server import connection, sizing
from pkbench.survey import classify, names
from pkbench.survey.facts import ServerFacts
from pkbench.survey.placement import STATUSES, Entry
from pkbench.text import MISSING, binary_size, markdown_table, parse_bytes

SCHEMA = "pkbench-inspect"
# Raised when a field changes meaning or goes; a new field keeps the version.
VERSION = 1
FAIL_ON = ("random-keys", "range-end")
# What an issue or a ticket holds (GitHub's limit on an issue's body): --format md stays within it.
MARKDOWN_LIMIT = 65_536
# Tables named beside a reason a figure was not read, the rest counted.
NAMED = 3
# Reasons a figure was not read said one a line; the rest are counted by figure.
REASONS = 8
LOCAL_HOSTS = ("localhost", "127.0.0.1", "::1")


@dataclass(frozen=True)
class Memory:
    bytes: int | None
    source: str


def server_memory(given: str | None, info: connection.ConnectionInfo) -> Memory:
    """The memory the server may use: --server-memory, else this machine's where the server runs here."""
    if given is not None:
        return Memory(parse_bytes(given, "--server-memory"), "given by --server-memory")
    host = info.params.get("host", "")
    if not host or host.startswith("/") or host in LOCAL_HOSTS:
        return Memory(sizing.machine_memory_bytes(), "this machine's: the server runs here")
    return Memory(None, "give --server-memory for the beyond-RAM tier")


def document(
    server: ServerFacts, memory: Memory, runs_dir: Path | None, entries: Sequence[Entry]
) -> dict[str, Any]:
    return {
        "schema": SCHEMA,
        "version": VERSION,
        "server": {
            "version": server.version,
            "database": server.database,
            "shared_buffers_bytes": server.shared_buffers,
            "memory_bytes": memory.bytes,
            "memory_source": memory.source,
            "read_at": server.read_at.isoformat(),
            "statistics_reset_at": server.stats_reset.isoformat() if server.stats_reset else None,
            "superuser": server.superuser,
            "roles": list(server.roles),
            "extensions": sorted(server.extensions),
        },
        "committed_runs": str(runs_dir) if runs_dir is not None else None,
        "ranking": basis_words(entries, _reset(server)),
        "counts": counts(entries),
        "tables": [e.as_json() for e in entries],
    }


def _reset(server: ServerFacts) -> str | None:
    return f"{server.stats_reset:%Y-%m-%d %H:%M %Z}" if server.stats_reset else None


def basis_words(entries: Sequence[Entry], statistics_reset: str | None) -> str:
    """How the survey's tables were ranked (survey/ranking.py), in one line, with what the inserts are
    counted over."""
    bases = {e.rank_basis for e in entries}
    if "rate watched" in bases:
        inserts = "the insert rate over --watch"
    elif "rows inserted" in bases or "insert rate" in bases:
        since = (
            f"since the statistics were reset ({statistics_reset})"
            if statistics_reset
            else "since the statistics began (never reset, so no rate is known)"
        )
        inserts = f"rows inserted {since}, with a random key's children's into their foreign-key indexes,"
    else:
        inserts = "the key index's size (no insert counts were readable)"
    return (
        f"ranked by status ({', '.join(STATUSES)}), then by what the table costs now: {inserts} times the "
        "extra time an insert takes against bigint's, or the extra WAL where that is its only cost; integer "
        "keys nearing their end by the days they have left, then by the share of their range used"
    )


def counts(entries: Sequence[Entry]) -> dict[str, int]:
    """How many tables have each status, in STATUSES's order (a status no table has left out)."""
    found = {status: sum(1 for e in entries if e.status == status) for status in STATUSES}
    return {status: n for status, n in found.items() if n}


def counts_line(entries: Sequence[Entry]) -> str:
    """`1,060 tables: 2 flagged, 130 costs, 928 fine`."""
    said = ", ".join(f"{n:,} {status}" for status, n in counts(entries).items())
    return f"{len(entries):,} table{'' if len(entries) == 1 else 's'}" + (f": {said}" if said else "")


def not_read(entries: Sequence[Entry]) -> list[str]:
    """Each reason a figure was not read, once: the figure, what it needs, how many tables, the first few
    (none where it is every table's). The most common REASONS are said each; the rest, one figure a line
    (a reason of each table's own, such as the ANALYZE each needs, would be a line a table)."""
    groups: dict[tuple[str, str], list[str]] = {}
    for entry in entries:
        for figure, needs in entry.unknown.items():
            groups.setdefault((figure, needs), []).append(entry.identifier)
    ordered = sorted(groups.items(), key=lambda g: (-len(g[1]), g[0]))
    lines = []
    for (figure, needs), tables in ordered[:REASONS]:
        if len(tables) == len(entries) > 1:
            lines.append(f"{figure}: unknown (needs {needs}) for all {len(tables):,} tables")
            continue
        named = ", ".join(tables[:NAMED]) + (
            f" and {len(tables) - NAMED:,} more" if len(tables) > NAMED else ""
        )
        lines.append(f"{figure}: unknown (needs {needs}) for {len(tables):,} table{_s(tables)}: {named}")
    rest: dict[str, list[tuple[str, list[str]]]] = {}
    for (figure, needs), tables in ordered[REASONS:]:
        rest.setdefault(figure, []).append((needs, tables))
    for figure, reasons in rest.items():
        count = sum(len(tables) for _, tables in reasons)
        lines.append(
            f"{figure}: unknown for {count:,} more table{'' if count == 1 else 's'}, for {len(reasons):,} "
            f"other reason{_s(reasons)} (such as: needs {reasons[0][0]}); --format json gives each table's"
        )
    return lines


def _s(items: Sequence[object]) -> str:
    return "" if len(items) == 1 else "s"


def json_text(doc: dict[str, Any]) -> str:
    return json.dumps(doc, indent=2, default=str) + "\n"


def _share(value: float | None) -> str:
    return f"{value:.0%}" if value is not None else MISSING


def unknown(entry: Entry, figure: str, shown: str | None) -> str:
    """A figure, or "unknown" where the survey could not read it (why is said once, in `not_read`)."""
    if shown is not None:
        return shown
    return "unknown" if figure in entry.unknown else MISSING


def cells(entry: Entry) -> dict[str, str]:
    """The figures of one table as the terminal and the markdown show them."""
    ordering = f"{entry.ordering_words} ({entry.ordering:.2f})" if entry.ordering is not None else None
    rate = f"{entry.inserts_per_s:,.1f}/s" if entry.inserts_per_s is not None else None
    index = binary_size(entry.index_bytes) if entry.index_bytes is not None else MISSING
    columns = zip(entry.key, entry.key_types, strict=True)
    key = ", ".join(f"{names.quote_ident(c)} {t}" for c, t in columns) or (
        unknown(entry, "key", None) if "key" in entry.unknown else "no key"
    )
    return {
        "table": entry.identifier,
        "key": key,
        "kind": entry.kind_words,
        "made by": entry.generator or MISSING,
        "values": unknown(entry, "values", entry.values),
        "ordering": unknown(entry, "values", ordering),
        "range used": _share(entry.range_used)
        if entry.range_used is not None
        else unknown(entry, "range used", None if entry.leading_kind in ("bigint", "integer") else MISSING),
        "index": index,
        "tier": entry.tier or MISSING,
        "inserts": unknown(entry, "insert rate", rate),
        "FPI share": unknown(
            entry, "full-page image share", _share(entry.fpi_share) if entry.fpi_share is not None else None
        ),
        "leaf density": unknown(
            entry, "leaf density", _share(entry.leaf_density) if entry.leaf_density is not None else None
        ),
        "cached": unknown(
            entry, "cached share", _share(entry.cached_share) if entry.cached_share is not None else None
        ),
        "status": entry.status,
        "ranked by": entry.rank_by,
    }


SHORT_COLUMNS = (
    "table",
    "key",
    "kind",
    "made by",
    "ordering",
    "range used",
    "index",
    "tier",
    "inserts",
    "status",
)
# The columns of the terminal's list (the rest of the figures are in each table's line, and in the JSON).
TERMINAL_COLUMNS = ("table", "kind", "index", "tier", "range used", "status", "ranked by")


def answer_lines(entries: Sequence[Entry]) -> list[str]:
    """Each table in one line, ranked: its placement and cell, or that it is fine, or why it is not placed."""
    lines = []
    for entry in entries:
        lines.append(f"- **{entry.identifier}** ({entry.status}): {entry.summary}.")
        if entry.rank_by:
            lines.append(f"  - ranked by {entry.rank_by}.")
        for placement in entry.placements[1:]:
            lines.append(f"  - also {placement.label}: {placement.words}.")
        for placement in entry.placements[:1]:
            if placement.alternative:
                lines.append(f"  - switching to v7 there: {placement.alternative}.")
        for finding in entry.findings:
            lines.append(f"  - {finding}.")
        if entry.model is not None:
            lines.append(
                f"  - at this server's settings, by the model (pkbench predict): {entry.model['words']}."
            )
        for child in entry.children:
            lines.append(
                f"  - child {child['table']} ({', '.join(child['columns'])}): "
                f"{binary_size(child['total_bytes'])}"
                f"{'' if child['indexed'] else ', no index on its foreign key'}."
            )
    return lines


def markdown(doc: dict[str, Any], entries: Sequence[Entry], limit: int | None = MARKDOWN_LIMIT) -> str:
    """The survey as markdown: counts per status first, what was not read, then the tables in ranked order,
    as many as fit within LIMIT characters (None: every table), the rest counted with how to get them."""
    server = doc["server"]
    memory = (
        f"{binary_size(server['memory_bytes'])} ({server['memory_source']})"
        if server["memory_bytes"]
        else f"not known ({server['memory_source']})"
    )
    unread = not_read(entries)
    head = [
        f"# Keys of database {server['database']}",
        "",
        f"**{counts_line(entries)}**",
        "",
        f"PostgreSQL {server['version']}, shared_buffers {binary_size(server['shared_buffers_bytes'])}, "
        f"memory {memory}; read {server['read_at']} by `pkbench inspect` (read-only). "
        f"Tables {doc['ranking']}.",
        "",
        *(["## Not read", "", *(f"- {line}" for line in unread), ""] if unread else []),
    ]
    tail = [
        "",
        "Cells from the committed which-key table"
        + (f" ({doc['committed_runs']})" if doc["committed_runs"] else " (not found: give --runs)")
        + "; a run named in brackets is the one the cell comes from.",
    ]
    rows = [[cells(e)[c] for c in SHORT_COLUMNS] for e in entries]
    header = markdown_table(list(SHORT_COLUMNS), [])
    shown = len(entries) if limit is None else _fitting(head + header + tail, entries, rows, limit)
    rest = entries[shown:]
    left = (
        [
            "",
            f"{counts_line(rest)} more not shown here, to keep within {limit:,} characters: "
            "`--format md --all` writes every table, `--format json` every figure.",
        ]
        if rest
        else []
    )
    lines = [
        *head,
        "## Tables, ranked",
        "",
        *answer_lines(entries[:shown]),
        "",
        *markdown_table(list(SHORT_COLUMNS), rows[:shown]),
        *left,
        *tail,
    ]
    return "\n".join(lines) + "\n"


# Room kept for the headings and the line that counts the tables left out.
MARKDOWN_MARGIN = 600


def _fitting(fixed: list[str], entries: Sequence[Entry], rows: list[list[str]], limit: int) -> int:
    """How many of ENTRIES (their answer lines and table rows) fit with the FIXED lines within LIMIT."""
    used = sum(len(line) + 1 for line in fixed) + MARKDOWN_MARGIN
    for shown, (entry, row) in enumerate(zip(entries, rows, strict=True)):
        lines = [*answer_lines([entry]), *markdown_table(list(SHORT_COLUMNS), [row])[2:]]
        used += sum(len(line) + 1 for line in lines)
        if used > limit:
            return shown
    return len(entries)


def failures(entries: Sequence[Entry], fail_on: Sequence[str], above: int) -> list[str]:
    """The tables that fail the CI check: a random key or one mid-way between kinds (classify.GATED_KINDS;
    its key index at least ABOVE bytes), an integer key past classify.RANGE_FLAG of its range."""
    failed = []
    for entry in entries:
        size = entry.index_bytes or 0
        if "random-keys" in fail_on and entry.leading_kind in classify.GATED_KINDS and size >= above:
            failed.append(f"{entry.identifier} has {entry.kind_words} (key index {binary_size(size)})")
        if (
            "range-end" in fail_on
            and entry.range_used is not None
            and entry.range_used >= classify.RANGE_FLAG
        ):
            failed.append(
                f"{entry.identifier}'s {entry.key_types[0]} key is at {entry.range_used:.0%} of its range"
            )
    return failed
