"""sequuid's PL/pgSQL port stands in for the extension under --dsn where CREATE EXTENSION sequuid cannot
work: a real server whose installation has no sequuid, a password-protected user without superuser."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psycopg
import pytest
from conftest import require_passwords, run_cli, short_run

from pkbench.server import sequuid_port as port
from pkbench.server.builds import find_pgbench, find_server_bindir
from pkbench.server.embedded import EmbeddedCluster

PASSWORD = "port-Pa55word"
PORT_SQL = Path(__file__).parents[2] / "sequuid" / "plpgsql" / "sequuid.sql"
SEQUUID_STRATEGIES = ("uuid-v7", "uuid-v7-text", "seq-time", "seq-seq-256", "ulid", "ulid-text", "uuid-v6")


def _installation_without_sequuid(root: Path) -> Path:
    """The installed server's binaries copied under `root` with a share directory that lacks sequuid.

    PostgreSQL finds its share and lib directories relative to where its binaries are, so copies of the
    binaries next to a share directory of links (every file but sequuid's) make a real server that has
    never heard of the extension.
    """
    bindir = find_server_bindir(None)
    share = Path(
        subprocess.run(
            [str(bindir / "pg_config") if (bindir / "pg_config").exists() else "pg_config", "--sharedir"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
    )
    relative_bin = bindir.relative_to("/")
    relative_share = share.relative_to("/")
    shutil.copytree(bindir, root / relative_bin, symlinks=False)
    (root / relative_bin.parent / "lib").symlink_to(bindir.parent / "lib")
    new_share = root / relative_share
    new_share.mkdir(parents=True)
    for entry in share.iterdir():
        if entry.name != "extension":
            (new_share / entry.name).symlink_to(entry)
    (new_share / "extension").mkdir()
    for entry in (share / "extension").iterdir():
        if not entry.name.startswith("sequuid"):
            (new_share / "extension" / entry.name).symlink_to(entry)
    for path in [root, *root.rglob("*")]:
        if path.is_dir() and not path.is_symlink():
            path.chmod(0o755)
    return root / relative_bin


@pytest.fixture(scope="module")
def server() -> Iterator[tuple[EmbeddedCluster, psycopg.Connection[Any]]]:
    root = Path(tempfile.mkdtemp(prefix="pkbench-nosequuid-"))
    try:
        bindir = _installation_without_sequuid(root)
        cluster = EmbeddedCluster(bindir, find_pgbench(None), {"shared_buffers": "32MB"})
        with cluster, psycopg.connect(cluster.connection.conninfo(), autocommit=True) as admin:
            require_passwords(cluster, admin, "bench", PASSWORD)
            yield cluster, admin
    finally:
        shutil.rmtree(root, ignore_errors=True)


def _objects(admin: psycopg.Connection[Any]) -> set[str]:
    rows = admin.execute(
        "SELECT 'schema ' || nspname FROM pg_namespace WHERE nspname NOT LIKE 'pg\\_%'"
        " UNION ALL SELECT 'function ' || p.oid::regprocedure FROM pg_proc p"
        " JOIN pg_namespace n ON n.oid = p.pronamespace WHERE n.nspname = 'public'"
    ).fetchall()
    return {r[0] for r in rows}


def test_every_sequuid_strategy_runs_on_the_port_where_the_extension_is_missing(
    server: tuple[EmbeddedCluster, psycopg.Connection[Any]], tmp_path: Path
) -> None:
    cluster, admin = server
    with pytest.raises(psycopg.errors.FeatureNotSupported, match="is not available"):
        admin.execute("CREATE EXTENSION sequuid")
    before = _objects(admin)
    out = tmp_path / "out"
    dsn = f"postgresql://bench:{PASSWORD}@127.0.0.1:{cluster.port}/postgres"
    strategies = ",".join(SEQUUID_STRATEGIES)
    # A fixed count of transactions per window rather than a second of them: each strategy's inserts go
    # through the port's generator all the same, in a fraction of the time.
    result = run_cli(
        "run", *short_run(strategies=strategies, out=out), "--transactions", "50", "--dsn", dsn, timeout=600
    )
    assert result.returncode == 0, result.stderr
    data = json.loads((out / "results.json").read_text())
    for strategy in data["strategies"]:
        assert strategy["status"] == "ok", strategy
        # seq-seq-256 also creates its sequence in the run's schema, which its source says after the port.
        assert strategy["generator_source"].startswith("sequuid PL/pgSQL port"), strategy["name"]
        assert strategy["workloads"][0]["transactions"] > 0
    assert [s["name"] for s in data["strategies"]] == list(SEQUUID_STRATEGIES)
    # The port lived in the run's schema and went with it: no schema sequuid, nothing in public.
    assert _objects(admin) == before


def test_the_port_installs_whole_as_a_user_without_superuser_and_says_what_it_left_out(
    server: tuple[EmbeddedCluster, psycopg.Connection[Any]],
) -> None:
    """Every statement of the file runs (none is skipped here); the operator class, which only a superuser may
    create, is left out by the port itself, whose NOTICE is what the install reports."""
    cluster, admin = server
    dsn = f"postgresql://bench:{PASSWORD}@127.0.0.1:{cluster.port}/postgres"
    with psycopg.connect(dsn, autocommit=True) as conn:
        conn.execute("CREATE SCHEMA port_whole")
        conn.execute("SET search_path = port_whole")
        try:
            installed = port.install(conn, "port_whole")
            assert len(installed.left_out) == 1 and "uuid_time_ops" in installed.left_out[0]
            missing = conn.execute(
                "SELECT f FROM port_whole.port_functions() f"
                " WHERE to_regprocedure('port_whole.' || f) IS NULL"
            ).fetchall()
            assert missing == []
            assert conn.execute("SELECT port_whole.port_version()").fetchone() == ("1.6",)
            operators = conn.execute(
                "SELECT count(*) FROM pg_operator WHERE oprnamespace = 'port_whole'::regnamespace"
            ).fetchone()
            assert operators == (4,)
        finally:
            conn.execute("DROP SCHEMA port_whole CASCADE")
    # Nothing outside the run's schema: no schema sequuid.
    assert admin.execute("SELECT to_regnamespace('sequuid')").fetchone() == (None,)


def test_split_statements_keeps_quoted_semicolons_inside_their_statement() -> None:
    text = (
        "-- a comment; with a semicolon\n"
        "CREATE FUNCTION f() RETURNS text LANGUAGE sql AS $$ SELECT 'a;b' $$;\n"
        "COMMENT ON FUNCTION f() IS 'it''s; fine';\n"
        "CREATE FUNCTION g() RETURNS int LANGUAGE plpgsql AS $body$\n"
        "BEGIN RETURN 1; END $body$;\n-- trailing comment\n"
    )
    statements = port.split_statements(text)
    assert len(statements) == 3
    assert statements[0].endswith("AS $$ SELECT 'a;b' $$;")
    assert statements[1] == "COMMENT ON FUNCTION f() IS 'it''s; fine';"
    assert statements[2].endswith("BEGIN RETURN 1; END $body$;")


def test_the_wheel_carries_the_port_file_byte_for_byte(tmp_path: Path) -> None:
    """As `pip install ./pkbench` builds it (build isolation, from a copy of the two directories involved,
    links kept as links, so the build leaves nothing in the checkout)."""
    repository = Path(__file__).parents[2]
    copy = tmp_path / "repository"
    shutil.copytree(
        repository / "pkbench",
        copy / "pkbench",
        symlinks=True,
        ignore=shutil.ignore_patterns("build", "*.egg-info"),
    )
    shutil.copytree(repository / "sequuid" / "plpgsql", copy / "sequuid" / "plpgsql")
    assert (copy / "pkbench" / "src" / "pkbench" / "server" / "sql" / "sequuid.sql").is_symlink()
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(tmp_path), str(copy / "pkbench")],
        check=True,
        capture_output=True,
        env={**os.environ, "PIP_NO_INPUT": "1"},
        timeout=600,
    )
    (wheel,) = tmp_path.glob("pkbench-*.whl")
    with zipfile.ZipFile(wheel) as archive:
        assert archive.read("pkbench/server/sql/sequuid.sql") == PORT_SQL.read_bytes()
    assert port.script() == PORT_SQL.read_text()
