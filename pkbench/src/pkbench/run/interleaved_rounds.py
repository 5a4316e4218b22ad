"""`pkbench run --interleave`: the paired rounds' stages and setup, but each round's window measured once for
all strategies at the same instant (run.interleaved), so a slowdown of the machine falls on all of them. The
default, mixed design (MixedRounds) measures each round's windows both ways.

Only a strategy's cost per transaction says anything in such a window (pgbench picks scripts by weight), so
the window keeps those figures, and the verdicts are on them, each strategy against the baseline's from the
same window, over the rounds: its latency mean, and where pg_stat_statements can tell the strategies'
statements apart (probes.statements), their execution time, buffers and WAL per transaction.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol, runtime_checkable

from pkbench.errors import PkbenchError
from pkbench.probes import Connection, machine, statements, work
from pkbench.results.model import Unavailable, WorkloadResult, WorkPerTransaction
from pkbench.run import interleaved
from pkbench.run.paired import PairedRounds
from pkbench.server import iolimit
from pkbench.server.synchronous import REMOTE_LEVELS
from pkbench.server.target import Target
from pkbench.server.topology import Topology
from pkbench.server.workspace import Workspace
from pkbench.steps import PgbenchStep, Step, checkpoints, window_start
from pkbench.steps.context import StepContext


@runtime_checkable
class StrategyPass(Protocol):
    """What an interleaved window needs of a strategy's pass (run.strategy_pass.StrategyPass, not imported:
    the import chain from the CLI would grow past its limit): its schema, server and rendering context."""

    ws: Workspace
    target: Target
    context: StepContext | None


def window_sql(step: PgbenchStep, one_pass: StrategyPass, strategy: str) -> tuple[interleaved.Mix, int]:
    """A strategy's scripts of a window with their weights, each in the strategy's own schema and its SQL
    commands tagged with its name for pg_stat_statements; and the most SQL commands one of them runs."""
    context = one_pass.context
    if context is None:
        raise PkbenchError(f"{one_pass.ws.schema} has no context to render {step.name}")
    path = one_pass.ws.search_path
    mix: list[tuple[str, int, str]] = []
    most = 0
    for script in step.scripts:
        sql, commands = statements.tagged(context.render(script.sql), strategy)
        mix.append((script.name, script.weight, interleaved.scoped(sql, path)))
        most = max(most, commands)
    return mix, most


def _statements(first: StrategyPass, conn: Connection) -> statements.Snapshot | str:
    """The tagged statements' counters, or why there are none: pg_stat_statements is created only in the
    embedded cluster, and a user's server's statistics are only read, never reset."""
    embedded = first.target.server.embedded
    reason = work.statement_statistics(conn, create_extension=embedded)
    return reason if reason is not None else statements.read(conn)


def _work(
    before: statements.Snapshot | str,
    after: statements.Snapshot | str,
    measured: dict[str, interleaved.StrategyWindow],
    commands: dict[str, int],
    clients: int,
) -> dict[str, WorkPerTransaction]:
    """Each strategy's work per transaction in the window, or why it is missing."""
    counts = {name: share.transactions for name, share in measured.items()}
    if isinstance(before, statements.Snapshot) and isinstance(after, statements.Snapshot):
        return statements.per_strategy(before, after, counts, commands, clients=clients)
    reason = before if isinstance(before, str) else str(after)
    return {
        name: WorkPerTransaction(count, unavailable=[Unavailable(f, reason) for f in statements.FIGURES])
        for name, count in counts.items()
    }


def _once(
    first: StrategyPass, context: StepContext, sql: dict[str, interleaved.Mix], seconds: int, workdir: Path
) -> dict[str, interleaved.StrategyWindow]:
    """One interleaved window of SECONDS, on the server and database the strategies share."""
    return interleaved.measure_rounds(
        context.pgbench_path,
        first.ws.connection.pgbench_database(),
        first.ws.connection.environment(first.ws.search_path),
        sql,
        rounds=1,
        clients=context.int_parameter("clients"),
        jobs=context.int_parameter("jobs"),
        duration_s=seconds,
        workdir=workdir,
        check_alive=first.target.check_alive,
    )[0]


