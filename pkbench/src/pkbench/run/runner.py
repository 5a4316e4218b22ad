"""Orchestration: the plan, the target, then each strategy in turn (interleaved over repeats); the results
rewritten after each."""

from __future__ import annotations

import contextlib
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import psycopg

from pkbench import results
from pkbench.analysis import judge
from pkbench.analysis.stats import interleaved_order, over_repeats
from pkbench.errors import PkbenchError, ServerDied, first_line
from pkbench.pgbench import driver as pgbench
from pkbench.probes import buffercache
from pkbench.probes import machine as machine_probe
from pkbench.reporting import Reporter, Silent
from pkbench.run import interleaved_rounds, paired
from pkbench.run.options import Options, Outcome, Plan, check_against_server, plan
from pkbench.run.strategy_pass import StrategyPass
from pkbench.scenario import published
from pkbench.server import iolimit, sequuid_build, shards, topology
from pkbench.server.embedded import EmbeddedCluster
from pkbench.server.existing import ExistingServer
from pkbench.server.memcap import MemoryCap
from pkbench.server.os_user import SERVER_USER
from pkbench.server.target import Target
from pkbench.server.virtual_clock import clock_record, clock_settings
from pkbench.server.workspace import Workspace, default_schema_name
from pkbench.strategies.model import Strategy
from pkbench.summary import csv_export as export
from pkbench.summary import document as summary

