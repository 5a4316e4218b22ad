"""The sharded steps against existing servers: --dsn names the coordinator, --shard-dsn each shard.
Embedded clusters the test starts stand in for them; the run owns only what it names, and leaves nothing
else changed."""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from unittest import mock

import psycopg
import pytest
from conftest import (
    HOLDING_RATE,
    cli_in_process,
    interrupted,
    require_passwords,
    run_cli,
    run_until_window,
    short_run,
)

from pkbench.cli import arguments
from pkbench.results.files import load
from pkbench.server.builds import find_pgbench, find_server_bindir
from pkbench.server.embedded import EmbeddedCluster
from pkbench.server.shard_dsn import foreign_server_name
from pkbench.server.topology import shard_count
from pkbench.summary import sharded

PASSWORD = "shard-Pa55word-for-tests"
SHARDS = 2


class Servers:
    """The coordinator and its shards, each reached by TCP as `bench`, a user with a password and CREATE on
    database postgres and nothing else: the way a DBA lends servers to a benchmark. The coordinator has
    postgres_fdw, which `bench` may use; its database `nofdw` has not."""

    def __init__(self, coordinator: EmbeddedCluster, shards: list[EmbeddedCluster]) -> None:
        self.coordinator = coordinator
        self.shards = shards

    def dsn(self, database: str = "postgres") -> str:
        return f"postgresql://bench:{PASSWORD}@127.0.0.1:{self.coordinator.port}/{database}"

    def shard_dsn(self, number: int) -> str:
        return f"postgresql://bench:{PASSWORD}@127.0.0.1:{self.shards[number - 1].port}/postgres"

    def shard_options(self) -> list[str]:
        return [word for n in range(1, SHARDS + 1) for word in ("--shard-dsn", self.shard_dsn(n))]

    def state(self) -> list[dict[str, list[str]]]:
        """What a run could leave behind, on each server: schemas, extensions, foreign servers, mappings."""
        queries = {
            "schemas": "SELECT nspname FROM pg_namespace WHERE nspname NOT LIKE 'pg\\_%'",
            "extensions": "SELECT extname FROM pg_extension",
            "servers": "SELECT srvname FROM pg_foreign_server",
            "mappings": "SELECT srvname FROM pg_user_mappings",
        }
        found = []
        for cluster in (self.coordinator, *self.shards):
            with psycopg.connect(cluster.connection.conninfo(), autocommit=True) as conn:
                found.append(
                    {k: sorted(str(r[0]) for r in conn.execute(q).fetchall()) for k, q in queries.items()}
                )
        return found


@pytest.fixture(scope="module")
def servers() -> Iterator[Servers]:
    bindir, pgbench = find_server_bindir(None), find_pgbench(None)
    settings = {"shared_buffers": "32MB", "listen_addresses": "127.0.0.1"}
    clusters = [EmbeddedCluster(bindir, pgbench, settings) for _ in range(SHARDS + 1)]
    with clusters[0], clusters[1], clusters[2]:
        for cluster in clusters:
            with psycopg.connect(cluster.connection.conninfo(), autocommit=True) as admin:
                require_passwords(cluster, admin, "bench", PASSWORD)
                if cluster is clusters[0]:
                    admin.execute("CREATE EXTENSION postgres_fdw")
                    admin.execute("GRANT USAGE ON FOREIGN DATA WRAPPER postgres_fdw TO bench")
                    admin.execute("CREATE DATABASE nofdw")
                    admin.execute("GRANT CREATE ON DATABASE nofdw TO bench")
                else:
                    admin.execute("CREATE SCHEMA not_ours")
                    admin.execute("CREATE TABLE not_ours.keep_me (x int)")
                    admin.execute("INSERT INTO not_ours.keep_me VALUES (1), (2)")
        yield Servers(clusters[0], clusters[1:])


def _kept_rows(servers: Servers) -> list[Any]:
    found = []
    for shard in servers.shards:
        with psycopg.connect(shard.connection.conninfo(), autocommit=True) as conn:
            found.append(conn.execute("SELECT array_agg(x ORDER BY x) FROM not_ours.keep_me").fetchone())
    return found


