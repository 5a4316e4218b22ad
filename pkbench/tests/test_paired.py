"""Paired rounds: the stages, the rotation and the medians as pure functions; the orchestration, verdicts and
`compare` on a small real cluster."""

from __future__ import annotations

import json
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import cli_in_process, run_cli, short_run

from pkbench.results import WorkloadResult
from pkbench.run.paired import LOAD_PARTS, combine, rotation, stages
from pkbench.scenario import file as scenario
from pkbench.steps import PgbenchStep

ROUNDS = 5
PAIRED_RUN = short_run(
    strategies="bigint,uuid-v4", rows=300, duration=1, rounds=None, warmup=0, sample_every=0
)
# The five rounds the module's tests read, of fixed work: they check each round's figures and verdicts, not
# how long a window ran (twenty one-second windows were most of the file's CPU).
FIXED_WORK_RUN = short_run(
    strategies="bigint,uuid-v4", rows=300, rounds=None, warmup=0, sample_every=0, transactions=500
)


def test_war_falls_into_two_stages_cut_at_its_checkpoint_step() -> None:
    found = stages(scenario.load("war").steps)
    assert [[s.name for s in stage.setup] for stage in found] == [
        ["schema", "prefill", "key-sample", "maintenance", "sizes_after_prefill"],
        ["checkpoint"],
    ]
    assert [[w.name for w in stage.windows] for stage in found] == [["lookup-by-data"], ["lookup-by-key"]]


def test_a_scenario_without_windows_is_one_stage_of_setup() -> None:
    found = stages(scenario.load("bloat").steps)
    assert len(found) == 1 and not found[0].windows
    assert not any(isinstance(step, PgbenchStep) for step in found[0].setup)


def test_rotation_puts_every_strategy_in_every_position() -> None:
    names = ["a", "b", "c"]
    orders = [rotation(names, r) for r in range(1, 5)]
    assert orders == [["a", "b", "c"], ["b", "c", "a"], ["c", "a", "b"], ["a", "b", "c"]]
    for position in range(3):
        assert {order[position] for order in orders[:3]} == set(names)


def test_combine_takes_medians_and_keeps_every_round() -> None:
    rounds = [
        WorkloadResult("w", "", tps=tps, latency_ms={"p99": p99})
        for tps, p99 in ((100, 9.0), (300, 1.0), (200, 5.0))
    ]
    combined = combine(rounds)
    assert combined.tps == 200
    assert combined.latency_ms["p99"] == 5.0
    assert combined.spread["tps"] == [100, 300]
    assert [r.tps for r in combined.rounds] == [100, 300, 200]


@pytest.fixture(scope="module")
def paired_run() -> Iterator[Path]:
    # The server's OS user must be able to enter the cluster's directory (pytest's are 0700).
    tmpdir = Path(tempfile.mkdtemp(prefix="pkbench-test-"))
    tmpdir.chmod(0o755)
    try:
        out = tmpdir / "results"
        done = run_cli("run", *FIXED_WORK_RUN, "--rounds", str(ROUNDS), "--out", str(out), tmpdir=tmpdir)
        assert done.returncode == 0, done.stderr
        yield out
    finally:
        shutil.rmtree(tmpdir, ignore_errors=True)


