"""sequuid's virtual clock under pkbench: --clock-rate checked by plan(), set on the embedded server, recorded
in the results with the virtual time it covered, and the strategies it cannot move named."""

from __future__ import annotations

import json
import math
import time
from pathlib import Path
from typing import Any

import psycopg
import pytest
from conftest import run_cli

from pkbench.errors import PkbenchError
from pkbench.results import RunResult, StrategyResult
from pkbench.run.options import Options, plan
from pkbench.server.builds import find_pgbench, find_server_bindir
from pkbench.server.embedded import EmbeddedCluster
from pkbench.server.sequuid_port import SOURCE as PORT_SOURCE
from pkbench.server.virtual_clock import clock_record, clock_settings
from pkbench.strategies.builtin import BUILTIN
from pkbench.strategies.catalog import Catalog
from pkbench.summary.document import clock_line

RATE = 1000

# A fill bracketed by the real clock, then a check that the keys' embedded times span about RATE times the
# fill's real time (uuid keys, where sequuid is there; at least 100x, at most the rate x plus a second of
# slack). The real time brackets the fill with a statement each side, so the ratio comes out below the rate.
SCENARIO = """
name = "clock"
description = "fill, then compare the keys' time span with the fill's real time"
strategies = ["uuid-v1"]

[parameters]
rows = 20000
batch_rows = 20000
clients = 1
jobs = 1
duration_s = 1
clock_rate = 1

[[steps]]
kind = "sql"
name = "schema"
statements = [
    "CREATE TABLE records (id {key_type} PRIMARY KEY {key_default})",
    "CREATE TABLE fill_clock AS SELECT clock_timestamp() AS began, NULL::timestamptz AS ended",
]

[[steps]]
kind = "fill"
name = "insert"
rows = "rows"
statement = "INSERT INTO records SELECT FROM generate_series(1, {batch})"

[[steps]]
kind = "sql"
name = "span"
statements = [
    "UPDATE fill_clock SET ended = clock_timestamp()",
    '''DO $check$
    DECLARE
        span float8;
        wall float8;
    BEGIN
        IF '{key_type}' <> 'uuid' OR to_regprocedure('uuid_timestamp(uuid)') IS NULL THEN
            RETURN;
        END IF;
        SELECT extract(epoch FROM max(uuid_timestamp(id)) - min(uuid_timestamp(id))) INTO span FROM records;
        SELECT extract(epoch FROM ended - began) INTO wall FROM fill_clock;
        IF span < 100 * wall OR span > {clock_rate} * wall + 1 THEN
            RAISE EXCEPTION 'key time span % s over % s of real fill time: ratio %', span, wall, span / wall;
        END IF;
    END
    $check$''',
]

[[steps]]
kind = "density"
name = "after-insert"
indexes = ["records_pkey"]
"""


def _options(tmp_path: Path, **changes: object) -> Options:
    options = Options(scenario="war", out=tmp_path / "results", **changes)  # type: ignore[arg-type]
    return options


@pytest.mark.parametrize("rate", [0.0, -1.0, math.nan, math.inf, -math.inf, 1e7, 1e-7])
def test_plan_refuses_a_rate_sequuid_does_not_accept(tmp_path: Path, rate: float) -> None:
    with pytest.raises(
        PkbenchError, match=r"^--clock-rate must be a finite number from 1e-06 to 1e\+06"
    ) as e:
        plan(_options(tmp_path, clock_rate=rate))
    assert "\n" not in str(e.value)


@pytest.mark.parametrize("text", ["0", "-5", "nan", "inf", "1e30", "'fast'"])
def test_plan_refuses_a_bad_scenario_rate_set_on_the_command_line(tmp_path: Path, text: str) -> None:
    with pytest.raises(PkbenchError, match=r"clock.rate") as e:
        plan(_options(tmp_path, overrides=[f"clock_rate={text}"]))
    assert "\n" not in str(e.value)


