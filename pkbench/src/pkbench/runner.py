"""Orchestration: for each strategy, an empty schema, the scenario's steps, and the results rewritten."""

from __future__ import annotations

import contextlib
import dataclasses
import re
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import psycopg
from rich.console import Console
from rich.progress import BarColumn, Progress, TaskProgressColumn, TextColumn, TimeRemainingColumn

from pkbench import cluster, pgbench, results, study_steps, summary
from pkbench import scenario as scenario_module
from pkbench.cluster import EmbeddedCluster, ExistingServer, Target
from pkbench.errors import PkbenchError, ServerDied
from pkbench.memcap import MemoryCap
from pkbench.probes import Unavailable, buffercache, counters
from pkbench.probes.sampler import Sampler
from pkbench.probes.sizes import table_sizes
from pkbench.probes.walinspect import WalInspection
from pkbench.scenario import (
    CopyStep,
    DensityStep,
    FillStep,
    PgbenchStep,
    Scenario,
    SnapshotStep,
    SqlStep,
    Step,
)
from pkbench.stats import aggregate, interleaved_order
from pkbench.strategies import Catalog, Generator, Strategy, load_config, parse_definition
from pkbench.workspace import Workspace, default_schema_name

EMBEDDED_SCHEMA = "pkbench"
_SCHEMA_NAME = re.compile(r"^[a-z_][a-z0-9_]{0,62}$")


@dataclass
class Options:
    scenario: str = "war"
    strategies: Sequence[str] | None = None
    parameters: dict[str, int | float | str | None] = field(default_factory=dict)
    out: Path | None = None
    dsn: str | None = None
    keep: bool = False
    pg_bin: Path | None = None
    port: int | None = None
    config: Path | None = None
    strategy_defs: Sequence[str] = ()
    schema: str | None = None
    command: Sequence[str] = ()
    # Put in front of the postgres command (e.g. to start the server inside a cgroup).
    start_wrapper: Sequence[str] = ()
    machine_overrides: dict[str, Any] = field(default_factory=dict)
    # The embedded server runs inside a cgroup memory limit of this many bytes (--memory-limit).
    memory_limit_bytes: int | None = None
    # Every strategy runs this many times, interleaved; figures are medians with their spread.
    repeat: int = 1


@dataclass
class Plan:
    """Everything checked before anything is started."""

    scenario: Scenario
    strategies: list[Strategy]
    out_dir: Path
    pgbench: Path
    server_bindir: Path | None


def plan(options: Options) -> Plan:
    extra: list[Strategy] = []
    if options.config is not None:
        extra += load_config(options.config)
    extra += [parse_definition(d) for d in options.strategy_defs]
    catalog = Catalog(extra)
    loaded = scenario_module.load(options.scenario).with_parameters(options.parameters)
    chosen = catalog.select(options.strategies or loaded.strategies)
    out_dir = options.out or Path(f"pkbench-results-{datetime.now().strftime('%Y%m%d-%H%M%S')}")
    if out_dir.exists():
        raise PkbenchError(f"output directory {out_dir} exists; pick another with --out")
    if options.schema is not None and not _SCHEMA_NAME.match(options.schema):
        raise PkbenchError(f"--schema {options.schema!r}: use lower-case letters, digits and '_'")
    if options.memory_limit_bytes is not None and options.dsn is not None:
        raise PkbenchError("--memory-limit applies to the embedded server only, not with --dsn")
    if options.repeat < 1:
        raise PkbenchError(f"--repeat must be at least 1 (got {options.repeat})")
    if options.schema is not None and options.dsn is None:
        raise PkbenchError("--schema only applies with --dsn")
    pgbench_path = cluster.find_pgbench(options.pg_bin)
    bindir = None if options.dsn else cluster.find_server_bindir(options.pg_bin)
    if options.port is not None and not 1 <= options.port <= 65535:
        raise PkbenchError(f"--port {options.port}: must be between 1 and 65535")
    return Plan(loaded, chosen, out_dir, pgbench_path, bindir)


def _stderr_console() -> Console:
    return Console(stderr=True, soft_wrap=True)


