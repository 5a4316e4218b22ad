"""Bad input on the command line: one line on stderr, a non-zero exit, no traceback, nothing left running."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest
from conftest import cli_in_process, processes_mentioning, run_cli


def assert_one_line_error(result: object, expected: str) -> None:
    import subprocess

    assert isinstance(result, subprocess.CompletedProcess)
    assert result.returncode != 0
    assert "Traceback" not in result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("pkbench: error: ")
    assert expected in lines[0], lines[0]


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["--strategies", "bigint,nope"], "unknown strategy 'nope'"),
        (["no-such-scenario"], "unknown scenario 'no-such-scenario'"),
        (["--rows", "0"], "--rows: must be at least 1"),
        (["--clients", "-3"], "--clients: must be at least 1"),
        (["--duration", "0"], "--duration: must be at least 1"),
        (["--rows", "many"], "'many' is not a valid integer"),
        (["--pg-bin", "/nonexistent"], "--pg-bin /nonexistent: no initdb and postgres there"),
        (["--strategy-def", "broken"], "expected name=TYPE:EXPRESSION"),
        (["--config", "/nonexistent.toml"], "cannot read config /nonexistent.toml"),
        (["--schema", "x"], "--schema only applies with --dsn"),
        (["--no-such-option"], "No such option '--no-such-option'"),
    ],
)
def test_bad_arguments(args: list[str], expected: str, tmp_path: Path) -> None:
    assert_one_line_error(cli_in_process("run", *args, "--out", str(tmp_path / "out")), expected)
    assert not (tmp_path / "out").exists()


def test_an_existing_output_directory_is_refused(tmp_path: Path) -> None:
    assert_one_line_error(
        cli_in_process("run", "--out", str(tmp_path)), f"output directory {tmp_path} exists"
    )


def test_a_refused_connection_names_the_server_but_not_the_password(tmp_path: Path) -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]  # nothing listens there once closed
    result = cli_in_process(
        "run",
        "--dsn",
        f"postgresql://bench:hunter2secret@127.0.0.1:{port}/bench",
        "--out",
        str(tmp_path / "out"),
    )
    assert_one_line_error(result, f"cannot connect to host=127.0.0.1 port={port} user=bench dbname=bench")
    assert "hunter2secret" not in result.stderr + result.stdout


def test_a_port_in_use_is_refused_and_nothing_is_left(tmp_path: Path, server_tmpdir: Path) -> None:
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        result = run_cli(
            "run",
            "--port",
            str(port),
            "--rows",
            "10",
            "--out",
            str(tmp_path / "out"),
            tmpdir=server_tmpdir,
            timeout=120,
        )
    assert_one_line_error(result, f"port {port} is in use")
    assert processes_mentioning(str(server_tmpdir)) == []
    assert list(server_tmpdir.iterdir()) == []


def test_report_of_a_directory_without_results(tmp_path: Path) -> None:
    assert_one_line_error(cli_in_process("report", str(tmp_path)), "no results.json there")


def test_every_command_has_an_example_in_its_help() -> None:
    for command in ("run", "list", "report", "compare"):
        result = cli_in_process(command, "--help")
        assert result.returncode == 0
        assert "Example:" in result.stdout, command


def test_list_shows_every_strategy_and_scenario_on_one_line_each() -> None:
    result = cli_in_process("list")
    assert result.returncode == 0
    lines = result.stdout.splitlines()
    for name in ("bigint", "uuid-v4-char32", "newsequentialid", "war"):
        assert sum(1 for line in lines if line.split()[:1] == [name]) == 1, name
