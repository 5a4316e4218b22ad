"""`pkbench advise`: the plan that fits a budget, the rows each run answers on its machine, and one tiny
advice on an embedded cluster, resumed."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from conftest import cli_in_process, run_cli

from pkbench.evidence import advice
from pkbench.run import advise

RUNS = Path(__file__).resolve().parents[1] / "docs" / "reproductions"


def test_the_plan_fits_the_budget_and_leaves_out_what_this_server_cannot_run() -> None:
    everything = advise.make_plan(60 * 60, advise.STRATEGIES, 2, embedded=True)
    assert [p.name for p in everything.parts] == ["war", "wal", "replication", "sharded", "one-writer"]
    # Shares in proportion to each run's least time, the budget spent and no more.
    assert sum(everything.share_s(p) for p in everything.parts) == 60 * 60
    half = advise.make_plan(10 * 60, advise.STRATEGIES, 2, embedded=True)
    assert [p.name for p in half.parts] == ["war", "wal"]
    assert set(half.left_out) == {"replication", "sharded", "one-writer"}
    # A tiny budget still runs the first part, on its scale's rounds; a server given by --dsn starts none
    # of its own.
    tiny = advise.make_plan(5, advise.STRATEGIES, 2, embedded=False)
    assert [p.name for p in tiny.parts] == ["war"]
    assert all("embedded cluster only" in tiny.left_out[name] for name in ("wal", "replication", "sharded"))
    assert tiny.left_out["one-writer"].startswith("beyond the budget")
    assert "--max-time" in tiny.arguments(tiny.parts[0], Path("out"))


def test_what_a_run_answers_follows_its_machine_and_commit_setting(tmp_path: Path) -> None:
    plan = advise.make_plan(5, ["bigint", "uuid-v4"], 2, embedded=True)
    shutil.copytree(RUNS / "war-default", tmp_path / "war")
    assert set(advise.sources(tmp_path, plan)) == {
        "few-cores",
        "durable",
        "one-table",
        "bulk-load",
        "storage-size",
    }
    path = tmp_path / "war" / "results.json"
    data = json.loads(path.read_text())
    data["machine"]["cores"] = 16
    data["server"]["settings"]["synchronous_commit"] = "off"
    path.write_text(json.dumps(data))
    found = advise.sources(tmp_path, plan)
    assert {"many-cores", "asynchronous"} <= set(found) and not {"few-cores", "durable"} & set(found)
    table = advice.build(tmp_path, found)
    assert table.cells["many-cores"]["uuid-v4"].run == "war"


def test_a_bad_budget_is_one_line() -> None:
    done = cli_in_process("advise", "--budget", "soon")
    assert done.returncode != 0
    assert done.stderr.strip().count("\n") == 0 and "--budget 'soon'" in done.stderr


def test_a_tiny_advice_fills_its_rows_and_resumes_without_measuring_again(tmp_path: Path) -> None:
    out = tmp_path / "advice"
    words = [
        "advise",
        "--budget",
        "5s",
        "--rows",
        "2000",
        "--duration",
        "1",
        "--strategies",
        "bigint,uuid-v7",
    ]
    # Two rounds without warm-up (the fewest that give an interval): the test is about the advice, not its
    # precision.
    done = run_cli(*words, "--out", str(out), "--", "--warmup", "0", "--rounds", "2", "--sample-every", "0")
    assert done.returncode == 0, done.stderr
    assert "advise 1/1: war: starting" in done.stderr
    assert "replication: left out, beyond the budget" in done.stderr
    assert "Which key?" in done.stdout and "many clients on few cores" in done.stdout
    written = (out / "advice.md").read_text()
    row = next(line for line in written.splitlines() if line.startswith("| one table"))
    # bigint is the baseline and v7 has its verdict and interval; the keys not asked for are not measured.
    assert "baseline [R1](war)" in row and "[R1](war)" in row.split("|")[5] and "(" in row.split("|")[5]
    assert row.split("|")[3].strip() == "not measured"
    assert "- beyond RAM (a memory cap): wal was not run: beyond the budget" in written
    assert "- many clients on many cores, asynchronous commit: this machine has " in written
    assert "- many clients on many cores, durable commit: this machine has " in written
    results = json.loads((out / "war" / "results.json").read_text())
    assert results["command"][:3] == ["pkbench", "run", "war"] and "--max-time" in results["command"]
    again = run_cli("advise", "--resume", str(out))
    assert again.returncode == 0, again.stderr
    assert "advise 1/1: war: measured already" in again.stderr
    assert (out / "advice.md").read_text() == written
