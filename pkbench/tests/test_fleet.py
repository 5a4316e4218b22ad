"""Keys made by application servers (the fleet scenario): each pgbench client's clock offset, the keys'
embedded times within the skew, random against counter sub-millisecond bits, the refusal where a scenario
sends no key, and one short sweep whose sweep.md answers against server-side v7."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psycopg
import pytest
from conftest import cli_in_process, run_cli, short_run

from pkbench.analysis.verdict import ratio_verdict
from pkbench.errors import PkbenchError
from pkbench.scenario import file as scenario_file
from pkbench.server.builds import find_pgbench, find_server_bindir
from pkbench.server.embedded import EmbeddedCluster
from pkbench.strategies import app_keys
from pkbench.strategies.binding import bound, client_key_placeholders
from pkbench.strategies.catalog import Catalog
from pkbench.summary import fleet

CLIENTS = 4
SKEW_MS = 60000
# Client i of 4 over 60 s: -30 s, -10 s, +10 s, +30 s from the server's clock.
OFFSETS_MS = [(2 * i - (CLIENTS - 1)) * SKEW_MS / (2 * (CLIENTS - 1)) for i in range(CLIENTS)]


def test_the_skew_and_clients_are_written_into_the_key_and_the_prefill() -> None:
    strategy = bound(Catalog().get("app-v7-random"), {"skew_ms": 50, "clients": 8}, cores=2)
    commands = client_key_placeholders(strategy)["key_client_commands"]
    assert "(2 * :client_id - (8 - 1)) * 50000 / (2 * greatest(8 - 1, 1))" in commands
    assert strategy.generators[0].expression == "pkbench_app_fleet_v7(50000, 8)"
    # A server-made key: nothing before the statement, the column's default, a plain end.
    assert client_key_placeholders(Catalog().get("uuid-v7")) == {
        "key_client_commands": "",
        "key_value": "DEFAULT",
        "key_statement_end": ";",
    }
    with pytest.raises(PkbenchError, match="skew_ms must be a number of milliseconds"):
        bound(Catalog().get("app-v7-counter"), {"skew_ms": -1, "clients": 8}, cores=2)


def test_a_scenario_that_sends_no_key_refuses_the_clients_keys() -> None:
    result = cli_in_process("run", "war", "--strategies", "app-v7-random", "--rows", "100")
    assert result.returncode != 0
    assert (
        result.stderr.strip()
        .splitlines()[-1]
        .endswith("scenario war does not send keys from them ({key_value}); run it in fleet")
    )
    listed = cli_in_process("list")
    assert "app-v7-random" in listed.stdout and "app-v7-counter" in listed.stdout and "fleet" in listed.stdout


def test_fleet_sweeps_the_skew_from_clocks_in_step() -> None:
    loaded = scenario_file.load("fleet")
    assert loaded.sweep == ("skew_ms", (0, 1, 50, 1000, 60000))
    assert {"app-v7-random", "app-v7-counter", "uuid-v7", "uuid-v4"} <= set(loaded.strategies)


def test_the_answer_names_the_first_skew_whose_work_departs_from_server_v7() -> None:
    def point(skew: int, wal: list[float]) -> fleet.Point:
        judged = ratio_verdict(wal, [100.0] * len(wal), fleet.FIGURES[1].kind)
        return fleet.Point(skew, "app-v7-random", "insert-lookup", {}, 2**20, {"wal": judged}, 1.3)

    close = point(50, [101.0, 99.0, 100.5, 100.0])
    far = point(1000, [130.0, 131.0, 129.0, 130.5])
    sentence = fleet.answer([close, far], clients=8)
    assert "v7 made by 8 application servers" in sentence
    assert (
        "app-v7-random behaved like it up to 50 ms and stopped at 1 s (WAL per transaction 1.30\u00d7 ("
        in sentence
    )
    assert "key index 1.30\u00d7 at the end, one measurement" in sentence
    assert fleet.first_departure([close, far], "app-v7-random") is far
    assert "behaved like it at every skew measured, up to 50 ms" in fleet.answer([close])


@pytest.fixture(scope="module")
def cluster() -> Iterator[tuple[EmbeddedCluster, psycopg.Connection[Any]]]:
    server = EmbeddedCluster(find_server_bindir(None), find_pgbench(None), {"shared_buffers": "32MB"})
    with server, psycopg.connect(server.connection.conninfo(), autocommit=True) as admin:
        yield server, admin


def test_the_counter_runs_ahead_of_a_clock_that_stands_behind_its_last_key(
    cluster: tuple[EmbeddedCluster, psycopg.Connection[Any]],
) -> None:
    _, admin = cluster
    admin.execute("CREATE SCHEMA counter_only")
    admin.execute("SET search_path = counter_only")
    for statement in (app_keys.UUID_FROM_PARTS, app_keys.MS_OF_KEY, app_keys.COUNTER_OF_KEY):
        admin.execute(statement)
    admin.execute("RESET search_path")
    later = 10**13  # a last key far ahead of the clock: the next keeps its millisecond, the counter adds one
    value = app_keys.COUNTER_KEY.value
    for name, given in (
        ("app_counter_offset_us", 0),
        ("app_counter_seed", 5),
        ("app_counter_tail", 7),
        ("app_counter_last_ms", later),
        ("app_counter_last_counter", 2**35 + 41),
    ):
        value = value.replace(f":{name}", str(given))
    value = value.replace("pkbench_app_uuid_v7(", "counter_only.pkbench_app_uuid_v7(")
    row = admin.execute(
        "SELECT k, counter_only.pkbench_app_v7_ms(k), counter_only.pkbench_app_v7_counter(k)"
        f" FROM (SELECT {value} AS k) s"
    ).fetchone()
    assert row is not None
    key, ms, counter = row
    assert (ms, counter) == (later, 2**35 + 42)
    assert str(key)[14] == "7" and str(key)[19] in "89ab"


# The clients' offsets are multiples of 10 s; a row's key time and its created_at are read apart by however
# long the server took between them, which on a busy machine can cross any finer boundary.
OFFSET_UNIT_MS = 10_000


def _offset(schema: str) -> str:
    """A row's key time minus the server's clock when it went in, in units of OFFSET_UNIT_MS."""
    return (
        f"round(({schema}.pkbench_app_v7_ms(id) - extract(epoch FROM created_at) * 1000) / {OFFSET_UNIT_MS})"
    )


def _offsets_seen(admin: psycopg.Connection[Any], schema: str) -> list[float]:
    """The offsets of the rows of SCHEMA's table (ms, to the nearest OFFSET_UNIT_MS)."""
    offsets = f"SELECT DISTINCT {_offset(schema)} * {OFFSET_UNIT_MS} FROM {schema}.records"
    rows = admin.execute(offsets).fetchall()
    return sorted(float(r[0]) for r in rows)