def test_range_routing_on_existing_shards_and_nothing_of_the_run_left(
    servers: Servers, tmp_path: Path
) -> None:
    before = servers.state()
    out = tmp_path / "out"
    result = run_cli(
        "run",
        "--no-report",
        "sharded",
        "--dsn",
        servers.dsn(),
        *servers.shard_options(),
        *short_run(strategies="uuid-v4,uuid-v7", rows=400, duration=2, clients=2, out=out),
        "--set",
        "key_sample=50",
        timeout=300,
    )
    assert result.returncode == 0, result.stderr
    found = {(s.strategy, s.table): s for s in sharded.splits(load(out))}
    assert set(found) == {(k, t) for k in ("uuid-v4", "uuid-v7") for t in ("records_hash", "records_range")}
    newest = found["uuid-v7", "records_range"]
    assert len(newest.inserted) == SHARDS and newest.total > 50, newest
    assert newest.hottest == SHARDS and newest.shares[-1] >= 0.9, newest
    # A random key spreads over both ranges: the same counters can say something else.
    assert 0.2 < found["uuid-v4", "records_range"].shares[0] < 0.8, found["uuid-v4", "records_range"]
    assert servers.state() == before
    assert _kept_rows(servers) == [([1, 2],), ([1, 2],)]
    data = json.loads((out / "results.json").read_text())
    assert data["target"]["topology"]["shard_servers"] == "--shard-dsn", data["target"]["topology"]
    assert data["target"]["shards"] == [
        f"host=127.0.0.1 port={shard.port} user=bench dbname=postgres" for shard in servers.shards
    ]
    assert " ".join(data["command"]).count("--shard-dsn <redacted>") == SHARDS
    written = "".join(
        p.read_text(errors="replace") for p in out.rglob("*") if p.is_file() and p.suffix != ".gz"
    )
    assert PASSWORD not in written and PASSWORD not in result.stdout + result.stderr


def test_ctrl_c_mid_window_leaves_nothing_of_the_run(
    servers: Servers, server_tmpdir: Path, tmp_path: Path
) -> None:
    before = servers.state()
    out = tmp_path / "out"
    arguments = [
        "sharded",
        "--dsn",
        servers.dsn(),
        *servers.shard_options(),
        *short_run(strategies="uuid-v7", rows=200, duration=60, clients=2, out=out, rate=HOLDING_RATE),
        "--set",
        "key_sample=50",
    ]
    with run_until_window(server_tmpdir, arguments, out / "pgbench" / "uuid-v7" / "insert-hash") as process:
        time.sleep(1)
        interrupted(process)
    assert servers.state() == before
    assert _kept_rows(servers) == [([1, 2],), ([1, 2],)]


def test_a_step_that_fails_after_the_shards_got_their_tables_leaves_nothing(
    servers: Servers, tmp_path: Path
) -> None:
    """One prefilled row cannot be split into two key ranges: the range step fails after the hash step has
    created the foreign servers and the shards' schemas and tables."""
    before = servers.state()
    out = tmp_path / "out"
    result = run_cli(
        "run",
        "--no-report",
        "sharded",
        "--dsn",
        servers.dsn(),
        *servers.shard_options(),
        *short_run(strategies="uuid-v7", rows=1, out=out),
        "--set",
        "key_sample=1",
        timeout=120,
    )
    assert result.returncode != 0
    assert "has fewer rows than there are shards" in result.stderr, result.stderr
    assert servers.state() == before
    assert _kept_rows(servers) == [([1, 2],), ([1, 2],)]


def test_a_coordinator_without_postgres_fdw_is_refused_in_one_line(servers: Servers, tmp_path: Path) -> None:
    before = servers.state()
    result = cli_in_process(
        "run", "sharded", "--dsn", servers.dsn("nofdw"), *servers.shard_options(), *short_run(rows=10)
    )
    _refused(result, "the coordinator needs postgres_fdw")
    assert servers.state() == before
    with psycopg.connect(servers.coordinator.connection.conninfo(dbname="nofdw"), autocommit=True) as conn:
        assert conn.execute("SELECT count(*) FROM pg_namespace WHERE nspname LIKE 'pkbench%'").fetchone() == (
            0,
        )


