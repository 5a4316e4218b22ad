"""Same-instant measurement: one pgbench run whose clients interleave every strategy's script, each strategy
on its own table, so a slowdown of the machine falls on all strategies in the same window.

pgbench picks each transaction's script at random by weight, so a script's transaction count and tps follow
its weight, not its speed: they say nothing about the strategy. What does is the time a transaction of that
script took, its per-script latency average, read from the same window as every other strategy's. A ratio
of two strategies' latencies within one window cancels the machine's speed at that moment; rounds of such
windows give the interval (pkbench.analysis.judge judges them as it judges paired rounds).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from pkbench.errors import PkbenchError
from pkbench.pgbench import driver
from pkbench.pgbench.driver import ScriptFile
from pkbench.pgbench.output import ScriptSummary, Summary

DESIGNS = ("paired", "interleaved")
# Strategies share the cluster, each in a schema of its own under the same table names, and one pgbench run
# has one search_path: each script first sets its strategy's, and that statement's time is left out.
SCOPE = "SET search_path TO "
# Between a strategy's name and its script's in the file name of a window of several weighted scripts.
MIX = "__"
# A window's scripts as the scenario weighs them: name, weight, SQL.
Mix = Sequence[tuple[str, int, str]]
# The copy of the baseline an A/A calibration measures against it.
COPY_SUFFIX = "-copy"


def script_name(strategy: str) -> str:
    """The file name pgbench.driver gives a strategy's script, which is how its figures are found in
    pgbench's report."""
    return f"{strategy}.sql"


def scoped(sql: str, search_path: str) -> str:
    """A strategy's script run in its own schema from a session that also runs the other strategies'."""
    return f"{SCOPE}{search_path};\n{sql}"


def own_latency(script: ScriptSummary) -> float | None:
    """A script's time per transaction without the SET of its search_path (pgbench -r's per-statement
    means add up to the script's mean)."""
    statements = script.statements
    if statements and statements[0].text.startswith(SCOPE):
        return sum(s.latency_ms for s in statements[1:])
    return script.latency_ms_mean


def interleaved_scripts(sql_by_strategy: Mapping[str, str | Mix]) -> list[ScriptFile]:
    """One script per strategy, equal weights: every strategy gets the same share of the window; a window of
    several weighted scripts keeps its weights within every strategy's share."""
    files: list[ScriptFile] = []
    for name, sql in sql_by_strategy.items():
        if isinstance(sql, str):
            files.append(ScriptFile(name, 1, sql))
        else:
            files += [ScriptFile(f"{name}{MIX}{script}", weight, text) for script, weight, text in sql]
    return files


def strategy_of(file_name: str, wanted: Mapping[str, str]) -> str | None:
    """The strategy whose script pgbench ran from FILE_NAME (its own, or one of its window's mix)."""
    if file_name in wanted:
        return wanted[file_name]
    stem = file_name.removesuffix(".sql")
    return wanted.get(script_name(stem.split(MIX)[0])) if MIX in stem else None


@dataclass(frozen=True)
class StrategyWindow:
    """One strategy's share of an interleaved window."""

    strategy: str
    transactions: int
    latency_ms_mean: float  # its own statements', without the SET of its search_path


def attribute(summary: Summary, strategies: Sequence[str]) -> dict[str, StrategyWindow]:
    """Each strategy's figures from pgbench's per-script report, by script file name; a strategy with no
    script, a script of no strategy or a script without figures is an error, never a silent gap."""
    wanted = {script_name(name): name for name in strategies}
    # Transactions and their summed time per strategy: a mix's scripts add up to the strategy's mean.
    totals: dict[str, tuple[int, float]] = {}
    for script in summary.scripts:
        # pgbench prints the path it was given; the work directory differs from run to run.
        strategy = strategy_of(PurePosixPath(script.name).name, wanted)
        if strategy is None:
            raise ValueError(f"pgbench reported a script of no strategy: {script.name}")
        latency = own_latency(script)
        if script.transactions is None or latency is None:
            raise ValueError(f"pgbench reported no transactions or latency for {strategy}'s script")
        count, spent = totals.get(strategy, (0, 0.0))
        totals[strategy] = (count + script.transactions, spent + script.transactions * latency)
    found = {
        name: StrategyWindow(name, count, spent / count if count else 0.0)
        for name, (count, spent) in totals.items()
    }
    missing = [name for name in strategies if name not in found]
    if missing:
        raise ValueError(f"pgbench reported no script for {', '.join(missing)}")
    return found


def measure_rounds(
    pgbench: Path,
    database: str,
    environment: Mapping[str, str],
    sql_by_strategy: Mapping[str, str | Mix],
    *,
    rounds: int,
    clients: int,
    jobs: int,
    duration_s: int,
    workdir: Path,
    check_alive: Callable[[], None],
) -> list[dict[str, StrategyWindow]]:
    """ROUNDS interleaved windows of every strategy's script (its SQL names its own table), each strategy's
    figures read from every window; a failed window is an error, since a gap would unpair the rounds."""
    scripts = interleaved_scripts(sql_by_strategy)
    measured: list[dict[str, StrategyWindow]] = []
    for number in range(1, rounds + 1):
        window_dir = workdir / f"round-{number}"
        window_dir.mkdir(parents=True, exist_ok=True)
        result = driver.run(
            pgbench,
            database,
            environment,
            scripts,
            clients=clients,
            jobs=jobs,
            duration_s=duration_s,
            progress_interval_s=1,
            workdir=window_dir,
            on_progress=lambda _elapsed, _sample: None,
            check_alive=check_alive,
        )
        failed = driver.failure_reason(result)
        if failed is not None:
            raise PkbenchError(f"interleaved round {number}: {failed}")
        measured.append(attribute(result.summary, list(sql_by_strategy)))
    return measured
