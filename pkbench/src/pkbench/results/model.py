"""The results model of docs/results.md: what a run writes to results.json, and what results.load() returns.

A run builds these objects as it measures; `RunResult.to_json()` is results.json, and reading it back gives
the same objects (pkbench.results.files).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any

from pkbench import __version__

SCHEMA_VERSION = 1
# The snapshot step whose sizes are kept in StrategyResult.sizes_after_prefill rather than in snapshots.
PREFILL_SNAPSHOT = "sizes_after_prefill"

# file → its columns after the common strategy,workload,repeat,elapsed_s
TIMESERIES_COLUMNS: dict[str, tuple[str, ...]] = {
    "tps": ("tps", "latency_ms_mean", "latency_ms_stddev"),
    "buffercache": ("relation", "buffers", "bytes"),
    "usagecount": ("usage_count", "buffers"),
    "wait_events": ("wait_event_type", "wait_event", "backends"),
    "sizes": ("relation", "bytes"),
    "replication": ("write_lag_ms", "flush_lag_ms", "replay_lag_ms", "replay_behind_bytes"),
    "shard_inserts": ("shard", "inserted"),
}
COMMON_COLUMNS = ("strategy", "workload", "repeat", "elapsed_s")


@dataclass(frozen=True)
class Unavailable:
    """A figure a probe could not measure on this server, and why."""

    metric: str
    reason: str


@dataclass
class Sizes:
    """The table, each of its indexes, the primary key, and the total (bytes)."""

    table_bytes: int
    primary_key_bytes: int | None
    total_bytes: int
    indexes: dict[str, int] = field(default_factory=dict)


@dataclass
class Prefill:
    """The fill step the Results Summary headlines as "time to insert" ([summary] insert of the scenario)."""

    rows: int
    duration_s: float
    rows_per_s: float | None
    step: str | None = None
    # Paired rounds load in parts, every strategy's part k in turn before part k + 1: each part's rows and
    # seconds, paired across strategies for the load's verdict. None for a load timed in one piece.
    parts_rows: list[int] | None = None
    parts_s: list[float] | None = None


@dataclass
class StatementResult:
    name: str
    sql: str
    latency_ms: dict[str, float | None]


@dataclass
class WorkPerTransaction:
    """One window's work divided by its transactions (probes/work.py): what a transaction cost the server, in
    units the machine's noise does not move. None where a source was missing (``unavailable`` says why)."""

    transactions: int
    shared_blocks_hit: float | None = None
    shared_blocks_read: float | None = None
    shared_blocks_dirtied: float | None = None
    shared_blocks_written: float | None = None
    wal_bytes: float | None = None
    wal_fpi: float | None = None
    backend_cpu_ms: float | None = None
    # total_exec_time of the statements (pg_stat_statements): backends' time executing them, CPU and waits.
    statement_time_ms: float | None = None
    os_read_bytes: float | None = None  # rchar of the ended backends
    storage_read_bytes: float | None = None  # read_bytes of the ended backends
    # Figure name -> where it was read (pg_stat_statements, pg_stat_database, pg_stat_wal, /proc).
    sources: dict[str, str] = field(default_factory=dict)
    unavailable: list[Unavailable] = field(default_factory=list)

    def figures(self) -> dict[str, float | None]:
        """The per-transaction figures by name, in the order the class declares them."""
        return {
            f.name: getattr(self, f.name)
            for f in dataclasses.fields(self)
            if f.name not in ("transactions", "sources", "unavailable")
        }


@dataclass
class MachineWindow:
    """Shares of the machine's whole CPU capacity (all cores) over a window, as fractions in [0, 1]
    (probes/machine.py)."""

    duration_s: float
    busy_fraction: float
    own_fraction: float
    other_fraction: float  # busy, but not by the benchmark: other processes on this machine
    steal_fraction: float
    iowait_fraction: float
    load_average_1min: float  # at the end of the window
    cores: int | None