def load(out: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((out / "results.json").read_text())
    return data


def test_rounds_rotate_and_every_window_keeps_its_rounds(paired_run: Path) -> None:
    data = load(paired_run)
    rounds = data["rounds"]
    assert rounds["mode"] == "paired" and rounds["count"] == ROUNDS and rounds["baseline"] == "bigint"
    # Two stages (the war scenario's checkpoint step cuts it), each with its rounds in rotating order.
    assert rounds["orders"][:2] == [["bigint", "uuid-v4"], ["uuid-v4", "bigint"]]
    assert len(rounds["orders"]) == 2 * ROUNDS
    for strategy in data["strategies"]:
        assert [w["name"] for w in strategy["workloads"]] == ["lookup-by-data", "lookup-by-key"]
        for workload in strategy["workloads"]:
            assert len(workload["rounds"]) == ROUNDS
            per_round = sorted(r["transactions"] for r in workload["rounds"])
            assert workload["transactions"] == per_round[ROUNDS // 2]
        assert (paired_run / "pgbench" / f"{strategy['name']}.round-{ROUNDS}" / "lookup-by-key").is_dir()


def test_verdicts_cover_every_headline_figure_against_the_baseline(paired_run: Path) -> None:
    data = load(paired_run)
    verdicts = data["verdicts"]
    assert {v["strategy"] for v in verdicts} == {"uuid-v4"}
    assert {v["baseline"] for v in verdicts} == {"bigint"}
    found = {(v["workload"], v["metric"]) for v in verdicts}
    # The hit ratio is 100% for both in a table this small, and a figure equal in every round is no verdict.
    assert found - {(w, "hit") for w in ("lookup-by-data", "lookup-by-key")} == {
        ("prefill", "load"),
        *((w, m) for w in ("lookup-by-data", "lookup-by-key") for m in ("tps", "p50", "p99", "wal", "fpi")),
    }
    tps = next(v for v in verdicts if v["metric"] == "tps" and v["workload"] == "lookup-by-data")
    assert tps["rounds"] == ROUNDS and tps["method"] == "t on log ratios"
    assert tps["low"] <= tps["ratio"] <= tps["high"]
    assert tps["resolved"] == (not tps["low"] <= 1 <= tps["high"])
    summary = (paired_run / "summary.md").read_text()
    assert "## Verdicts" in summary and "over 5 paired rounds" in summary
    assert tps["words"] in summary


def test_the_load_alternates_in_parts_and_gets_an_interval(paired_run: Path) -> None:
    data = load(paired_run)
    parts = {s["name"]: s["prefill"] for s in data["strategies"]}
    for prefill in parts.values():
        assert prefill["rows"] == 300 and sum(prefill["parts_rows"]) == 300
        assert len(prefill["parts_s"]) == LOAD_PARTS
        assert prefill["duration_s"] == pytest.approx(sum(prefill["parts_s"]), abs=0.01)
    # Part k of every strategy inserts as many rows, at the same size of its table.
    assert parts["bigint"]["parts_rows"] == parts["uuid-v4"]["parts_rows"]
    verdict = next(v for v in data["verdicts"] if v["metric"] == "load")
    assert verdict["workload"] == "prefill" and verdict["strategy"] == "uuid-v4"
    assert verdict["rounds"] == LOAD_PARTS and verdict["method"] == "t on log ratios"
    assert verdict["low"] <= verdict["ratio"] <= verdict["high"]
    assert "### prefill" in (paired_run / "summary.md").read_text()


# One-second windows on a loaded test machine scatter by more than 30% between rounds, and then no test can
# resolve a 30% change: the baseline run's rounds are set within ±4% of their median first.
STEADY = (0.96, 1.0, 1.04, 0.98, 1.02)


def doctored(source: Path, destination: Path, factor: float) -> Path:
    """A copy of a run whose rounds' TPS sit steadily around their median, times FACTOR."""
    shutil.copytree(source, destination)
    data = load(destination)
    for strategy in data["strategies"]:
        for workload in strategy["workloads"]:
            for window, steady in zip(workload["rounds"], STEADY, strict=True):
                window["tps"] = workload["tps"] * steady * factor
            workload["tps"] *= factor
    (destination / "results.json").write_text(json.dumps(data))
    return destination


def test_compare_calls_out_a_run_slower_in_every_round(paired_run: Path, tmp_path: Path) -> None:
    steady = doctored(paired_run, tmp_path / "steady", 1.0)
    slower = doctored(paired_run, tmp_path / "slower", 0.7)
    done = cli_in_process(
        "compare", str(steady), str(slower), "--out", str(tmp_path / "cmp"), "--fail-on-regression", "10"
    )
    assert done.returncode == 5, done.stderr
    assert "slower" in done.stdout and "TPS" in done.stdout
    assert (
        done.stderr.strip()
        .splitlines()[-1]
        .startswith("pkbench: error: 4 resolved regressions worse than 10%")
    )
    assert "**" in (tmp_path / "cmp" / "comparison.md").read_text()


def test_compare_finds_nothing_in_an_identical_copy(paired_run: Path, tmp_path: Path) -> None:
    # Both sides steadied the same way: the measured run against a steadied copy of it differs by the
    # steadying, which a compare may resolve by chance in one figure of many.
    steady = doctored(paired_run, tmp_path / "steady", 1.0)
    same = Path(shutil.copytree(steady, tmp_path / "same"))
    done = cli_in_process(
        "compare", str(steady), str(same), "--out", str(tmp_path / "cmp"), "--fail-on-regression", "0"
    )
    assert done.returncode == 0, done.stderr
    assert "No change resolved" in done.stdout


def test_precision_stops_when_the_time_is_spent(server_tmpdir: Path) -> None:
    out = server_tmpdir / "results"
    done = run_cli(
        "run",
        *PAIRED_RUN,
        "--rounds",
        "2",
        "--precision",
        "0.01%",
        "--max-time",
        "8s",
        "--out",
        str(out),
        tmpdir=server_tmpdir,
    )
    assert done.returncode == 0, done.stderr
    rounds = load(out)["rounds"]
    assert rounds["precision"] == pytest.approx(0.0001)
    assert rounds["stopped"] == "time spent (--max-time)"
    # Each unresolved figure reads "strategy workload title", and every stage keeps its own.
    assert {u.split(" ", 2)[1] for u in rounds["unresolved"]} == {"lookup-by-data", "lookup-by-key"}
    assert "uuid-v4 lookup-by-key TPS" in rounds["unresolved"]
    assert "not reached" in (out / "summary.md").read_text()


def test_isolate_runs_each_strategy_alone_without_verdicts(server_tmpdir: Path) -> None:
    out = server_tmpdir / "results"
    done = run_cli("run", *PAIRED_RUN, "--isolate", "--out", str(out), tmpdir=server_tmpdir)
    assert done.returncode == 0, done.stderr
    data = load(out)
    assert data["rounds"]["mode"] == "isolated" and data["verdicts"] == []
    assert all(not w["rounds"] for s in data["strategies"] for w in s["workloads"])


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (("--baseline", "uuid-v7"), "--baseline 'uuid-v7' is not among the strategies run: bigint, uuid-v4"),
        (("--rounds", "3", "--isolate"), "--rounds applies to paired rounds, not with --isolate"),
        (("--precision", "3%", "--repeat", "2"), "--precision applies to paired rounds, not with --repeat"),
        (("--precision", "0"), "--precision must be a percentage above 0 and below 100"),
        (("--precision", "abc"), "--precision 'abc': expected a percentage such as 3%"),
        (("--max-time", "10m"), "--max-time bounds --precision: give --precision too"),
        (("--precision", "3%", "--max-time", "soon"), "--max-time 'soon': expected a duration"),
        (("--until-decided",), "--until-decided changes what --precision waits for: give --precision too"),
    ],
)
def test_bad_round_options_are_one_line(arguments: tuple[str, ...], message: str, tmp_path: Path) -> None:
    done = cli_in_process("run", *PAIRED_RUN, *arguments, "--out", str(tmp_path / "never"))
    assert done.returncode == 1
    assert done.stderr.startswith(f"pkbench: error: {message}"), done.stderr
    assert len(done.stderr.strip().splitlines()) == 1
    assert not (tmp_path / "never").exists()
