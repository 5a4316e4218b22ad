"""Sweeps: --clients 1,4,16,64 and --set NAME=a,b,c run one point each; TPS and p99 against the value."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest
from conftest import cli_in_process, run_cli, short_run
from test_cli_errors import assert_one_line_error

from pkbench.errors import PkbenchError
from pkbench.report.sweep_page import write_sweep_page
from pkbench.run import sweep
from pkbench.summary import sweep as sweep_figures
from pkbench.text import MISSING


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


def test_a_clients_sweep_runs_one_point_per_value(server_tmpdir: Path) -> None:
    out = server_tmpdir / "sweep"
    result = run_cli(
        "run",
        "war",
        *short_run(strategies="bigint", duration=1, clients=None, out=out),
        "--clients",
        "1,3",
        tmpdir=server_tmpdir,
    )
    assert result.returncode == 0, result.stderr
    document = json.loads((out / "sweep.json").read_text())
    assert (document["parameter"], document["values"]) == ("clients", [1, 3])
    for point in document["points"]:
        data = json.loads((out / point["directory"] / "results.json").read_text())
        assert data["scenario"]["parameters"]["clients"] == point["value"]
        # The sweep's jobs follow its clients: pgbench refuses more threads than clients.
        assert data["scenario"]["parameters"]["jobs"] <= point["value"]
        commands = (out / point["directory"]).glob("pgbench/bigint/*/command.txt")
        assert all(f"--client {point['value']} " in c.read_text() for c in commands)
    with (out / "sweep.csv").open() as f:
        table = list(csv.DictReader(f))
    assert {(r["clients"], r["workload"]) for r in table} == {
        (c, w) for c in ("1", "3") for w in ("lookup-by-data", "lookup-by-key")
    }
    assert all(float(r["tps"]) > 0 and float(r["p99_ms"]) > 0 for r in table)
    # --no-report: no page drawn (nor plotly imported); the page is drawn from the same rows.
    assert not (out / "sweep.html").exists()
    page = write_sweep_page(out, "clients", sweep_figures.rows(out, document)).read_text()
    assert 'id="sweep-lookup-by-key-tps"' in page and 'id="sweep-lookup-by-key-p99"' in page
    assert "## lookup-by-key: TPS (tps)" in result.stdout
