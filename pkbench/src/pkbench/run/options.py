"""What `pkbench run` was asked to do, checked in one place before anything is started: plan()."""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from pathlib import Path
from typing import Any

import psycopg

from pkbench import results
from pkbench.errors import PkbenchError
from pkbench.probes import machine
from pkbench.results.model import RunResult, StrategyResult
from pkbench.run import parameters as parameters_module
from pkbench.run.parameters import BIGINT_MAX
from pkbench.scenario import file as scenario_module
from pkbench.scenario.file import Scenario
from pkbench.server import iolimit, memcap, topology
from pkbench.server.builds import find_pgbench, find_server_bindir, server_bindir
from pkbench.server.topology import Topology
from pkbench.strategies.binding import bound, refuse_unpartitioned, refuse_without_client_keys
from pkbench.strategies.catalog import Catalog
from pkbench.strategies.model import Strategy
from pkbench.strategies.user_config import load_config, parse_definition

_SCHEMA_NAME = re.compile(r"^[a-z_][a-z0-9_]{0,62}$")
# sequuid.clock_rate's accepted range (sequuid/README.md, Settings).
CLOCK_RATE_MIN = 1e-6
CLOCK_RATE_MAX = 1e6


@dataclass
class Options:
    scenario: str = "war"
    strategies: Sequence[str] | None = None
    parameters: dict[str, int | float | str | None] = field(default_factory=dict)
    out: Path | None = None
    dsn: str | None = None
    keep: bool = False
    pg_bin: Path | None = None
    # --pg MAJOR: the embedded server from that major's build (Debian's, or a wheel such as pkbench[pg18]).
    pg_major: int | None = None
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
    # --set KEY=VALUE: a scenario parameter (rows, parameters.rows) or a server setting (settings.work_mem).
    overrides: Sequence[str] = ()
    # --clock-rate: virtual seconds per real second of sequuid's clock (None: the scenario's, else 1).
    clock_rate: float | None = None
    # A standby pkbench starts, a WAL archive of the embedded server, or a standby to read (--standby-dsn).
    standby: bool = False
    archive: bool = False
    standby_dsn: str | None = None
    # --shards N: embedded shards behind the embedded server (None: the scenario's [topology] shards).
    shards: int | None = None
    # --shard-dsn, repeated: existing servers the --dsn server coordinates as shards.
    shard_dsn: tuple[str, ...] = ()
    # Rounds: how many (None: the scenario's `rounds`, else 1), against which strategy (None: the first),
    # and --precision's target half-width (a fraction) within --max-time seconds.
    rounds: int | None = None
    baseline: str | None = None
    precision: float | None = None
    max_time_s: float | None = None
    until_decided: bool = False  # --until-decided: with --precision, wait only for each window's rate and WAL
    # --isolate: each strategy alone in a fresh schema, one after the other (today's studies' way).
    isolate: bool = False
    # --interleave (True), --paired (False), neither: both in every round (interleaved_rounds.MixedRounds).
    interleave: bool | None = None
    # --calibrate: the baseline against an identical copy of itself named COPY_SUFFIX after it.
    aa_copy: bool = False
    # --scale NAME: one of the scenario's [scale] presets (the study's own sizes, or quick ones).
    scale: str | None = None
    # --resume DIR: continue the interrupted run in DIR (its recorded command gives every other option).
    resume: Path | None = None
    # --no-report: no report.html (plotly takes seconds of CPU to draw it; `pkbench report DIR` can later).
    report: bool = True


DEFAULT_MAX_TIME_S = 20 * 60  # --precision without --max-time: the time it may take at most


@dataclass
class Plan:
    """Everything checked before anything is started."""

    scenario: Scenario
    strategies: list[Strategy]
    out_dir: Path
    pgbench: Path
    server_bindir: Path | None
    clock_rate: float = 1.0
    paired: bool = True
    rounds: int = 1
    baseline: str | None = None
    precision: float | None = None
    max_time_s: float | None = None
    topology: Topology = field(default_factory=Topology)
    # The interrupted run --resume continues, as it was written.
    resumed: RunResult | None = None
    # The cgroup memory cap of the embedded server: --memory-limit, else the scenario's memory_limit.
    memory_limit_bytes: int | None = None
    design: str = "mixed"  # how rounds measure their windows (results.RoundsRecord.design)


