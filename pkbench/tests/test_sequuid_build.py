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

    cluster = EmbeddedCluster(bindir, find_pgbench(bindir), {"shared_buffers": "16MB"})
    with cluster, psycopg.connect(cluster.connection.conninfo(), autocommit=True) as conn:
        conn.execute("CREATE EXTENSION sequuid")
        row = conn.execute("SELECT uuid_version(uuid_generate_v6()), probin FROM pg_proc "
                           "WHERE proname = 'uuid_generate_v6'").fetchone()  # fmt: skip
        assert row is not None and row[0] == 6 and row[1] == "$libdir/sequuid", "the C function, not the port"


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
