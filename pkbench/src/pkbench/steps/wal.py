"""The pg_walinspect window a `pgbench` step opens when its scenario asks for `wal_inspect`."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

from pkbench.probes import Connection
from pkbench.probes.walinspect import WalInspection, WalInspectUnavailable, WalWindow
from pkbench.results import Unavailable, WorkloadResult
from pkbench.steps.context import StepContext
from pkbench.steps.workload import WALINSPECT_FIGURES

WALINSPECT_EXTENSION = "pg_walinspect"


def unavailable(reason: str) -> list[Unavailable]:
    return [Unavailable(metric, reason) for metric in WALINSPECT_FIGURES]


@contextlib.contextmanager
def window(
    ctx: StepContext, conn: Connection, wal_inspect: tuple[str, ...] | None, workload: WorkloadResult
) -> Iterator[WalWindow | None]:
    """Hold the WAL of the measured window when the step asks for it; None (and the reason noted) if not."""
    if wal_inspect is None:
        yield None
        return
    reason = ctx.ws.ensure_extension(WALINSPECT_EXTENSION)
    if reason:
        workload.unavailable += unavailable(reason)
        yield None
        return
    try:
        held = WalWindow(conn, slot_name=f"pkbench_{ctx.ws.schema}"[:63])
        held.__enter__()
    except WalInspectUnavailable as error:
        workload.unavailable += unavailable(str(error))
        yield None
        return
    try:
        yield held
    finally:
        held.__exit__(None, None, None)


def inspect(
    ctx: StepContext, held: WalWindow | None, wal_inspect: tuple[str, ...] | None, workload: WorkloadResult
) -> WalInspection | None:
    """Read the window's WAL back; the relations named by the step are in the run's schema."""
    if held is None:
        return None
    relations = {name: f'"{ctx.ws.schema}"."{ctx.render(name)}"' for name in wal_inspect or ()}
    try:
        return held.inspect(relations)
    except WalInspectUnavailable as error:
        workload.unavailable += unavailable(str(error))
        return None