def _progress(console: Console) -> Progress:
    return Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        TaskProgressColumn(),
        TimeRemainingColumn(),
        TextColumn("{task.fields[detail]}"),
        console=console,
        disable=not console.is_terminal,
        transient=True,
    )


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def execute(options: Options, console: Console | None = None) -> Path:
    """Run the scenario for every selected strategy; returns the results directory."""
    console = console or _stderr_console()
    the_plan = plan(options)
    target: EmbeddedCluster | ExistingServer
    memory_cap: MemoryCap | contextlib.nullcontext[None] = contextlib.nullcontext()
    if options.dsn:
        target = ExistingServer(options.dsn, the_plan.pgbench)
        schema = options.schema or default_schema_name()
    else:
        assert the_plan.server_bindir is not None
        start_wrapper = list(options.start_wrapper)
        if options.memory_limit_bytes is not None:
            memory_cap = MemoryCap(options.memory_limit_bytes, member_user=cluster.SERVER_USER)
            start_wrapper = memory_cap.wrap(start_wrapper)
            options.machine_overrides["memory_limit_bytes"] = options.memory_limit_bytes
        target = EmbeddedCluster(
            the_plan.server_bindir,
            the_plan.pgbench,
            the_plan.scenario.settings,
            keep=options.keep,
            port=options.port,
            start_wrapper=start_wrapper,
        )
        schema = EMBEDDED_SCHEMA
    with (
        memory_cap,
        target,
        Workspace(target.connection, schema, drop_on_exit=bool(options.dsn) and not options.keep) as ws,
    ):
        ws.check_expressions(the_plan.strategies)
        if isinstance(target, EmbeddedCluster) and options.keep:
            console.print(f"pkbench: keeping the cluster in {target.directory}")
        run = _new_run(options, the_plan, target, ws)
        the_plan.out_dir.mkdir(parents=True)
        buffercache_reason = _buffercache_availability(ws)
        by_name = {strategy.name: strategy for strategy in the_plan.strategies}
        done: dict[str, list[results.StrategyResult]] = {name: [] for name in by_name}
        order = interleaved_order(list(by_name), options.repeat)
        for number, (repeat, name) in enumerate(order, 1):
            strategy = by_name[name]
            which = f" (repeat {repeat}/{options.repeat})" if options.repeat > 1 else ""
            console.print(
                f"[bold]{number}/{len(order)} {strategy.name}[/bold]{which}: {strategy.description}",
                highlight=False,
            )
            result = _run_strategy(the_plan, target, ws, strategy, run, buffercache_reason, console, repeat)
            done[name].append(result)
            if result.status != "ok":
                console.print(f"  {strategy.name}: {result.status}: {result.error}", highlight=False)
            run.strategies = [_over_repeats(runs) for runs in done.values() if runs]
            _write(the_plan.out_dir, run)
        run.finished_at = _now()
        _write(the_plan.out_dir, run)
    _write_report(the_plan.out_dir, console)
    stdout = Console()
    summary.print_table(stdout if stdout.is_terminal else Console(width=240), run.to_json())
    console.print(f"pkbench: results in {the_plan.out_dir}")
    return the_plan.out_dir


def _new_run(options: Options, the_plan: Plan, target: Target, ws: Workspace) -> results.RunResult:
    server = target.server
    return results.RunResult(
        command=list(options.command) or ["pkbench", "run"],
        started_at=_now(),
        scenario={
            "name": the_plan.scenario.name,
            "description": the_plan.scenario.description,
            "source": the_plan.scenario.source,
            "parameters": {"warmup_s": 0, **the_plan.scenario.parameters, "repeat": options.repeat},
            "summary": the_plan.scenario.summary.to_json(),
        },
        server={
            "version": server.version,
            "version_num": server.version_num,
            "embedded": server.embedded,
            "superuser": server.superuser,
            "settings": dict(server.settings),
        },
        machine={**results.machine(), **options.machine_overrides},
        target={
            "connection": target.connection.redacted(),
            "schema": ws.schema,
            "pgbench": pgbench.check_version(the_plan.pgbench),
        },
    )