@dataclass
class ReplicationWindow:
    """What one window cost a standby and the WAL archive (probes/replication.py); None where not measured
    (the workload's ``unavailable`` says why, as replication.<field>)."""

    # The window's pgbench sessions' synchronous_commit; sync_state: the standby's, as the primary lists it.
    synchronous_commit: str | None = None
    sync_state: str | None = None
    wal_shipped_bytes: int | None = None  # sent_lsn's advance until the standby caught up after the window
    # pg_stat_replication's lags sampled over the window: p50, p99, max and the samples taken.
    write_lag_ms: dict[str, float | None] = field(default_factory=dict)
    flush_lag_ms: dict[str, float | None] = field(default_factory=dict)
    replay_lag_ms: dict[str, float | None] = field(default_factory=dict)
    lag_samples: int | None = None
    # From the end of pgbench until the standby replayed the primary's WAL position of that moment.
    catch_up_s: float | None = None
    replay_rate_bytes_per_s: float | None = None
    # Segments basic_archive copied for the window (a WAL switch at each end) and their bytes on disk.
    archived_segments: int | None = None
    archived_bytes: int | None = None


@dataclass
class WorkloadResult:
    name: str
    description: str
    duration_s: float | None = None
    transactions: int | None = None
    failed_transactions: int | None = None
    tps: float | None = None
    latency_ms: dict[str, float | None] = field(default_factory=dict)
    statements: list[StatementResult] = field(default_factory=list)
    wal_bytes: int | None = None
    wal_records: int | None = None
    wal_fpi: int | None = None
    wal_bytes_per_transaction: float | None = None
    wal_fpi_per_transaction: float | None = None
    wal_fpi_bytes: int | None = None
    page_splits: int | None = None
    hit_ratio: dict[str, float | None] = field(default_factory=dict)
    # Buffer accesses (hits + reads) per relation in the window: how many pages a workload touches,
    # which unlike TPS does not move with the load on the machine.
    blocks_accessed: dict[str, int] = field(default_factory=dict)
    checkpoints: dict[str, int | None] = field(default_factory=dict)
    sizes_at_end: Sizes | None = None
    sampling_interval_s: float | None = None
    sampling_busy_s: float | None = None
    sampling_cpu_s: float | None = None
    # pg_walinspect, for workloads whose step asks for it (see probes.walinspect.WalInspection.figures).
    wal_record_bytes: int | None = None
    wal_fpi_bytes_per_transaction: float | None = None
    wal_record_bytes_per_transaction: float | None = None
    page_splits_per_transaction: float | None = None
    page_splits_by_relation: dict[str, int] | None = None
    wal_distinct_blocks: dict[str, int] | None = None
    # Snapshots around the window: its work per transaction, and how busy the machine was meanwhile.
    work_per_transaction: WorkPerTransaction | None = None
    machine_window: MachineWindow | None = None
    # With a standby or a WAL archive (topology.py): what the window cost them.
    replication: ReplicationWindow | None = None
    unavailable: list[Unavailable] = field(default_factory=list)
    # Paired rounds: every round's window as measured (the figures above are their medians), and each
    # figure's [min, max] over them by its dotted name (latency_ms.p99).
    rounds: list[WorkloadResult] = field(default_factory=list)
    spread: dict[str, list[float]] = field(default_factory=dict)
    # The mixed design: the strategy's share of each round's interleaved window, where its speed is judged.
    interleaved: list[WorkloadResult] = field(default_factory=list)


