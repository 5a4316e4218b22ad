"""Work per transaction and the machine window, wired into a real `pkbench run` (small sizes).

The scenario inserts into a table whose only index is the key, right after a CHECKPOINT: a random key (uuid
v4) dirties a leaf of the key's index per insert and writes it whole to the WAL the first time, where a
sequential key (bigint) dirties the rightmost leaf once for hundreds of inserts.
"""

from __future__ import annotations

import csv
import json
import tempfile
from pathlib import Path
from typing import Any

import pytest
from conftest import run_cli

from pkbench import results
from pkbench.server.builds import find_server_bindir
from pkbench.server.embedded import with_statement_statistics

ROWS = 50_000
SCENARIO = f"""
name = "work-wired"
description = "inserts and lookups by key after a checkpoint"
table = "records"
strategies = ["bigint", "uuid-v4"]

[parameters]
rows = {ROWS}
clients = 2
jobs = 1
duration_s = 2
# Fixed work: each window's figures per transaction are what is read, and 300 inserts a client after the
# checkpoint reach far more of a random key's leaves than a sequential key's
transactions = 300
batch_rows = 25000
progress_interval_s = 1
sampling_interval_s = 1

[settings]
shared_buffers = "128MB"
autovacuum = "off"

[[steps]]
kind = "sql"
name = "schema"
statements = ["CREATE TABLE records (id {{key_type}} PRIMARY KEY {{key_default}}, data bigint)"]

[[steps]]
kind = "fill"
name = "prefill"
rows = "rows"
batch_rows = "batch_rows"
statement = "INSERT INTO records (data) SELECT g FROM generate_series(1, {{batch}}) g"

[[steps]]
kind = "sql"
name = "maintenance"
statements = ["VACUUM ANALYZE records", "CHECKPOINT"]

[[steps]]
kind = "pgbench"
name = "insert"
scripts = [{{ name = "insert", sql = "INSERT INTO records (data) VALUES (1);" }}]

[[steps]]
kind = "pgbench"
name = "count"
scripts = [{{ name = "count", sql = "SELECT count(*) FROM records WHERE data = 1;" }}]
"""


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    base = tmp_path_factory.mktemp("work-wired")
    (base / "work.toml").write_text(SCENARIO)
    server_tmp = Path(tempfile.mkdtemp(prefix="pkbench-test-"))
    server_tmp.chmod(0o755)
    result = run_cli(
        "run",
        "--no-report",
        str(base / "work.toml"),
        "--out",
        str(base / "results"),
        tmpdir=server_tmp,
        timeout=600,
    )
    server_tmp.rmdir()
    assert result.returncode == 0, result.stderr
    return {"out": base / "results", "stdout": result.stdout + result.stderr}


def workload(run: dict[str, Any], strategy: str, name: str) -> results.WorkloadResult:
    loaded = results.load(run["out"])
    found = next(s for s in loaded.strategies if isinstance(s, results.StrategyResult) and s.name == strategy)
    return next(w for w in found.workloads if w.name == name)


def work(run: dict[str, Any], strategy: str, name: str) -> results.WorkPerTransaction:
    found = workload(run, strategy, name).work_per_transaction
    assert isinstance(found, results.WorkPerTransaction), (strategy, name)
    return found


@pytest.mark.parametrize("strategy", ["bigint", "uuid-v4"])
def test_an_insert_window_writes_wal_hits_buffers_and_costs_backend_cpu(
    run: dict[str, Any], strategy: str
) -> None:
    figures = work(run, strategy, "insert")
    assert figures.transactions == workload(run, strategy, "insert").transactions > 0
    assert figures.wal_bytes is not None and figures.wal_bytes > 0
    assert figures.shared_blocks_hit is not None and figures.shared_blocks_hit > 0
    assert figures.shared_blocks_dirtied is not None and figures.shared_blocks_dirtied > 0
    assert figures.shared_blocks_written is not None and figures.shared_blocks_written >= 0
    # The embedded cluster's /proc is readable (it runs on this machine).
    assert figures.backend_cpu_ms is not None and figures.backend_cpu_ms > 0
    assert figures.os_read_bytes is not None and figures.os_read_bytes >= 0
    # The embedded cluster preloads pg_stat_statements: every buffer figure comes from it.
    for name in ("shared_blocks_hit", "shared_blocks_dirtied", "wal_bytes"):
        assert figures.sources[name].startswith("pg_stat_statements"), name
    assert figures.unavailable == []


