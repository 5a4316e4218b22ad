"""What the command line does with odd input and with failures: one line, a code that tells the truth."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest
from conftest import cli_in_process, run_cli, short_run
from test_cli_errors import assert_one_line_error

from pkbench.errors import PkbenchError
from pkbench.run.options import Options, plan


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["--memory-limit", "9" * 400], "--memory-limit"),
        (["--sample-every", "nan"], "--sample-every must be a finite number"),
        (["--rows", str(2**63)], "--rows must be at most 9,223,372,036,854,775,807"),
        (["--set", "rows=-5"], "--rows must not be negative"),
        (["--set", "batch_rows=1e400"], "parameter batch_rows must be a finite number"),
        (["--set", "rows"], "expected KEY=VALUE"),
        (["--set", "strategies.x=1"], "--set strategies.x: give a parameter"),
        (["--pg", "18", "--pg-bin", "/usr/bin"], "--pg and --pg-bin both choose the server build"),
        (
            ["--pg", "18", "--dsn", "postgresql://nobody@127.0.0.1:1/x"],
            "--pg applies to the embedded server only",
        ),
    ],
)
def test_out_of_range_options_are_one_line(args: list[str], expected: str, tmp_path: Path) -> None:
    assert_one_line_error(cli_in_process("run", *args, "--out", str(tmp_path / "out")), expected)
    assert not (tmp_path / "out").exists()


def test_a_binary_config_file_is_one_line(tmp_path: Path) -> None:
    config = tmp_path / "strategies.toml"
    config.write_bytes(bytes(range(256)))
    result = cli_in_process("run", "--config", str(config), "--out", str(tmp_path / "out"))
    assert_one_line_error(result, "not a TOML text file")
    assert_one_line_error(cli_in_process("list", "--config", str(config)), "not a TOML text file")


def test_set_overrides_parameters_and_server_settings_without_copying_the_file(tmp_path: Path) -> None:
    options = Options(
        scenario="war",
        out=tmp_path / "out",
        overrides=["rows=1234", "parameters.batch_rows=17", "settings.work_mem=64MB", "settings.fsync=off"],
    )
    planned = plan(options)
    assert planned.scenario.parameters["rows"] == 1234 and planned.scenario.parameters["batch_rows"] == 17
    assert planned.scenario.settings["work_mem"] == "64MB" and planned.scenario.settings["fsync"] == "off"
    # A command-line option left out (None, as the CLI passes it) keeps --set's value; one given wins over it.
    options.parameters = {"rows": None, "duration_s": None}
    assert plan(options).scenario.parameters["rows"] == 1234
    options.parameters = {"rows": 99}
    assert plan(options).scenario.parameters["rows"] == 99


@pytest.mark.parametrize(
    ("overrides", "expected"),
    [
        (["rows=many"], "--set rows: expected a whole number for war's rows (got 'many')"),
        (["rows=1.5"], "--set rows: expected a whole number for war's rows (got 1.5)"),
        (["row=5000"], "--set row: unknown key 'row' (did you mean 'rows'?"),
        (["no_such_key=1"], "--set no_such_key: unknown key 'no_such_key' (allowed: "),
        (["parameters.clinets=4"], "--set clinets: unknown key 'clinets' (did you mean 'clients'?"),
        (["warmup_s=soon"], "--set warmup_s: expected a number for war's warmup_s (got 'soon')"),
    ],
)
def test_set_refuses_what_the_scenario_does_not_declare_or_a_wrong_type(
    tmp_path: Path, overrides: list[str], expected: str
) -> None:
    with pytest.raises(PkbenchError) as refused:
        plan(Options(out=tmp_path / "out", overrides=overrides))
    assert expected in str(refused.value)
    assert "\n" not in str(refused.value)


def test_set_takes_the_harness_parameters_and_numbers_for_numbers(tmp_path: Path) -> None:
    planned = plan(Options(out=tmp_path / "out", overrides=["rounds=3", "warmup_s=1", "rate_tps=50.5"]))
    assert planned.rounds == 3 and planned.scenario.parameters["warmup_s"] == 1
    assert planned.scenario.parameters["rate_tps"] == 50.5


def test_a_misspelled_set_key_is_one_line_and_nothing_starts(tmp_path: Path) -> None:
    result = cli_in_process("run", "war", "--set", "row=5000", "--out", str(tmp_path / "out"))
    assert_one_line_error(result, "--set row: unknown key 'row' (did you mean 'rows'?")
    assert not (tmp_path / "out").exists()


def test_list_as_json_names_every_strategy_and_scenario() -> None:
    result = cli_in_process("list", "--format", "json")
    assert result.returncode == 0, result.stderr
    listing = json.loads(result.stdout)
    names = {s["name"] for s in listing["strategies"]}
    assert {"bigint", "uuid-v4", "uuid-v7"} <= names
    assert all(s["column_type"] and s["description"] for s in listing["strategies"])
    assert {s["name"] for s in listing["scenarios"]} >= {"war", "wal", "bloat", "read", "insert-scaling"}


def test_too_many_clients_for_the_server_is_one_line(tmp_path: Path) -> None:
    result = run_cli("run", "--clients", "500", "--rows", "100", "--out", str(tmp_path / "out"), timeout=300)
    assert_one_line_error(result, "--clients 500: the server accepts")


def test_a_failed_strategy_exits_3_naming_it_and_keeps_the_results(tmp_path: Path) -> None:
    out = tmp_path / "out"
    result = run_cli(
        "run",
        "--strategy-def",
        "boom=bigint:(1/0)::bigint",
        *short_run(strategies="bigint,boom", sample_every=0, out=out, transactions=200),
        timeout=300,
    )
    assert result.returncode == 3, result.stderr
    last = result.stderr.strip().splitlines()[-1]
    assert last.startswith("pkbench: error: 1 of 2 strategies failed: boom (") and "division by zero" in last
    data = json.loads((out / "results.json").read_text())
    assert [s["status"] for s in data["strategies"]] == ["ok", "failed"]
    with (out / "summary.csv").open(newline="") as f:
        rows = list(csv.DictReader(f))
    assert rows and {r["strategy"] for r in rows} == {"bigint"}
    assert any(r["figure"] == "tps" and r["value"] for r in rows)
    # Not everything asked for was done: the run says so wherever it writes.
    assert data["completion"]["complete"] is False and "boom failing (" in data["completion"]["stopped"]
    assert {r["complete"] for r in rows} == {"false"}
    assert (out / "summary.md").read_text().startswith("**Incomplete run: stopped by boom failing (")


def test_a_skipped_strategy_exits_4_naming_it(tmp_path: Path) -> None:
    config = tmp_path / "strategies.toml"
    config.write_text(
        '[[strategy]]\nname = "needs-missing"\ntype = "bigint"\ndefault = "1"\n'
        'extensions = ["no_such_extension_anywhere"]\n'
    )
    out = tmp_path / "out"
    result = run_cli(
        "run",
        "--config",
        str(config),
        *short_run(strategies="bigint,needs-missing", sample_every=0, out=out, transactions=200),
        timeout=300,
    )
    assert result.returncode == 4, result.stderr
    last = result.stderr.strip().splitlines()[-1]
    assert last.startswith("pkbench: error: 1 of 2 strategies skipped: needs-missing (")
    data = json.loads((out / "results.json").read_text())
    assert [s["status"] for s in data["strategies"]] == ["ok", "skipped"]
