"""Sweeps: --clients 1,4,16,64 and --set NAME=a,b,c run one point each; TPS and p99 against the value."""

from __future__ import annotations

import csv
import json
import shutil
import signal
import time
from pathlib import Path

import pytest
from conftest import HOLDING_RATE, cli_in_process, run_cli, run_until_window, short_run
from test_cli_errors import assert_one_line_error

from pkbench.errors import PkbenchError
from pkbench.run import sweep
from pkbench.summary import sweep as sweep_figures
from pkbench.text import MISSING

REPRODUCTIONS = Path(__file__).parent.parent / "docs" / "reproductions"


def test_a_comma_list_of_clients_is_a_sweep_and_one_number_is_not() -> None:
    assert sweep.split("4", ["rows=100"]) == (4, ["rows=100"], None)
    assert sweep.split("1,4,16,64", ["rows=100"]) == (
        None,
        ["rows=100"],
        sweep.Sweep("clients", (1, 4, 16, 64)),
    )


def test_a_numeric_list_given_with_set_sweeps_that_parameter() -> None:
    single, kept, swept = sweep.split(None, ["settings.work_mem=64MB", "parameters.fillfactor=70,80,90.5"])
    assert (single, kept) == (None, ["settings.work_mem=64MB"])
    assert swept == sweep.Sweep("fillfactor", (70, 80, 90.5))
    assert [swept.directory_name(v) for v in swept.values] == [
        "fillfactor-70",
        "fillfactor-80",
        "fillfactor-90.5",
    ]
    # Text with a comma is no sweep: it stays a --set value.
    assert sweep.split(None, ["name=a,b"]) == (None, ["name=a,b"], None)


@pytest.mark.parametrize(
    ("clients", "overrides", "expected"),
    [
        ("1,4", ["rows=10,20"], "sweep one parameter at a time (got --clients, --rows)"),
        (None, ["settings.work_mem=1,2"], "only scenario parameters can be swept"),
        ("4,4", [], "--clients: a value is listed twice"),
        ("0,4", [], "--clients: every value must be a whole number of at least 1"),
        ("1,x", [], "--clients '1,x': a number, or numbers separated by commas"),
        ("0", [], "--clients: must be at least 1 (got 0)"),
    ],
)
def test_bad_sweeps_are_refused(clients: str | None, overrides: list[str], expected: str) -> None:
    with pytest.raises(PkbenchError) as error:
        sweep.split(clients, overrides)
    assert expected in str(error.value)


def test_the_table_marks_where_a_point_measured_nothing() -> None:
    rows = [
        sweep_figures.Row(1, "bigint", "w", {"tps": 100.0, "p99": 2.5}),
        sweep_figures.Row(4, "bigint", "w", {"tps": 350.0, "p99": 4.0}),
        sweep_figures.Row(1, "uuid-v4", "w", {"tps": 90.0, "p99": None}),
    ]
    text = sweep_figures.markdown("clients", sweep.Sweep("clients", (1, 4)).option, rows)
    assert "| bigint | 100.0 | 350.0 |" in text
    assert f"| uuid-v4 | 90.0 | {MISSING} |" in text
    assert f"| uuid-v4 | {MISSING} | {MISSING} |" in text  # its p99: missing at 1, not run at 4


def test_a_bad_point_is_refused_before_any_runs(tmp_path: Path) -> None:
    out = tmp_path / "sweep"
    result = cli_in_process("run", "war", "--set", "rows=100,-5", "--out", str(out))
    assert_one_line_error(result, "--rows -5: --rows must not be negative")
    assert not out.exists()


