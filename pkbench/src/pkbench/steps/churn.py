"""`churn` steps: a table kept at a fixed size while rows stream through it (insert new, delete oldest), with
the key's index followed over time.

Each transaction runs the step's statements once with `{batch}` rows; the step runs `rows` rows through in
`samples` equal stretches. After each stretch it records the index's size and leaf density (pgstatindex),
the WAL the stretch wrote split into full-page images and records, and the btree splits on the index
(pg_walinspect). A split takes one page: a recycled one if the free space map has one, else a new one at the
end of the file. So the pages a stretch reused are its splits minus the pages the index grew by, and the
pages VACUUM freed in it are the change in deleted pages plus those reused.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

import psycopg

from pkbench import schema
from pkbench.errors import PkbenchError, first_line
from pkbench.probes import pgstattuple
from pkbench.probes.walinspect import (
    BTREE_SPLIT_RECORDS,
    WALINSPECT_EXTENSION,
    WalInspectUnavailable,
    WalWindow,
)
from pkbench.steps.context import StepContext, Stopwatch

PAGE_BYTES = 8192


@dataclass(frozen=True)
class ChurnStep:
    """Run `rows` rows through the table, `batch_rows` per transaction, sampling `index` `samples` times."""

    name: str
    rows_parameter: str
    batch_parameter: str
    samples: int
    index: str
    statements: tuple[str, ...]
    # CHECKPOINT before each stretch: its WAL then holds an image of every page it is the first to
    # change since, so full-page-image bytes per insert count the pages the keys spread over.
    checkpoint: bool = False
    # VACUUM the table before each stretch too, as a scheduled job would: pages emptied in one stretch are
    # then free for the next whatever autovacuum's pace on a busy machine.
    vacuum: bool = False

    def texts(self) -> list[str]:
        return list(self.statements)


class Schema(schema.StepSchema):
    kind: Literal["churn"]
    # The parameters that hold the rows run through and the rows per transaction.
    rows: schema.Text
    batch_rows: schema.Text = "batch_rows"
    samples: schema.PositiveInt = 8
    index: schema.Text
    statements: schema.SqlList
    checkpoint: schema.Boolean = False
    vacuum: schema.Boolean = False


def parse(where: str, table: Mapping[str, Any]) -> ChurnStep:
    checked = schema.validate(Schema, where, table)
    if not checked.statements:
        raise PkbenchError(f"{where}: 'statements' must name at least one SQL statement")
    return ChurnStep(
        checked.name,
        checked.rows,
        checked.batch_rows,
        checked.samples,
        checked.index,
        tuple(checked.statements),
        checked.checkpoint,
        checked.vacuum,
    )


def _autovacuums(conn: psycopg.Connection[Any], table: str) -> int | None:
    row = conn.execute(
        "SELECT autovacuum_count FROM pg_stat_all_tables WHERE relid = %s::regclass", (table,)
    ).fetchone()
    return int(str(row[0])) if row and row[0] is not None else None


def _index_figures(conn: psycopg.Connection[Any], index: str) -> dict[str, Any]:
    figures = pgstattuple.index_density(conn, index)
    return {
        key: figures[key]
        for key in ("index_bytes", "leaf_pages", "avg_leaf_density", "deleted_pages", "empty_pages")
    }


def page_turnover(
    before: Mapping[str, Any], after: Mapping[str, Any], splits: int | None
) -> dict[str, int | None]:
    """Pages a stretch reused and pages VACUUM freed in it, from two pgstatindex readings and its splits."""
    if splits is None:
        return {"pages_reused": None, "pages_freed": None}
    grown = (after["index_bytes"] - before["index_bytes"]) // PAGE_BYTES
    reused = max(0, splits - grown)
    return {"pages_reused": reused, "pages_freed": after["deleted_pages"] - before["deleted_pages"] + reused}


def _per_insert(value: int | None, rows: int) -> float | None:
    return round(value / rows, 2) if value is not None and rows else None


def run(ctx: StepContext, step: ChurnStep) -> None:
    total = ctx.int_parameter(step.rows_parameter)
    batch = ctx.int_parameter(step.batch_parameter)
    if batch < 1:
        raise PkbenchError(f"{step.batch_parameter} must be at least 1")
    for extension in (pgstattuple.EXTENSION, WALINSPECT_EXTENSION):
        ctx.require_extension(extension, step.name)
    index = f'"{ctx.ws.schema}"."{ctx.render(step.index)}"'
    table = f'"{ctx.ws.schema}"."{ctx.table}"'
    stretch = math.ceil(total / step.samples)
    with ctx.connect() as conn, ctx.ws.connection.connect() as probe:
        with ctx.errors_named(step.name, pgstattuple.PgstattupleUnavailable):
            previous = _index_figures(probe, index)
        samples: list[dict[str, Any]] = [
            {"rows_inserted": 0, "elapsed_s": 0.0, **previous, "autovacuums": _autovacuums(probe, table)}
        ]
        done, elapsed = 0, 0.0
        with ctx.reporter.progress(f"  {step.name} {ctx.strategy_name}", total) as bar:
            while done < total:
                rows = min(stretch, total - done)
                if step.vacuum:
                    probe.execute(f"VACUUM {table}")
                if step.checkpoint:
                    _checkpoint(probe, step.name)
                seconds, inspection = _stretch(ctx, conn, probe, step.statements, rows, batch, index)
                done += rows
                elapsed += seconds
                bar.update(done, f"{rows / seconds:,.0f} rows/s" if seconds > 0 else "")
                figures = _index_figures(probe, index)
                splits = inspection.index_splits
                samples.append(
                    {
                        "rows_inserted": done,
                        "elapsed_s": round(elapsed, 3),
                        "inserts_per_s": round(rows / seconds, 1) if seconds > 0 else None,
                        **figures,
                        "page_splits": splits,
                        **page_turnover(previous, figures, splits),
                        "wal_bytes_per_insert": _per_insert(inspection.wal_bytes, rows),
                        "wal_fpi_bytes_per_insert": _per_insert(inspection.fpi_bytes, rows),
                        "index_fpi_bytes_per_insert": _per_insert(inspection.index_fpi_bytes, rows),
                        "autovacuums": _autovacuums(probe, table),
                    }
                )
                previous = figures
    ctx.result.timelines[step.name] = samples
    ctx.record_duration(step.name, elapsed)
    first, last = samples[0], samples[-1]
    ctx.reporter.info(
        f"  {step.name}: {done:,} rows through in {elapsed:.1f} s; {step.index} "
        f"{first['index_bytes'] / 2**20:.1f} → {last['index_bytes'] / 2**20:.1f} MiB, leaf density "
        f"{last['avg_leaf_density'] or 0:.0%}"
    )


def _checkpoint(conn: psycopg.Connection[Any], step: str) -> None:
    try:
        conn.execute("CHECKPOINT")
    except psycopg.errors.InsufficientPrivilege as error:
        raise PkbenchError(f"{step}: checkpoint = true needs CHECKPOINT: {first_line(error)}") from error


# The stretch's WAL in one pass: every record's length and full-page-image bytes, the images of the index's
# pages, and the btree split records on the index (a block reference names its file; a record of the heap
# or of the index refers to that relation only). The probe module's per-relation reading parses
# every record's block references, which on PostgreSQL 15 costs many times the stretch itself.
_STRETCH_WAL = """
SELECT coalesce(sum(record_length), 0)::bigint,
       coalesce(sum(fpi_length), 0)::bigint,
       coalesce(sum(fpi_length) FILTER (WHERE block_ref ~ %(relation)s), 0)::bigint,
       count(*) FILTER (WHERE resource_manager = 'Btree' AND record_type = ANY(%(splits)s)
                          AND block_ref ~ %(relation)s)
  FROM pg_get_wal_records_info(%(start)s, %(end)s)
