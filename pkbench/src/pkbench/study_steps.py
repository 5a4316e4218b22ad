"""What the study scenarios (insert-scaling, wal, bloat, read) need beyond war's steps.

The `density` and `copy` step handlers, and the pg_walinspect window a `pgbench` step opens when its scenario
asks for `wal_inspect`. The runner registers the handlers next to its own (runner.STEP_HANDLERS).
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from pkbench.errors import PkbenchError
from pkbench.probes import Connection, Unavailable, pgstattuple
from pkbench.probes.walinspect import WalInspection, WalInspectUnavailable, WalWindow
from pkbench.scenario import CopyStep, DensityStep, PgbenchStep, Step

if TYPE_CHECKING:
    from pkbench.results import WorkloadResult
    from pkbench.runner import StrategyRun

WALINSPECT_EXTENSION = "pg_walinspect"
PGSTATTUPLE_EXTENSION = "pgstattuple"
# The workload fields only pg_walinspect fills (WalInspection.figures names them all).
WALINSPECT_FIGURES = ("wal_fpi_bytes", "page_splits")


def density_step(ctx: StrategyRun, step: Step) -> None:
    """pgstatindex of each index and pgstattuple of each table, under the step's name."""
    assert isinstance(step, DensityStep)
    reason = ctx.ws.ensure_extension(PGSTATTUPLE_EXTENSION)
    if reason:
        raise PkbenchError(f"{step.name}: {reason}")
    figures: dict[str, Any] = {}
    with ctx.connect() as conn:
        try:
            for index in step.indexes:
                figures[index] = pgstattuple.index_density(conn, ctx.render(index))
            for table in step.tables:
                figures[table] = pgstattuple.table_tuples(conn, ctx.render(table))
        except pgstattuple.PgstattupleUnavailable as error:
            raise PkbenchError(f"{step.name}: {error}") from error
    ctx.result.density[step.name] = figures
    described = ", ".join(
        f"{name} leaf density {values['avg_leaf_density']:.0%}"
        for name, values in figures.items()
        if values.get("avg_leaf_density") is not None
    )
    if described:
        ctx.console.print(f"  {step.name}: {described}", highlight=False)


def copy_step(ctx: StrategyRun, step: Step) -> None:
    """Stream the rows of `source` into `target` (COPY ... FROM STDIN) from the client; timed."""
    assert isinstance(step, CopyStep)
    started = time.monotonic()
    rows = 0
    with (
        ctx.connect() as source,
        ctx.connect() as target,
        source.cursor().copy(f"COPY ({ctx.render(step.source)}) TO STDOUT") as out,
        target.cursor().copy(ctx.render(step.target)) as into,
    ):
        for chunk in out:
            into.write(chunk)
            rows += bytes(chunk).count(b"\n")
    duration = time.monotonic() - started
    ctx.result.step_durations_s[step.name] = round(duration, 3)
    ctx.console.print(f"  {step.name}: {rows:,} rows copied in {duration:.1f} s", highlight=False)


@contextlib.contextmanager
def wal_window(
    ctx: StrategyRun, conn: Connection, step: PgbenchStep, workload: WorkloadResult
) -> Iterator[WalWindow | None]:
    """Hold the WAL of the measured window when the step asks for it; None (and the reason noted) if not."""
    if step.wal_inspect is None:
        yield None
        return
    reason = ctx.ws.ensure_extension(WALINSPECT_EXTENSION)
    if reason:
        workload.unavailable += [Unavailable(metric, reason) for metric in WALINSPECT_FIGURES]
        yield None
        return
    try:
        window = WalWindow(conn, slot_name=f"pkbench_{ctx.ws.schema}"[:63])
        window.__enter__()
    except WalInspectUnavailable as error:
        workload.unavailable += [Unavailable(metric, str(error)) for metric in WALINSPECT_FIGURES]
        yield None
        return
    try:
        yield window
    finally:
        window.__exit__(None, None, None)


def inspect_wal(
    ctx: StrategyRun, window: WalWindow | None, step: PgbenchStep, workload: WorkloadResult
) -> WalInspection | None:
    """Read the window's WAL back; the relations named by the step are in the run's schema."""
    if window is None:
        return None
    relations = {name: f'"{ctx.ws.schema}"."{ctx.render(name)}"' for name in step.wal_inspect or ()}
    try:
        return window.inspect(relations)
    except WalInspectUnavailable as error:
        workload.unavailable += [Unavailable(metric, str(error)) for metric in WALINSPECT_FIGURES]
        return None


def record_wal(workload: WorkloadResult, inspection: WalInspection) -> None:
    for name, value in inspection.figures(workload.transactions or 0).items():
        setattr(workload, name, value)