class InterleavedRounds(PairedRounds):
    """Paired rounds whose windows run every strategy's script in one pgbench run."""

    def _measure_round(self, windows: Sequence[PgbenchStep], order: Sequence[str], number: int) -> None:
        for window in windows:
            if window.transactions is not None:
                # Its transactions use up what they act on: each strategy runs its count alone.
                PairedRounds._measure_round(self, [window], order, number)
                continue
            for name, share in self._interleaved_window(window, order, number).items():
                self.windows[name].setdefault(window.name, []).append(share)

    def _interleaved_window(
        self, window: PgbenchStep, order: Sequence[str], number: int, derived_tps: bool = False
    ) -> dict[str, WorkloadResult]:
        """One interleaved window of every strategy in ORDER: each strategy's share of it. With DERIVED_TPS
        a share's tps is the throughput its latency mean gives the window's clients, clients / latency: its
        transaction count follows its script's weight, not its speed."""
        passes = {name: self.passes[name] for name in order}
        concrete = {name: p for name, p in passes.items() if isinstance(p, StrategyPass)}
        if not concrete:
            return {}
        first = next(iter(concrete.values()))
        context = first.context
        if context is None:
            return {}
        tagged = {name: window_sql(window, p, name) for name, p in concrete.items()}
        sql = {name: mix for name, (mix, _) in tagged.items()}
        commands = {name: count for name, (_, count) in tagged.items()}
        self.reporter.info(f"  {window.name}: {' '.join(sql)} at once")
        workdir = context.out_dir / "pgbench" / "interleaved" / window.name / f"round-{number}"

        # As a paired window: after autovacuum's workers, a warm-up that loads every strategy's pages
        # back and is not measured, then a checkpoint, so that the full-page images per transaction are
        # those of a fresh checkpoint in both designs.
        with first.ws.connection.connect() as conn:
            if (late := window_start.wait_for_autovacuum(conn)) is not None:
                self.reporter.warning(late)
        warmup = int(context.parameters.get("warmup_s", 0) or 0)
        if warmup > 0:
            _once(first, context, sql, warmup, workdir / "warmup")
        with first.ws.connection.connect() as conn:
            no_checkpoint = window_start.checkpoint(conn)
            before = _statements(first, conn)
            # The embedded server's processes are the benchmark's own, not the machine's other load.
            postmaster = work.postmaster_pid(conn) if first.target.server.embedded else None
            servers = machine.benchmark_servers(first.target, postmaster)
            machine_before = machine.snapshot(servers)
            measured = _once(first, context, sql, context.int_parameter("duration_s"), workdir / "window")
            machine_after = machine.snapshot(servers)
            after = _statements(first, conn) if isinstance(before, statements.Snapshot) else before
        clients = context.int_parameter("clients")
        work_by_name = _work(before, after, measured, commands, clients)
        shared = (
            machine.window(machine_before, machine_after)
            if machine_before is not None and machine_after is not None
            else None
        )
        shares: dict[str, WorkloadResult] = {}
        for name, share in measured.items():
            spent = work_by_name[name]
            latency = share.latency_ms_mean
            shares[name] = WorkloadResult(
                window.name,
                window.description,
                duration_s=float(context.int_parameter("duration_s")),
                transactions=share.transactions,
                tps=clients * 1000 / latency if derived_tps and latency > 0 else None,
                latency_ms={"mean": latency},
                wal_bytes_per_transaction=spent.wal_bytes,
                wal_fpi_per_transaction=spent.wal_fpi,
                work_per_transaction=spent,
                machine_window=shared,
                unavailable=[
                    *(
                        Unavailable(f"{u.metric}_per_transaction", u.reason)
                        for u in spent.unavailable
                        if u.metric in ("wal_bytes", "wal_fpi")
                    ),
                    *([no_checkpoint] if no_checkpoint is not None else []),
                ],
            )
        return shares