@dataclass
class StrategyResult:
    name: str
    description: str
    column_type: str
    default_expression: str | None
    status: str = "ok"  # ok | failed | skipped
    error: str | None = None
    prefill: Prefill | None = None
    sizes_after_prefill: Sizes | None = None
    workloads: list[WorkloadResult] = field(default_factory=list)
    snapshots: dict[str, Sizes] = field(default_factory=dict)
    # Seconds each sql, fill and copy step took, by step name (a study's prefill and maintenance times).
    step_durations_s: dict[str, float] = field(default_factory=dict)
    # Rows each fill step inserted, by step name (a study's load time is compared per row).
    step_rows: dict[str, int] = field(default_factory=dict)
    # Density step name → {relation: pgstatindex / pgstattuple figures} (the bloat scenario).
    density: dict[str, dict[str, Any]] = field(default_factory=dict)
    # Churn step name → its samples over time, the first taken before it (the retention scenario).
    timelines: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    # Query step name → {query: figures} (its one row, or its plan's time, buffers and rows: steps/query.py).
    queries: dict[str, dict[str, Any]] = field(default_factory=dict)
    # Shard step name → {table, shards: [{inserted, wal_lsn, index_bytes}]} (the sharded scenario).
    shards: dict[str, dict[str, Any]] = field(default_factory=dict)
    unavailable: list[Unavailable] = field(default_factory=list)
    # Where the generator comes from: "core", "extension sequuid", "sequuid PL/pgSQL port".
    generator_source: str | None = None
    # How its keys arrive in the index (strategies.model.Strategy.order); "" when not said.
    order: str = ""

    def record_sizes(self, step: str, sizes: Sizes) -> None:
        """A snapshot step's sizes: the prefill snapshot has a field of its own, the others are by name."""
        if step == PREFILL_SNAPSHOT:
            self.sizes_after_prefill = sizes
        else:
            self.snapshots[step] = sizes


@dataclass
class RepeatedStrategy(StrategyResult):
    """A strategy run several times (--repeat): each figure above is the median over the repeats (the status
    and error those of a repeat that did not finish), `spread` maps each figure's dotted name
    (workloads.insert.tps) to its [min, max], and `repeats` holds every repeat as measured."""

    spread: dict[str, list[float]] = field(default_factory=dict)
    repeats: list[StrategyResult] = field(default_factory=list)


@dataclass
class Resumption:
    """One time an interrupted run was continued (`pkbench run --resume`)."""

    at: str  # when the resumed run started
    gap_s: float  # seconds between the interruption's last write and the resumption
    rounds_kept: int  # rounds measured before the interruption, kept and paired with the later ones


@dataclass
class Completion:
    """Whether the run did everything asked for; when not, why it stopped and what it had done by then."""

    complete: bool
    stopped: str | None = None  # the fault, in one line: "interrupted (SIGTERM)", "the server died: ..."
    rounds_done: int = 0  # paired rounds completed (of RoundsRecord.requested), over the stage reached
    strategies_done: list[str] = field(default_factory=list)  # strategies with every step behind them
    resumed: list[Resumption] = field(default_factory=list)

    def line(self) -> str:
        """One line for the top of summary.md and the report's banner."""
        if self.complete:
            return ""
        done = ", ".join(self.strategies_done) or "none"
        stopped = self.stopped or "an error"
        return (
            f"Incomplete run: stopped by {stopped} after {self.rounds_done} paired round(s); strategies "
            f"completed: {done}. Resume it with pkbench run --resume DIR."
        )


@dataclass
class RoundsRecord:
    """How the windows were measured: paired rounds in one cluster, or each strategy isolated."""

    mode: str  # "paired" | "isolated"
    requested: int  # rounds asked for (paired), or repeats (isolated)
    baseline: str | None = None
    count: int = 0  # rounds run (the most of any stage)
    precision: float | None = None  # --precision as a fraction (0.03)
    max_time_s: float | None = None
    # --until-decided: the precision rule read only each window's rate and WAL per transaction, and took one
    # whose direction holds between them as done however wide (analysis.family.decided).
    until_decided: bool = False
    stopped: str | None = None  # why the last stage stopped adding rounds
    unresolved: list[str] = field(default_factory=list)  # figures still wider than --precision
    # Each round's order of strategies, stage after stage.
    orders: list[list[str]] = field(default_factory=list)
    # Rounds completed in each stage with windows, as they complete (what `--resume` continues from).
    completed: list[int] = field(default_factory=list)
    # How each round's windows were measured: "paired", one strategy after the other, "interleaved", every
    # strategy's script in one pgbench window (pkbench run --interleave), or "mixed" (the default), both in
    # every round: speed judged from the interleaved window, work per transaction from the paired ones.
    design: str = "paired"
    # The mixed design: the windows measured in paired rounds only, each with the reason.
    paired_only: dict[str, str] = field(default_factory=dict)
    # The mixed design: each round's first paired window of a step ran for the scenario's duration and the
    # others of that round ran as many transactions (False in runs of an older pkbench, whose paired windows
    # all ran for the duration).
    equal_transactions: bool = False


