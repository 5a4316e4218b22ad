"""--dsn against a server the test started: its own schema, nothing else touched, the password never shown."""

from __future__ import annotations

import json
import os
import shlex
import stat
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psycopg
import pytest
from conftest import HOLDING_RATE, PKBENCH, require_passwords, run_cli, short_run

from pkbench.run.paired import LOAD_PARTS
from pkbench.server.builds import find_pgbench, find_server_bindir
from pkbench.server.connection import ConnectionInfo, PrivateSecrets
from pkbench.server.embedded import EmbeddedCluster

PASSWORD = "s3cret-Pa55word-for-tests"


# Fifty transactions per client in each window rather than a second of them: these runs show what reaches
# the server and pgbench and what they leave behind, which a few transactions show as well as thousands.
FIXED_WORK = ("--transactions", "50")


def dsn_run(strategies: str, out: Path) -> tuple[str, ...]:
    """A run big enough to measure, small enough for a test: what the --dsn runs here share."""
    return (*short_run(strategies=strategies, rows=500, clients=2, out=out), *FIXED_WORK)


@pytest.fixture(scope="module")
def server() -> Iterator[tuple[EmbeddedCluster, psycopg.Connection[Any]]]:
    cluster = EmbeddedCluster(find_server_bindir(None), find_pgbench(None), {"shared_buffers": "32MB"})
    with cluster, psycopg.connect(cluster.connection.conninfo(), autocommit=True) as admin:
        assert cluster.directory is not None
        # TCP connections need a password: pgbench only gets in if the password reaches it (by environment).
        require_passwords(cluster, admin, "bench", PASSWORD)
        admin.execute("CREATE ROLE visitor LOGIN PASSWORD 'visitor'")
        admin.execute("CREATE SCHEMA not_ours")
        admin.execute("CREATE TABLE not_ours.keep_me (x int)")
        admin.execute("GRANT ALL ON SCHEMA not_ours TO bench")
        yield cluster, admin


def dsn(cluster: EmbeddedCluster, user: str = "bench", password: str = PASSWORD) -> str:
    return f"postgresql://{user}:{password}@127.0.0.1:{cluster.port}/postgres"


def schemas(admin: psycopg.Connection[Any]) -> set[str]:
    rows = admin.execute("SELECT nspname FROM pg_namespace WHERE nspname NOT LIKE 'pg\\_%'").fetchall()
    return {r[0] for r in rows}


def files_text(directory: Path) -> str:
    return "".join(
        p.read_text(errors="replace") for p in directory.rglob("*") if p.is_file() and p.suffix != ".gz"
    )


def test_runs_in_its_own_schema_without_superuser_and_hides_the_password(
    server: tuple[EmbeddedCluster, psycopg.Connection[Any]],
    tmp_path: Path,
) -> None:
    cluster, admin = server
    before = schemas(admin)
    out = tmp_path / "out"
    result = run_cli(
        "run",
        "--dsn",
        dsn(cluster),
        "--schema",
        "pkbench_dsn_test",
        "--keep",
        *dsn_run("bigint,uuid-v4", out),
        timeout=300,
    )
    assert result.returncode == 0, result.stderr
    # Paired rounds keep each strategy's tables in a schema of its own beside the run's.
    created = {"pkbench_dsn_test", "pkbench_dsn_test_bigint", "pkbench_dsn_test_uuid_v4"}
    assert schemas(admin) - before == created
    for schema in created:
        comment = admin.execute(
            "SELECT obj_description(%s::regnamespace, 'pg_namespace')", (schema,)
        ).fetchone()
        assert comment is not None and comment[0].startswith("created by pkbench")
    assert admin.execute("SELECT count(*) FROM not_ours.keep_me").fetchone() == (0,)
    data = json.loads((out / "results.json").read_text())
    assert data["server"]["superuser"] is False and data["server"]["embedded"] is False
    assert all(s["status"] == "ok" for s in data["strategies"]), data["strategies"]
    workload = data["strategies"][0]["workloads"][0]
    assert workload["transactions"] > 0
    assert any(u["metric"] == "buffercache" for u in workload["unavailable"])
    # The load's parts ran without the CHECKPOINT this role may not run, and say so.
    missing = {u["metric"] for u in data["strategies"][0]["unavailable"]}
    assert "checkpoint before each part of the load" in missing
    assert len(data["strategies"][0]["prefill"]["parts_s"]) == LOAD_PARTS
    # Both strategies' loads drew the same random values in the same order (ctid: the load's rows come
    # first in each heap), whatever their keys.
    loaded = [
        [row[0] for row in admin.execute(f"SELECT data FROM {schema}.records ORDER BY ctid LIMIT 500")]
        for schema in ("pkbench_dsn_test_bigint", "pkbench_dsn_test_uuid_v4")
    ]
    assert loaded[0] == loaded[1] and len(set(loaded[0])) > 250  # of 500 draws from 0-500
    # And sampled the same rows of them for the lookups by key.
    sampled = [
        admin.execute(
            f"SELECT array_agg(r.data ORDER BY k.n) FROM {schema}.key_sample k"
            f" JOIN {schema}.records r USING (id)"
        ).fetchone()
        for schema in ("pkbench_dsn_test_bigint", "pkbench_dsn_test_uuid_v4")
    ]
    assert sampled[0] == sampled[1] and sampled[0] is not None and sampled[0][0]
    assert PASSWORD not in result.stdout + result.stderr
    assert PASSWORD not in files_text(out)
    assert "<redacted>" in data["command"]


