"""Where the benchmark runs: a throwaway embedded cluster, or an existing server given by a DSN.

Both are context managers with the same interface (`connection`, `server`, `check_alive`, `pgbench`), and the
embedded one always stops its server and removes its directory on the way out, whatever the way out is.
"""

from __future__ import annotations

import contextlib
import os
import pwd
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import TracebackType
from typing import Protocol

import psycopg

from pkbench import ownership
from pkbench.connection import ConnectionInfo as ConnectionInfo
from pkbench.connection import PrivateSecrets, first_line, parse, resolve
from pkbench.errors import PkbenchError, ServerDied

SERVER_USER = "postgres"
# Preloaded by the embedded server: the only source of the buffers a statement dirtied and wrote, for the
# work per transaction (probes/work.py). An existing server keeps its own shared_preload_libraries.
STATEMENT_STATISTICS = "pg_stat_statements"
# Written into the embedded cluster's directory: which pkbench process owns it (pid and start time).


@dataclass(frozen=True)
class ServerInfo:
    version: str
    version_num: int
    superuser: bool
    embedded: bool
    settings: Mapping[str, str | None] = field(default_factory=dict)


# The settings results.json records: the ones that change what a primary key costs.
REPORTED_SETTINGS = (
    "shared_buffers",
    "max_wal_size",
    "checkpoint_timeout",
    "synchronous_commit",
    "full_page_writes",
    "wal_compression",
    "effective_cache_size",
    "work_mem",
    "maintenance_work_mem",
    "fsync",
    "wal_level",
    "autovacuum",
)


def describe(connection: ConnectionInfo, embedded: bool) -> ServerInfo:
    with connection.connect() as conn:
        row = conn.execute(
            "SELECT current_setting('server_version'), current_setting('server_version_num')::int,"
            " (SELECT rolsuper FROM pg_roles WHERE rolname = current_user)"
        ).fetchone()
        assert row is not None
        rows = conn.execute(
            "SELECT name, current_setting(name) FROM pg_settings WHERE name = ANY(%s)",
            (list(REPORTED_SETTINGS),),
        ).fetchall()
        settings = {str(name): str(value) for name, value in rows}
    version = str(row[0]).split(" ")[0]
    return ServerInfo(
        version,
        int(str(row[1])),
        bool(row[2]),
        embedded,
        {name: settings.get(name) for name in REPORTED_SETTINGS},
    )


class Replica(Protocol):
    """A standby streaming from the target: started by pkbench (topology.py) or named by --standby-dsn."""

    connection: ConnectionInfo
    # Only the standby pkbench started may be stopped, and only its primary may be reconfigured.
    owned: bool

    def check_alive(self) -> None: ...


class Target(Protocol):
    connection: ConnectionInfo
    server: ServerInfo
    pgbench: Path
    standby: Replica | None

    def check_alive(self) -> None: ...


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def check_port_free(port: int) -> None:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        try:
            s.bind(("127.0.0.1", port))
        except OSError:
            raise PkbenchError(f"port {port} is in use; pick another with --port or leave it out") from None