def _refused(result: Any, message: str) -> None:
    assert result.returncode != 0
    assert message in result.stderr and len(result.stderr.strip().splitlines()) == 1, result.stderr
    assert "Traceback" not in result.stderr and PASSWORD not in result.stderr


def test_a_schema_that_exists_on_a_shard_is_refused_and_left_alone(servers: Servers, tmp_path: Path) -> None:
    before = servers.state()
    result = cli_in_process(
        "run",
        "sharded",
        "--dsn",
        servers.dsn(),
        *servers.shard_options(),
        "--schema",
        "not_ours",
        *short_run(rows=10, out=tmp_path / "out"),
    )
    _refused(result, "schema 'not_ours' exists on that shard")
    assert servers.state() == before
    assert _kept_rows(servers) == [([1, 2],), ([1, 2],)]


@pytest.mark.parametrize(
    ("shards", "message"),
    [
        (("coordinator", 1), "--shard-dsn number 1 (host=/"),
        ((1, 1), "the same server and database as shard 1"),
    ],
)
def test_a_shard_that_is_the_coordinator_or_named_twice_is_refused(
    servers: Servers, tmp_path: Path, shards: tuple[Any, ...], message: str
) -> None:
    before = servers.state()
    # The coordinator spelled another way: by its socket, as the superuser.
    coordinator = servers.coordinator.connection.conninfo()
    given = [coordinator if s == "coordinator" else servers.shard_dsn(s) for s in shards]
    result = cli_in_process(
        "run",
        "sharded",
        "--dsn",
        servers.dsn(),
        *(word for dsn in given for word in ("--shard-dsn", dsn)),
        *short_run(rows=10, out=tmp_path / "out"),
    )
    _refused(result, message)
    if shards[0] == "coordinator":
        assert "that is the --dsn server itself" in result.stderr
    assert servers.state() == before


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (("--shard-dsn", "host=/nonexistent"), "--shard-dsn names a shard of the --dsn coordinator"),
        (("--dsn", "host=/nonexistent"), "the scenario asks for 3 shards: with --dsn name existing ones"),
        (("--dsn", "host=/x", "--shard-dsn", "host=/y", "--shards", "2"), "with --shard-dsn the shards are"),
        (("--dsn", "host=/x", "--shard-dsn", "no=such=thing"), "--shard-dsn number 1 is not a valid"),
    ],
)
def test_shard_dsns_that_cannot_be_are_refused_before_connecting(
    arguments: tuple[str, ...], message: str
) -> None:
    _refused(cli_in_process("run", "sharded", *arguments), message)


def test_every_spelling_of_a_shard_dsn_is_redacted_from_the_recorded_command() -> None:
    argv = ["pkbench", "run", "--shard-dsn", f"password={PASSWORD}", f"--shard-dsn=password={PASSWORD}"]
    with mock.patch.object(sys, "argv", argv):
        assert arguments.redacted_argv() == [
            "pkbench",
            "run",
            "--shard-dsn",
            "<redacted>",
            "--shard-dsn=<redacted>",
        ]


def test_a_foreign_server_name_keeps_its_shard_number_within_postgres_identifier_length() -> None:
    assert (
        foreign_server_name("pkbench_20261125_103000_ab12cd34", 3)
        == "pkbench_20261125_103000_ab12cd34_shard_3"
    )
    long = foreign_server_name("s" * 63, 16)
    assert len(long) == 63 and long.endswith("_shard_16")


def test_the_shard_dsns_replace_the_scenarios_embedded_shards() -> None:
    assert shard_count(None, ("host=a", "host=b"), 3, "host=c") == 2
    assert shard_count(None, (), 3, None) == 3
    assert shard_count(4, (), 3, None) == 4
