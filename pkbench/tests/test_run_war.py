"""Every strategy creates, prefills and runs the war scenario on a real embedded cluster (tiny sizes)."""

from __future__ import annotations

import csv
import json
import subprocess
import tempfile
from pathlib import Path
from typing import Any

import pytest
from conftest import cli_in_process, processes_mentioning, run_cli, short_run

from pkbench.strategies.builtin import BUILTIN

ROWS = 3000
TRANSACTIONS = 400
# Every built-in strategy whose table war can make: a hash-partitioned key needs a scenario that partitions
# its table (contention), and war refuses it (the last test); a key the clients make needs a scenario whose
# statements send one (fleet).
IN_WAR = [s.name for s in BUILTIN if s.layout != "hash" and s.client_key is None]
# Strategies that need nothing beyond core PostgreSQL and contrib: these must always measure.
CORE_ONLY = {"my-v4", "bigint", "uuid-v4", "uuid-v4-text", "uuid-v4-char32", "uuid-v1", "newsequentialid"}


def run_war(out: Path, *arguments: str) -> tuple[subprocess.CompletedProcess[str], dict[str, Any]]:
    """`pkbench run ARGUMENTS --out OUT`, its cluster in a directory of its own that it must leave empty."""
    # Not under pytest's base directory: a concurrent pytest session resets that to 0700.
    server_tmp = Path(tempfile.mkdtemp(prefix="pkbench-test-"))
    server_tmp.chmod(0o755)
    result = run_cli("run", *arguments, "--out", str(out), tmpdir=server_tmp, timeout=900)
    assert processes_mentioning(str(server_tmp)) == []
    assert list(server_tmp.iterdir()) == [], "the temporary cluster is removed"
    server_tmp.rmdir()
    data: dict[str, Any] = json.loads((out / "results.json").read_text())
    data["_out"] = out
    data["_stdout"] = result.stdout
    return result, data


