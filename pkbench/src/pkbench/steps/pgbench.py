"""`pgbench` steps: a measured workload, pgbench running weighted scripts while the probes sample."""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, Literal

import psycopg

from pkbench import schema
from pkbench.errors import PkbenchError
from pkbench.pgbench import driver as pgbench
from pkbench.pgbench.output import ProgressSample
from pkbench.probes import Connection, counters, machine, replication, work
from pkbench.probes.sampler import WAIT_EVENT_INTERVAL_S, Sampler
from pkbench.probes.sizes import table_sizes
from pkbench.probes.walinspect import (
    WALINSPECT_EXTENSION,
    WALINSPECT_FIGURES,
    WalInspection,
    WalInspectUnavailable,
    WalWindow,
)
from pkbench.results.model import Unavailable, WorkloadResult
from pkbench.server import synchronous
from pkbench.server.target import Target
from pkbench.steps import checkpoints, window_start, workload
from pkbench.steps.context import StepContext


@dataclass(frozen=True)
class Script:
    name: str
    weight: int
    sql: str


@dataclass(frozen=True)
class PgbenchStep:
    """A measured workload: pgbench runs the weighted scripts while the probes sample the server."""

    name: str
    description: str
    scripts: tuple[Script, ...]
    # With pg_walinspect: the window's WAL split into full-page images and records, page splits, and the
    # distinct blocks and splits of these relations (None: not inspected).
    wal_inspect: tuple[str, ...] | None = None
    # The pgbench sessions' synchronous_commit (None: the server's); a remote level makes a standby pkbench
    # started synchronous for the window.
    synchronous_commit: str | None = None
    # Exactly this many transactions per client in every window, and no warm-up (None: the scenario's
    # length): for transactions that use up what they act on, as dropping the oldest partition does.
    transactions: int | None = None

    def texts(self) -> list[str]:
        return [s.sql for s in self.scripts]


class ScriptSchema(schema.Strict):
    name: schema.Text
    weight: schema.PositiveInt = 1
    sql: schema.Text


class Schema(schema.StepSchema):
    kind: Literal["pgbench"]
    description: str = ""
    scripts: Annotated[list[ScriptSchema], schema.non_empty_tables("name, weight, sql")]
    wal_inspect: schema.RelationNames | None = None
    synchronous_commit: Literal["off", "local", "remote_write", "on", "remote_apply"] | None = None
    transactions: schema.PositiveInt | None = None


def parse(where: str, table: Mapping[str, Any]) -> PgbenchStep:
    checked = schema.validate(Schema, where, table)
    scripts = tuple(Script(s.name, s.weight, s.sql) for s in checked.scripts)
    if len({s.name for s in scripts}) != len(scripts):
        raise PkbenchError(f"{where}: script names must differ")
    wal_inspect = tuple(checked.wal_inspect) if checked.wal_inspect is not None else None
    return PgbenchStep(
        checked.name,
        checked.description,
        scripts,
        wal_inspect,
        checked.synchronous_commit,
        checked.transactions,
    )


