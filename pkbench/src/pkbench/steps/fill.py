"""`fill` steps: a batched INSERT repeated until `rows` rows are in; timed, and headlined as the prefill."""

from __future__ import annotations

import threading
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

import psycopg

from pkbench import schema
from pkbench.errors import first_line
from pkbench.results.model import Prefill, Unavailable
from pkbench.steps.context import StepContext, Stopwatch, seed_random


@dataclass(frozen=True)
class FillStep:
    """A batched INSERT repeated until `rows` rows are in, with a progress bar; timed as the prefill."""

    name: str
    rows_parameter: str
    batch_parameter: str
    statement: str
    # When set, `rows` is the table's size after the step, not the rows it adds: successive fills then
    # read as the sizes a study measures at (0, 1M, 5M ...), and a --rows override moves only the last.
    total: bool = False
    # The parameter holding how many sessions insert batches at once (None: one). The indexes are in place
    # either way, so they grow by inserts as a study's did; several sessions only use more cores.
    workers_parameter: str | None = None
    # Part (number, of how many) of the rows to insert now, after a CHECKPOINT: paired rounds alternate the
    # strategies' loads part by part. None: every row at once.
    part: tuple[int, int] | None = None
    # Write WAL for the part to recycle first: the cluster's first part, which no earlier part has left
    # recycled WAL segments.
    warm_wal: bool = False

    def texts(self) -> list[str]:
        return [self.statement]


class Schema(schema.StepSchema):
    kind: Literal["fill"]
    # The parameters that hold the row count and the batch size.
    rows: schema.Text = "rows"
    batch_rows: schema.Text = "batch_rows"
    statement: schema.Text
    total: schema.Boolean = False
    workers: schema.Text | None = None


def parse(where: str, table: Mapping[str, Any]) -> FillStep:
    checked = schema.validate(Schema, where, table)
    return FillStep(
        checked.name, checked.rows, checked.batch_rows, checked.statement, checked.total, checked.workers
    )


def run(ctx: StepContext, step: FillStep) -> None:
    total = ctx.int_parameter(step.rows_parameter)
    batch = ctx.int_parameter(step.batch_parameter)
    workers = ctx.int_parameter(step.workers_parameter) if step.workers_parameter else 1
    earlier = ctx.result.prefill if step.part is not None and step.part[0] > 1 else None
    if earlier is not None and earlier.step != step.name:
        earlier = None
    if step.total:
        with ctx.connect() as conn:
            row = conn.execute(f'SELECT count(*) FROM "{ctx.table}"').fetchone()
        already = int(str(row[0])) if row else 0
        total = max(0, total - already)
    elif earlier is not None:
        total = max(0, total - earlier.rows)
    if step.part is not None:
        number, count = step.part
        # An equal share of what is left, so every part of every strategy inserts as many rows.
        total //= max(1, count - number + 1)
        if step.warm_wal:
            _wal_warmup(ctx, total)
        # Each part starts from the same state, whoever loaded before it: nothing dirty left to write, and
        # the WAL segments written since the last checkpoint there to be recycled rather than created.
        with ctx.connect() as conn:
            try:
                conn.execute("CHECKPOINT")
            except psycopg.errors.InsufficientPrivilege as e:
                _unavailable(ctx, "checkpoint before each part of the load", first_line(e))
    label = step.name
    if step.part is not None:
        label = f"{step.name} part {step.part[0]}/{step.part[1]} of {ctx.strategy_name}"
    with (
        ctx.timed(step.name) as took,
        ctx.reporter.progress(f"  {step.name} {ctx.strategy_name}", total) as bar,
    ):
        _insert(ctx, step, total, batch, max(1, workers), lambda done: _shown(bar, done, took))
    duration = took.seconds
    # Rows beside step_durations_s, so a study's load time compares per row at the stage it was taken.
    inserted_before = ctx.result.step_rows.get(step.name, 0) if step.part and step.part[0] > 1 else 0
    ctx.result.step_rows[step.name] = inserted_before + total
    if step.name == ctx.insert_step:
        ctx.result.prefill = _prefill(step, earlier, total, duration)
        if earlier is not None:
            ctx.record_duration(step.name, ctx.result.prefill.duration_s)
    ctx.reporter.info(
        f"  {label}: {total:,} rows in {duration:.1f} s"
        + (f" ({total / duration:,.0f} rows/s, {workers} sessions)" if workers > 1 and duration else "")
    )


