"""sequuid's C extension built by pkbench for a server build that lacks it (the pip-only path), once,
and never into a server its system's packages own."""

from __future__ import annotations

import shutil
from pathlib import Path

import psycopg
import pytest

from pkbench.server import sequuid_build
from pkbench.server.builds import find_pgbench, find_server_build
from pkbench.server.embedded import EmbeddedCluster


def _without_sequuid(bindir: Path) -> None:
    root = bindir.parent
    for found in [*root.glob("share/**/extension/sequuid*"), *root.glob("lib/**/sequuid.so")]:
        found.unlink()


def test_a_wheel_build_gets_sequuid_once_and_runs_it(server_tmpdir: Path) -> None:
    build = find_server_build(18)
    wheel_root = build.bindir.parents[2]
    for name in (build.origin, f"{build.origin}.libs"):
        if (wheel_root / name).exists():
            shutil.copytree(wheel_root / name, server_tmpdir / "wheel" / name, symlinks=True)
    bindir = server_tmpdir / "wheel" / build.bindir.relative_to(wheel_root)
    _without_sequuid(bindir)

    built = sequuid_build.ensure(bindir)
    assert built.status == "built", built.detail
    again = sequuid_build.ensure(bindir)
    assert again.status == "present", "the build is the cache: the second run finds it there"

    # every statement logged, bind parameters not (how docs/public-ids.md keeps the key out of the log)
    logging = {"log_statement": "all", "log_parameter_max_length": "0", "log_min_error_statement": "error"}
    cluster = EmbeddedCluster(bindir, find_pgbench(bindir), {"shared_buffers": "16MB", **logging})
    with cluster, psycopg.connect(cluster.connection.conninfo(), autocommit=True) as conn:
        conn.execute("CREATE EXTENSION sequuid")
        row = conn.execute("SELECT uuid_version(uuid_generate_v6()), probin FROM pg_proc "
                           "WHERE proname = 'uuid_generate_v6'").fetchone()  # fmt: skip
        assert row is not None and row[0] == 6 and row[1] == "$libdir/sequuid", "the C function, not the port"
        _public_id_key_stays_out_of_the_log(conn, cluster.log_path)


def _public_id_key_stays_out_of_the_log(conn: psycopg.Connection[tuple[object, ...]], log: Path) -> None:
    """The key set as the documentation says, used, misused and mistyped: no log line carries any of it."""
    key = "5f1d2c3b4a69788796a5b4c3d2e1f00f"
    shown = conn.execute("SELECT set_config('sequuid.public_id_key', %s, false)", [key]).fetchone()
    assert shown == ("(hidden)",)
    public_id = conn.execute("SELECT uuid_v7_to_public('018f2d9f-9a2a-7def-8c3f-7b1a2c4d5e6f')").fetchone()
    assert public_id is not None and str(public_id[0])[14] == "4"
    with pytest.raises(psycopg.errors.InvalidParameterValue):
        conn.execute("SELECT uuid_public_to_v7('018f2d9f-9a2a-7def-8c3f-7b1a2c4d5e6f')")
    conn.execute("SELECT set_config('sequuid.public_id_key', %s, false)", [key[:-1]])
    with pytest.raises(psycopg.errors.InvalidParameterValue, match="not a key") as raised:
        conn.execute("SELECT uuid_v7_to_public('018f2d9f-9a2a-7def-8c3f-7b1a2c4d5e6f')")
    assert key[:8] not in str(raised.value)
    text = log.read_text(errors="replace")
    assert "uuid_v7_to_public" in text and "is not a key" in text, "the statements and errors are logged"
    assert key[:8] not in text.lower(), "a part of the key is in the server log"


def test_a_server_its_packages_own_is_left_alone(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "pg_config").touch()
    answers = {"--sharedir": "/usr/share/postgresql/99", "--pkglibdir": "/usr/lib/postgresql/99/lib"}
    monkeypatch.setattr(sequuid_build, "_pg_config", lambda _, option: answers.get(option, "gcc"))
    found = sequuid_build.ensure(tmp_path)
    assert found.status == "absent"
    assert "postgresql-N-sequuid package" in found.detail
    assert "PL/pgSQL port" in found.line()


def test_no_pg_config_is_said(tmp_path: Path) -> None:
    found = sequuid_build.ensure(tmp_path)
    assert found.status == "absent" and "no pg_config" in found.detail
