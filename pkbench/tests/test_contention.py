"""The contention scenario's mechanics on a small machine (not its effect, which needs many cores): counts of
cores, the default sweep within max_connections, the wait shares, and both reliefs in one short sweep on a
shared cluster: the hash partitions made, the striped keys each in a stripe's range."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psycopg
import pytest
from conftest import run_cli, short_run

from pkbench.errors import PkbenchError
from pkbench.report.sweep_page import sweep_charts
from pkbench.run import sweep
from pkbench.run.options import Options
from pkbench.scenario import cores
from pkbench.scenario import file as scenario_file
from pkbench.scenario.file import PgbenchStep
from pkbench.server.builds import find_pgbench, find_server_bindir
from pkbench.server.embedded import EmbeddedCluster
from pkbench.summary import contention
from pkbench.summary.sweep import Row as SweepRow


def test_a_count_of_cores_is_read_and_anything_else_kept() -> None:
    assert cores.in_cores("cores", 16) == 16
    assert cores.in_cores("8*cores", 16) == 128
    assert cores.in_cores(" 4 * cores ", 3) == 12
    assert cores.in_cores("128MB", 16) == "128MB"
    assert cores.in_cores(7, 16) == 7
    assert cores.default_sweep("here", {"clients": [1, "cores", "4*cores"]}, {"clients": 1}) is not None
    with pytest.raises(PkbenchError, match="sweep: rows must be a parameter"):
        cores.default_sweep("here", {"rows": [1, 2]}, {"clients": 1})
    with pytest.raises(PkbenchError, match="one parameter at a time"):
        cores.default_sweep("here", {"clients": [1], "jobs": [1]}, {"clients": 1, "jobs": 1})


def test_contention_sweeps_its_clients_in_cores_within_max_connections(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr("pkbench.probes.machine.cores", lambda: 16)
    found = sweep.scenario_default(Options(scenario="contention"))
    assert found is not None and (found.parameter, found.values) == ("clients", (1, 16, 64, 128))
    # 100 connections, 3 reserved, 3 of pkbench's own: at most 94 clients, and 128 becomes 94.
    capped = sweep.scenario_default(
        Options(scenario="contention", overrides=["settings.max_connections=100"])
    )
    assert capped is not None and capped.values == (1, 16, 64, 94)
    # A client count given, or a scenario without a sweep: no default sweep.
    assert sweep.scenario_default(Options(scenario="contention", overrides=["clients=4"])) is None
    assert sweep.scenario_default(Options(scenario="war")) is None


def test_each_client_count_measures_both_commit_modes_or_the_one_its_scale_names() -> None:
    loaded = scenario_file.load("contention")
    modes = {step.name: step.synchronous_commit for step in loaded.steps if isinstance(step, PgbenchStep)}
    assert modes == {
        "insert-async": "off",
        "insert-lookup-async": "off",
        "insert-sync": "on",
        "insert-lookup-sync": "on",
    }
    for scale, mode in (("async", "off"), ("sync", "on")):
        windows = [s for s in loaded.at_scale(scale).steps if isinstance(s, PgbenchStep)]
        assert len(windows) == 2 and {w.synchronous_commit for w in windows} == {mode}


def test_wait_shares_split_page_lock_wal_and_the_rest() -> None:
    events = {
        "LWLock:BufferContent": 6,
        "LWLock:WALWrite": 2,
        "LWLock:WALInsert": 1,
        "IO:WALSync": 1,
        "LWLock:LockManager": 1,
        "Client:ClientRead": 1,
        "CPU": 4,
    }
    shares = contention.shares(events)
    assert shares is not None
    assert (shares.buffer_content, shares.wal, shares.sampled) == (6 / 16, 4 / 16, 16)
    assert shares.rest == pytest.approx(6 / 16)
    assert contention.shares({}) is None
    # A wait whose name starts with WAL but is no LWLock or I/O (an activity) is not WAL's.
    assert not contention.is_wal("Activity:WalWriterMain")
    assert contention.is_wal("IO:WALWrite")


def test_tps_intervals_and_costs_per_thousand_rows() -> None:
    assert contention.tps_interval([100.0]) == (None, None)
    # Below five rounds, the range of the rounds.
    assert contention.tps_interval([90.0, 110.0, None, 100.0]) == (90.0, 110.0)
    assert contention.per_thousand({"rows": 500, "shared_blocks": 20}, "shared_blocks") == 40
    assert contention.per_thousand({"skipped": "only_if is not true"}, "shared_blocks") is None


@pytest.fixture(scope="module")
def cluster() -> Iterator[tuple[EmbeddedCluster, psycopg.Connection[Any]]]:
    server = EmbeddedCluster(find_server_bindir(None), find_pgbench(None), {"shared_buffers": "32MB"})
    with server, psycopg.connect(server.connection.conninfo(), autocommit=True) as admin:
        # In public, where the test's own queries find uuid_striped_ranges; the runs use it there too.
        admin.execute("CREATE EXTENSION sequuid")
        yield server, admin


def test_a_sweep_of_both_reliefs_makes_their_partitions_and_stripes(
    cluster: tuple[EmbeddedCluster, psycopg.Connection[Any]], tmp_path: Path
) -> None:
    server, admin = cluster
    out = tmp_path / "sweep"
    result = run_cli(
        "run",
        "contention",
        *short_run(strategies="uuid-v7-hash,uuid-striped", rows=1000, clients=None, out=out),
        "--clients",
        "1,2",
        "--scale",
        "async",
        "--set",
        "key_sample=100",
        "--set",
        "partitions=3",
        "--set",
        "stripes=4",
        # one filler in ten batches: the middle tenth's time range is read from the batches' spans, which
        # two fillers' overlapping batches blur
        "--set",
        "fill_workers=1",
        "--set",
        "batch_rows=100",
        "--dsn",
        server.connection.conninfo(),
        "--keep",
    )
    assert result.returncode == 0, result.stderr
    document = json.loads((out / "sweep.json").read_text())
    assert [p["value"] for p in document["points"]] == [1, 2]
    # Each window sampled its backends every tenth of a second: the table has their shares.
    text = (out / "sweep.md").read_text()
    assert "## TPS and waits by clients" in text and "| 2 | uuid-striped |" in text
    point = json.loads((out / "clients-1" / "results.json").read_text())
    by_name = {s["name"]: s for s in point["strategies"]}
    assert by_name["uuid-striped"]["default_expression"] == "uuid_generate_striped(4)"
    costs = by_name["uuid-striped"]["queries"]["order-costs"]
    assert costs["ranges"]["index_ranges"] == 4 and costs["time-range"]["rows"] > 0
    hashed = by_name["uuid-v7-hash"]["queries"]["order-costs"]["time-range"]
    assert hashed["nodes"].count("Index Only Scan") == 3
    # The kept schemas: three hash partitions per run of uuid-v7-hash, and every striped key in the range
    # of its own stripe (its leading bits), of at most as many stripes as backends inserted.
    partitions = admin.execute(
        "SELECT count(*) FROM pg_inherits i JOIN pg_class p ON p.oid = i.inhparent"
        " WHERE p.relname = 'records' AND p.relkind = 'p' GROUP BY i.inhparent"
    ).fetchall()
    assert partitions and all(n == 3 for (n,) in partitions)
    schemas = [
        s
        for (s,) in admin.execute(
            "SELECT n.nspname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace"
            " WHERE c.relname = 'records' AND c.relkind = 'r' AND n.nspname LIKE '%\\_uuid\\_striped'"
        ).fetchall()
    ]
    assert schemas
    for schema in schemas:
        placed = admin.execute(
            f"SELECT count(*), count(DISTINCT r.stripe), count(*) FILTER (WHERE r.stripe IS NULL)"
            f" FROM {schema}.records t LEFT JOIN uuid_striped_ranges(4, now() - interval '1 hour',"
            " now() + interval '1 hour') r ON t.id >= r.lower AND t.id < r.upper"
        ).fetchone()
        assert placed is not None
        rows, stripes, unplaced = placed
        assert rows > 1000 and unplaced == 0 and 1 <= stripes <= 4


def test_the_sweep_page_draws_each_tps_interval_as_an_error_bar() -> None:
    rows = [
        SweepRow(1, "uuid-v7", "insert-async", {"tps": 100.0, "p99": 1.0}),
        SweepRow(16, "uuid-v7", "insert-async", {"tps": 400.0, "p99": 2.0}),
    ]
    intervals = {(1, "uuid-v7", "insert-async"): (90.0, 120.0), (16, "uuid-v7", "insert-async"): (None, None)}
    charts = {c.div_id: c for c in sweep_charts("clients", rows, intervals)}
    tps = charts["sweep-insert-async-tps"].figure
    assert tps is not None
    bars = tps.data[0].error_y
    assert (list(bars.array), list(bars.arrayminus)) == ([20.0, 0], [10.0, 0])
    assert charts["sweep-insert-async-p99"].figure.data[0].error_y.array is None