@dataclass
class Verdict:
    """A headline figure of a strategy against the baseline over paired rounds (pkbench.analysis.judge)."""

    workload: str
    metric: str  # the metric registry's key
    strategy: str
    baseline: str
    # The per-round ratios strategy / baseline: their geometric mean (their median where one was zero, and in
    # runs of a pkbench that bootstrapped the median, method "bootstrap").
    ratio: float | None
    low: float | None
    high: float | None
    confidence: float | None
    method: str | None  # "t on log ratios" | "bootstrap" | "range of rounds"
    rounds: int
    resolved: bool
    better: bool | None
    words: str
    strategy_cv: float | None  # the strategy's own figure: coefficient of variation across rounds
    half_width: float | None  # the interval's widest side, as a fraction of the ratio
    # Student's t on the log ratios, two-sided: what the familywise correction ranks (analysis.family).
    p_value: float | None = None
    # Whether the verdict holds among all of its strategy's verdicts at 5% familywise (Holm); None in results
    # of a pkbench that did not judge families.
    familywise: bool | None = None
    # Which windows it was judged on, "paired" or "interleaved" (None: the run's one design, as recorded
    # by a pkbench that judged every figure of a run on one design).
    design: str | None = None

    @property
    def holds(self) -> bool:
        """Whether the run states a difference here: in the strategy's family where the run judged families
        (one resolved alone but not among its strategy's figures is no difference stated), else alone."""
        return self.resolved if self.familywise is None else self.familywise


@dataclass
class RunResult:
    command: list[str]
    started_at: str
    scenario: dict[str, Any]
    server: dict[str, Any]
    machine: dict[str, Any]
    target: dict[str, Any]
    finished_at: str | None = None
    # The pkbench that wrote the results (a run's own when it is being written).
    pkbench_version: str = __version__
    # sequuid's virtual clock: its rate, anchor, the virtual time covered, and the strategies it cannot move.
    clock: dict[str, Any] = field(default_factory=dict)
    rounds: RoundsRecord | None = None
    # The strategy every table, verdict and section compares with (see baseline_strategy).
    baseline: str | None = None
    # None until the run ends: complete, or why it stopped (results.json of a run in progress has none).
    completion: Completion | None = None
    verdicts: list[Verdict] = field(default_factory=list)
    # A RepeatedStrategy where --repeat combined several runs of a strategy.
    strategies: list[StrategyResult] = field(default_factory=list)
    # Rows of each time series, leading with strategy, workload, repeat, elapsed_s; written as CSV, not JSON.
    series: dict[str, list[tuple[object, ...]]] = field(
        default_factory=lambda: {name: [] for name in TIMESERIES_COLUMNS}
    )

    def to_json(self) -> dict[str, Any]:
        return {
            "schema_version": SCHEMA_VERSION,
            "pkbench_version": self.pkbench_version,
            "command": self.command,
            "started_at": self.started_at,
            "finished_at": self.finished_at,
            "scenario": self.scenario,
            "server": self.server,
            "machine": self.machine,
            "target": self.target,
            "clock": self.clock,
            "rounds": dataclasses.asdict(self.rounds) if self.rounds else None,
            "baseline": self.baseline,
            "completion": dataclasses.asdict(self.completion) if self.completion else None,
            "verdicts": [dataclasses.asdict(v) for v in self.verdicts],
            "timeseries": {name: f"timeseries/{name}.csv" for name in TIMESERIES_COLUMNS},
            "strategies": [dataclasses.asdict(s) for s in self.strategies],
        }

    @property
    def incomplete(self) -> bool:
        """A run that stopped before doing everything asked for, or whose writing was cut off mid-run."""
        return self.completion is not None and not self.completion.complete

    def baseline_strategy(self) -> StrategyResult | None:
        """The measured strategy the others are compared with: the run's baseline; in results written
        before the run recorded one, the paired rounds' baseline, else the first strategy measured."""
        measured = [s for s in self.strategies if s.status == "ok"]
        name = self.baseline or (self.rounds.baseline if self.rounds else None)
        if name is None:
            return measured[0] if measured else None
        return next((s for s in measured if s.name == name), None)