def plan(options: Options) -> Plan:
    extra: list[Strategy] = []
    if options.config is not None:
        check_text_file(options.config, "--config")
        extra += load_config(options.config)
    extra += [parse_definition(d) for d in options.strategy_defs]
    catalog = Catalog(extra)
    parameters_module.check_numbers(options.parameters)
    parameters, settings = parameters_module.from_set(options.overrides)
    parameters_module.check_numbers(parameters)
    loaded = scenario_module.load(options.scenario).at_scale(options.scale)
    if settings:
        loaded = replace(loaded, settings={**loaded.settings, **settings})
    # Options left out arrive as None and must not hide a --set value of the same parameter.
    given = {name: value for name, value in options.parameters.items() if value is not None}
    parameters_module.check_known(loaded.name, loaded.parameters, parameters, from_set=True)
    parameters_module.check_known(loaded.name, loaded.parameters, given, from_set=False)
    loaded = loaded.with_parameters({**parameters, **given})
    parameters_module.check_rate(loaded.parameters.get("rate_tps"))
    parameters_module.check_fraction(loaded.parameters, "log_sampling_rate")
    clock_rate = _clock_rate(options, loaded)
    if "clock_rate" in loaded.parameters or options.clock_rate is not None:
        # The rate in force, for the scenario's SQL ({clock_rate}) and results.json's parameters.
        loaded = loaded.with_parameters({"clock_rate": clock_rate})
    chosen = catalog.select(options.strategies or loaded.strategies)
    chosen = [bound(strategy, loaded.parameters, machine.cores()) for strategy in chosen]
    texts = [text for step in loaded.steps for text in step.texts()]
    refuse_unpartitioned(chosen, loaded.name, texts)
    refuse_without_client_keys(chosen, loaded.name, texts)
    if options.aa_copy:
        chosen = _with_copy(options, loaded, chosen)
    out_dir = options.out or Path(f"pkbench-results-{datetime.now().strftime('%Y%m%d-%H%M%S')}")
    resumed = None
    if options.resume is not None:
        out_dir = options.resume
        resumed = _resumable(options.resume, loaded, [s.name for s in chosen])
    elif out_dir.exists():
        raise PkbenchError(f"output directory {out_dir} exists; pick another with --out")
    if options.schema is not None and not _SCHEMA_NAME.match(options.schema):
        raise PkbenchError(f"--schema {options.schema!r}: use lower-case letters, digits and '_'")
    iolimit.write_iops(loaded.parameters, embedded=options.dsn is None)
    memory_limit = _memory_limit(options, loaded)
    if memory_limit is not None and options.dsn is not None:
        raise PkbenchError("--memory-limit applies to the embedded server only, not with --dsn")
    if options.memory_limit_bytes is not None and not 0 < options.memory_limit_bytes <= BIGINT_MAX:
        raise PkbenchError(f"--memory-limit must be a size of at most {BIGINT_MAX:,} bytes")
    if options.repeat < 1:
        raise PkbenchError(f"--repeat must be at least 1 (got {options.repeat})")
    if options.schema is not None and options.dsn is None:
        raise PkbenchError("--schema only applies with --dsn")
    pg_bin = options.pg_bin
    if options.pg_major is not None:
        if options.pg_bin is not None:
            raise PkbenchError("--pg and --pg-bin both choose the server build: give one of them")
        if options.dsn is not None:
            raise PkbenchError("--pg applies to the embedded server only, not with --dsn")
        pg_bin = server_bindir(options.pg_major)
    pgbench_path = find_pgbench(pg_bin)
    bindir = None if options.dsn else find_server_bindir(pg_bin)
    if options.port is not None and not 1 <= options.port <= 65535:
        raise PkbenchError(f"--port {options.port}: must be between 1 and 65535")
    paired, rounds = _rounds(options, loaded)
    baseline = _baseline(options, loaded, [s.name for s in chosen])
    max_time = options.max_time_s
    if options.precision is not None and max_time is None:
        max_time = DEFAULT_MAX_TIME_S
    the_topology = _topology(options, loaded)
    if resumed is not None and (not paired or resumed.rounds is None or resumed.rounds.mode != "paired"):
        raise PkbenchError(f"--resume {options.resume}: only a run of paired rounds can be resumed")
    if resumed is not None and resumed.rounds is not None and resumed.rounds.requested != rounds:
        raise PkbenchError(f"--resume {options.resume}: the plan differs from the run's (rounds)")
    if options.interleave and (not paired or resumed is not None):
        raise PkbenchError(
            "--interleave applies to paired rounds of a new run, not with --isolate, --repeat or --resume"
        )
    return Plan(
        loaded,
        chosen,
        out_dir,
        pgbench_path,
        bindir,
        clock_rate,
        paired,
        rounds,
        baseline,
        options.precision,
        max_time,
        the_topology,
        resumed,
        memory_limit,
        _design(options, resumed),
    )