def test_refuses_a_schema_it_did_not_create(
    server: tuple[EmbeddedCluster, psycopg.Connection[Any]],
    tmp_path: Path,
) -> None:
    cluster, admin = server
    result = run_cli(
        "run",
        "--dsn",
        dsn(cluster),
        "--schema",
        "not_ours",
        "--rows",
        "10",
        "--duration",
        "1",
        "--out",
        str(tmp_path / "out"),
        timeout=120,
    )
    assert result.returncode != 0
    assert result.stderr.strip() == (
        "pkbench: error: schema 'not_ours' exists and was not created by pkbench; "
        "refusing to use it (pick another with --schema)"
    )
    assert admin.execute("SELECT count(*) FROM not_ours.keep_me").fetchone() == (0,)


def test_without_keep_its_schema_is_dropped(
    server: tuple[EmbeddedCluster, psycopg.Connection[Any]],
    tmp_path: Path,
) -> None:
    cluster, admin = server
    before = schemas(admin)
    result = run_cli(
        "run",
        "--dsn",
        dsn(cluster),
        *short_run(strategies="bigint", duration=1, out=tmp_path / "out"),
        *FIXED_WORK,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr
    assert schemas(admin) == before


def test_a_user_without_create_privilege_is_refused(
    server: tuple[EmbeddedCluster, psycopg.Connection[Any]],
    tmp_path: Path,
) -> None:
    cluster, _ = server
    result = run_cli(
        "run", "--dsn", dsn(cluster, "visitor", "visitor"), "--out", str(tmp_path / "out"), timeout=120
    )
    assert result.returncode != 0
    assert "may not create a schema" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def test_a_wrong_password_is_one_line(
    server: tuple[EmbeddedCluster, psycopg.Connection[Any]], tmp_path: Path
) -> None:
    cluster, _ = server
    result = run_cli(
        "run", "--dsn", dsn(cluster, "bench", "wrong-pw-xyz"), "--out", str(tmp_path / "out"), timeout=120
    )
    assert result.returncode != 0
    assert "password authentication failed" in result.stderr
    assert "wrong-pw-xyz" not in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def _short_run(*args: str, out: Path, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """A short run of bigint; `args` come last, so they win."""
    return run_cli("run", *short_run(strategies="bigint", out=out), *FIXED_WORK, *args, timeout=300, env=env)


def _assert_measured(result: subprocess.CompletedProcess[str], out: Path) -> None:
    assert result.returncode == 0, result.stderr
    data = json.loads((out / "results.json").read_text())
    strategy = data["strategies"][0]
    assert strategy["status"] == "ok", strategy
    assert strategy["workloads"][0]["transactions"] > 0
    assert PASSWORD not in result.stdout + result.stderr + files_text(out)


def _no_pg_environment() -> dict[str, str]:
    return {k: "" for k in os.environ if k.startswith("PG")}


def test_the_readme_dsn_example_runs_with_pgpassword(
    server: tuple[EmbeddedCluster, psycopg.Connection[Any]], tmp_path: Path
) -> None:
    cluster, _ = server
    readme = (Path(__file__).parent.parent / "README.md").read_text()
    line = next(line for line in readme.splitlines() if line.startswith("PGPASSWORD=... pkbench run --dsn"))
    words = shlex.split(line)
    assert words[:4] == ["PGPASSWORD=...", "pkbench", "run", "--dsn"]
    assert words[4] == "postgresql://bench@db.example:5432/bench"
    # The example as written, on this server; the smaller --rows given after it wins.
    args = [w.replace("db.example:5432/bench", f"127.0.0.1:{cluster.port}/postgres") for w in words[3:]]
    out = tmp_path / "out"
    env = {**_no_pg_environment(), "PGPASSWORD": PASSWORD}
    result = _short_run(*args, "--rows", "200", out=out, env=env)
    _assert_measured(result, out)


def test_a_password_from_a_passfile_reaches_pgbench(
    server: tuple[EmbeddedCluster, psycopg.Connection[Any]], tmp_path: Path
) -> None:
    cluster, _ = server
    passfile = tmp_path / "pgpass"
    passfile.write_text(f"127.0.0.1:{cluster.port}:*:bench:{PASSWORD}\n")
    passfile.chmod(0o600)
    out = tmp_path / "out"
    result = _short_run(
        "--dsn",
        f"postgresql://bench@127.0.0.1:{cluster.port}/postgres",
        out=out,
        env={**_no_pg_environment(), "PGPASSFILE": str(passfile)},
    )
    _assert_measured(result, out)


def test_a_service_file_with_the_password_reaches_pgbench(
    server: tuple[EmbeddedCluster, psycopg.Connection[Any]], tmp_path: Path
) -> None:
    cluster, _ = server
    service_file = tmp_path / "pg_service.conf"
    service_file.write_text(
        f"[bench]\nhost=127.0.0.1\nport={cluster.port}\nuser=bench\ndbname=postgres\npassword={PASSWORD}\n"
    )
    service_file.chmod(0o600)
    out = tmp_path / "out"
    result = _short_run(
        "--dsn", "service=bench", out=out, env={**_no_pg_environment(), "PGSERVICEFILE": str(service_file)}
    )
    _assert_measured(result, out)


def test_a_partial_dsn_from_pkbench_dsn_completed_by_the_libpq_environment(
    server: tuple[EmbeddedCluster, psycopg.Connection[Any]], tmp_path: Path
) -> None:
    """PGHOST and PGPORT complete the DSN for the probes and pgbench alike (pgbench gets them resolved)."""
    cluster, _ = server
    out = tmp_path / "out"
    result = _short_run(
        out=out,
        env={
            **_no_pg_environment(),
            "PKBENCH_DSN": "user=bench dbname=postgres",
            "PGHOST": "127.0.0.1",
            "PGPORT": str(cluster.port),
            "PGPASSWORD": PASSWORD,
        },
    )
    _assert_measured(result, out)
    data = json.loads((out / "results.json").read_text())
    assert data["target"]["connection"] == f"host=127.0.0.1 port={cluster.port} user=bench dbname=postgres"


def test_a_run_whose_pgbench_cannot_connect_fails_before_measuring(
    server: tuple[EmbeddedCluster, psycopg.Connection[Any]], tmp_path: Path
) -> None:
    """psycopg's libpq knows require_auth (libpq 16+); the installed pgbench's libpq 15 refuses it."""
    cluster, admin = server
    before = schemas(admin)
    out = tmp_path / "out"
    result = _short_run("--dsn", dsn(cluster) + "?require_auth=scram-sha-256", out=out)
    assert result.returncode != 0
    assert result.stderr.startswith("pkbench: error: pgbench cannot connect to host=127.0.0.1"), result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    assert PASSWORD not in result.stderr
    assert schemas(admin) == before


def test_secrets_reach_a_client_by_environment_and_a_private_file_only(tmp_path: Path) -> None:
    connection = ConnectionInfo({"host": "h", "user": "u"}, "pw-secret", "key-secret")
    with PrivateSecrets(connection) as ready:
        assert ready.service_file is not None
        service_file = ready.service_file
        assert "secret" not in ready.pgbench_database()
        assert stat.S_IMODE(service_file.stat().st_mode) == 0o600
        assert stat.S_IMODE(service_file.parent.stat().st_mode) == 0o700
        env = ready.environment("s")
        assert env["PGPASSWORD"] == "pw-secret"
        assert (
            env["PGSERVICEFILE"] == str(service_file) and "sslpassword=key-secret" in service_file.read_text()
        )
        assert env["PGOPTIONS"] == "-c search_path=s"
    assert not service_file.exists() and not service_file.parent.exists()


def test_a_strategy_expression_with_a_second_statement_is_refused_and_touches_nothing(
    server: tuple[EmbeddedCluster, psycopg.Connection[Any]], tmp_path: Path
) -> None:
    cluster, admin = server
    # bench's own table outside pkbench's schema: bench could drop it, pkbench must not.
    admin.execute("CREATE TABLE public.foo (x int)")
    admin.execute("ALTER TABLE public.foo OWNER TO bench")
    before = schemas(admin)
    result = _short_run(
        "--dsn",
        dsn(cluster),
        "--strategy-def",
        "evil=uuid:gen_random_uuid()); DROP TABLE public.foo; --",
        "--strategies",
        "evil",
        out=tmp_path / "out",
    )
    assert result.returncode != 0
    assert result.stderr.startswith("pkbench: error: strategy 'evil': default "), result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    assert admin.execute("SELECT to_regclass('public.foo') IS NOT NULL").fetchone() == (True,)
    assert schemas(admin) == before


def _run_in_background(cluster: EmbeddedCluster, out: Path, *args: str) -> subprocess.Popen[str]:
    """A run that overlaps with what the test does meanwhile: its window lasts the seconds ARGS give it, held
    to HOLDING_RATE, since what the test needs is a run in progress, not what its window measures."""
    return subprocess.Popen(
        [
            *PKBENCH,
            "run",
            *short_run(strategies="bigint", out=out, rate=HOLDING_RATE),
            "--dsn",
            dsn(cluster),
            *args,
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "NO_COLOR": "1"},
    )


def test_two_runs_started_at_once_get_their_own_schemas(
    server: tuple[EmbeddedCluster, psycopg.Connection[Any]], tmp_path: Path
) -> None:
    cluster, admin = server
    before = schemas(admin)
    runs = [_run_in_background(cluster, tmp_path / f"out{i}", "--duration", "3") for i in (1, 2)]
    outcomes = [run.communicate(timeout=300) for run in runs]
    for run, (_, stderr) in zip(runs, outcomes, strict=True):
        assert run.returncode == 0, stderr
    used = [json.loads((tmp_path / f"out{i}" / "results.json").read_text()) for i in (1, 2)]
    assert used[0]["target"]["schema"] != used[1]["target"]["schema"]
    for data in used:
        assert data["strategies"][0]["status"] == "ok", data["strategies"]
    assert schemas(admin) == before


def test_a_second_run_on_a_schema_in_use_is_refused_and_leaves_it_alone(
    server: tuple[EmbeddedCluster, psycopg.Connection[Any]], tmp_path: Path
) -> None:
    cluster, admin = server
    first = _run_in_background(cluster, tmp_path / "out1", "--schema", "pkbench_shared", "--duration", "6")
    deadline = time.monotonic() + 60
    while "pkbench_shared" not in schemas(admin):
        assert first.poll() is None and time.monotonic() < deadline, first.communicate()
        time.sleep(0.1)
    second = run_cli(
        "run",
        "--dsn",
        dsn(cluster),
        "--schema",
        "pkbench_shared",
        "--out",
        str(tmp_path / "out2"),
        timeout=300,
    )
    assert second.returncode != 0
    assert second.stderr.strip() == (
        "pkbench: error: schema 'pkbench_shared' is in use by another pkbench run; pick another with --schema"
    )
    _, stderr = first.communicate(timeout=300)
    assert first.returncode == 0, stderr
    data = json.loads((tmp_path / "out1" / "results.json").read_text())
    assert data["strategies"][0]["status"] == "ok", data["strategies"]


def test_pg_stat_statements_is_used_when_the_server_has_it_and_never_created(
    server: tuple[EmbeddedCluster, psycopg.Connection[Any]],
    tmp_path: Path,
) -> None:
    cluster, admin = server

    def insert_window(out: Path) -> dict[str, Any]:
        result = run_cli(
            "run",
            "--dsn",
            dsn(cluster),
            *dsn_run("bigint", out),
            timeout=300,
        )
        assert result.returncode == 0, result.stderr
        workload: dict[str, Any] = json.loads((out / "results.json").read_text())["strategies"][0][
            "workloads"
        ][0]
        return workload

    # The test's server preloads the library (as every embedded cluster does) but has no extension.
    assert admin.execute("SELECT 1 FROM pg_extension WHERE extname = 'pg_stat_statements'").fetchone() is None
    work = insert_window(tmp_path / "without")["work_per_transaction"]
    assert admin.execute("SELECT 1 FROM pg_extension WHERE extname = 'pg_stat_statements'").fetchone() is None
    reasons = {u["metric"]: u["reason"] for u in work["unavailable"]}
    assert work["shared_blocks_dirtied"] is None
    assert "pg_stat_statements extension is not created" in reasons["shared_blocks_dirtied"]
    assert (
        work["sources"]["shared_blocks_hit"].startswith("pg_stat_database") and work["shared_blocks_hit"] > 0
    )
    assert work["backend_cpu_ms"] is None and reasons["backend_cpu_ms"].startswith("the server is not local")

    admin.execute("CREATE EXTENSION pg_stat_statements")
    try:
        work = insert_window(tmp_path / "with")["work_per_transaction"]
    finally:
        admin.execute("DROP EXTENSION pg_stat_statements")
    assert work["sources"]["shared_blocks_dirtied"].startswith("pg_stat_statements")
    assert work["shared_blocks_dirtied"] is not None and work["wal_bytes"] > 0
