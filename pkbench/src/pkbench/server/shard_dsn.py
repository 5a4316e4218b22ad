"""Existing shards named by --shard-dsn, coordinated by the --dsn server through postgres_fdw.

pkbench owns only what it names after the run: on the coordinator one foreign server per shard
(`<schema>_shard_<n>`) with the current user's mapping to it, which carry the shard DSN's host, port,
database, user and password; on each shard the schemas its `shard` steps ask for, each refused when it
exists already. Without --keep exactly those are dropped on every way out (success, a failed step, Ctrl-C),
before the workspace drops the coordinator's schemas and the extensions the run created. Nothing else on
any of the servers is created, changed or dropped.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

import psycopg
from psycopg import sql

from pkbench import __version__
from pkbench.errors import PkbenchError, first_line
from pkbench.reporting import Reporter
from pkbench.server.connection import ConnectionInfo, PrivateSecrets, resolve
from pkbench.server.existing import ExistingServer
from pkbench.server.workspace import MARK, Workspace

# Server options postgres_fdw takes from a shard's DSN besides host, port and dbname; the rest of a DSN
# (options, application_name, ...) is the harness's own connection's business.
_SERVER_OPTIONS = ("hostaddr", "sslmode", "sslrootcert", "sslcrl", "target_session_attrs")
# Identifiers are cut at this many bytes by PostgreSQL.
_NAME_LENGTH = 63


def foreign_server_name(schema: str, number: int) -> str:
    """The run's foreign server for shard NUMBER: the run's schema name, cut so the suffix survives."""
    suffix = f"_shard_{number}"
    return f"{schema[: _NAME_LENGTH - len(suffix)]}{suffix}"


@dataclass
class ExistingShard:
    """A shard named by --shard-dsn: only the schemas listed in `created_schemas` are pkbench's there."""

    number: int
    connection: ConnectionInfo
    server_name: str
    created_schemas: list[str] = field(default_factory=list)
    server_created: bool = False

    def check_alive(self) -> None:
        return None

    def named(self) -> str:
        return f"--shard-dsn number {self.number} ({self.connection.redacted()})"

    def check_absent(self, schema: str) -> None:
        with self.connection.connect() as conn:
            found = conn.execute("SELECT 1 FROM pg_namespace WHERE nspname = %s", (schema,)).fetchone()
        if found is not None:
            raise PkbenchError(
                f"{self.named()}: schema {schema!r} exists on that shard; pkbench uses only schemas it "
                "creates (pick another with --schema)"
            )

    def claim_schema(self, schema: str) -> None:
        if schema in self.created_schemas:
            return
        self.check_absent(schema)
        stamp = datetime.now(UTC).isoformat(timespec="seconds")
        try:
            with self.connection.connect() as conn, conn.transaction():
                # No IF NOT EXISTS: a schema that appeared since the check is someone else's.
                conn.execute(sql.SQL("CREATE SCHEMA {}").format(sql.Identifier(schema)))
                conn.execute(
                    sql.SQL("COMMENT ON SCHEMA {} IS {}").format(
                        sql.Identifier(schema),
                        sql.Literal(f"{MARK} {__version__} at {stamp}; safe to drop"),
                    )
                )
        except psycopg.Error as e:
            raise PkbenchError(f"{self.named()}: cannot create schema {schema!r}: {first_line(e)}") from e
        self.created_schemas.append(schema)

    def foreign_server(self, coordinator: psycopg.Connection[Any]) -> str:
        if not self.server_created:
            self._create_server(coordinator)
        return self.server_name

    def _create_server(self, coordinator: psycopg.Connection[Any]) -> None:
        params = self.connection.params
        server_options = {
            key: params[key] for key in ("host", "port", "dbname", *_SERVER_OPTIONS) if key in params
        }
        mapping_options = {"user": params["user"]}
        if self.connection.password:
            mapping_options["password"] = self.connection.password
        name = sql.Identifier(self.server_name)
        try:
            with coordinator.transaction():
                # No IF NOT EXISTS: a server of that name that is not the run's is left alone, and refused.
                coordinator.execute(
                    sql.SQL("CREATE SERVER {} FOREIGN DATA WRAPPER postgres_fdw OPTIONS ({})").format(
                        name, _option_list(server_options)
                    )
                )
                self.server_created = True
                coordinator.execute(
                    sql.SQL("CREATE USER MAPPING FOR CURRENT_USER SERVER {} OPTIONS ({})").format(
                        name, _option_list(mapping_options)
                    )
                )
        except psycopg.Error as e:
            self.server_created = False
            raise PkbenchError(
                f"{self.named()}: cannot create foreign server {self.server_name} on the coordinator: "
                f"{first_line(e)}"
            ) from e

    def drop(self, coordinator: ConnectionInfo) -> list[str]:
        """What the run created for this shard, each object on its own: one that cannot go stops no other.
        What is left, in words."""
        left = []
        if self.server_created:
            try:
                with coordinator.connect() as conn:
                    # CASCADE takes the user mapping and the foreign tables that use the server: the run's.
                    conn.execute(
                        sql.SQL("DROP SERVER IF EXISTS {} CASCADE").format(sql.Identifier(self.server_name))
                    )
                self.server_created = False
            except (psycopg.Error, PkbenchError) as e:
                left.append(f"foreign server {self.server_name} on the coordinator ({first_line(e)})")
        for schema in list(self.created_schemas):
            try:
                with self.connection.connect() as conn:
                    conn.execute(sql.SQL("DROP SCHEMA IF EXISTS {} CASCADE").format(sql.Identifier(schema)))
                self.created_schemas.remove(schema)
            except (psycopg.Error, PkbenchError) as e:
                left.append(f"schema {schema} on shard {self.number} ({first_line(e)})")
        return left