def run(ctx: StepContext, step: PgbenchStep) -> None:
    params = ctx.parameters
    duration = ctx.int_parameter("duration_s")
    interval = float(params.get("sampling_interval_s", 5))
    progress_interval = int(params.get("progress_interval_s", 5))
    # pgbench prints nothing before its first progress interval: keep a few samples even in short runs.
    progress_interval = max(1, min(progress_interval, duration // 3 or 1))
    scripts = [pgbench.ScriptFile(s.name, s.weight, ctx.render(s.sql)) for s in step.scripts]
    workdir = ctx.out_dir / "pgbench" / ctx.file_label / step.name
    result = WorkloadResult(step.name, step.description, sampling_interval_s=interval or None)
    if ctx.buffercache_reason:
        result.unavailable.append(Unavailable("buffercache", ctx.buffercache_reason))
    if ctx.checkpoint_before_window:
        with ctx.ws.connection.connect() as conn:
            if (late := window_start.wait_for_autovacuum(conn)) is not None:
                ctx.reporter.warning(late)
    if step.transactions is None:
        _warm_up(ctx, step, scripts, workdir / "warmup")
    if ctx.checkpoint_before_window:
        with ctx.ws.connection.connect() as conn:
            if (missing := window_start.checkpoint(conn)) is not None:
                result.unavailable.append(missing)
    probe = ctx.ws.connection.connect()
    version_num = ctx.target.server.version_num
    # Fixed work (--transactions, or a count to match): the bar counts transactions, as pgbench's progress
    # reports them. pgbench counts them per client.
    transactions = int(params.get("transactions", 0))
    if step.transactions is not None:
        transactions = step.transactions
    elif ctx.window_transactions:
        transactions = -(-ctx.window_transactions // ctx.int_parameter("clients"))
    total = transactions * ctx.int_parameter("clients") if transactions else duration
    with (
        probe,
        ctx.reporter.progress(f"  {step.name}", total) as bar,
        wal_window(ctx, probe, step.wal_inspect, result) as window,
    ):
        before = counters.read(probe, ctx.ws.schema, version_num)
        work_before, machine_before = _work_snapshot(ctx, probe, None)

        done = [0.0, 0.0]  # transactions so far, and the elapsed time of the last progress line

        def on_progress(elapsed: float, sample: ProgressSample | None) -> None:
            if sample is not None and transactions:
                done[0] += sample.tps * (sample.elapsed_s - done[1])
                done[1] = sample.elapsed_s
            position = min(done[0], total) if transactions else min(elapsed, duration)
            bar.update(position, f"{sample.tps:,.0f} tps" if sample else "")

        sampler = Sampler(
            ctx.ws.connection,
            ctx.ws.schema,
            version_num,
            interval,
            ctx.buffercache_reason is None,
            local_server=ctx.target.server.embedded,
            shards=[shard.connection for shard in getattr(ctx.target, "shards", [])],
            wait_interval_s=float(params.get("wait_sampling_interval_s", WAIT_EVENT_INTERVAL_S)),
        )
        with (
            sampler,
            replication_measured(ctx.target, step.synchronous_commit, interval, result) as replica,
            checkpoints.scheduled(ctx.ws.connection, params) as checkpointer,
        ):
            outcome = _pgbench(
                ctx,
                scripts,
                duration,
                progress_interval,
                workdir,
                on_progress,
                transactions or None,
                synchronous_commit=step.synchronous_commit,
            )
        window_start.wait_for_clients_to_leave(probe)
        work_after, machine_after = _work_snapshot(ctx, probe, work_before)
        after = counters.read(probe, ctx.ws.schema, version_num)
        inspection = wal_inspection(ctx, window, step.wal_inspect, result)
        result.sizes_at_end = table_sizes(probe, ctx.ws.schema, ctx.table)
    result.unavailable += sampler.unavailable
    if checkpointer is not None and checkpointer.error:
        result.unavailable.append(Unavailable(checkpoints.PARAMETER, checkpointer.error))
    result.sampling_busy_s = round(sampler.busy_s, 3) if interval else None
    result.sampling_cpu_s = sampler.cpu_s if interval else None
    _record_series(ctx, step.name, outcome, sampler, replica.rows if replica else [])
    reason = pgbench.failure_reason(outcome)
    ctx.result.workloads.append(result)
    if reason:
        raise PkbenchError(f"{step.name}: {reason}")
    workload.fill(
        result,
        outcome,
        scripts,
        counters.window(before, after),
        inspection,
        wal_inspected=step.wal_inspect is not None,
    )
    _record_work(result, (work_before, work_after), (machine_before, machine_after))
    # A busy machine is said on the window's own line: over many rounds a warning per window would bury the
    # progress, and the summary's "Machine noise" line gathers them.
    noise = machine.busy_machine(result.machine_window)
    ctx.reporter.info(
        f"  {step.name}: {result.tps or 0:,.0f} tps, WAL {result.wal_bytes_per_transaction or 0:,.0f} "
        "bytes/transaction" + (f" ({'; '.join(noise)})" if noise else "")
    )


def _work_snapshot(
    ctx: StepContext, probe: psycopg.Connection[tuple[object, ...]], since: work.WorkSnapshot | None
) -> tuple[work.WorkSnapshot, machine.MachineSnapshot | None]:
    """The work counters and the machine, before a window (SINCE None) or after it. pg_stat_statements is
    created only in the embedded cluster: pkbench creates no extension it would leave on a --dsn server."""
    embedded = ctx.target.server.embedded
    snapshot = work.read_snapshot(probe, local_server=embedded, since=since, create_extension=embedded)
    return snapshot, machine.snapshot(machine.benchmark_servers(ctx.target, snapshot.postmaster_pid))


def _record_work(
    result: WorkloadResult,
    snapshots: tuple[work.WorkSnapshot, work.WorkSnapshot],
    machines: tuple[machine.MachineSnapshot | None, machine.MachineSnapshot | None],
) -> None:
    """The window's work per transaction and machine window into RESULT, or why they are missing."""
    if result.transactions:
        result.work_per_transaction = work.per_transaction(*snapshots, result.transactions)
    else:
        result.unavailable.append(Unavailable("work_per_transaction", "the window ran no transaction"))
    before, after = machines
    if before is not None and after is not None:
        result.machine_window = machine.window(before, after)
    else:
        result.unavailable.append(Unavailable("machine_window", "/proc/stat cannot be read on this system"))


def _pgbench(
    ctx: StepContext,
    scripts: Sequence[pgbench.ScriptFile],
    duration_s: int,
    progress_interval_s: int,
    workdir: Path,
    on_progress: Callable[[float, ProgressSample | None], None],
    transactions: int | None = None,
    synchronous_commit: str | None = None,
) -> pgbench.Run:
    """pgbench on the run's schema with the scenario's clients and threads (measured window or warm-up);
    TRANSACTIONS per client instead of DURATION_S seconds when given, its sessions at SYNCHRONOUS_COMMIT."""
    environment = ctx.ws.connection.environment(ctx.ws.search_path)
    if synchronous_commit is not None:
        given = environment.get("PGOPTIONS", "")
        environment["PGOPTIONS"] = f"{given} -c synchronous_commit={synchronous_commit}".strip()
    return pgbench.run(
        ctx.pgbench_path,
        ctx.ws.connection.pgbench_database(),
        environment,
        scripts,
        clients=ctx.int_parameter("clients"),
        jobs=ctx.int_parameter("jobs"),
        duration_s=duration_s,
        progress_interval_s=progress_interval_s,
        workdir=workdir,
        on_progress=on_progress,
        check_alive=ctx.target.check_alive,
        transactions=transactions,
        rate_tps=rate_tps(ctx.parameters),
        log_sampling_rate=float(ctx.parameters.get(LOG_SAMPLING_RATE, 1)),
    )


# The fraction of transactions pgbench logs for the latency percentiles (its --sampling-rate; 1: every one).
LOG_SAMPLING_RATE = "log_sampling_rate"


def rate_tps(parameters: Mapping[str, object]) -> float | None:
    """The rate all clients together keep to (--rate), or None to run as fast as they can."""
    value = parameters.get("rate_tps")
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else None


def _warm_up(
    ctx: StepContext, step: PgbenchStep, scripts: Sequence[pgbench.ScriptFile], workdir: Path
) -> None:
    """--warmup: the same scripts in a pgbench run of their own, before any counter or window is read."""
    warmup = int(ctx.parameters.get("warmup_s", 0))
    if warmup <= 0:
        return
    with ctx.reporter.progress(f"  {step.name} warm-up", warmup) as bar:
        outcome = _pgbench(
            ctx,
            scripts,
            warmup,
            max(1, warmup // 3),
            workdir,
            lambda elapsed, _: bar.update(min(elapsed, warmup)),
            synchronous_commit=step.synchronous_commit,
        )
    reason = pgbench.failure_reason(outcome)
    if reason:
        raise PkbenchError(f"{step.name} warm-up: {reason}")
    with ctx.ws.connection.connect() as conn:
        window_start.wait_for_clients_to_leave(conn)


def _record_series(
    ctx: StepContext,
    workload_name: str,
    outcome: pgbench.Run,
    sampler: Sampler,
    replication_rows: Sequence[tuple[object, ...]],
) -> None:
    lead = (ctx.strategy_name, workload_name, ctx.repeat)
    for sample in outcome.progress:
        ctx.series["tps"].append(
            (*lead, sample.elapsed_s, sample.tps, sample.latency_ms_mean, sample.latency_ms_stddev)
        )
    for name, rows in sampler.rows.items():
        ctx.series[name].extend((*lead, *row) for row in rows)
    ctx.series["replication"].extend((*lead, *row) for row in replication_rows)


# The pg_walinspect window a pgbench step opens when its scenario asks for `wal_inspect`.


def wal_unavailable(reason: str) -> list[Unavailable]:
    return [Unavailable(metric, reason) for metric in WALINSPECT_FIGURES]


@contextlib.contextmanager
def wal_window(
    ctx: StepContext, conn: Connection, wal_inspect: tuple[str, ...] | None, workload: WorkloadResult
) -> Iterator[WalWindow | None]:
    """Hold the WAL of the measured window when the step asks for it; None (and the reason noted) if not."""
    if wal_inspect is None:
        yield None
        return
    reason = ctx.ws.ensure_extension(WALINSPECT_EXTENSION)
    if reason:
        workload.unavailable += wal_unavailable(reason)
        yield None
        return
    try:
        held = WalWindow(conn, slot_name=f"pkbench_{ctx.ws.schema}"[:63])
        held.__enter__()
    except WalInspectUnavailable as error:
        workload.unavailable += wal_unavailable(str(error))
        yield None
        return
    try:
        yield held
    finally:
        held.__exit__(None, None, None)


def wal_inspection(
    ctx: StepContext, held: WalWindow | None, wal_inspect: tuple[str, ...] | None, workload: WorkloadResult
) -> WalInspection | None:
    """Read the window's WAL back; the relations named by the step are in the run's schema."""
    if held is None:
        return None
    relations = {name: f'"{ctx.ws.schema}"."{ctx.render(name)}"' for name in wal_inspect or ()}
    try:
        return held.inspect(relations)
    except WalInspectUnavailable as error:
        workload.unavailable += wal_unavailable(str(error))
        return None


@contextlib.contextmanager
def replication_measured(
    target: Target, synchronous_commit: str | None, sample_interval_s: float, workload: WorkloadResult
) -> Iterator[replication.ReplicationProbe | None]:
    """Around one measured window: what it costs the standby and the archive, into WORKLOAD.replication.

    A window whose sessions commit at a remote level makes the standby pkbench started synchronous for its
    length; a standby named by --standby-dsn keeps what its primary's owner configured.
    """
    # the embedded primary that archives (server.topology.ArchivingCluster) says where
    archive = getattr(target, "archive_directory", None)
    if target.standby is None and archive is None:
        yield None
        return
    with synchronous.synchronous(target, synchronous_commit):
        probe = replication.ReplicationProbe(
            target.connection,
            target.standby,
            archive,
            synchronous_commit,
            sample_interval_s,
            synchronous.STANDBY_NAME,
        )
        with probe:
            yield probe
    workload.replication = probe.result
    workload.unavailable += probe.unavailable