@dataclass
class MixedRounds(InterleavedRounds):
    """The default design: every round runs each strategy's windows one after the other, as paired rounds do,
    and then each window once more with every strategy at once. The interleaved window cancels the
    machine's speed of the moment in each strategy's latency; the paired windows measure what a transaction
    costs when a strategy has the server to itself (its commit record's WAL, the full-page images of its own
    transactions after the checkpoint, its cache). A window the run record names in `paired_only` runs paired
    only, and is judged on its paired windows alone."""

    # A resumed run's shares of the interleaved windows measured before: strategy -> window -> rounds.
    measured_shares: Mapping[str, Mapping[str, list[WorkloadResult]]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        super().__post_init__()
        self.shares: dict[str, dict[str, list[WorkloadResult]]] = {
            name: {window: list(rounds) for window, rounds in self.measured_shares.get(name, {}).items()}
            for name in self.passes
        }

    def _measure_round(self, windows: Sequence[PgbenchStep], order: Sequence[str], number: int) -> None:
        PairedRounds._measure_round(self, windows, order, number)
        for window in windows:
            if window.name in self.record.paired_only:
                continue
            running = [name for name in order if self.passes[name].result.status == "ok"]
            for name, share in self._interleaved_window(window, running, number, derived_tps=True).items():
                self.shares[name].setdefault(window.name, []).append(share)

    def _combined(self, name: str, rounds: Sequence[WorkloadResult]) -> WorkloadResult:
        combined = super()._combined(name, rounds)
        combined.interleaved = list(self.shares[name].get(combined.name, []))
        return combined


def paired_only(
    steps: Sequence[Step], the_topology: Topology, parameters: Mapping[str, object]
) -> dict[str, str]:
    """The windows the mixed design measures in paired rounds only, each with the reason: where an
    interleaved window would make the strategies share what a paired window gives each alone, so that their
    latencies say something else (docs/statistics.md, interleaving's bias by scenario), or would leave out
    what the scenario does to each window."""
    windows = [step for step in steps if isinstance(step, PgbenchStep)]
    found = {step.name: _why_paired(step, the_topology, parameters) for step in windows}
    return {name: why for name, why in found.items() if why}


def _why_paired(step: PgbenchStep, the_topology: Topology, parameters: Mapping[str, object]) -> str:
    """Why STEP keeps paired rounds in the mixed design, or "" where it interleaves."""
    standby = the_topology.standby or the_topology.standby_dsn is not None
    every, limit, rate = (
        checkpoints.interval_s(parameters),
        parameters.get(iolimit.PARAMETER),
        parameters.get("rate_tps"),
    )
    level = step.synchronous_commit
    reasons = [
        (
            standby and level in REMOTE_LEVELS,
            f"synchronous_commit {level}: every strategy's commits would wait in the one standby's queue, "
            "which draws their latencies together",
        ),
        (
            level is not None,
            f"its sessions run with synchronous_commit {level}, which only its paired windows set",
        ),
        (
            bool(rate),
            f"--rate {rate} schedules each strategy's window at that rate, to compare latencies at equal "
            "load, where a shared window would run every strategy as fast as it can",
        ),
        (
            step.transactions is not None,
            f"it runs {step.transactions} transactions per client that use up what they act on, where a "
            "shared window picks every strategy's scripts by weight for as long as it lasts",
        ),
        (
            bool(the_topology.shards),
            "its tables are partitions on the shards, where no interleaved window was ever compared with "
            "paired ones",
        ),
        (
            bool(every),
            f"a checkpoint every {every or 0:g} s splits each window: one shared window would split every "
            "strategy's at the same instants, and their full-page images after each fall unevenly",
        ),
        (
            bool(limit),
            f"the disk's write limit ({iolimit.PARAMETER} {limit}) is each strategy's own while its window "
            "runs, and a shared window would divide it",
        ),
    ]
    return next((why for applies, why in reasons if applies), "")