COPY_SUFFIX = "-copy"


def _design(options: Options, resumed: RunResult | None) -> str:
    """--interleave or --paired, else the design of the run --resume continues, else the mixed design."""
    if options.interleave is not None:
        return "interleaved" if options.interleave else "paired"
    return resumed.rounds.design if resumed is not None and resumed.rounds is not None else "mixed"


def _with_copy(options: Options, loaded: Scenario, chosen: list[Strategy]) -> list[Strategy]:
    """The baseline and an identical copy of it: every difference resolved between them is a false one."""
    names = [s.name for s in chosen]
    base = options.baseline or (loaded.baseline if loaded.baseline in names else names[0] if names else None)
    original = next((s for s in chosen if s.name == base), None)
    if original is None:
        raise PkbenchError(f"--calibrate: the baseline {base!r} is not among the strategies run")
    return [original, replace(original, name=original.name + COPY_SUFFIX)]


def _memory_limit(options: Options, loaded: Scenario) -> int | None:
    """--memory-limit, else the scenario's `memory_limit` parameter (a study preset's RAM, scaled)."""
    if options.memory_limit_bytes is not None:
        return options.memory_limit_bytes
    value = loaded.parameters.get("memory_limit")
    return memcap.parse_size(str(value)) if value is not None else None


def _baseline(options: Options, loaded: Scenario, chosen: list[str]) -> str | None:
    """The one strategy every table, verdict and section compares with: --baseline, else the scenario's
    when it runs, else the first strategy."""
    if options.baseline is not None:
        if options.baseline not in chosen:
            raise PkbenchError(
                f"--baseline {options.baseline!r} is not among the strategies run: {', '.join(chosen)}"
            )
        return options.baseline
    if loaded.baseline in chosen:
        return loaded.baseline
    return chosen[0] if chosen else None


def _rounds(options: Options, loaded: Scenario) -> tuple[bool, int]:
    """Paired or isolated, and how many rounds."""
    paired = not options.isolate and not loaded.isolate and options.repeat == 1
    if not paired:
        for given, option in (
            (options.rounds, "--rounds"),
            (options.precision, "--precision"),
        ):
            if given is not None:
                why = (
                    "--isolate"
                    if options.isolate
                    else f"--scale {loaded.scale}"
                    if loaded.isolate
                    else "--repeat"
                )
                raise PkbenchError(f"{option} applies to paired rounds, not with {why}")
        return False, options.repeat
    value: object = options.rounds if options.rounds is not None else loaded.parameters.get("rounds", 1)
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        option = "--rounds" if options.rounds is not None else "parameter rounds"
        raise PkbenchError(f"{option} must be a whole number of at least 1 (got {value!r})")
    if options.precision is not None and not 0 < options.precision < 1:
        raise PkbenchError(
            f"--precision must be a percentage above 0 and below 100 (got {options.precision * 100:g}%)"
        )
    if options.max_time_s is not None and options.precision is None:
        raise PkbenchError("--max-time bounds --precision: give --precision too")
    if options.max_time_s is not None and not 0 < options.max_time_s <= BIGINT_MAX:
        raise PkbenchError("--max-time must be a positive duration, e.g. 20m")
    return True, value


def _topology(options: Options, loaded: Scenario) -> Topology:
    """The scenario's [topology] with --standby, --archive and --standby-dsn added; with --dsn a scenario's
    own standby and archive are left out (its figures are then unavailable) rather than refused."""
    asked = loaded.topology
    embedded = options.dsn is None
    wanted = Topology(
        standby=options.standby or (asked.standby and embedded),
        archive=options.archive or (asked.archive and embedded),
        standby_dsn=options.standby_dsn,
        wal_segment_size_mb=asked.wal_segment_size_mb if embedded else None,
        shards=topology.shard_count(options.shards, options.shard_dsn, asked.shards, options.dsn),
        shard_dsns=tuple(options.shard_dsn),
    )
    topology.check(wanted, options.dsn)
    return wanted