def _option_list(options: dict[str, str]) -> sql.Composable:
    return sql.SQL(", ").join(
        sql.SQL("{} {}").format(sql.Identifier(key), sql.Literal(value)) for key, value in options.items()
    )


def _identity(connection: ConnectionInfo) -> tuple[str, str]:
    """Which cluster and database a connection reaches: the cluster's system identifier and its postmaster's
    start where the user may read the first (copies of one data directory, a standby or a cloned cluster,
    share the identifier, not the start), else the host and port it resolved to."""
    with connection.connect() as conn:
        try:
            row = conn.execute(
                "SELECT system_identifier::text || ' ' || pg_postmaster_start_time()::text"
                " FROM pg_control_system()"
            ).fetchone()
            cluster = str(row[0]) if row else ""
        except psycopg.errors.InsufficientPrivilege:
            cluster = f"{connection.params.get('host')}:{connection.params.get('port')}"
        database = conn.execute("SELECT current_database()").fetchone()
    return cluster, str(database[0]) if database else ""


@contextlib.contextmanager
def attached(
    target: ExistingServer, dsns: tuple[str, ...], ws: Workspace, reporter: Reporter
) -> Iterator[list[ExistingShard]]:
    """The shards DSNS name behind TARGET while the block runs (target.shards), checked before anything is
    created: each reachable, none the coordinator itself or named twice, the run's schema free on each, and
    postgres_fdw on the coordinator."""
    with contextlib.ExitStack() as stack:
        coordinator = _identity(target.connection)
        seen: dict[tuple[str, str], int] = {}
        found: list[ExistingShard] = []
        for number, dsn in enumerate(dsns, 1):
            option = f"--shard-dsn number {number}"
            try:
                connection = stack.enter_context(PrivateSecrets(resolve(dsn, option)))
            except PkbenchError as e:
                raise PkbenchError(f"{option}: {e}") from e
            shard = ExistingShard(number, connection, foreign_server_name(ws.schema, number))
            identity = _identity(connection)
            if identity == coordinator:
                raise PkbenchError(
                    f"{shard.named()}: that is the --dsn server itself; a shard is another one"
                )
            if identity in seen:
                raise PkbenchError(f"{shard.named()}: the same server and database as shard {seen[identity]}")
            seen[identity] = number
            shard.check_absent(ws.schema)
            found.append(shard)
        reason = ws.ensure_extension("postgres_fdw")
        if reason is not None:
            raise PkbenchError(f"--shard-dsn: the coordinator needs postgres_fdw: {reason}")
        target.shards = list(found)
        try:
            yield found
        finally:
            target.shards = []
            if ws.drop_on_exit:
                for shard in found:
                    # Best effort on the way out (a shard may be the reason we are leaving), said aloud.
                    for left in shard.drop(target.connection):
                        reporter.info(f"pkbench: could not drop the run's {left}")
            elif any(shard.server_created or shard.created_schemas for shard in found):
                reporter.info(
                    "pkbench: keeping the foreign servers "
                    f"{', '.join(s.server_name for s in found if s.server_created)} and the schemas "
                    "created on the shards"
                )
