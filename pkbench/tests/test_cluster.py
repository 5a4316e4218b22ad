"""The embedded cluster: started as an unprivileged user, always torn down, death and bad ports noticed."""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import psycopg
import pytest
from conftest import PKBENCH, processes_mentioning, run_cli, short_run

import pkbench
from pkbench.errors import PkbenchError, ServerDied
from pkbench.server.builds import find_pgbench, find_server_bindir
from pkbench.server.embedded import EmbeddedCluster, check_port_free
from pkbench.server.initdb_template import TEMPLATES_VARIABLE
from pkbench.server.ownership import remove_orphaned_clusters


def new_cluster(**kwargs: object) -> EmbeddedCluster:
    return EmbeddedCluster(find_server_bindir(None), find_pgbench(None), {"shared_buffers": "16MB"}, **kwargs)  # type: ignore[arg-type]


def uid_of(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("Uid:"):
            return int(line.split()[1])
    raise AssertionError("no Uid line")


def test_starts_serves_and_removes_everything() -> None:
    cluster = new_cluster()
    with cluster:
        directory = cluster.directory
        assert directory is not None and (directory / "data" / "PG_VERSION").is_file()
        assert cluster.server.version_num >= 150000
        assert cluster.server.settings["shared_buffers"] == "16MB"
        with psycopg.connect(cluster.connection.conninfo()) as conn:
            assert conn.execute("SELECT 1").fetchone() == (1,)
        assert cluster._process is not None
        pid = cluster._process.pid
        if os.geteuid() == 0:
            assert uid_of(pid) != 0, "PostgreSQL must not run as root"
    assert not directory.exists()
    assert not Path(f"/proc/{pid}").exists()


def test_keep_leaves_the_directory(tmp_path: Path) -> None:
    with new_cluster(keep=True) as cluster:
        directory = cluster.directory
    assert directory is not None and (directory / "data").is_dir()
    subprocess.run(["rm", "-rf", str(directory)], check=True)


def test_server_death_is_noticed() -> None:
    with new_cluster() as cluster:
        assert cluster._process is not None
        os.kill(cluster._process.pid, signal.SIGKILL)
        cluster._process.wait(timeout=10)
        with pytest.raises(ServerDied, match="the PostgreSQL server died"):
            cluster.check_alive()


def test_a_port_in_use_is_refused() -> None:
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        with pytest.raises(PkbenchError, match=f"port {port} is in use"):
            check_port_free(port)
        cluster = new_cluster(port=port)
        with pytest.raises(PkbenchError, match="is in use"), cluster:
            pass
        assert cluster.directory is None, "the temporary directory is removed after a failed start"


def test_start_wrapper_runs_in_front_of_postgres(tmp_path: Path) -> None:
    # The hook a memory cap uses: a command that prepares something, then execs the server.
    marker = Path("/tmp") / f"pkbench-wrapper-{os.getpid()}"
    wrapper = ["sh", "-c", f'touch {marker} && exec "$@"', "sh"]
    try:
        with new_cluster(start_wrapper=wrapper) as cluster:
            assert marker.exists()
            cluster.check_alive()
    finally:
        marker.unlink(missing_ok=True)


@pytest.mark.skipif(os.geteuid() != 0, reason="needs root to switch to an unprivileged user")
def test_works_as_a_normal_user() -> None:
    script = (
        "from pkbench.server.embedded import *\n"
        "from pkbench.server.builds import *\n"
        "c = EmbeddedCluster(find_server_bindir(None), find_pgbench(None), {'shared_buffers': '16MB'})\n"
        "with c:\n    d = c.directory\n    print(c.server.version, c.server.superuser)\n"
        "print(d.exists())\n"
    )
    # The unprivileged user may not be able to enter the checkout or this interpreter's directory (under
    # /root, or a private temporary directory), so run a system python of the same version on copies of this
    # package and its installed dependencies in a directory everyone can read.
    python = shutil.which(f"python{sys.version_info.major}.{sys.version_info.minor}", path="/usr/bin")
    if python is None:
        pytest.skip("no system python of this version for the unprivileged user")
    readable = Path(tempfile.mkdtemp(prefix="pkbench-nobody-", dir="/tmp"))
    try:
        readable.chmod(0o755)
        site_packages = Path(psycopg.__file__).parent.parent
        for package in [
            Path(pkbench.__file__).parent,
            *site_packages.glob("psycopg*"),
            *site_packages.glob("typing_extensions*"),
        ]:
            copy = shutil.copytree if package.is_dir() else shutil.copy2
            copy(package, readable / package.name)
        started = time.monotonic()
        result = subprocess.run(
            ["runuser", "-u", "nobody", "--", python, "-c", script],
            capture_output=True,
            text=True,
            timeout=120,
            cwd="/tmp",
            env={"PATH": os.environ["PATH"], "HOME": "/tmp", "PYTHONPATH": str(readable)},
        )
    finally:
        shutil.rmtree(readable)
    assert result.returncode == 0, result.stderr
    version, superuser, exists = result.stdout.split()
    assert version.startswith("1") and superuser == "True" and exists == "False"
    assert time.monotonic() - started < 120


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[-1].split()[0]
    except OSError:
        return False
    return state not in ("Z", "X")


def test_a_killed_pkbench_takes_its_server_along_and_the_next_run_removes_the_rest(
    server_tmpdir: Path, tmp_path: Path
) -> None:
    victim = subprocess.Popen(
        [
            *PKBENCH,
            "run",
            *short_run(
                strategies="bigint",
                duration=120,
                clients=None,
                rounds=None,
                warmup=None,
                out=tmp_path / "killed",
            ),
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env={**os.environ, "TMPDIR": str(server_tmpdir), "NO_COLOR": "1"},
    )
    try:
        deadline = time.monotonic() + 120
        pid_files: list[Path] = []
        while not pid_files:
            assert victim.poll() is None and time.monotonic() < deadline
            pid_files = list(server_tmpdir.glob("pkbench-*/data/postmaster.pid"))
            time.sleep(0.2)
        directory = pid_files[0].parent.parent
        postmaster = 0
        # initdb's standalone backends write their pid negated; the postmaster, once it runs, its own.
        while postmaster <= 0 or not _alive(postmaster):
            assert victim.poll() is None and time.monotonic() < deadline
            with contextlib.suppress(ValueError, IndexError, OSError):
                postmaster = int(pid_files[0].read_text().split()[0])
            time.sleep(0.1)
    finally:
        victim.kill()
        victim.wait()
    deadline = time.monotonic() + 30
    while _alive(postmaster) or processes_mentioning(str(directory)):
        assert time.monotonic() < deadline, "the server outlived the pkbench that started it"
        time.sleep(0.2)
    assert directory.is_dir(), "nobody cleaned up after the killed pkbench yet"

    result = run_cli(
        "run",
        *short_run(strategies="bigint", rows=100, duration=1, clients=None, out=tmp_path / "next"),
        tmpdir=server_tmpdir,
    )
    assert result.returncode == 0, result.stderr
    assert (
        f"pkbench: stopped and removed {directory}, an embedded cluster left by pkbench pid {victim.pid}, "
        "which is gone"
    ) in result.stderr.splitlines()
    assert not directory.exists()
    assert list(server_tmpdir.glob("pkbench-*")) == []


def test_a_kept_cluster_is_not_taken_for_an_orphan(
    server_tmpdir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TMPDIR", str(server_tmpdir))
    monkeypatch.setattr(tempfile, "tempdir", None)
    cluster = new_cluster(keep=True)
    with cluster:
        directory = cluster.directory
    assert directory is not None and directory.is_dir()
    assert remove_orphaned_clusters(server_tmpdir) == []
    assert directory.is_dir()


def test_clusters_copy_one_initdb_per_build_and_options(
    monkeypatch: pytest.MonkeyPatch, server_tmpdir: Path
) -> None:
    templates = server_tmpdir / "templates"
    templates.mkdir(mode=0o755)
    monkeypatch.setenv(TEMPLATES_VARIABLE, str(templates))
    with new_cluster() as first, psycopg.connect(first.connection.conninfo(), autocommit=True) as conn:
        conn.execute("CREATE TABLE only_in_the_first (x int)")
        assert first.directory is not None
        owner = (first.directory / "data" / "PG_VERSION").stat().st_uid
        assert owner == (uid_of(first._process.pid) if first._process else -1)
    with new_cluster() as second, psycopg.connect(second.connection.conninfo()) as conn:
        assert conn.execute("SELECT to_regclass('only_in_the_first')").fetchone() == (None,)
    assert len(list(templates.iterdir())) == 1, "the second cluster copied the first one's template"
    with (
        new_cluster(initdb_options=["--wal-segsize=2"]) as other,
        psycopg.connect(other.connection.conninfo()) as conn,
    ):
        assert conn.execute("SHOW wal_segment_size").fetchone() == ("2MB",)
    assert len(list(templates.iterdir())) == 2, "other initdb options make a template of their own"
