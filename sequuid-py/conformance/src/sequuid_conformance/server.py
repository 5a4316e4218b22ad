"""sequuid's own generators inside PostgreSQL: a throwaway cluster, and bursts from concurrent sessions.

Each session is one backend, the server's unit of a thread: without ``shared_preload_libraries`` each keeps
its own clock, so order is per session, as it is per thread in the other implementations.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from sequuid_conformance.checks import Burst, parse_output
from sequuid_conformance.implementations import REPOSITORY

_OS_USER = "postgres"


@dataclass(frozen=True)
class Cluster:
    bindir: Path
    socket_dir: Path
    port: int

    def psql(self, database: str, script: str) -> str:
        result = subprocess.run(
            [
                str(self.bindir / "psql"),
                "-X",
                "-q",
                "-At",
                "-v",
                "ON_ERROR_STOP=1",
                "-h",
                str(self.socket_dir),
                "-p",
                str(self.port),
                "-U",
                "postgres",
                "-d",
                database,
            ],
            input=script,
            capture_output=True,
            text=True,
            check=False,
        )
        if result.returncode != 0:
            raise RuntimeError(f"psql failed: {result.stderr.strip()[:2000]}")
        return result.stdout


def find_bindir(explicit: str | None) -> Path | None:
    """--pg-bin, else the directory of pg_config on PATH, else Debian's newest server."""
    if explicit:
        return Path(explicit)
    pg_config = shutil.which("pg_config")
    if pg_config:
        found = subprocess.run(
            [pg_config, "--bindir"], capture_output=True, text=True, check=False
        ).stdout.strip()
        if found and (Path(found) / "initdb").exists():
            return Path(found)
    debian = sorted(Path("/usr/lib/postgresql").glob("*/bin/initdb"), key=lambda p: int(p.parent.parent.name))
    return debian[-1].parent if debian else None


def sequuid_installed(bindir: Path) -> bool:
    pg_config = bindir / "pg_config"
    if not pg_config.exists():
        return False
    libdir = subprocess.run([str(pg_config), "--pkglibdir"], capture_output=True, text=True, check=False)
    return (Path(libdir.stdout.strip()) / "sequuid.so").exists()


def _as_server_user(argv: list[str]) -> list[str]:
    return ["runuser", "-u", _OS_USER, "--", *argv] if os.geteuid() == 0 else argv


def _free_port() -> int:
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@contextlib.contextmanager
def throwaway_cluster(bindir: Path) -> Iterator[Cluster]:
    directory = Path(tempfile.mkdtemp(prefix="sequuid-conformance-"))
    if os.geteuid() == 0:
        shutil.chown(directory, _OS_USER)
    data = directory / "data"
    port = _free_port()
    try:
        subprocess.run(
            _as_server_user(
                [str(bindir / "initdb"), "-D", str(data), "-A", "trust", "-U", "postgres", "--no-sync"]
            ),
            check=True,
            capture_output=True,
        )
        subprocess.run(
            _as_server_user(
                [
                    str(bindir / "pg_ctl"),
                    "-D",
                    str(data),
                    "-w",
                    "-l",
                    str(directory / "server.log"),
                    "-o",
                    f"-p {port} -k {directory} -c listen_addresses=",
                    "start",
                ]
            ),
            check=True,
            capture_output=True,
        )
        yield Cluster(bindir, directory, port)
    finally:
        subprocess.run(
            _as_server_user([str(bindir / "pg_ctl"), "-D", str(data), "-m", "immediate", "stop"]),
            check=False,
            capture_output=True,
        )
        shutil.rmtree(directory, ignore_errors=True)


def prepare(cluster: Cluster, with_extension: bool) -> None:
    """Database c with the extension, database plpgsql with the port."""
    cluster.psql("postgres", "CREATE DATABASE c; CREATE DATABASE plpgsql;")
    if with_extension:
        cluster.psql("c", "CREATE EXTENSION sequuid;")
    port = (REPOSITORY / "sequuid" / "plpgsql" / "sequuid.sql").read_text(encoding="utf-8")
    cluster.psql("plpgsql", port)


def _tree_version() -> str:
    control = (REPOSITORY / "sequuid" / "sequuid.control").read_text(encoding="utf-8")
    for line in control.splitlines():
        if line.startswith("default_version"):
            return line.split("=", 1)[1].strip().strip("'")
    return "unknown"


_NOW_US = "(extract(epoch FROM clock_timestamp()) * 1000000)::bigint"


def _session_script(database: str, thread: int, count: int) -> str:
    """One statement: the clock read (started), the ids made into an array in the server (made, from a
    series that streams rather than one made whole first), the clock read again once the array is whole
    (ended: it reads made, and the first line's branch reads it), and only then each line built and sent.
    The burst runs at the generator's own rate, not at the rate at which psql receives and prints rows, and
    the time ahead of the clock is measured at that rate."""
    version = (
        "SELECT 'version ' || extversion FROM pg_extension WHERE extname = 'sequuid';"
        if database == "c"
        else f"SELECT 'version port of {_tree_version()}';"
    )
    return f"""{version}
SELECT 'toolchain PostgreSQL ' || current_setting('server_version');
WITH started AS MATERIALIZED (SELECT {_NOW_US} AS start_us),
     made AS MATERIALIZED (
         SELECT array_agg(uuid_generate_v7()) AS ids
         FROM started, LATERAL (SELECT generate_series(1, {count}) OFFSET 0) AS numbers),
     ended AS MATERIALIZED (SELECT {_NOW_US} AS end_us FROM made)
SELECT line
FROM (SELECT 0 AS part, 0::bigint AS n, 'start ' || start_us AS line FROM started, ended
      UNION ALL
      SELECT 1, made_id.n, 'id {thread} ' || made_id.id
      FROM made, unnest(ids) WITH ORDINALITY AS made_id(id, n)
      UNION ALL
      SELECT 2, 0, 'end ' || end_us FROM ended) lines
ORDER BY part, n;
"""


def server_burst(cluster: Cluster, database: str, threads: int, count: int) -> Burst:
    """threads concurrent sessions each making count ids; start and end span them all."""
    with ThreadPoolExecutor(max_workers=threads) as pool:
        outputs = list(
            pool.map(
                lambda thread: cluster.psql(database, _session_script(database, thread, count)),
                range(threads),
            )
        )
    bursts = []
    for output in outputs:
        parsed = parse_output(output)
        assert isinstance(parsed, Burst)
        bursts.append(parsed)
    return Burst(
        min(b.start_us for b in bursts),
        max(b.end_us for b in bursts),
        [b.ids[0] for b in bursts],
        bursts[0].version,
        bursts[0].toolchain,
    )