def _over_repeats(runs: Sequence[results.StrategyResult]) -> results.StrategyResult | dict[str, Any]:
    """One strategy's result: as measured, or over several repeats the medians, spread and repeats."""
    if len(runs) == 1:
        return runs[0]
    combined = aggregate([dataclasses.asdict(r) for r in runs])
    failed = next((r for r in runs if r.status != "ok"), None)
    if failed is not None:
        combined["status"], combined["error"] = failed.status, failed.error
    return combined


def _write(out_dir: Path, run: results.RunResult) -> None:
    results.write(out_dir, run)
    summary.write(out_dir, run.to_json())


def _write_report(out_dir: Path, console: Console) -> None:
    """The HTML report is a bonus on top of results.json: a failure there is a warning, not a failed run."""
    try:
        from pkbench.report import write_report
    except ImportError as e:
        console.print(f"pkbench: warning: no HTML report ({e})", highlight=False)
        return
    try:
        write_report(out_dir)
    except Exception as e:
        console.print(f"pkbench: warning: HTML report not written: {e}", highlight=False)


def _buffercache_availability(ws: Workspace) -> str | None:
    reason = ws.ensure_extension(buffercache.EXTENSION)
    if reason:
        return reason
    try:
        with ws.connection.connect() as conn:
            conn.execute("SELECT 1 FROM pg_buffercache LIMIT 1").fetchall()
    except psycopg.Error as e:
        return f"pg_buffercache: {e.diag.message_primary or e}"
    return None


def choose_generator(strategy: Strategy, ws: Workspace, version_num: int) -> tuple[Generator | None, str]:
    """The first generator this server can run, or None and why none can."""
    reasons = []
    for generator in strategy.generators:
        if version_num < generator.min_server_version:
            reasons.append(
                f"{generator.expression} needs PostgreSQL {generator.min_server_version // 10000}+"
            )
            continue
        missing_extension = next(
            (r for r in (ws.ensure_extension(e) for e in generator.extensions) if r is not None), None
        )
        if missing_extension:
            reasons.append(missing_extension)
            continue
        missing = ws.missing_functions(generator.functions)
        if missing:
            where = f" (extension {', '.join(generator.extensions)})" if generator.extensions else ""
            reasons.append(f"function {', '.join(m + '()' for m in missing)} not found{where}")
            continue
        return generator, ""
    return None, "; ".join(reasons)


@dataclass
class StrategyRun:
    """What a step handler needs."""

    plan: Plan
    target: Target
    ws: Workspace
    strategy: Strategy
    generator: Generator
    result: results.StrategyResult
    run: results.RunResult
    buffercache_reason: str | None
    console: Console
    repeat: int = 1

    @property
    def scenario(self) -> Scenario:
        return self.plan.scenario

    def render(self, text: str, **extra: int | float | str) -> str:
        return self.scenario.render(text, self.strategy.column_type, self.generator.column_clause, **extra)

    def connect(self) -> psycopg.Connection[tuple[object, ...]]:
        return self.ws.connection.connect(search_path=self.ws.search_path)


def _run_strategy(
    the_plan: Plan,
    target: Target,
    ws: Workspace,
    strategy: Strategy,
    run: results.RunResult,
    buffercache_reason: str | None,
    console: Console,
    repeat: int = 1,
) -> results.StrategyResult:
    result = results.StrategyResult(strategy.name, strategy.description, strategy.column_type, None)
    try:
        generator, reason = choose_generator(strategy, ws, target.server.version_num)
        if generator is None:
            result.status, result.error = "skipped", reason
            return result
        result.default_expression = generator.expression
        result.generator_source = ws.generator_source(generator)
        ws.reset()
        context = StrategyRun(
            the_plan, target, ws, strategy, generator, result, run, buffercache_reason, console, repeat
        )
        with context.connect() as conn:
            for statement in generator.prelude:
                conn.execute(statement)
        for step in the_plan.scenario.steps:
            target.check_alive()
            STEP_HANDLERS[type(step)](context, step)
    except ServerDied:
        raise
    except (PkbenchError, psycopg.Error) as e:
        target.check_alive()
        result.status, result.error = "failed", _one_line(e)
    return result