"""


@dataclass(frozen=True)
class StretchWal:
    wal_bytes: int
    fpi_bytes: int
    index_fpi_bytes: int
    index_splits: int


def _read_wal(probe: psycopg.Connection[Any], start: str, index: str) -> StretchWal:
    row = probe.execute(
        "SELECT pg_current_wal_flush_lsn(), pg_relation_filenode(%s::regclass)", (index,)
    ).fetchone()
    assert row is not None
    end, filenode = str(row[0]), int(str(row[1]))
    if end == start:
        return StretchWal(0, 0, 0, 0)
    try:
        found = probe.execute(
            _STRETCH_WAL,
            {
                "start": start,
                "end": end,
                "splits": list(BTREE_SPLIT_RECORDS),
                "relation": rf"rel \d+/\d+/{filenode} ",
            },
        ).fetchone()
    except psycopg.Error as error:
        raise WalInspectUnavailable(first_line(error)) from error
    assert found is not None
    return StretchWal(*(int(value) for value in found))


def _stretch(
    ctx: StepContext,
    conn: psycopg.Connection[Any],
    probe: psycopg.Connection[Any],
    statements: tuple[str, ...],
    rows: int,
    batch: int,
    index: str,
) -> tuple[float, StretchWal]:
    """Run `rows` rows through in transactions of `batch`; the seconds it took and the WAL it wrote."""
    try:
        with WalWindow(probe, slot_name=f"pkbench_{ctx.ws.schema}"[:63]) as window:
            assert window.start_lsn is not None
            took = Stopwatch()
            full = [ctx.render(s, batch=batch) for s in statements]
            done = 0
            while done < rows:
                n = min(batch, rows - done)
                with conn.transaction():
                    for statement in full if n == batch else [ctx.render(s, batch=n) for s in statements]:
                        conn.execute(statement)
                done += n
            return took.elapsed(), _read_wal(probe, window.start_lsn, index)
    except WalInspectUnavailable as error:
        raise PkbenchError(f"churn: pg_walinspect: {first_line(error)}") from error