@pytest.fixture(scope="module")
def war(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    result, data = run_war(
        tmp_path_factory.mktemp("war") / "results",
        *short_run(
            strategies=",".join([*IN_WAR, "my-v4"]),
            rows=ROWS,
            clients=1,
            # Each strategy's own windows run fixed work rather than seconds: 28 strategies' timed windows
            # took minutes of the suite. The shared window stays timed, at war's three seconds: it picks
            # each strategy's scripts at random by weight, and a one-second one on a slow second gave one
            # strategy no transaction at all.
            transactions=TRANSACTIONS,
            sample_every=1,
            # The default design: each round's paired windows and then one window of every strategy at once.
            design=None,
        ),
        "--strategy-def",
        "my-v4=uuid:gen_random_uuid()",
    )
    skipped = [s["name"] for s in data["strategies"] if s["status"] == "skipped"]
    # every strategy is asked for, so one this server cannot run makes the exit code say so
    assert result.returncode == (4 if skipped else 0), result.stderr
    if skipped:
        assert result.stderr.strip().splitlines()[-1].startswith(f"pkbench: error: {len(skipped)} of ")
    return data


def by_name(war: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {s["name"]: s for s in war["strategies"]}


def test_run_metadata(war: dict[str, Any]) -> None:
    assert war["schema_version"] == 1
    assert war["pkbench_version"]
    assert war["scenario"]["name"] == "war"
    assert war["scenario"]["parameters"]["rows"] == ROWS
    assert war["server"]["version_num"] >= 150000
    assert war["server"]["embedded"] is True
    assert war["server"]["settings"]["shared_buffers"] == "128MB"
    assert war["machine"]["cores"] >= 1 and war["machine"]["memory_bytes"] > 0
    assert war["machine"]["kernel"].startswith("Linux")
    assert war["finished_at"] >= war["started_at"]


def test_every_strategy_measured_or_skipped_with_a_reason(war: dict[str, Any]) -> None:
    strategies = by_name(war)
    assert set(strategies) == {*IN_WAR, "my-v4"}
    for name, s in strategies.items():
        if name in CORE_ONLY:
            assert s["status"] == "ok", (name, s["error"])
        if s["status"] == "skipped":
            assert (
                "not found" in s["error"] or "not installed" in s["error"] or "needs PostgreSQL" in s["error"]
            )
        else:
            assert s["status"] == "ok", (name, s["error"])


def test_measured_figures_are_present_and_plausible(war: dict[str, Any]) -> None:
    for s in war["strategies"]:
        if s["status"] != "ok":
            continue
        assert s["prefill"]["rows"] == ROWS and s["prefill"]["duration_s"] > 0
        after = s["sizes_after_prefill"]
        assert after["table_bytes"] > 0 and after["primary_key_bytes"] > 0
        assert after["total_bytes"] >= after["table_bytes"] + sum(after["indexes"].values())
        assert set(after["indexes"]) == {"records_pkey", "records_data_idx"}
        assert [w["name"] for w in s["workloads"]] == ["lookup-by-data", "lookup-by-key"]
        for w in s["workloads"]:
            assert w["transactions"] > 0 and w["tps"] > 0, (s["name"], w["name"])
            assert w["failed_transactions"] == 0
            assert [st["name"] for st in w["statements"]] == ["insert", "lookup"]
            for statement in w["statements"]:
                lat = statement["latency_ms"]
                assert 0 < lat["p50"] <= lat["p95"] <= lat["p99"] <= lat["max"]
            assert w["wal_bytes"] > 0 and w["wal_records"] > 0 and w["wal_fpi"] is not None
            assert w["wal_bytes_per_transaction"] == pytest.approx(
                w["wal_bytes"] / w["transactions"], rel=0.01
            )
            for relation in ("records", "records_pkey"):
                assert 0 <= w["hit_ratio"][relation] <= 1
            assert set(w["checkpoints"]) == {"timed", "requested"}
            assert w["sizes_at_end"]["total_bytes"] >= after["total_bytes"]
            assert w["page_splits"] is None
            assert any(u["metric"] == "page_splits" for u in w["unavailable"])


def test_the_default_judges_speed_on_the_interleaved_window_and_work_on_the_paired_ones(
    war: dict[str, Any],
) -> None:
    assert war["rounds"]["design"] == "mixed" and war["rounds"]["paired_only"] == {}
    for s in war["strategies"]:
        if s["status"] != "ok":
            continue
        for w in s["workloads"]:
            assert len(w["rounds"]) == 1 and len(w["interleaved"]) == 1, (s["name"], w["name"])
            share = w["interleaved"][0]
            assert share["transactions"] > 0 and share["latency_ms"]["mean"] > 0
            # The throughput its latency gives the window's one client.
            assert share["tps"] == pytest.approx(1000 / share["latency_ms"]["mean"])
            assert share["work_per_transaction"]["transactions"] == share["transactions"]
    # Fixed work: every paired window ran the count asked for, so none is set from a first window's.
    assert not war["rounds"]["equal_transactions"]
    for window in ("lookup-by-data", "lookup-by-key"):
        counts = {
            w["rounds"][0]["transactions"]
            for s in war["strategies"]
            if s["status"] == "ok"
            for w in s["workloads"]
            if w["name"] == window
        }
        assert counts == {TRANSACTIONS}, (window, counts)
    judged = {(v["metric"], v["design"]) for v in war["verdicts"] if v["workload"] != "prefill"}
    speed = {("tps", "interleaved"), ("latency-mean", "interleaved")}
    work = {("wal", "paired"), ("fpi", "paired"), ("hit", "paired")}
    assert speed <= judged <= speed | work, judged
    text = (war["_out"] / "summary.md").read_text()
    assert "| Strategy | TPS (interleaved) | latency mean (interleaved) |" in text


def test_text_keys_make_a_larger_primary_key_than_uuid_and_uuid_than_bigint(war: dict[str, Any]) -> None:
    s = by_name(war)
    pk = {
        name: s[name]["sizes_after_prefill"]["primary_key_bytes"]
        for name in ("bigint", "uuid-v4", "uuid-v4-text")
    }
    assert pk["uuid-v4-text"] > pk["uuid-v4"] > pk["bigint"]


def test_the_lookup_by_key_finds_existing_rows_through_the_sample(war: dict[str, Any]) -> None:
    # The lookup script joins the sampled keys; its SQL is the same for every strategy.
    sqls = {
        w["statements"][1]["sql"]
        for s in war["strategies"]
        if s["status"] == "ok"
        for w in s["workloads"][1:]
    }
    assert len(sqls) == 1
    assert "key_sample" in sqls.pop()


def test_every_strategy_is_sampled(war: dict[str, Any]) -> None:
    out: Path = war["_out"]
    measured = {s["name"] for s in war["strategies"] if s["status"] == "ok"}
    for name in ("sizes", "buffercache", "usagecount"):
        with (out / war["timeseries"][name]).open() as f:
            assert {r["strategy"] for r in csv.DictReader(f)} == measured, name
    with (out / "timeseries" / "usagecount.csv").open() as f:
        assert {int(r["usage_count"]) for r in csv.DictReader(f)} == set(range(6))


def test_summary_table(war: dict[str, Any]) -> None:
    text = (war["_out"] / "summary.md").read_text()
    for s in war["strategies"]:
        assert f"| {s['name']} |" in text
    assert "than bigint" in text
    assert "Results Summary" in war["_stdout"]


def test_no_report_writes_every_file_but_report_html(war: dict[str, Any]) -> None:
    out: Path = war["_out"]
    assert "--no-report" in war["command"]
    assert {p.name for p in out.iterdir()} >= {"results.json", "summary.md", "summary.csv"}
    assert not (out / "report.html").exists()


def test_raw_pgbench_output_is_kept(war: dict[str, Any]) -> None:
    workdir = war["_out"] / "pgbench" / "bigint" / "lookup-by-key"
    assert (workdir / "pgbench.stdout").read_text().startswith("pgbench (")
    assert list(workdir.glob("pgbench_log.*.gz"))


def test_a_hash_partitioned_key_is_refused_where_the_table_is_plain(tmp_path: Path) -> None:
    # war's table takes no PARTITION BY: a uuid-v7-hash run there would measure a plain v7 table under the
    # hash strategy's name, so it is refused in one line before anything starts.
    done = cli_in_process("run", "war", "--strategies", "bigint,uuid-v7-hash", "--out", str(tmp_path / "out"))
    assert done.returncode == 1, done.stderr
    assert done.stderr.strip().splitlines() == [
        "pkbench: error: strategy 'uuid-v7-hash' hash-partitions the scenario's table, and scenario war does "
        "not partition it ({key_partitioning}); run it in contention"
    ]
    assert not (tmp_path / "out").exists()


@pytest.fixture(scope="module")
def timed(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """The default design in seconds rather than transactions, sampled each second."""
    result, data = run_war(
        tmp_path_factory.mktemp("timed") / "results",
        *short_run(strategies="bigint,uuid-v4", rows=300, duration=2, sample_every=1, design=None),
    )
    assert result.returncode == 0, result.stderr
    return data


def test_time_series_files(timed: dict[str, Any]) -> None:
    out: Path = timed["_out"]
    for name, relative in timed["timeseries"].items():
        with (out / relative).open() as f:
            rows = list(csv.DictReader(f))
        if name == "replication":
            assert rows == [], "lags are sampled only beside a standby (test_replication.py)"
            continue
        if name == "shard_inserts":
            assert rows == [], "shards' inserts are sampled only beside shards (test_sharded.py)"
            continue
        if name == "wait_events":
            # only a backend caught inside a statement has a wait to sample (test_activity.py)
            continue
        assert rows, name
        assert list(rows[0])[:4] == ["strategy", "workload", "repeat", "elapsed_s"]
        assert {r["strategy"] for r in rows} == {"bigint", "uuid-v4"}, name


def test_a_timed_round_runs_its_paired_windows_to_the_first_ones_count(timed: dict[str, Any]) -> None:
    assert timed["rounds"]["design"] == "mixed" and timed["rounds"]["equal_transactions"]
    # The window that opened the round ran for its seconds; the other ran as many transactions as it did.
    for window in ("lookup-by-data", "lookup-by-key"):
        counts = {
            w["rounds"][0]["transactions"]
            for s in timed["strategies"]
            for w in s["workloads"]
            if w["name"] == window
        }
        assert len(counts) == 1 and counts.pop() > 0, (window, counts)