def _one_line(error: BaseException) -> str:
    if isinstance(error, psycopg.Error) and error.diag.message_primary:
        return error.diag.message_primary
    text = str(error).strip()
    return text.splitlines()[0] if text else type(error).__name__


def _sql_step(ctx: StrategyRun, step: Step) -> None:
    assert isinstance(step, SqlStep)
    started = time.monotonic()
    reports: list[str] = []
    with ctx.connect() as conn:
        # What the server reports back (VACUUM VERBOSE, for one) is kept in the results directory.
        conn.add_notice_handler(lambda notice: reports.append(f"{notice.severity}: {notice.message_primary}"))
        for statement in step.statements:
            conn.execute(ctx.render(statement))
        for statement in step.if_permitted:
            try:
                conn.execute(ctx.render(statement))
            except psycopg.errors.InsufficientPrivilege as e:
                ctx.result.unavailable.append(Unavailable(f"{step.name}: {statement}", _one_line(e)))
    ctx.result.step_durations_s[step.name] = round(time.monotonic() - started, 3)
    if reports:
        folder = ctx.plan.out_dir / "steps" / ctx.strategy.name
        folder.mkdir(parents=True, exist_ok=True)
        suffix = "" if ctx.repeat == 1 else f".repeat-{ctx.repeat}"
        (folder / f"{step.name}{suffix}.log").write_text("\n".join(reports) + "\n")


def _fill_step(ctx: StrategyRun, step: Step) -> None:
    assert isinstance(step, FillStep)
    total = ctx.scenario.int_parameter(step.rows_parameter)
    batch = ctx.scenario.int_parameter(step.batch_parameter)
    done = 0
    with ctx.connect() as conn, _progress(ctx.console) as bar:
        if step.total:
            row = conn.execute(f'SELECT count(*) FROM "{ctx.scenario.table}"').fetchone()
            already = int(str(row[0])) if row else 0
            total = max(0, total - already)
        task = bar.add_task(f"  {step.name} {ctx.strategy.name}", total=total, detail="")
        started = time.monotonic()
        while done < total:
            n = min(batch, total - done)
            conn.execute(ctx.render(step.statement, batch=n))
            done += n
            elapsed = time.monotonic() - started
            bar.update(task, completed=done, detail=f"{done / elapsed:,.0f} rows/s" if elapsed > 0 else "")
        duration = time.monotonic() - started
    ctx.result.step_durations_s[step.name] = round(duration, 3)
    if step.name == ctx.scenario.summary.insert:
        ctx.result.prefill = results.Prefill(
            total, round(duration, 3), round(total / duration, 1) if duration else None, step.name
        )
    ctx.console.print(f"  {step.name}: {total:,} rows in {duration:.1f} s", highlight=False)


def _snapshot_step(ctx: StrategyRun, step: Step) -> None:
    assert isinstance(step, SnapshotStep)
    with ctx.connect() as conn:
        sizes = table_sizes(conn, ctx.ws.schema, ctx.scenario.table)
    if step.name == "sizes_after_prefill":
        ctx.result.sizes_after_prefill = sizes
    else:
        ctx.result.snapshots[step.name] = sizes


