"""What `pkbench inspect` writes: the versioned JSON document (docs/inspect.md describes every field), the
markdown to paste into a ticket, the cells the terminal's table shows, and the CI check (--fail-on)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pkbench.survey import classify
from pkbench.survey.facts import ServerFacts
from pkbench.survey.placement import Entry
from pkbench.text import MISSING, binary_size, markdown_table

SCHEMA = "pkbench-inspect"
# Raised when a field changes meaning or goes; a new field keeps the version.
VERSION = 1
RANKING = (
    "tables whose key costs (slower than bigint, or heavier in WAL, by the which-key rule) first, by inserts "
    "per second x the extra time an insert takes against bigint's (1/ratio - 1), then by that extra time and "
    "the WAL over bigint's; then flagged, not resolved, fine, and not placed"
)
FAIL_ON = ("random-keys", "range-end")


@dataclass(frozen=True)
class Memory:
    bytes: int | None
    source: str


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
        "ranking": RANKING,
        "tables": [e.as_json() for e in entries],
    }


def json_text(doc: dict[str, Any]) -> str:
    return json.dumps(doc, indent=2, default=str) + "\n"


def _share(value: float | None) -> str:
    return f"{value:.0%}" if value is not None else MISSING


def unknown(entry: Entry, figure: str, shown: str | None) -> str:
    """A figure, or "unknown (needs ...)" where the survey could not read it."""
    if shown is not None:
        return shown
    needs = entry.unknown.get(figure)
    return f"unknown (needs {needs})" if needs else MISSING


def cells(entry: Entry) -> dict[str, str]:
    """The figures of one table as the terminal and the markdown show them."""
    ordering = f"{entry.ordering_words} ({entry.ordering:.2f})" if entry.ordering is not None else None
    rate = f"{entry.inserts_per_s:,.1f}/s" if entry.inserts_per_s is not None else None
    index = binary_size(entry.index_bytes) if entry.index_bytes is not None else MISSING
    key = ", ".join(f"{c} {t}" for c, t in zip(entry.key, entry.key_types, strict=True)) or (
        unknown(entry, "key", None) if "key" in entry.unknown else "no key"
    )
    return {
        "table": entry.table,
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


def answer_lines(entries: Sequence[Entry]) -> list[str]:
    """Each table in one line, ranked: its placement and cell, or that it is fine, or why it is not placed."""
    lines = []
    for entry in entries:
        lines.append(f"- **{entry.table}** ({entry.status}): {entry.summary}.")
        for placement in entry.placements[1:]:
            lines.append(f"  - also {placement.label}: {placement.words}.")
        for placement in entry.placements[:1]:
            if placement.alternative:
                lines.append(f"  - switching to v7 there: {placement.alternative}.")
        for finding in entry.findings:
            lines.append(f"  - {finding}.")
        for child in entry.children:
            lines.append(
                f"  - child {child['table']} ({', '.join(child['columns'])}): "
                f"{binary_size(child['total_bytes'])}"
                f"{'' if child['indexed'] else ', no index on its foreign key'}."
            )
    return lines


def markdown(doc: dict[str, Any], entries: Sequence[Entry]) -> str:
    server = doc["server"]
    memory = (
        f"{binary_size(server['memory_bytes'])} ({server['memory_source']})"
        if server["memory_bytes"]
        else f"not known ({server['memory_source']})"
    )
    lines = [
        f"# Keys of database {server['database']}",
        "",
        f"PostgreSQL {server['version']}, shared_buffers {binary_size(server['shared_buffers_bytes'])}, "
        f"memory {memory}; read {server['read_at']} by `pkbench inspect` (read-only). "
        f"Ranked: {doc['ranking']}.",
        "",
        *answer_lines(entries),
        "",
        *markdown_table(list(SHORT_COLUMNS), [[cells(e)[c] for c in SHORT_COLUMNS] for e in entries]),
        "",
        "Cells from the committed which-key table"
        + (f" ({doc['committed_runs']})" if doc["committed_runs"] else " (not found: give --runs)")
        + "; a run named in brackets is the one the cell comes from.",
    ]
    return "\n".join(lines) + "\n"


def failures(entries: Sequence[Entry], fail_on: Sequence[str], above: int) -> list[str]:
    """The tables that fail the CI check: a random key (its key index at least ABOVE bytes), an integer key
    past classify.RANGE_FLAG of its range."""
    failed = []
    for entry in entries:
        size = entry.index_bytes or 0
        if "random-keys" in fail_on and entry.leading_kind in classify.RANDOM_KINDS and size >= above:
            failed.append(f"{entry.table} has {entry.kind_words} (key index {binary_size(size)})")
        if (
            "range-end" in fail_on
            and entry.range_used is not None
            and entry.range_used >= classify.RANGE_FLAG
        ):
            failed.append(
                f"{entry.table}'s {entry.key_types[0]} key is at {entry.range_used:.0%} of its range"
            )
    return failed