class EmbeddedCluster:
    """initdb into a temporary directory, start postgres on a free port, always stop and clean up.

    `start_wrapper` is put in front of the postgres command (for example a command that moves itself into a
    cgroup and then execs its arguments), so the postmaster and all its children inherit what it sets up.
    """

    # How messages name this server (a standby names itself so).
    role = "PostgreSQL server"

    def __init__(
        self,
        bindir: Path,
        pgbench: Path,
        settings: Mapping[str, str],
        *,
        keep: bool = False,
        port: int | None = None,
        start_wrapper: Sequence[str] = (),
        start_timeout_s: float = 60.0,
        initdb_options: Sequence[str] = (),
    ) -> None:
        self.bindir = bindir
        self.pgbench = pgbench
        self.settings = dict(settings)
        self.keep = keep
        self.port = port
        self.start_wrapper = list(start_wrapper)
        self.start_timeout_s = start_timeout_s
        self.initdb_options = list(initdb_options)
        self.standby: Replica | None = None
        self.directory: Path | None = None
        self._process: subprocess.Popen[bytes] | None = None
        self.connection = ConnectionInfo({})
        self.server = ServerInfo("", 0, True, True)

    # -- running as an unprivileged user when we are root: PostgreSQL refuses to run as root.
    @property
    def _as_root(self) -> bool:
        return os.geteuid() == 0

    def _server_user(self) -> pwd.struct_passwd:
        try:
            return pwd.getpwnam(SERVER_USER)
        except KeyError:
            raise PkbenchError(
                f"running as root needs an OS user {SERVER_USER!r} to run the server; "
                "create it or run pkbench as a normal user"
            ) from None

    def _user_kwargs(self) -> dict[str, object]:
        """subprocess arguments that run a server program as the server user (when we are root)."""
        if not self._as_root:
            return {}
        entry = self._server_user()
        return {"user": entry.pw_uid, "group": entry.pw_gid, "extra_groups": []}

    @property
    def data_dir(self) -> Path:
        assert self.directory is not None
        return self.directory / "data"

    @property
    def log_path(self) -> Path:
        assert self.directory is not None
        return self.directory / "server.log"

    def __enter__(self) -> EmbeddedCluster:
        try:
            self._create()
            self._start()
            self.server = describe(self.connection, embedded=True)
        except BaseException:
            self.close()
            raise
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()

    def _create(self) -> None:
        for note in ownership.remove_orphaned_clusters():
            print(note, file=sys.stderr)
        self.directory = Path(tempfile.mkdtemp(prefix="pkbench-"))
        self.directory.chmod(0o700)
        # Lets a later run recognise this directory as orphaned if we die without cleaning up.
        (self.directory / ownership.OWNER_FILE).write_text(ownership.owner_line())
        self._give_to_server_user(self.directory)
        self._initialise()

    def _give_to_server_user(self, path: Path) -> None:
        if self._as_root:
            entry = self._server_user()
            os.chown(path, entry.pw_uid, entry.pw_gid)

    def _initialise(self) -> None:
        """Fill data_dir (initdb here; a standby copies its primary instead)."""
        self._run_server_program(
            "initdb",
            "-D",
            str(self.data_dir),
            "--auth=trust",
            f"--username={SERVER_USER}",
            "--encoding=UTF8",
            "--locale=C",
            "--no-sync",
            *self.initdb_options,
        )

    def _run_server_program(self, program: str, *arguments: str) -> None:
        """PROGRAM of the server build, as the server's user, in the cluster's directory; its first line of
        complaint if it fails."""
        result = subprocess.run(
            [str(self.bindir / program), *arguments],
            capture_output=True,
            text=True,
            cwd=self.directory,
            **self._user_kwargs(),  # type: ignore[call-overload]
        )
        if result.returncode != 0:
            raise PkbenchError(f"{program} failed: {first_line(result.stderr or result.stdout)}")

    def _start(self) -> None:
        assert self.directory is not None
        if self.port is None:
            self.port = free_port()
        else:
            check_port_free(self.port)
        settings = {
            **with_statement_statistics(self.bindir, self.settings),
            "port": str(self.port),
            "listen_addresses": "127.0.0.1",
            "unix_socket_directories": str(self.directory),
        }
        argv = [*self.start_wrapper, str(self.bindir / "postgres"), "-D", str(self.data_dir)]
        for name, value in settings.items():
            argv += ["-c", f"{name}={value}"]
        with open(self.log_path, "ab") as log:
            # Own session: a Ctrl-C on the terminal reaches pkbench only, which then shuts the server down.
            self._process = subprocess.Popen(
                argv,
                stdout=log,
                stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL,
                cwd=self.directory,
                start_new_session=True,
                preexec_fn=ownership.die_with_parent(),
                **self._user_kwargs(),  # type: ignore[call-overload]
            )
        self.connection = ConnectionInfo(
            {"host": str(self.directory), "port": str(self.port), "user": SERVER_USER, "dbname": "postgres"}
        )
        deadline = time.monotonic() + self.start_timeout_s
        while True:
            self.check_alive(starting=True)
            try:
                psycopg.connect(self.connection.conninfo(), connect_timeout=2).close()
                return
            except psycopg.OperationalError:
                if time.monotonic() > deadline:
                    raise PkbenchError(
                        f"the PostgreSQL server did not accept connections within "
                        f"{self.start_timeout_s:.0f} s; see {self.log_path}"
                    ) from None
                time.sleep(0.1)

    def server_log_tail(self) -> str:
        try:
            lines = self.log_path.read_text(errors="replace").splitlines()
        except (OSError, AssertionError):
            return ""
        important = [line for line in lines if "FATAL" in line or "PANIC" in line or "ERROR" in line]
        return (important or lines or [""])[-1].strip()

    def check_alive(self, starting: bool = False) -> None:
        if self._process is None:
            return
        code = self._process.poll()
        if code is None:
            if self.standby is not None and not starting:
                self.standby.check_alive()
            return
        what = "did not start" if starting else "died"
        raise (PkbenchError if starting else ServerDied)(
            f"the {self.role} {what} (exit code {code}): {self.server_log_tail()}"
        )

    def close(self) -> None:
        """Stop the server (fast shutdown, then harder), then remove the directory unless keep."""
        process, self._process = self._process, None
        if process is not None and process.poll() is None:
            for sig, wait_s in ((signal.SIGINT, 30.0), (signal.SIGQUIT, 5.0), (signal.SIGKILL, 5.0)):
                with contextlib.suppress(ProcessLookupError):
                    process.send_signal(sig)
                try:
                    process.wait(timeout=wait_s)
                    break
                except subprocess.TimeoutExpired:
                    continue
        if self.directory is not None and not self.keep:
            shutil.rmtree(self.directory, ignore_errors=True)
            self.directory = None
        elif self.directory is not None:
            # A kept directory is the user's now: no later run may take it for an orphan.
            (self.directory / ownership.OWNER_FILE).unlink(missing_ok=True)