def _wait_for_clients_to_leave(conn: psycopg.Connection[tuple[object, ...]], timeout_s: float = 10.0) -> None:
    """Backends flush their WAL and I/O counters when they exit; read the counters after that."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        row = conn.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE application_name = 'pgbench'"
            " AND datname = current_database() AND usename = current_user"
        ).fetchone()
        if row is None or int(str(row[0])) == 0:
            return
        time.sleep(0.1)


def _script_statements(sql: str) -> list[str]:
    return [line for line in sql.splitlines() if line.strip() and not line.lstrip().startswith("\\")]


def _pgbench_step(ctx: StrategyRun, step: Step) -> None:
    assert isinstance(step, PgbenchStep)
    params = ctx.scenario.parameters
    duration = ctx.scenario.int_parameter("duration_s")
    interval = float(params.get("sampling_interval_s", 5))
    progress_interval = int(params.get("progress_interval_s", 5))
    # pgbench prints nothing before its first progress interval: keep a few samples even in short runs.
    progress_interval = max(1, min(progress_interval, duration // 3 or 1))
    scripts = [pgbench.ScriptFile(s.name, s.weight, ctx.render(s.sql)) for s in step.scripts]
    runs_of = ctx.strategy.name if ctx.repeat == 1 else f"{ctx.strategy.name}.repeat-{ctx.repeat}"
    workdir = ctx.plan.out_dir / "pgbench" / runs_of / step.name
    workload = results.WorkloadResult(step.name, step.description, sampling_interval_s=interval or None)
    if ctx.buffercache_reason:
        workload.unavailable.append(Unavailable("buffercache", ctx.buffercache_reason))
    _warm_up(ctx, step, scripts, workdir / "warmup")
    probe = ctx.ws.connection.connect()
    with (
        probe,
        _progress(ctx.console) as bar,
        study_steps.wal_window(ctx, probe, step, workload) as wal,
    ):
        task = bar.add_task(f"  {step.name}", total=duration, detail="")
        before = counters.read(probe, ctx.ws.schema, ctx.target.server.version_num)

        def on_progress(elapsed: float, sample: pgbench.ProgressSample | None) -> None:
            if sample is None:
                bar.update(task, completed=min(elapsed, duration))
            else:
                bar.update(task, completed=min(elapsed, duration), detail=f"{sample.tps:,.0f} tps")

        sampler = Sampler(
            ctx.ws.connection,
            ctx.ws.schema,
            ctx.target.server.version_num,
            interval,
            ctx.buffercache_reason is None,
            local_server=ctx.target.server.embedded,
        )
        with sampler:
            outcome = _pgbench(ctx, scripts, duration, progress_interval, workdir, on_progress)
        _wait_for_clients_to_leave(probe)
        after = counters.read(probe, ctx.ws.schema, ctx.target.server.version_num)
        inspection = study_steps.inspect_wal(ctx, wal, step, workload)
        workload.sizes_at_end = table_sizes(probe, ctx.ws.schema, ctx.scenario.table)
    workload.unavailable += sampler.unavailable
    workload.sampling_busy_s = round(sampler.busy_s, 3) if interval else None
    workload.sampling_cpu_s = sampler.cpu_s if interval else None
    _record_series(ctx, step.name, outcome, sampler)
    reason = pgbench.failure_reason(outcome)
    ctx.result.workloads.append(workload)
    if reason:
        raise PkbenchError(f"{step.name}: {reason}")
    _fill_workload(workload, outcome, step, scripts, counters.window(before, after), inspection)
    ctx.console.print(
        f"  {step.name}: {workload.tps:,.0f} tps, WAL {workload.wal_bytes_per_transaction or 0:,.0f} "
        "bytes/transaction",
        highlight=False,
    )


def _pgbench(
    ctx: StrategyRun,
    scripts: Sequence[pgbench.ScriptFile],
    duration_s: int,
    progress_interval_s: int,
    workdir: Path,
    on_progress: Callable[[float, pgbench.ProgressSample | None], None],
) -> pgbench.Run:
    """pgbench on the run's schema with the scenario's clients and threads (measured window or warm-up)."""
    return pgbench.run(
        ctx.plan.pgbench,
        ctx.ws.connection.pgbench_database(),
        ctx.ws.connection.environment(ctx.ws.search_path),
        scripts,
        clients=ctx.scenario.int_parameter("clients"),
        jobs=ctx.scenario.int_parameter("jobs"),
        duration_s=duration_s,
        progress_interval_s=progress_interval_s,
        workdir=workdir,
        on_progress=on_progress,
        check_alive=ctx.target.check_alive,
    )


def _warm_up(
    ctx: StrategyRun, step: PgbenchStep, scripts: Sequence[pgbench.ScriptFile], workdir: Path
) -> None:
    """--warmup: the same scripts in a pgbench run of their own, before any counter or window is read."""
    warmup = int(ctx.scenario.parameters.get("warmup_s", 0))
    if warmup <= 0:
        return
    with _progress(ctx.console) as bar:
        task = bar.add_task(f"  {step.name} warm-up", total=warmup, detail="")
        outcome = _pgbench(
            ctx,
            scripts,
            warmup,
            max(1, warmup // 3),
            workdir,
            lambda elapsed, _: bar.update(task, completed=min(elapsed, warmup)),
        )
    reason = pgbench.failure_reason(outcome)
    if reason:
        raise PkbenchError(f"{step.name} warm-up: {reason}")
    with ctx.ws.connection.connect() as conn:
        _wait_for_clients_to_leave(conn)


def _fill_workload(
    workload: results.WorkloadResult,
    outcome: pgbench.Run,
    step: PgbenchStep,
    scripts: Sequence[pgbench.ScriptFile],
    window: counters.WindowFigures,
    inspection: WalInspection | None = None,
) -> None:
    summary_ = outcome.summary
    workload.duration_s = round(outcome.duration_s, 3)
    workload.transactions = summary_.transactions
    workload.failed_transactions = summary_.failed_transactions
    workload.tps = summary_.tps
    all_latencies = [v for values in outcome.latencies_ms.values() for v in values]
    workload.latency_ms = pgbench.latency_summary(all_latencies)
    for index, script in enumerate(scripts):
        reported = summary_.scripts[index] if index < len(summary_.scripts) else None
        statements = _script_statements(script.sql)
        sql_means = [s for s in (reported.statements if reported else ()) if not s.text.startswith("\\")]
        if len(statements) == 1:
            latency = pgbench.latency_summary(outcome.latencies_ms.get(index, []))
            workload.statements.append(results.StatementResult(script.name, statements[0], latency))
            continue
        for i, text in enumerate(statements):
            mean = sql_means[i].latency_ms if i < len(sql_means) else None
            workload.statements.append(
                results.StatementResult(
                    f"{script.name}.{i + 1}",
                    text,
                    {"mean": mean, "p50": None, "p95": None, "p99": None, "max": None},
                )
            )
        workload.unavailable.append(
            Unavailable(
                f"statements.{script.name}.percentiles",
                "pgbench logs latency per script run; this script has several statements: means only",
            )
        )
    workload.wal_bytes, workload.wal_records, workload.wal_fpi = (
        window.wal_bytes,
        window.wal_records,
        window.wal_fpi,
    )
    if workload.transactions:
        if window.wal_bytes is not None:
            workload.wal_bytes_per_transaction = round(window.wal_bytes / workload.transactions, 2)
        if window.wal_fpi is not None:
            workload.wal_fpi_per_transaction = round(window.wal_fpi / workload.transactions, 5)
    if inspection is not None:
        study_steps.record_wal(workload, inspection)
    elif step.wal_inspect is None:
        workload.unavailable += [
            Unavailable(metric, "needs pg_walinspect (a step with wal_inspect, as in the wal scenario)")
            for metric in study_steps.WALINSPECT_FIGURES
        ]
    workload.hit_ratio = window.hit_ratio
    workload.blocks_accessed = window.blocks_accessed
    workload.checkpoints = window.checkpoints
    workload.unavailable += window.unavailable


def _record_series(ctx: StrategyRun, workload: str, outcome: pgbench.Run, sampler: Sampler) -> None:
    lead = (ctx.strategy.name, workload, ctx.repeat)
    series = ctx.run.series
    for sample in outcome.progress:
        series["tps"].append(
            (*lead, sample.elapsed_s, sample.tps, sample.latency_ms_mean, sample.latency_ms_stddev)
        )
    for name, rows in sampler.rows.items():
        series[name].extend((*lead, *row) for row in rows)


STEP_HANDLERS: dict[type, Callable[[StrategyRun, Step], None]] = {
    SqlStep: _sql_step,
    FillStep: _fill_step,
    SnapshotStep: _snapshot_step,
    PgbenchStep: _pgbench_step,
    DensityStep: study_steps.density_step,
    CopyStep: study_steps.copy_step,
}
