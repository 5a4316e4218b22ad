"""The throwaway embedded cluster: initdb into a temporary directory, start postgres on a free port, and
always stop it and remove the directory on the way out, whatever the way out is."""

from __future__ import annotations

import contextlib
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from types import TracebackType

import psycopg

from pkbench.errors import PkbenchError, ServerDied
from pkbench.server import initdb_template, ownership
from pkbench.server import os_user as server_user
from pkbench.server.connection import ConnectionInfo
from pkbench.server.os_user import SERVER_USER
from pkbench.server.target import Replica, ServerInfo, describe

# Preloaded by the embedded server: the only source of the buffers a statement dirtied and wrote, for the
# work per transaction (probes/work.py). An existing server keeps its own shared_preload_libraries.
STATEMENT_STATISTICS = "pg_stat_statements"


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
        # The shards behind this server when it coordinates them (server/shards.py), checked with it.
        self.shards: list[EmbeddedCluster] = []
        self.directory: Path | None = None
        self._process: subprocess.Popen[bytes] | None = None
        self.connection = ConnectionInfo({})
        self.server = ServerInfo("", 0, True, True)

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

    # Root hands what the server must own to its OS user.
    _give_to_server_user = staticmethod(server_user.give_to_server_user)

    def _initialise(self) -> None:
        """Fill data_dir (initdb here; a standby copies its primary instead)."""
        options = [
            "--auth=trust",
            f"--username={SERVER_USER}",
            "--encoding=UTF8",
            "--locale=C",
            "--no-sync",
            *self.initdb_options,
        ]
        initdb_template.initialise(
            self.bindir,
            options,
            self.data_dir,
            lambda data_dir: self._run_server_program("initdb", "-D", str(data_dir), *options),
        )

    def _run_server_program(self, program: str, *arguments: str) -> None:
        """PROGRAM of the server build, as the server's user, in the cluster's directory."""
        server_user.run_program(self.bindir / program, arguments, self.directory)

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
                **server_user.process_user(),  # type: ignore[call-overload]
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

    @property
    def pid(self) -> int | None:
        """The server's postmaster (or the start wrapper above it), while it runs."""
        return self._process.pid if self._process is not None else None

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
            if not starting:
                if self.standby is not None:
                    self.standby.check_alive()
                for shard in self.shards:
                    shard.check_alive()
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