def test_a_read_only_window_writes_no_wal_from_its_statements(run: dict[str, Any]) -> None:
    for strategy in ("bigint", "uuid-v4"):
        figures = work(run, strategy, "count")
        assert figures.wal_bytes is not None and figures.wal_bytes < 1
        # A sequential count of every row: hundreds of heap pages per transaction.
        assert figures.shared_blocks_hit is not None and figures.shared_blocks_hit > 100


def test_a_random_key_dirties_more_pages_and_writes_more_wal_per_insert_than_a_sequential_one(
    run: dict[str, Any],
) -> None:
    bigint, uuid = work(run, "bigint", "insert"), work(run, "uuid-v4", "insert")
    assert bigint.shared_blocks_dirtied is not None and uuid.shared_blocks_dirtied is not None
    assert uuid.shared_blocks_dirtied > bigint.shared_blocks_dirtied
    assert bigint.wal_bytes is not None and uuid.wal_bytes is not None
    assert uuid.wal_bytes > bigint.wal_bytes
    assert bigint.wal_fpi is not None and uuid.wal_fpi is not None and uuid.wal_fpi > bigint.wal_fpi


def test_the_machine_window_is_recorded_as_shares(run: dict[str, Any]) -> None:
    window = workload(run, "bigint", "insert").machine_window
    assert isinstance(window, results.MachineWindow)
    assert window.duration_s > 0
    for share in (window.busy_fraction, window.own_fraction, window.other_fraction, window.steal_fraction):
        assert 0 <= share <= 1
    # pgbench and the server were busy during the window.
    assert window.own_fraction > 0


def test_the_fields_round_trip_through_results_load(run: dict[str, Any]) -> None:
    written = json.loads((run["out"] / "results.json").read_text())
    assert written["strategies"] == results.load(run["out"]).to_json()["strategies"]
    insert = written["strategies"][0]["workloads"][0]
    assert set(insert["work_per_transaction"]) >= {"shared_blocks_dirtied", "backend_cpu_ms", "sources"}


def test_the_work_figures_reach_summary_csv_and_summary_md(run: dict[str, Any]) -> None:
    with (run["out"] / "summary.csv").open() as f:
        found = {(r["strategy"], r["workload"], r["figure"]): r for r in csv.DictReader(f)}
    for key in ("buffers-hit", "buffers-dirtied", "backend-cpu", "os-read"):
        row = found[("uuid-v4", "insert", key)]
        assert row["value"] != "" and float(row["value"]) >= 0, key
        assert row["higher_is_better"] == "False"
    summary = (run["out"] / "summary.md").read_text()
    assert "shared buffers dirtied per transaction (blocks)" in summary
    assert "backend CPU per transaction (ms)" in summary


def test_the_embedded_cluster_preloads_pg_stat_statements_unless_told_otherwise(tmp_path: Path) -> None:
    bindir = find_server_bindir(None)
    assert with_statement_statistics(bindir, {"work_mem": "4MB"}) == {
        "work_mem": "4MB",
        "shared_preload_libraries": "pg_stat_statements",
    }
    assert with_statement_statistics(bindir, {"shared_preload_libraries": ""}) == {
        "shared_preload_libraries": ""
    }
    # A build without the module would not start with it preloaded.
    (tmp_path / "bin").mkdir()
    assert with_statement_statistics(tmp_path / "bin", {}) == {}
