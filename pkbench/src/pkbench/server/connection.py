"""One description of the server to use, resolved once and handed unchanged to psycopg and to pgbench.

libpq itself resolves what the user gave (a DSN or URL, the PG* environment, the service file, ~/.pgpass or
PGPASSFILE): pkbench connects once with exactly that, then reads back the parameters the connection really
used. From then on both its own connections and pgbench get those explicit parameters, and pgbench gets no PG*
variable of its own, so neither can drift to another host, port or TLS mode. Secrets never reach argv, output
or files the user can see: the password travels in pgbench's environment, an ssl key's password in a private
service file (mode 0600, in a directory only we can enter, removed when the run ends).
"""

from __future__ import annotations

import configparser
import contextlib
import os
import shutil
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

import psycopg
from psycopg import conninfo as pg_conninfo
from psycopg import pq

from pkbench.errors import PkbenchError, first_line

# Parameters that are secrets: never in argv, output or files.
SECRET_KEYS = ("password", "sslpassword")
# Already applied by libpq when it resolved the rest; passing them again could only change the answer.
_RESOLVED_AWAY = (*SECRET_KEYS, "passfile", "service", "servicefile", "application_name")
_SERVICE = "pkbench"


def _options(user_options: str | None, search_path: str | None) -> str:
    parts = [p for p in (user_options, f"-c search_path={search_path}" if search_path else None) if p]
    return " ".join(parts)


@dataclass(frozen=True)
class ConnectionInfo:
    """libpq connection parameters, with the secrets kept apart so they never land in argv or files."""

    params: Mapping[str, str]
    password: str | None = None
    sslpassword: str | None = None
    # A private libpq service file carrying the secrets pgbench cannot get from a variable (see secrets()).
    service_file: Path | None = None

    def conninfo(self, **extra: str) -> str:
        secret = {k: v for k, v in (("password", self.password), ("sslpassword", self.sslpassword)) if v}
        return pg_conninfo.make_conninfo(**{**self.params, **secret, **extra})

    def connect(
        self, *, search_path: str | None = None, autocommit: bool = True
    ) -> psycopg.Connection[tuple[object, ...]]:
        extra = {"application_name": "pkbench"}
        options = _options(self.params.get("options"), search_path)
        if options:
            extra["options"] = options
        if "connect_timeout" not in self.params:
            extra["connect_timeout"] = "10"
        try:
            return psycopg.connect(self.conninfo(**extra), autocommit=autocommit)
        except psycopg.OperationalError as e:
            raise PkbenchError(f"cannot connect to {self.redacted()}: {first_line(e)}") from e

    def pgbench_database(self) -> str:
        """pgbench's dbname argument: a conninfo string without secrets (options travel in PGOPTIONS)."""
        return pg_conninfo.make_conninfo(**{k: v for k, v in self.params.items() if k != "options"})

    def environment(self, search_path: str | None = None) -> dict[str, str]:
        """Variables for a client process (pgbench): none of the caller's PG*, the secrets, the options."""
        env = {k: v for k, v in os.environ.items() if not k.startswith("PG")}
        if self.password:
            env["PGPASSWORD"] = self.password
        if self.service_file is not None:
            env["PGSERVICEFILE"] = str(self.service_file)
            env["PGSERVICE"] = _SERVICE
        options = _options(self.params.get("options"), search_path)
        if options:
            env["PGOPTIONS"] = options
        return env

    def redacted(self) -> str:
        keys = ("host", "port", "user", "dbname")
        shown = " ".join(f"{k}={self.params[k]}" for k in keys if k in self.params)
        return shown or "the default server"


def parse(dsn: str, option: str = "--dsn") -> dict[str, str]:
    try:
        return {k: str(v) for k, v in pg_conninfo.conninfo_to_dict(dsn).items()}
    except psycopg.ProgrammingError:
        raise PkbenchError(f"{option} is not a valid connection string or URL") from None


def _service_keys(service: str | None, servicefile: str | None) -> set[str]:
    """The keywords a libpq service section sets, read from the files libpq itself would read."""
    if not service:
        return set()
    candidates = [servicefile or os.environ.get("PGSERVICEFILE") or str(Path.home() / ".pg_service.conf")]
    if os.environ.get("PGSYSCONFDIR"):
        candidates.append(str(Path(os.environ["PGSYSCONFDIR"]) / "pg_service.conf"))
    for candidate in candidates:
        parser = configparser.ConfigParser(interpolation=None)
        with contextlib.suppress(OSError, configparser.Error):
            parser.read(candidate)
            if parser.has_section(service):
                return set(parser.options(service))
    return set()


def resolve(dsn: str, option: str = "--dsn") -> ConnectionInfo:
    """What libpq makes of `dsn` with this process's environment and files: explicit, complete parameters.

    Only what the user set somewhere (the DSN, a PG* variable, the service section) is carried over, with
    the value libpq resolved for it: the rest stays at the client's defaults, which pgbench's own libpq
    (perhaps older, without some of psycopg's keywords) knows best.
    """
    given = parse(dsn, option)
    unresolved = ConnectionInfo({k: v for k, v in given.items() if k not in SECRET_KEYS})
    extra = {} if "connect_timeout" in given else {"connect_timeout": "10"}
    from_environment = {
        option.keyword.decode()
        for option in pq.Conninfo.get_defaults()
        if option.envvar and os.environ.get(option.envvar.decode())
    }
    service = given.get("service") or os.environ.get("PGSERVICE")
    chosen = set(given) | from_environment | _service_keys(service, given.get("servicefile"))
    try:
        with psycopg.connect(pg_conninfo.make_conninfo(dsn, application_name="pkbench", **extra)) as conn:
            info = conn.info
            used = info.get_parameters()
            params = {k: v for k, v in used.items() if k in chosen and k not in _RESOLVED_AWAY}
            # The host and port actually reached (one of a list, or a compiled-in default that pgbench's
            # libpq might not share) are spelled out.
            params.update(host=info.host, port=str(info.port), user=info.user, dbname=info.dbname)
            if "hostaddr" in params:
                params["hostaddr"] = info.hostaddr
            password = info.password or None
            sslpassword = used.get("sslpassword") or None
    except psycopg.OperationalError as e:
        raise PkbenchError(f"cannot connect to {unresolved.redacted()}: {first_line(e)}") from e
    return ConnectionInfo(params, password, sslpassword)


class PrivateSecrets:
    """A private service file holding the ssl key password (libpq reads no variable for it), while in use."""

    def __init__(self, connection: ConnectionInfo) -> None:
        self.connection = connection
        self._directory: Path | None = None

    def __enter__(self) -> ConnectionInfo:
        if not self.connection.sslpassword:
            return self.connection
        self._directory = Path(tempfile.mkdtemp(prefix="pkbench-secrets-"))
        path = self._directory / "pg_service.conf"
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(descriptor, "w") as file:
            file.write(f"[{_SERVICE}]\nsslpassword={self.connection.sslpassword}\n")
        return ConnectionInfo(
            self.connection.params, self.connection.password, self.connection.sslpassword, path
        )

    def __exit__(self, *_: object) -> None:
        if self._directory is not None:
            shutil.rmtree(self._directory, ignore_errors=True)
            self._directory = None