def _clock_rate(options: Options, loaded: Scenario) -> float:
    """The rate of sequuid's virtual clock: --clock-rate, else the scenario's clock_rate parameter, else 1.

    On an existing server (--dsn) a rate other than 1 is refused: sequuid.clock_rate is a superuser setting,
    and pkbench's pgbench clients would need it on every connection; setting it for a role or database would
    change a server pkbench did not create.
    """
    value: object = (
        options.clock_rate if options.clock_rate is not None else loaded.parameters.get("clock_rate", 1)
    )
    option = "--clock-rate" if options.clock_rate is not None else "parameter clock_rate"
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise PkbenchError(f"{option} must be a number (got {value!r})")
    rate = float(value)
    if not math.isfinite(rate) or not CLOCK_RATE_MIN <= rate <= CLOCK_RATE_MAX:
        raise PkbenchError(
            f"{option} must be a finite number from {CLOCK_RATE_MIN:g} to {CLOCK_RATE_MAX:g}, the range of "
            f"sequuid.clock_rate (got {value})"
        )
    if rate != 1 and options.dsn is not None:
        raise PkbenchError(
            f"{option} {rate:g} applies to the embedded server only: on an existing server "
            "sequuid.clock_rate is a superuser setting that pkbench's pgbench clients would need on every "
            "connection, and pkbench does not change the settings of a server it did not create"
        )
    return rate


def check_text_file(path: Path, option: str) -> None:
    """A binary file is one line here; a missing one is left for its reader to name."""
    try:
        path.read_bytes().decode()
    except OSError:
        return
    except UnicodeDecodeError as e:
        raise PkbenchError(f"{option} {path}: not a TOML text file ({e.reason} at byte {e.start})") from e


def _resumable(directory: Path, loaded: Scenario, chosen: list[str]) -> RunResult:
    """The interrupted run in DIRECTORY, when the plan made from its recorded command is the one it ran."""
    try:
        previous = results.load(directory)
    except PkbenchError as error:
        raise PkbenchError(f"--resume {directory}: {error}") from None
    if not previous.incomplete:
        raise PkbenchError(f"--resume {directory}: that run is complete; there is nothing to resume")
    recorded = previous.scenario.get("parameters") or {}
    # rounds: the runner records the rounds in force, which plan() compares itself
    differs = [
        name
        for name, value in loaded.parameters.items()
        if name in recorded and recorded[name] != value and name != "rounds"
    ]
    if previous.scenario.get("name") != loaded.name or differs:
        raise PkbenchError(
            f"--resume {directory}: the plan differs from the run's ({', '.join(differs) or 'scenario'})"
        )
    if [s.name for s in previous.strategies] != chosen:
        raise PkbenchError(f"--resume {directory}: the strategies differ from the run's")
    return previous


# Connections pkbench holds besides pgbench's clients: the probe, the sampler, and a spare for the steps.
PKBENCH_CONNECTIONS = 3


def check_against_server(the_plan: Plan, conn: psycopg.Connection[tuple[object, ...]]) -> None:
    """What only the server can tell: whether it accepts the connections the plan needs."""
    clients = the_plan.scenario.parameters.get("clients")
    row = conn.execute(
        "SELECT current_setting('max_connections')::int"
        " - current_setting('superuser_reserved_connections')::int"
    ).fetchone()
    available = int(str(row[0])) if row else None
    if isinstance(clients, int) and available is not None and clients + PKBENCH_CONNECTIONS > available:
        raise PkbenchError(
            f"--clients {clients}: the server accepts {available} connections and pkbench needs "
            f"{PKBENCH_CONNECTIONS} of its own; use at most {available - PKBENCH_CONNECTIONS} clients "
            "(or raise max_connections, e.g. --set settings.max_connections=...)"
        )


@dataclass
class Outcome:
    """What a run produced: its results directory and the results written there."""

    out_dir: Path
    run: RunResult

    @property
    def failed(self) -> list[StrategyResult]:
        return [s for s in self.run.strategies if s.status == "failed"]

    @property
    def skipped(self) -> list[StrategyResult]:
        return [s for s in self.run.strategies if s.status == "skipped"]