def test_plan_takes_the_option_over_the_scenario_and_defaults_to_one(tmp_path: Path) -> None:
    assert plan(_options(tmp_path)).clock_rate == 1
    assert plan(_options(tmp_path, overrides=["clock_rate=250"])).clock_rate == 250
    assert plan(_options(tmp_path, overrides=["clock_rate=250"], clock_rate=0.5)).clock_rate == 0.5
    assert plan(_options(tmp_path, clock_rate=1e6)).clock_rate == 1e6


def test_plan_refuses_a_rate_on_an_existing_server_but_accepts_one(tmp_path: Path) -> None:
    dsn = "postgresql://nobody@127.0.0.1:1/none"
    with pytest.raises(PkbenchError, match="embedded server only"):
        plan(_options(tmp_path, clock_rate=10, dsn=dsn))
    assert plan(_options(tmp_path, clock_rate=1, dsn=dsn)).clock_rate == 1


def test_the_command_line_refuses_a_bad_rate_in_one_line(tmp_path: Path) -> None:
    result = run_cli("run", "--clock-rate", "nan", "--out", str(tmp_path / "out"))
    assert result.returncode == 1
    assert result.stderr.count("\n") == 1 and "--clock-rate must be a finite number" in result.stderr
    assert "Traceback" not in result.stderr


def test_the_catalog_says_which_generators_follow_the_virtual_clock() -> None:
    catalog = Catalog()
    assert {g.clock for s in BUILTIN for g in s.generators} <= {"virtual", "real", "none"}
    v1 = catalog.get("uuid-v1")
    assert [(g.expression, g.clock) for g in v1.generators] == [
        ("uuid_generate_v1_random_node()", "virtual"),
        ("uuid_generate_v1()", "real"),
    ]
    assert "low 32 bits first" in v1.description
    assert catalog.get("uuid-v6").generators[0].clock == "virtual"
    assert [g.clock for g in catalog.get("uuid-v7").generators] == ["virtual", "real"]
    assert catalog.get("bigint").generators[0].clock == "none"
    assert catalog.get("newsequentialid").generators[0].clock == "real"


def _with_clock(clock: dict[str, Any]) -> RunResult:
    return RunResult([], "", {}, {}, {}, {}, clock=clock)


def _result(name: str, expression: str, source: str) -> StrategyResult:
    result = StrategyResult(name, "", "uuid", expression, generator_source=source)
    result.step_durations_s = {"insert": 36.0}
    return result


def test_real_clock_strategies_are_flagged_only_at_a_rate_other_than_one() -> None:
    catalog = {s.name: s for s in BUILTIN}
    measured = [
        _result("uuid-v7", "uuidv7()", "core"),
        _result("uuid-v6", "uuid_generate_v6()", PORT_SOURCE),
        _result("uuid-v1", "uuid_generate_v1_random_node()", "extension sequuid"),
        # typeid's v7 from the port, encoded by a function of the run's schema: the port's clock is real.
        _result(
            "typeid",
            "pkbench_typeid('rec', uuid_generate_v7())",
            f"{PORT_SOURCE} + SQL objects created in the run's schema",
        ),
        _result("snowflake", "pkbench_snowflake()", "SQL objects created in the run's schema"),
    ]
    fast = clock_record(100, 1.7e9, 72.0, measured, catalog)
    assert [r["strategy"] for r in fast["real_clock_only"]] == ["uuid-v7", "uuid-v6", "typeid", "snowflake"]
    assert fast["virtual_hours_covered"] == pytest.approx(2.0)
    assert fast["virtual_hours_by_strategy"]["uuid-v1"]["steps"]["insert"] == pytest.approx(1.0)
    line = clock_line(_with_clock(fast))
    assert line is not None and "clock_rate 100" in line and "2.0 virtual hours" in line
    assert "uuid-v7 (uuidv7())" in line and PORT_SOURCE in line
    normal = clock_record(1, None, 72.0, measured, catalog)
    assert normal["real_clock_only"] == [] and clock_line(_with_clock(normal)) is None


