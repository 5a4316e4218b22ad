"""An existing server given by --dsn: the target that starts, stops and removes nothing (the throwaway
cluster is embedded.py; both follow target.Target)."""

from __future__ import annotations

import subprocess
import tempfile
from pathlib import Path
from types import TracebackType

from pkbench.errors import PkbenchError, first_line
from pkbench.server.connection import ConnectionInfo, PrivateSecrets, parse, resolve
from pkbench.server.target import Replica, ServerInfo, Shard, describe


class ExistingServer:
    """A server given by --dsn: nothing is started, stopped or removed here.

    The DSN is resolved once on entry (see server.connection); probes and pgbench use that one result, and
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
        # The --shard-dsn servers this one coordinates (shard_dsn.py), while the run has them.
        self.shards: list[Shard] = []
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