def test_a_clients_sweep_runs_one_point_per_value_and_resumes_point_by_point(server_tmpdir: Path) -> None:
    out = server_tmpdir / "sweep"
    arguments = (
        *short_run(strategies="bigint", duration=1, rounds=2, clients=None, out=out, rate=HOLDING_RATE),
        "--clients",
        "1,2",
    )
    # Stopped in the second point's second round: the first point is whole, the second has one round.
    with run_until_window(
        server_tmpdir, arguments, out / "clients-2" / "pgbench" / "bigint.round-2" / "lookup-by-data"
    ) as run:
        time.sleep(0.5)
        run.send_signal(signal.SIGTERM)
        _, stderr = run.communicate(timeout=90)
    assert run.returncode == 130, stderr
    document = json.loads((out / "sweep.json").read_text())
    assert [p["value"] for p in document["points"]] == [1]
    first_point = (out / "clients-1" / "results.json").read_bytes()
    assert json.loads((out / "clients-2" / "results.json").read_text())["completion"]["rounds_done"] == 1

    result = run_cli("run", "--resume", str(out), tmpdir=server_tmpdir)
    assert result.returncode == 0, result.stderr
    assert "sweep 1/2: clients = 1: complete already, kept" in result.stderr
    assert (out / "clients-1" / "results.json").read_bytes() == first_point
    resumed = json.loads((out / "clients-2" / "results.json").read_text())
    assert resumed["completion"]["complete"] is True
    assert [r["rounds_kept"] for r in resumed["completion"]["resumed"]] == [1]
    document = json.loads((out / "sweep.json").read_text())
    assert (document["parameter"], document["values"]) == ("clients", [1, 2])
    assert [p["value"] for p in document["points"]] == [1, 2]
    for point in document["points"]:
        data = json.loads((out / point["directory"] / "results.json").read_text())
        assert data["scenario"]["parameters"]["clients"] == point["value"]
        # The sweep's jobs follow its clients: pgbench refuses more threads than clients.
        assert data["scenario"]["parameters"]["jobs"] <= point["value"]
        commands = (out / point["directory"]).glob("pgbench/bigint*/*/command.txt")
        assert all(f"--client {point['value']} " in c.read_text() for c in commands)
    with (out / "sweep.csv").open() as f:
        table = list(csv.DictReader(f))
    assert {(r["clients"], r["workload"]) for r in table} == {
        (c, w) for c in ("1", "2") for w in ("lookup-by-data", "lookup-by-key")
    }
    assert all(float(r["tps"]) > 0 and float(r["p99_ms"]) > 0 for r in table)
    assert "## lookup-by-key: TPS (tps)" in result.stdout
    assert_one_line_error(
        cli_in_process("run", "--resume", str(out)), "every point of that sweep is complete"
    )

    # --no-report: no page drawn (nor plotly imported); `pkbench report` draws it from the same rows.
    assert not (out / "sweep.html").exists()
    drawn = cli_in_process("report", str(out))
    assert drawn.returncode == 0, drawn.stderr
    page = (out / "sweep.html").read_text()
    assert 'id="sweep-lookup-by-key-tps"' in page and 'id="sweep-lookup-by-key-p99"' in page


def test_report_draws_a_committed_sweep_that_ran_without_one(tmp_path: Path) -> None:
    committed = tmp_path / "contention-16-cores-async"
    shutil.copytree(REPRODUCTIONS / committed.name, committed)
    result = cli_in_process("report", str(committed))
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == str(committed / "sweep.html")
    page = (committed / "sweep.html").read_text()
    assert 'id="sweep-insert-async-tps"' in page
    # Every point completed: nothing to resume, and none of the recorded machine is needed to say so.
    assert_one_line_error(
        cli_in_process("run", "--resume", str(committed)), "every point of that sweep is complete"
    )


def test_a_broken_sweep_json_is_one_line(tmp_path: Path) -> None:
    (tmp_path / "sweep.json").write_text("{")
    assert_one_line_error(cli_in_process("report", str(tmp_path)), "sweep.json unreadable")
    assert_one_line_error(cli_in_process("run", "--resume", str(tmp_path)), "not a sweep pkbench wrote")