def test_the_embedded_servers_backends_share_one_fast_timeline(server_tmpdir: Path) -> None:
    """Keys made in two sessions, one after the other, lie on one timeline moving RATE times real time."""
    settings = {"shared_buffers": "32MB", **clock_settings(RATE, time.time())}
    cluster = EmbeddedCluster(find_server_bindir(None), find_pgbench(None), settings)
    with cluster:
        conninfo = cluster.connection.conninfo()
        with psycopg.connect(conninfo, autocommit=True) as first:
            first.execute("CREATE EXTENSION sequuid VERSION '1.1'")
            first.execute("CREATE TABLE keys (id uuid PRIMARY KEY DEFAULT uuid_generate_v1_random_node())")
            began = time.monotonic()
            first.execute("INSERT INTO keys SELECT FROM generate_series(1, 20000)")
            with psycopg.connect(conninfo, autocommit=True) as second:
                second.execute("INSERT INTO keys SELECT FROM generate_series(1, 20000)")
            wall = time.monotonic() - began
            row = first.execute(
                "SELECT extract(epoch FROM max(uuid_timestamp(id)) - min(uuid_timestamp(id)))::float8"
                " FROM keys"
            ).fetchone()
    assert row is not None
    span = float(row[0])
    print(f"key time span {span:.1f} s over {wall:.3f} s of real time: ratio {span / wall:.0f}")
    assert 100 * wall < span <= RATE * wall + 1


def test_a_run_records_the_rate_virtual_time_and_real_clock_strategies(
    tmp_path: Path, server_tmpdir: Path
) -> None:
    scenario = tmp_path / "clock.toml"
    scenario.write_text(SCENARIO)
    out = tmp_path / "results"
    result = run_cli(
        "run",
        "--no-report",
        str(scenario),
        "--clock-rate",
        str(RATE),
        "--strategies",
        "uuid-v7,uuid-v1,bigint,newsequentialid",
        "--out",
        str(out),
        tmpdir=server_tmpdir,
    )
    assert result.returncode == 0, result.stderr
    data = json.loads((out / "results.json").read_text())
    assert [s["status"] for s in data["strategies"]] == ["ok"] * 4, [s["error"] for s in data["strategies"]]
    clock = data["clock"]
    assert clock["rate"] == RATE and clock["anchor_unix_s"] > 0
    assert clock["virtual_hours_covered"] == pytest.approx(clock["wall_s"] * RATE / 3600)
    for s in data["strategies"]:
        hours = clock["virtual_hours_by_strategy"][s["name"]]["steps"]["insert"]
        assert hours == pytest.approx(s["step_durations_s"]["insert"] * RATE / 3600)
    assert clock["real_clock_only"] == [
        {"strategy": "newsequentialid", "generator": "pkbench_newsequentialid()"}
    ]
    summary = (out / "summary.md").read_text()
    assert f"sequuid.clock_rate {RATE}" in summary and "Real clock only" in summary
    assert "newsequentialid" in result.stdout.split("Virtual clock:")[1]


def test_a_run_at_rate_one_flags_nothing(tmp_path: Path, server_tmpdir: Path) -> None:
    scenario = tmp_path / "clock.toml"
    scenario.write_text(SCENARIO.replace('strategies = ["uuid-v1"]', 'strategies = ["newsequentialid"]'))
    out = tmp_path / "results"
    result = run_cli("run", str(scenario), "--out", str(out), tmpdir=server_tmpdir)
    assert result.returncode == 0, result.stderr
    data = json.loads((out / "results.json").read_text())
    assert data["clock"]["rate"] == 1 and data["clock"]["real_clock_only"] == []
    assert "Virtual clock" not in (out / "summary.md").read_text()