def with_statement_statistics(bindir: Path, settings: Mapping[str, str]) -> dict[str, str]:
    """SETTINGS with pg_stat_statements preloaded when they name no shared_preload_libraries and this build
    has it (a build without it would not start with it preloaded; the work probe then says it is missing).
    An explicit shared_preload_libraries, even empty, is used as given."""
    if "shared_preload_libraries" in settings or not _has_library(bindir, STATEMENT_STATISTICS):
        return dict(settings)
    return {**settings, "shared_preload_libraries": STATEMENT_STATISTICS}


def _has_library(bindir: Path, name: str) -> bool:
    """Whether the server build in BINDIR has the loadable module NAME (Debian and the wheels keep their
    modules in bin/../lib; pg_config says where when it is there)."""
    libdir = bindir.parent / "lib"
    pg_config = bindir / "pg_config"
    if pg_config.is_file():
        with contextlib.suppress(OSError, subprocess.SubprocessError):
            found = subprocess.run(
                [str(pg_config), "--pkglibdir"], capture_output=True, text=True, timeout=30, check=True
            )
            libdir = Path(found.stdout.strip())
    return (libdir / f"{name}.so").is_file()


class ExistingServer:
    """A server given by --dsn: nothing is started, stopped or removed here.

    The DSN is resolved once on entry (see pkbench.connection); probes and pgbench use that one result, and
    pgbench is checked to get in with it before anything is created.
    """

    def __init__(self, dsn: str, pgbench: Path) -> None:
        given = parse(dsn)
        self._dsn = dsn
        self.connection = ConnectionInfo(
            {k: v for k, v in given.items() if k not in ("password", "sslpassword")}
        )
        self.pgbench = pgbench
        self.server = ServerInfo("", 0, False, False)
        self.standby: Replica | None = None
        self._secrets: PrivateSecrets | None = None

    def __enter__(self) -> ExistingServer:
        self._secrets = PrivateSecrets(resolve(self._dsn))
        self.connection = self._secrets.__enter__()
        try:
            self.server = describe(self.connection, embedded=False)
            with self.connection.connect() as conn:
                row = conn.execute("SELECT has_database_privilege(current_database(), 'CREATE')").fetchone()
            if not row or not row[0]:
                raise PkbenchError(
                    f"{self.connection.redacted()}: the user may not create a schema in this "
                    "database (needs CREATE on the database)"
                )
            check_pgbench_connects(self.pgbench, self.connection)
        except BaseException:
            self._secrets.__exit__(None, None, None)
            raise
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        if self._secrets is not None:
            self._secrets.__exit__(exc_type, exc, tb)

    def check_alive(self) -> None:
        return None


def check_pgbench_connects(pgbench: Path, connection: ConnectionInfo) -> None:
    """One pgbench transaction with the run's parameters: a pgbench that cannot get in fails the run now."""
    with tempfile.TemporaryDirectory(prefix="pkbench-check-") as directory:
        script = Path(directory) / "connect.sql"
        script.write_text("SELECT 1;\n")
        try:
            result = subprocess.run(
                [str(pgbench), "-n", "-c", "1", "-t", "1", "-f", str(script), connection.pgbench_database()],
                capture_output=True,
                text=True,
                env=connection.environment(),
                cwd=directory,
                timeout=60,
            )
        except subprocess.TimeoutExpired:
            raise PkbenchError(f"pgbench did not connect to {connection.redacted()} within 60 s") from None
    if result.returncode != 0:
        lines = [line for line in result.stderr.splitlines() if "error" in line or "FATAL" in line]
        raise PkbenchError(
            f"pgbench cannot connect to {connection.redacted()} with the parameters pkbench uses: "
            f"{first_line(chr(10).join(lines) or result.stderr or result.stdout)}"
        )