def test_a_sweep_of_the_skew_applies_each_clients_offset_and_answers(
    cluster: tuple[EmbeddedCluster, psycopg.Connection[Any]], tmp_path: Path
) -> None:
    server, admin = cluster
    out = tmp_path / "sweep"
    result = run_cli(
        "run",
        "fleet",
        *short_run(strategies="uuid-v7,app-v7-random,app-v7-counter", rows=1000, clients=CLIENTS, out=out),
        "--set",
        f"skew_ms=0,{SKEW_MS}",
        "--set",
        "key_sample=100",
        "--dsn",
        server.connection.conninfo(),
        "--keep",
    )
    assert result.returncode == 0, result.stderr
    document = json.loads((out / "sweep.json").read_text())
    assert [p["value"] for p in document["points"]] == [0, SKEW_MS]
    text = (out / "sweep.md").read_text()
    assert "## Keys made by application servers, by skew_ms" in text
    assert "v7 made by 4 application servers whose clocks were set 0 ms and 60 s apart" in text
    assert f"| {SKEW_MS} | app-v7-counter |" in text
    point = json.loads((out / f"skew_ms-{SKEW_MS}" / "results.json").read_text())
    workload = next(s for s in point["strategies"] if s["name"] == "app-v7-random")["workloads"][0]
    assert workload["rounds"][0]["wal_distinct_blocks"]["records_pkey"] > 0

    schemas = {
        name: [
            s
            for (s,) in admin.execute(
                "SELECT n.nspname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace"
                f" WHERE c.relname = 'records' AND n.nspname LIKE '%\\_{name.replace('-', '_')}'"
            ).fetchall()
        ]
        for name in ("app-v7-random", "app-v7-counter")
    }
    for name, found in schemas.items():
        # One run per skew: clocks in step put every key at the server's time, the minute's skew at the four
        # clients' offsets, every one of them used, none beyond half the skew.
        seen = sorted((_offsets_seen(admin, schema) for schema in found), key=len)
        assert seen == [[0.0], OFFSETS_MS], (name, seen)

    clients_apart = 0
    for name, found in schemas.items():
        for schema in found:
            # The windows' rows (one transaction each; the prefill's batches hold many), per client by its
            # offset, in the order they went in: the counter's keys strictly increase, its 42-bit counter
            # seeded below 2^41 (its top bit, rand_a's, clear); random bits set it in about half the keys.
            rows = admin.execute(
                f"SELECT {_offset(schema)}, id, {schema}.pkbench_app_v7_counter(id) >> 30"
                f" FROM {schema}.records WHERE xmin::text IN (SELECT xmin::text FROM {schema}.records"
                " GROUP BY 1 HAVING count(*) = 1) ORDER BY created_at"
            ).fetchall()
            assert len(rows) > 20
            by_client: dict[float, list[str]] = {}
            for offset, key, _ in rows:
                by_client.setdefault(float(offset), []).append(str(key))
            high_bit = sum(rand_a >= 2048 for _, _, rand_a in rows)
            if name == "app-v7-counter":
                # Clients told apart by their offsets: at the minute's skew, not with clocks in step.
                if len(by_client) == CLIENTS:
                    clients_apart += 1
                    assert all(keys == sorted(set(keys)) for keys in by_client.values())
                assert high_bit == 0
            else:
                assert high_bit > len(rows) // 5
    assert clients_apart == 1
