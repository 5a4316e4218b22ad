"""`pkbench advise`: the memory tiers sized to a server, the disk check, the plan that fits a budget, the
rows each run answers on its machine, and one tiny advice on an embedded cluster, resumed."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from unittest import mock

import pytest
from conftest import cli_in_process, run_cli

from pkbench import text
from pkbench.advise import outcome
from pkbench.advise import plan as advise
from pkbench.errors import PkbenchError
from pkbench.evidence import advice
from pkbench.server import sizing

RUNS = Path(__file__).resolve().parents[1] / "docs" / "reproductions"


# This machine as advise sees it: the wal scenario's 16 MB of shared_buffers, 23.5 GiB of RAM, root.
HERE = sizing.Server(16 * sizing.MIB, 25_276_514_304, can_cap=True)
MEMORY_KEYS = ["bigint", "uuid-v4", "uuid-v7"]


def test_tiers_follow_shared_buffers_and_the_memory_cap_they_choose() -> None:
    tiers = sizing.size_tiers(HERE, sizing.loadable_rows(advise.MEMORY_LOAD_S, MEMORY_KEYS))
    # The index 3x shared_buffers; its table and index half the cap, which is set for it (in 16 MB steps)
    # since the machine's RAM would take the largest tier hours to outgrow; the largest tier twice the cap.
    assert tiers.rows_medium * sizing.INDEX_BYTES_PER_ROW == pytest.approx(3 * 16 * sizing.MIB, rel=1e-4)
    assert tiers.memory_cap_bytes == tiers.memory_bytes == 208 * sizing.MIB
    assert tiers.rows_medium * sizing.ROW_BYTES <= tiers.memory_cap_bytes / 2
    assert tiers.rows_large * sizing.ROW_BYTES == pytest.approx(2 * 208 * sizing.MIB, rel=1e-4)
    assert (tiers.rows_small, tiers.medium_left_out, tiers.large_left_out) == (0, None, None)
    # The largest tier loads in the minutes allowed at this machine's rates.
    assert tiers.rows_large <= sizing.loadable_rows(advise.MEMORY_LOAD_S, MEMORY_KEYS)


def test_a_server_s_own_memory_sizes_the_tiers_or_says_why_it_cannot() -> None:
    load_rows = 8_000_000
    # Without a cap a server with 1 GB of memory is beyond RAM at 2 GB of data, within the load.
    small = sizing.size_tiers(sizing.Server(16 * sizing.MIB, 1024**3, can_cap=False), 30_000_000)
    assert small.memory_cap_bytes is None and small.large_left_out is None
    assert small.rows_large * sizing.ROW_BYTES == pytest.approx(2 * 1024**3, rel=1e-4)
    # A server given by --dsn without --server-memory: the middle tier from its shared_buffers (fewer rows
    # than 3x when only that many load, its index still beyond shared_buffers), no largest tier.
    unknown = sizing.size_tiers(sizing.Server(128 * sizing.MIB, None, can_cap=False), load_rows)
    assert unknown.rows_medium == load_rows and unknown.rows_large == load_rows
    assert unknown.rows_medium * sizing.INDEX_BYTES_PER_ROW > 2 * 128 * sizing.MIB
    assert unknown.large_left_out == "the server's memory is not known (give --server-memory)"
    # A production server: 4 GB of shared_buffers, 16 GB of RAM, neither tier loads in minutes.
    big = sizing.size_tiers(sizing.Server(4 * 1024**3, 16 * 1024**3, can_cap=False), load_rows)
    assert big.medium_left_out is not None and "more than load in the time allowed" in big.medium_left_out
    assert big.large_left_out is not None and "2x the server's memory (16.0 GB)" in big.large_left_out
    # shared_buffers a quarter of RAM leaves no room for an index 1.5x it within half the memory.
    tight = sizing.size_tiers(sizing.Server(256 * sizing.MIB, 1024**3, can_cap=False), 10**9)
    assert tight.medium_left_out is not None and "fit in half of 1.0 GB" in tight.medium_left_out


def test_the_disk_check_refuses_a_part_that_would_not_fit_in_one_line() -> None:
    plan = advise.make_plan(15 * 60, advise.STRATEGIES, 2, HERE)
    wal = next(p for p in plan.parts if p.name == "wal")
    needed = plan.disk_bytes(wal)
    # Three tables of 5M rows (87 bytes each) and the WAL of the stretch between two checkpoints, with room.
    assert 3 * wal.table_rows * sizing.ROW_BYTES < needed < 10 * 1024**3
    sizing.check_disk("wal", needed, needed, "/tmp")
    with pytest.raises(PkbenchError) as refused:
        sizing.check_disk("wal", needed, 1024**3, "/tmp (the cluster's directory) free")
    assert "\n" not in str(refused.value)
    assert str(refused.value).startswith("the wal run would write about 3.") and "has 1.0 GB" in str(
        refused.value
    )
    assert text.parse_bytes("20GB", "--disk-budget") == 20 * 1024**3
    with pytest.raises(PkbenchError, match="--disk-budget 'lots': expected a size"):
        text.parse_bytes("lots", "--disk-budget")


def test_a_full_disk_stops_advise_before_it_starts_a_server(tmp_path: Path) -> None:
    with mock.patch.object(sizing, "free_bytes", return_value=10 * sizing.MIB):
        done = cli_in_process("advise", "--budget", "5s", "--out", str(tmp_path / "advice"))
    assert done.returncode != 0
    assert done.stderr.strip().splitlines()[-1].startswith("pkbench: error: the war run would write about")
    assert not (tmp_path / "advice" / "war").exists()


def test_the_plan_fits_the_budget_and_leaves_out_what_this_server_cannot_run() -> None:
    everything = advise.make_plan(60 * 60, advise.STRATEGIES, 2, HERE)
    # What can change the decision first: the memory tiers, where the keys differ most, then the war's rows.
    assert [p.name for p in everything.parts] == ["wal", "war", "replication", "sharded", "one-writer"]
    # The memory tiers get the slack, the others their least times: the budget spent and no more.
    assert sum(everything.share_s(p) for p in everything.parts) == 60 * 60
    assert [everything.share_s(p) for p in everything.parts[1:]] == [p.least_s for p in everything.parts[1:]]
    # 15 minutes hold the memory tiers, in paired rounds of their own keys at the tiers' sizes, until each
    # window's rate and WAL are decided; what the tiers did not need goes to the war after them.
    quarter = advise.make_plan(15 * 60, advise.STRATEGIES, 2, HERE)
    assert [p.name for p in quarter.parts] == ["wal", "war"]
    assert set(quarter.left_out) == {"replication", "sharded", "one-writer"} and not quarter.rows_left_out
    wal, war = quarter.parts
    assert quarter.share_left_s(wal, 0) == quarter.share_s(wal) == 15 * 60 - war.least_s
    assert quarter.share_left_s(war, 100) == 15 * 60 - 100 > quarter.share_s(war)
    assert quarter.share_left_s(war, 16 * 60) == 1
    later = quarter.arguments(war, Path("out"), spent_s=100)
    assert later[later.index("--max-time") + 1] == "800s" and "--until-decided" in later
    assert wal.rows == ("shared-buffers", "page-cache", "beyond-ram")
    words = quarter.arguments(wal, Path("out"))
    assert words[words.index("--memory-limit") + 1] == "208MB" and "--paired" in words
    assert words[words.index("--strategies") + 1] == "bigint,uuid-v4,uuid-v7"
    assert f"rows={wal.table_rows}" in words and words[words.index("--precision") + 1] == "10%"
    assert "0 / 1,170,504 / 5,013,881 rows" in quarter.sizing
    # A tiny budget still runs the first part, on its scale's rounds; a server given by --dsn starts none
    # of its own, and without its memory no tier beyond RAM.
    dsn = sizing.Server(128 * sizing.MIB, None, can_cap=False)
    tiny = advise.make_plan(5, advise.STRATEGIES, 2, dsn, embedded=False)
    assert [p.name for p in tiny.parts] == ["war"]
    assert all("embedded cluster only" in tiny.left_out[name] for name in ("replication", "sharded"))
    assert tiny.left_out["wal"].startswith("beyond the budget")
    assert "give --server-memory" in tiny.rows_left_out["beyond-ram"]
    assert "--max-time" in tiny.arguments(tiny.parts[0], Path("out"))
    again = advise.Plan.from_json(json.loads(json.dumps(quarter.to_json())))
    assert again == quarter


def test_what_a_run_answers_follows_its_machine_and_commit_setting(tmp_path: Path) -> None:
    plan = advise.make_plan(5, ["bigint", "uuid-v4"], 2, HERE)
    shutil.copytree(RUNS / "war-default", tmp_path / "war")
    assert set(outcome.sources(tmp_path, plan)) == {
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
    found = outcome.sources(tmp_path, plan)
    assert {"many-cores", "asynchronous"} <= set(found) and not {"few-cores", "durable"} & set(found)
    table = advice.build(tmp_path, found)
    assert table.cells["many-cores"]["uuid-v4"].run == "war"


def test_each_speed_cell_says_whether_it_was_decided_and_what_more_would_take(tmp_path: Path) -> None:
    plan = advise.make_plan(5, ["bigint", "uuid-v4", "uuid-v7"], 2, HERE)
    shutil.copytree(RUNS / "war-default", tmp_path / "war")
    path = tmp_path / "war" / "results.json"
    data = json.loads(path.read_text())
    # uuid-v7's rate made wide and level: unresolved, with the rounds and minutes that would narrow it.
    for verdict in data["verdicts"]:
        if (verdict["strategy"], verdict["metric"]) == ("uuid-v7", "tps"):
            verdict.update(ratio=1.0, low=0.85, high=1.18, resolved=False, better=None, p_value=0.9)
    path.write_text(json.dumps(data))
    table = advice.build(tmp_path, outcome.sources(tmp_path, plan))
    lines = outcome.precision_lines(plan, table, tmp_path)
    (few,) = [line for line in lines if line.startswith("- many clients on few cores")]
    rounds = data["rounds"]["count"]
    more = outcome.rounds_needed(rounds, 0.18) - rounds
    said = f"v7 unresolved, the budget ended first (±18.0% after {rounds} rounds); about {more} more rounds"
    assert f"{said}, some " in few
    assert " min, would bring it within ±10%" in few and "v4 reached ±10%" in few
    # The load: uuid-v4's wide interval holds its direction, so that cell is decided.
    (bulk,) = [line for line in lines if line.startswith("- bulk load")]
    assert "v4 decided, slower: its interval holds the direction (±" in bulk
    # t-aware: the t quantile falls from 4.30 at three rounds to 2.78 at five, so ±20% after three needs
    # about five in all (the square root alone would say twelve).
    assert outcome.rounds_needed(3, 0.20) == 5 and outcome.rounds_needed(5, 0.101) == 6


@pytest.mark.parametrize(
    ("words", "said"),
    [
        (["--budget", "soon"], "--budget 'soon'"),
        (["--disk-budget", "20GB"], "--server-memory and --disk-budget describe a server given by --dsn"),
        (["--dsn", "host=/nowhere", "--disk-budget", "lots"], "--disk-budget 'lots': expected a size"),
        (["--dsn", "host=/nowhere", "--server-memory", "0GB"], "--server-memory '0GB': must be a positive"),
    ],
)
def test_bad_input_is_one_line(words: list[str], said: str, tmp_path: Path) -> None:
    done = cli_in_process("advise", *words, "--out", str(tmp_path / "advice"))
    assert done.returncode != 0
    assert done.stderr.strip().count("\n") == 0 and said in done.stderr


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
    # The row of one table (which the rows citing the same windows may share).
    row = next(
        line for line in written.splitlines() if line.startswith("| ") and "one table" in line.split("|")[1]
    )
    # bigint is the baseline and v7 has its verdict and interval; the keys not asked for are not measured.
    assert "baseline [war](war)" in row and "[war](war)" in row.split("|")[5] and "(" in row.split("|")[5]
    assert row.split("|")[3].strip() == "not measured"
    # Every speed cell measured says whether it reached ±10% or the budget ended first, and how wide it was.
    said = [line for line in written.splitlines() if line.startswith("- bulk load: v7 ")]
    assert len(said) == 1 and ("v7 reached ±10%" in said[0] or "its 5 parts are all a load makes" in said[0])
    assert "- war: 2 round(s) in " in written
    assert "- beyond RAM (a memory cap): wal was not run: beyond the budget" in written
    assert "- many clients on many cores, asynchronous commit: this machine has " in written
    assert "- many clients on many cores, durable commit: this machine has " in written
    results = json.loads((out / "war" / "results.json").read_text())
    assert results["command"][:3] == ["pkbench", "run", "war"] and "--max-time" in results["command"]
    again = run_cli("advise", "--resume", str(out))
    assert again.returncode == 0, again.stderr
    assert "advise 1/1: war: measured already" in again.stderr
    assert (out / "advice.md").read_text() == written