EMBEDDED_SCHEMA = "pkbench"


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def execute(options: Options, reporter: Reporter | None = None) -> Outcome:
    """Run the scenario for every selected strategy; the results are written as it goes and returned."""
    reporter = reporter or Silent()
    the_plan = plan(options)
    target: EmbeddedCluster | ExistingServer
    clock_anchor: float | None = None
    memory_cap: MemoryCap | contextlib.nullcontext[None] = contextlib.nullcontext()
    io_limit: iolimit.IoLimit | None = None
    machine_overrides = dict(options.machine_overrides)
    target_overrides: dict[str, Any] = {}
    if options.dsn:
        target = ExistingServer(options.dsn, the_plan.pgbench)
        schema = options.schema or default_schema_name()
    else:
        assert the_plan.server_bindir is not None
        sequuid = sequuid_build.ensure(the_plan.server_bindir)
        if sequuid.status != "present":
            reporter.info(f"pkbench: {sequuid.line()}")
        target_overrides["sequuid"] = sequuid.to_json()
        start_wrapper = list(options.start_wrapper)
        if the_plan.memory_limit_bytes is not None:
            memory_cap = MemoryCap(the_plan.memory_limit_bytes, member_user=SERVER_USER)
            start_wrapper = memory_cap.wrap(start_wrapper)
            machine_overrides["memory_limit_bytes"] = the_plan.memory_limit_bytes
        io_limit = iolimit.for_server(the_plan.scenario.parameters, SERVER_USER)
        start_wrapper = io_limit.wrap(start_wrapper) if io_limit else start_wrapper
        clock_anchor = time.time() if the_plan.clock_rate != 1 else None
        target = topology.primary_class(the_plan.topology)(
            the_plan.server_bindir,
            the_plan.pgbench,
            {**the_plan.scenario.settings, **clock_settings(the_plan.clock_rate, clock_anchor)},
            keep=options.keep,
            port=options.port,
            start_wrapper=start_wrapper,
            initdb_options=the_plan.topology.initdb_options(),
        )
        schema = EMBEDDED_SCHEMA
    with (
        memory_cap,
        io_limit or contextlib.nullcontext(),
        target,
        topology.attached(target, the_plan.topology, reporter),
        Workspace(target.connection, schema, drop_on_exit=bool(options.dsn) and not options.keep) as ws,
        # Inside the workspace: what a run creates for its shards goes before the workspace's extensions.
        shards.attached(target, the_plan.topology, ws, reporter),
    ):
        ws.check_expressions(the_plan.strategies)
        if isinstance(target, EmbeddedCluster) and options.keep:
            reporter.info(f"pkbench: keeping the cluster in {target.directory}")
        with ws.connection.connect() as conn:
            check_against_server(the_plan, conn)
        run = _new_run(options, the_plan, target, ws, machine_overrides, target_overrides)
        resumptions = _resuming(the_plan, run) if the_plan.resumed is not None else []
        started = time.monotonic()
        the_plan.out_dir.mkdir(parents=True, exist_ok=the_plan.resumed is not None)
        buffercache_reason = _buffercache_availability(ws)
        by_name = {strategy.name: strategy for strategy in the_plan.strategies}

        def new_pass(strategy: Strategy, workspace: Workspace, repeat: int) -> StrategyPass:
            return StrategyPass(
                the_plan.scenario,
                the_plan.pgbench,
                the_plan.out_dir,
                target,
                workspace,
                strategy,
                run,
                buffercache_reason,
                reporter,
                repeat,
                **({"step_guard": io_limit.during} if io_limit else {}),
            )

        def progress(
            strategies: list[results.StrategyResult],
            judged: list[judge.Judged] | None = None,
        ) -> None:
            run.strategies = strategies
            run.clock = clock_record(
                the_plan.clock_rate, clock_anchor, time.monotonic() - started, run.strategies, by_name
            )
            if judged is not None:
                run.verdicts = judge.records(judged, the_plan.baseline or "")
            _write(the_plan.out_dir, run)

        done: dict[str, list[results.StrategyResult]] = {name: [] for name in by_name}
        try:
            if the_plan.paired:
                run.rounds = results.RoundsRecord(
                    "paired",
                    the_plan.rounds,
                    the_plan.baseline,
                    precision=the_plan.precision,
                    max_time_s=the_plan.max_time_s,
                    until_decided=options.until_decided,
                )
                if the_plan.resumed is not None and the_plan.resumed.rounds is not None:
                    before = the_plan.resumed.rounds
                    # A round cut off by the interruption is measured again: only whole rounds are kept.
                    run.rounds.completed = list(before.completed)
                    run.rounds.orders = list(before.orders[: sum(before.completed)])
                passes = {s.name: new_pass(s, ws.for_strategy(s.name), 1) for s in the_plan.strategies}
                for number, one_pass in enumerate(passes.values(), 1):
                    reporter.strategy_started(number, len(passes), one_pass.strategy.name, "", "setting up")
                    one_pass.begin()
                deadline = started + the_plan.max_time_s if the_plan.max_time_s is not None else None
                run.rounds.design = the_plan.design
                common = (
                    passes,
                    run.rounds,
                    reporter,
                    lambda judged: progress([p.result for p in passes.values()], judged),
                    deadline,
                    _measured_before(the_plan.resumed),
                )
                load_step = the_plan.scenario.summary.insert
                design: paired.PairedRounds
                if the_plan.design == "mixed":
                    run.rounds.paired_only = interleaved_rounds.paired_only(
                        the_plan.scenario.steps, the_plan.topology, the_plan.scenario.parameters
                    )
                    # A scenario of fixed work (--transactions) has equal counts already; a resumed run keeps
                    # the counts its first rounds ran.
                    resumed = the_plan.resumed.rounds if the_plan.resumed is not None else None
                    run.rounds.equal_transactions = (
                        resumed.equal_transactions
                        if resumed is not None and any(resumed.completed)
                        else not the_plan.scenario.parameters.get("transactions")
                    )
                    shares = _measured_before(the_plan.resumed, interleaved=True)
                    design = interleaved_rounds.MixedRounds(
                        *common, load_step=load_step, measured_shares=shares
                    )
                elif the_plan.design == "interleaved":
                    design = interleaved_rounds.InterleavedRounds(*common, load_step=load_step)
                else:
                    design = paired.PairedRounds(*common, load_step=load_step)
                design.run(paired.stages(the_plan.scenario.steps))
                for one_pass in passes.values():
                    reporter.strategy_done(one_pass.result)
            else:
                run.rounds = results.RoundsRecord("isolated", options.repeat)
                order = interleaved_order(list(by_name), options.repeat)
                for number, (repeat, name) in enumerate(order, 1):
                    strategy = by_name[name]
                    which = f"repeat {repeat}/{options.repeat}" if options.repeat > 1 else ""
                    reporter.strategy_started(number, len(order), strategy.name, strategy.description, which)
                    result = new_pass(strategy, ws, repeat).run()
                    done[name].append(result)
                    reporter.strategy_done(result)
                    progress([over_repeats(runs) for runs in done.values() if runs])
        except BaseException as error:
            # What was measured stays, marked as what it is, before the target is torn down.
            run.completion = _stopped(run, error, done, options.repeat)
            run.completion.resumed = resumptions
            _write(the_plan.out_dir, run)
            if options.report:
                _write_report(the_plan.out_dir, reporter)
            raise
        failed = [s for s in run.strategies if s.status == "failed"]
        run.completion = results.Completion(
            not failed,
            "; ".join(f"{s.name} failing ({s.error})" for s in failed) or None,
            rounds_done=run.rounds.count if run.rounds else 0,
            strategies_done=[s.name for s in run.strategies if s.status == "ok"],
            resumed=resumptions,
        )
        run.finished_at = _now()
        progress(run.strategies)
    if options.report:
        _write_report(the_plan.out_dir, reporter)
    return Outcome(the_plan.out_dir, run)


