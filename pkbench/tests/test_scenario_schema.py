"""Scenario files checked by their schema: typos, wrong types and unsafe names are one line naming the file
and the key; the published JSON Schema is the one the models generate."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import cli_in_process

from pkbench.errors import PkbenchError
from pkbench.scenario import file as scenario
from pkbench.scenario import json_schema

SCHEMA_FILE = Path(__file__).parent.parent / "docs" / "scenario.schema.json"

MINIMAL = """
name = "mini"
strategies = ["bigint"]
[parameters]
rows = 10
clients = 1
jobs = 1
duration_s = 1
[settings]
shared_buffers = "128MB"
[[steps]]
kind = "pgbench"
name = "w"
scripts = [{ name = "a", weight = 1, sql = "SELECT {rows};" }]
"""


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "s.toml"
    path.write_text(text)
    return path


def test_the_published_json_schema_is_the_one_the_models_generate() -> None:
    assert json.loads(SCHEMA_FILE.read_text()) == json_schema.document()


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (
            ("strategies = ", "stratgies = "),
            r"s\.toml: unknown key 'stratgies' \(did you mean 'strategies'\? allowed: name, .*strategies",
        ),
        (
            ("[settings]", "[setings]"),
            r"s\.toml: unknown key 'setings' \(did you mean 'settings'\? allowed: .*settings",
        ),
        (
            ('name = "w"', 'name = "w"\nscritps = []'),
            r"step #1: unknown key 'scritps' \(did you mean 'scripts'\? allowed: kind, name",
        ),
        (
            ("weight = 1,", "weight = 1, wieght = 2,"),
            r"scripts, #1: unknown key 'wieght' \(did you mean 'weight'\?",
        ),
        (("rows = 10", "rows = nan"), "parameter 'rows' must be a finite number"),
        (('name = "w"', 'name = "../../x"'), "step #1: 'name' must be letters, digits"),
        (('strategies = ["bigint"]', 'strategies = "bigint"'), "'strategies' is wrong"),
        (
            ('shared_buffers = "128MB"', "[settings.shared_buffers]\nx = 1"),
            "'settings' must be a table of strings",
        ),
    ],
)
def test_a_wrong_key_is_one_line_naming_file_key_and_what_is_allowed(
    tmp_path: Path, change: tuple[str, str], message: str
) -> None:
    assert change[0] in MINIMAL
    with pytest.raises(PkbenchError, match=message) as info:
        scenario.load(str(write(tmp_path, MINIMAL.replace(*change))))
    assert "\n" not in str(info.value)


def test_the_minimal_file_loads(tmp_path: Path) -> None:
    loaded = scenario.load(str(write(tmp_path, MINIMAL)))
    assert loaded.strategies == ("bigint",) and loaded.settings == {"shared_buffers": "128MB"}


def test_every_builtin_scenario_passes_its_schema() -> None:
    for name in scenario.builtin_names():
        assert scenario.load(name).steps


def test_a_typo_from_the_command_line_is_one_line_without_a_traceback(tmp_path: Path) -> None:
    path = write(tmp_path, MINIMAL.replace("strategies = ", "stratgies = "))
    result = cli_in_process("run", str(path), "--out", str(tmp_path / "out"))
    assert result.returncode == 1
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "unknown key 'stratgies' (did you mean 'strategies'?" in lines[0], (
        result.stderr
    )
    assert not (tmp_path / "out").exists()


def test_a_binary_scenario_file_is_one_line(tmp_path: Path) -> None:
    path = tmp_path / "s.toml"
    path.write_bytes(bytes(range(256)) * 4)
    result = cli_in_process("run", str(path), "--out", str(tmp_path / "out"))
    assert result.returncode == 1
    assert len(result.stderr.strip().splitlines()) == 1 and "Traceback" not in result.stderr, result.stderr
