"""The run's own schema and the extensions it needed: created, recognised, and removed without touching
anything else on the server."""

from __future__ import annotations

import contextlib
import re
import secrets
from collections.abc import Iterable
from datetime import UTC, datetime
from types import TracebackType

import psycopg
from psycopg import sql

from pkbench import __version__
from pkbench.errors import PkbenchError
from pkbench.server import sequuid_port as port
from pkbench.server.connection import ConnectionInfo
from pkbench.strategies.model import Generator, Strategy, check_expression

MARK = "created by pkbench"


def default_schema_name() -> str:
    """A name no other run picks: the start time to the second, then random bits."""
    return f"pkbench_{datetime.now(UTC).strftime('%Y%m%d_%H%M%S')}_{secrets.token_hex(4)}"


class Workspace:
    """Everything a run creates lives in `schema`; extensions it had to create are recorded and dropped."""

    def __init__(self, connection: ConnectionInfo, schema: str, *, drop_on_exit: bool) -> None:
        self.connection = connection
        self.schema = schema
        self.drop_on_exit = drop_on_exit
        self.created_extensions: list[str] = []
        self._created_schema = False
        # Extensions stood in for by a port installed in the schema (reinstalled after each reset).
        self.ported_extensions: dict[str, list[str]] = {}
        self._lock: psycopg.Connection[tuple[object, ...]] | None = None
        # Schemas of their own for strategies that share the cluster (paired rounds), created on demand.
        self._strategy_schemas: dict[str, Workspace] = {}

    @property
    def search_path(self) -> str:
        return f"{self.schema},public"

    def __enter__(self) -> Workspace:
        self._take_lock()
        try:
            self._claim()
        except BaseException:
            self._release_lock()
            raise
        return self

    def _take_lock(self) -> None:
        """A session advisory lock on the schema's name, held for the whole run: a second run on the same
        schema is refused instead of dropping the first one's tables."""
        self._lock = self.connection.connect()
        row = self._lock.execute(
            "SELECT pg_try_advisory_lock(hashtext('pkbench'), hashtext(%s))", (self.schema,)
        ).fetchone()
        if not row or not row[0]:
            self._release_lock()
            raise PkbenchError(
                f"schema {self.schema!r} is in use by another pkbench run; pick another with --schema"
            )

    def _release_lock(self) -> None:
        lock, self._lock = self._lock, None
        if lock is not None:
            with contextlib.suppress(psycopg.Error):
                lock.close()

    def _claim(self) -> None:
        with self.connection.connect() as conn:
            row = conn.execute(
                "SELECT coalesce(obj_description(oid, 'pg_namespace'), '') FROM pg_namespace"
                " WHERE nspname = %s",
                (self.schema,),
            ).fetchone()
        if row is not None and not str(row[0]).startswith(MARK):
            raise PkbenchError(
                f"schema {self.schema!r} exists and was not created by pkbench; refusing to use it "
                "(pick another with --schema)"
            )
        self.reset()

    def for_strategy(self, strategy: str) -> Workspace:
        """A schema of the strategy's own beside this one (``<schema>_<strategy>``), for runs that keep every
        strategy's tables at once. It shares this workspace's extensions and lock, and goes when it goes."""
        if strategy not in self._strategy_schemas:
            suffix = re.sub(r"[^a-z0-9_]", "_", strategy.lower())
            child = Workspace(self.connection, f"{self.schema}_{suffix}"[:63], drop_on_exit=self.drop_on_exit)
            child.created_extensions = self.created_extensions
            child.ported_extensions = self.ported_extensions
            if child.schema in {c.schema for c in self._strategy_schemas.values()} | {self.schema}:
                raise PkbenchError(f"strategy {strategy!r}: its schema name {child.schema!r} is taken")
            child._claim()
            self._strategy_schemas[strategy] = child
        return self._strategy_schemas[strategy]

    def reset(self) -> None:
        """An empty schema for the next strategy."""
        name = sql.Identifier(self.schema)
        with self.connection.connect() as conn, conn.transaction():
            conn.execute(sql.SQL("DROP SCHEMA IF EXISTS {} CASCADE").format(name))
            conn.execute(sql.SQL("CREATE SCHEMA {}").format(name))
            stamp = datetime.now(UTC).isoformat(timespec="seconds")
            self._mark(conn, stamp)
        self._created_schema = True
        for extension in self.ported_extensions:
            self.ported_extensions[extension] = self._install_port()

    def _mark(self, conn: psycopg.Connection[tuple[object, ...]], stamp: str | None = None) -> None:
        stamp = stamp or datetime.now(UTC).isoformat(timespec="seconds")
        conn.execute(
            sql.SQL("COMMENT ON SCHEMA {} IS {}").format(
                sql.Identifier(self.schema), sql.Literal(f"{MARK} {__version__} at {stamp}; safe to drop")
            )
        )

    def _install_port(self) -> list[str]:
        """sequuid's PL/pgSQL port in the schema; what it had to leave out."""
        with self.connection.connect(search_path=self.schema) as conn:
            installed = port.install(conn, self.schema)
            # The port comments its helpers' schema, which here is ours: the mark must stay.
            self._mark(conn)
        return installed.left_out

    def generator_source(self, generator: Generator) -> str:
        """Where the generator's functions come from, for the results."""
        ported = [e for e in generator.extensions if e in self.ported_extensions]
        sources = [port.SOURCE] if ported else [f"extension {e}" for e in generator.extensions]
        if generator.prelude:
            sources.append("SQL objects created in the run's schema")
        return " + ".join(sources) or "core"

    def ensure_extension(self, name: str) -> str | None:
        """Install an extension if it is missing and we may, else its port if it has one; None when either
        is there, else why not."""
        if name in self.ported_extensions:
            return None
        reason = self._create_extension(name)
        if reason is None or name != port.EXTENSION:
            return reason
        try:
            self.ported_extensions[name] = self._install_port()
        except psycopg.Error as e:
            return f"{reason}; its PL/pgSQL port failed too: {e.diag.message_primary or e}"
        return None

    def _create_extension(self, name: str) -> str | None:
        with self.connection.connect() as conn:
            if conn.execute("SELECT 1 FROM pg_extension WHERE extname = %s", (name,)).fetchone():
                return None
            if not conn.execute("SELECT 1 FROM pg_available_extensions WHERE name = %s", (name,)).fetchone():
                return f"extension {name} is not installed on the server"
            try:
                conn.execute(sql.SQL("CREATE EXTENSION {}").format(sql.Identifier(name)))
            except psycopg.Error as e:
                return f"cannot create extension {name}: {e.diag.message_primary or e}"
        self.created_extensions.append(name)
        return None

    def check_expressions(self, strategies: Iterable[Strategy]) -> None:
        """Refuse a user-defined strategy whose type or default is not one expression of that type.

        Checked once its extensions are there (a strategy whose extension cannot be had is skipped later
        and never reaches SQL).
        """
        for strategy in strategies:
            if strategy.builtin:
                continue
            for generator in strategy.generators:
                if any(self.ensure_extension(e) is not None for e in generator.extensions):
                    continue
                with self.connection.connect(search_path=self.search_path) as conn:
                    problem = check_expression(conn, generator.expression, strategy.column_type)
                if problem:
                    raise PkbenchError(f"strategy {strategy.name!r}: {problem}")

    def missing_functions(self, names: tuple[str, ...]) -> list[str]:
        if not names:
            return []
        with self.connection.connect(search_path=self.search_path) as conn:
            rows = conn.execute(
                "SELECT DISTINCT p.proname FROM pg_proc p WHERE p.proname = ANY(%s)"
                " AND pg_function_is_visible(p.oid)",
                (list(names),),
            ).fetchall()
        found = {str(r[0]) for r in rows}
        return [n for n in names if n not in found]

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        try:
            self._drop()
        finally:
            self._release_lock()

    def _other_runs(self, conn: psycopg.Connection[tuple[object, ...]]) -> bool:
        """Whether another pkbench run holds its schema lock in this database now."""
        ours = self._lock.info.backend_pid if self._lock is not None else 0
        row = conn.execute(
            "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND objsubid = 2"
            " AND classid = hashtext('pkbench')::oid AND pid <> %s"
            " AND database = (SELECT oid FROM pg_database WHERE datname = current_database())",
            (ours,),
        ).fetchone()
        return bool(row and int(str(row[0])) > 0)

    def _drop(self) -> None:
        if not self.drop_on_exit:
            return
        # Best effort on the way out (the server may be the reason we are leaving).
        with contextlib.suppress(psycopg.Error, PkbenchError), self.connection.connect() as conn:
            for child in self._strategy_schemas.values():
                conn.execute(sql.SQL("DROP SCHEMA IF EXISTS {} CASCADE").format(sql.Identifier(child.schema)))
            if self._created_schema:
                conn.execute(sql.SQL("DROP SCHEMA IF EXISTS {} CASCADE").format(sql.Identifier(self.schema)))
            if self._other_runs(conn):
                # Another run may be using them; it did not create them, so it will not drop them either.
                return
            for extension in reversed(self.created_extensions):
                conn.execute(sql.SQL("DROP EXTENSION IF EXISTS {}").format(sql.Identifier(extension)))