def _new_run(
    options: Options,
    the_plan: Plan,
    target: Target,
    ws: Workspace,
    machine_overrides: dict[str, Any],
    target_overrides: dict[str, Any],
) -> results.RunResult:
    server = target.server
    return results.RunResult(
        command=list(options.command) or ["pkbench", "run"],
        started_at=_now(),
        scenario={
            "name": the_plan.scenario.name,
            "description": the_plan.scenario.description,
            "source": the_plan.scenario.source,
            "parameters": {
                "warmup_s": 0,
                **the_plan.scenario.parameters,
                "repeat": options.repeat,
                **({"rounds": the_plan.rounds} if the_plan.paired else {}),
            },
            "summary": the_plan.scenario.summary.to_json(),
            "scale": the_plan.scenario.scale,
            "published": published.to_json(the_plan.scenario.published),
        },
        server={
            "version": server.version,
            "version_num": server.version_num,
            "embedded": server.embedded,
            "superuser": server.superuser,
            "settings": dict(server.settings),
        },
        machine={**machine_probe.description(), **machine_overrides},
        target={
            "connection": target.connection.redacted(),
            "schema": ws.schema,
            "pgbench": pgbench.check_version(the_plan.pgbench),
            "topology": the_plan.topology.to_json(),
            # The --shard-dsn servers as --dsn's is shown: which servers, never a password.
            **(
                {"shards": [s.connection.redacted() for s in getattr(target, "shards", [])]}
                if the_plan.topology.shard_dsns
                else {}
            ),
            **target_overrides,
        },
        baseline=the_plan.baseline,
    )


def _resuming(the_plan: Plan, run: results.RunResult) -> list[results.Resumption]:
    """The interrupted run carried into this one: its rounds, time series and start; refused in one line when
    this server is not the one it ran on."""
    previous = the_plan.resumed
    assert previous is not None and previous.rounds is not None
    for what, before, now in (
        ("server", previous.server.get("version"), run.server.get("version")),
        ("sequuid build", _sequuid_kind(previous), _sequuid_kind(run)),
    ):
        if before != now:
            raise PkbenchError(f"--resume: the {what} differs from the run's ({before} then, {now} now)")
    written = (the_plan.out_dir / "results.json").stat().st_mtime
    run.started_at = previous.started_at
    run.series = results.read_series(the_plan.out_dir)
    kept = sum(previous.rounds.completed)
    earlier = previous.completion.resumed if previous.completion else []
    return [*earlier, results.Resumption(_now(), round(time.time() - written, 1), kept)]


def _sequuid_kind(run: results.RunResult) -> str:
    status = (run.target.get("sequuid") or {}).get("status")
    return "C extension" if status in ("present", "built") else "PL/pgSQL port or none"


def _measured_before(
    previous: results.RunResult | None, interleaved: bool = False
) -> dict[str, dict[str, list[results.WorkloadResult]]]:
    """An interrupted run's windows, by strategy and window, each with its rounds (INTERLEAVED: its shares
    of the mixed design's interleaved windows)."""
    if previous is None:
        return {}
    return {
        s.name: {w.name: list(w.interleaved if interleaved else w.rounds) for w in s.workloads}
        for s in previous.strategies
    }


def _stopped(
    run: results.RunResult, error: BaseException, done: dict[str, list[results.StrategyResult]], repeat: int
) -> results.Completion:
    """Why a run stopped, in one line, and what it had completed by then."""
    if isinstance(error, KeyboardInterrupt):
        why = "an interruption (Ctrl-C or SIGTERM)"
    elif isinstance(error, ServerDied):
        why = f"the server's death ({first_line(error)})"
    else:
        why = first_line(error)
    paired = run.rounds is not None and run.rounds.mode == "paired"
    finished = [] if paired else [name for name, runs in done.items() if len(runs) == repeat]
    rounds = run.rounds.completed[-1] if paired and run.rounds and run.rounds.completed else 0
    return results.Completion(False, why, rounds, finished)


def _write(out_dir: Path, run: results.RunResult) -> None:
    results.write(out_dir, run)
    summary.write(out_dir, run)
    export.write_csv(out_dir, run)


def _write_report(out_dir: Path, reporter: Reporter) -> None:
    """The HTML report is a bonus on top of results.json: a failure there is a warning, not a failed run."""
    # plotly is imported once the run has measured what it could, not while the command line starts
    from pkbench.report.render import write_report

    try:
        write_report(out_dir)
    except Exception as e:
        reporter.warning(f"HTML report not written: {e}")


def _buffercache_availability(ws: Workspace) -> str | None:
    reason = ws.ensure_extension(buffercache.EXTENSION)
    if reason:
        return reason
    try:
        with ws.connection.connect() as conn:
            conn.execute("SELECT 1 FROM pg_buffercache LIMIT 1").fetchall()
    except psycopg.Error as e:
        return f"pg_buffercache: {first_line(e)}"
    return None