# About the WAL a row of the load writes, index entries and full-page images included, rounded up: the
# warm-up writes this much per row of a part, so that the part finds its WAL segments already made.
WARMUP_WAL_BYTES_PER_ROW = 1024
MIB = 1 << 20


def _wal_warmup(ctx: StepContext, rows: int) -> None:
    """WAL written and left to be recycled before the cluster's first part of the load, untimed.

    A cluster's first load creates its WAL segments, each zero-filled before use (wal_init_zero), while
    later loads reuse the segments a checkpoint recycled: without this, whichever strategy loaded first paid
    for the cluster's WAL as well as its own rows. A logical message writes WAL and creates nothing; the
    CHECKPOINT that follows lets the segments be recycled. Capped at half of max_wal_size, which bounds
    what a checkpoint keeps.
    """
    with ctx.connect() as conn:
        row = conn.execute("SELECT pg_size_bytes(current_setting('max_wal_size'))").fetchone()
        cap = int(str(row[0])) // 2 if row else 0
        megabytes = max(1, min(rows * WARMUP_WAL_BYTES_PER_ROW, cap) // MIB)
        try:
            conn.execute(
                "SELECT count(pg_logical_emit_message(false, 'pkbench-wal-warmup', repeat('x', %s)))"
                " FROM generate_series(1, %s)",
                (MIB, megabytes),
            )
        except psycopg.errors.InsufficientPrivilege as e:
            _unavailable(ctx, "WAL warm-up before the load", first_line(e))


def _unavailable(ctx: StepContext, what: str, reason: str) -> None:
    if not any(u.metric == what for u in ctx.result.unavailable):
        ctx.result.unavailable.append(Unavailable(what, reason))


def _prefill(step: FillStep, earlier: Prefill | None, rows: int, seconds: float) -> Prefill:
    """The headlined load so far: this part added to the earlier ones (or the whole load, unparted)."""
    if step.part is None:
        return Prefill(rows, round(seconds, 3), round(rows / seconds, 1) if seconds else None, step.name)
    parts_rows = [*(earlier.parts_rows or [] if earlier else []), rows]
    parts_s = [*(earlier.parts_s or [] if earlier else []), round(seconds, 3)]
    total_rows, total_s = sum(parts_rows), sum(parts_s)
    rate = round(total_rows / total_s, 1) if total_s else None
    return Prefill(total_rows, round(total_s, 3), rate, step.name, parts_rows, parts_s)


def _shown(bar: Any, done: int, took: Stopwatch) -> None:
    elapsed = took.elapsed()
    bar.update(done, f"{done / elapsed:,.0f} rows/s" if elapsed > 0 else "")


def batch_key(step: FillStep, offset: int) -> str:
    """What seeds random() for the batch of STEP that starts at row OFFSET of its part (seed_random)."""
    part = step.part[0] if step.part is not None else 0
    return f"{step.name}/{part}/{offset}"


def _insert(ctx: StepContext, step: FillStep, total: int, batch: int, workers: int, shown: Any) -> None:
    """Insert TOTAL rows in batches, from WORKERS sessions at once, each taking the next batch when done
    and seeding random() for it, so every strategy's load draws the same values batch by batch."""
    lock = threading.Lock()
    claimed = [0, 0]  # rows handed out, rows inserted
    errors: list[BaseException] = []

    def claim() -> tuple[int, int]:
        with lock:
            offset = claimed[0]
            n = 0 if errors else min(batch, total - offset)
            claimed[0] += n
            return offset, n

    def insert() -> None:
        try:
            with ctx.connect() as conn:
                while (claimed_batch := claim())[1] > 0:
                    offset, n = claimed_batch
                    seed_random(conn, batch_key(step, offset))
                    conn.execute(ctx.render(step.statement, batch=n))
                    with lock:
                        claimed[1] += n
        except BaseException as e:  # the first error stops every session and is raised below
            with lock:
                errors.append(e)

    sessions = [threading.Thread(target=insert, daemon=True) for _ in range(workers)]
    for session in sessions:
        session.start()
    for session in sessions:
        while session.is_alive():
            session.join(0.5)
            shown(claimed[1])
    if errors:
        raise errors[0]
