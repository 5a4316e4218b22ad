"""Scenario files: the built-in war scenario, command-line overrides and clear errors for bad files."""

from __future__ import annotations

from pathlib import Path

import pytest

from pkbench.errors import PkbenchError
from pkbench.scenario import file as scenario
from pkbench.scenario.file import FillStep, PgbenchStep, SnapshotStep, SqlStep


def test_war_has_the_article_shape() -> None:
    war = scenario.load("war")
    assert war.table == "records"
    assert war.strategies == ("bigint", "uuid-v4", "uuid-v4-text", "uuid-v7")
    assert war.parameters["rows"] == 5000000
    assert war.settings["shared_buffers"] == "128MB"
    kinds = [type(s) for s in war.steps]
    assert kinds.index(FillStep) < kinds.index(SnapshotStep) < kinds.index(PgbenchStep)
    workloads = [s for s in war.steps if isinstance(s, PgbenchStep)]
    assert [w.name for w in workloads] == ["lookup-by-data", "lookup-by-key"]
    by_key = workloads[1].scripts[1].sql
    assert "random(1, {key_sample})" in by_key
    assert "OFFSET" not in by_key.upper()


def test_overrides_apply_limits_and_clamp_jobs() -> None:
    war = scenario.load("war").with_parameters({"rows": 500, "clients": 1, "duration_s": None})
    assert war.parameters["rows"] == 500
    assert war.parameters["key_sample"] == 500, "the key sample cannot exceed the table"
    assert war.parameters["jobs"] == 1, "pgbench refuses more threads than clients"
    assert war.parameters["duration_s"] == scenario.load("war").parameters["duration_s"]


@pytest.mark.parametrize("name", ["rows", "clients", "duration_s", "jobs"])
def test_impossible_sizes_are_refused(name: str) -> None:
    with pytest.raises(PkbenchError, match="must be at least 1"):
        scenario.load("war").with_parameters({name: 0})


def test_render_fills_strategy_and_parameter_placeholders() -> None:
    war = scenario.load("war").with_parameters({"rows": 1000})
    schema = next(s for s in war.steps if isinstance(s, SqlStep))
    text = war.render(schema.statements[0], "uuid", "DEFAULT gen_random_uuid()")
    assert text.startswith(
        "CREATE TABLE records (id uuid PRIMARY KEY DEFAULT gen_random_uuid(), foreign_table_id uuid"
    )


def test_unknown_scenario_names_the_built_in_ones() -> None:
    with pytest.raises(PkbenchError, match=r"unknown scenario 'nope' \(built in: .*war"):
        scenario.load("nope")


def write(tmp_path: Path, text: str) -> str:
    path = tmp_path / "s.toml"
    path.write_text(text)
    return str(path)


MINIMAL = """
name = "mini"
[parameters]
rows = 10
clients = 1
jobs = 1
duration_s = 1
[[steps]]
kind = "pgbench"
name = "w"
scripts = [{ name = "a", weight = 1, sql = "SELECT {rows};" }]
"""


def test_a_copied_file_loads_by_path(tmp_path: Path) -> None:
    loaded = scenario.load(write(tmp_path, MINIMAL))
    assert loaded.name == "mini"
    assert loaded.source.endswith("s.toml")


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (('kind = "pgbench"', 'kind = "dance"'), "'kind' must be one of sql, fill, snapshot, pgbench"),
        (("SELECT {rows};", "SELECT {nope};"), r"unknown placeholder\(s\) \{nope\}"),
        (("weight = 1", "weight = 0"), "'weight' must be a positive integer"),
        (("rows = 10", 'rows = "many"'), "parameter 'rows' must be an integer"),
        (('name = "mini"', "name = 3"), "'name' must be a non-empty string"),
        (("[[steps]]", "[[steps]"), "scenario .*s.toml"),
    ],
)
def test_bad_files_give_one_clear_line(tmp_path: Path, change: tuple[str, str], message: str) -> None:
    with pytest.raises(PkbenchError, match=message) as info:
        scenario.load(write(tmp_path, MINIMAL.replace(*change)))
    assert "\n" not in str(info.value)


def test_a_missing_file_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(PkbenchError, match="cannot read scenario"):
        scenario.load(str(tmp_path / "missing.toml"))
