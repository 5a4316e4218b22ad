"""README.md's first screen, run as printed: every command in its table "your situation, the command" and
the removal commands under "Next steps", read from the README itself and run the way it says (in a clone,
psql connecting as PGHOST, PGUSER and PGDATABASE say), against throwaway clusters and a throwaway virtual
environment.

PostgreSQL 15 to 17 is the 16 wheel's build, copied, so that `make -C sequuid install` installs into the copy
and never into a server the system's packages own; the managed service is a role that owns its database and
is no superuser. pip installs offline: the fresh environment borrows this one's installed packages
(setuptools and pkbench's dependencies), never sequuid's or pkbench's own, which it builds from the copies.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import sysconfig
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psycopg
import pytest

from pkbench.scenario import file as scenario_file
from pkbench.server.builds import find_pgbench, find_server_build, server_bindir
from pkbench.server.embedded import EmbeddedCluster

REPOSITORY = Path(__file__).resolve().parents[2]
TABLE_HEADING = "## Your situation, the command"
NEXT_HEADING = "## Next steps"
CODE_SPAN = re.compile(r"`([^`\n]+)`")
# What a command in the table starts with; any other code span there names something (a function, a file).
PROGRAMS = ("make ", "psql ", "pip ", "python3 ", "pkbench ", "CREATE ", "DROP ")
SETTINGS = {"shared_buffers": "16MB", "max_connections": "20"}


def _section(text: str, heading: str) -> str:
    start = text.index(heading) + len(heading)
    end = text.find("\n## ", start)
    return text[start : end if end >= 0 else len(text)]


def first_screen(text: str) -> dict[str, list[str]]:
    """Each row of the README's situation table: its situation, and its commands in the order printed."""
    rows: dict[str, list[str]] = {}
    for line in _section(text, TABLE_HEADING).splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")] if line.startswith("|") else []
        if len(cells) != 2 or set(cells[1]) <= set("-") or cells[0] == "your situation":
            continue
        rows[cells[0]] = [c for c in CODE_SPAN.findall(cells[1]) if c.startswith(PROGRAMS)]
    return rows


def next_steps(text: str) -> list[str]:
    """The commands under "Next steps": its code spans that are commands, then its shell block's lines."""
    section = _section(text, NEXT_HEADING)
    commands = [c for c in CODE_SPAN.findall(section.split("```")[0]) if c.startswith(PROGRAMS)]
    for block in re.findall(r"```sh\n(.*?)```", section, re.S):
        commands += [line.split("   #")[0].strip() for line in block.splitlines() if line.strip()]
    return commands


README = (REPOSITORY / "README.md").read_text()
ROWS = first_screen(README)
SITUATIONS = {
    "pg18": "PostgreSQL 18",
    "own": "PostgreSQL 15 to 17, your own server",
    "managed": "a managed service (RDS, Cloud SQL, Azure), as a role that owns its database",
    "application": "keys made in a Python application",
    "survey": "your own database: its keys, and the advice on each",
}


def test_the_table_is_read_as_a_reader_reads_it() -> None:
    text = (
        f"{TABLE_HEADING}\n\n| your situation | what to run |\n|---|---|\n"
        "| PostgreSQL 18 | nothing: `CREATE TABLE t (id uuid);` on `uuidv7()` |\n"
        "| an app | `pip install ./x`, then `python3 -c 'import x'` ([x](x.md)) |\n\n"
        f"{NEXT_HEADING}\n\n- `DROP EXTENSION x;` or `x.sql`\n\n```sh\npsql -f x.sql   # removes it\n```\n"
    )
    assert first_screen(text) == {
        "PostgreSQL 18": ["CREATE TABLE t (id uuid);"],
        "an app": ["pip install ./x", "python3 -c 'import x'"],
    }
    assert next_steps(text) == ["DROP EXTENSION x;", "psql -f x.sql"]


def test_every_situation_of_the_first_screen_has_its_test_here() -> None:
    # a row added to the README fails here until a test below runs its commands
    assert set(ROWS) == set(SITUATIONS.values())
    assert all(ROWS[s] for s in ROWS), ROWS


def _clone(into: Path) -> Path:
    """The parts of a clone the commands use: sequuid/, sequuid-py/, pkbench/ (its sources and docs, whose
    committed runs a built pkbench ships)."""
    skip = shutil.ignore_patterns("build", "*.egg-info", "__pycache__", ".*", "*.o", "*.so", "*.bc")

    def pkbench_skip(folder: str, names: list[str]) -> set[str]:
        top = {"tests", "benchmarks", "bench"} if Path(folder) == REPOSITORY / "pkbench" else set()
        return set(skip(folder, names)) | (top & set(names))

    for part in ("sequuid", "sequuid-py"):
        shutil.copytree(REPOSITORY / part, into / part, symlinks=True, ignore=skip)
    shutil.copytree(REPOSITORY / "pkbench", into / "pkbench", symlinks=True, ignore=pkbench_skip)
    return into


def _shell(command: str, cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(
        ["bash", "-c", command],
        cwd=cwd,
        env={**os.environ, **env},
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, f"{command}: {done.stdout}{done.stderr}"
    return done


def _psql_env(cluster: EmbeddedCluster, user: str, database: str) -> dict[str, str]:
    return {
        "PATH": f"{cluster.bindir}:{os.environ['PATH']}",
        "PGHOST": str(cluster.directory),
        "PGPORT": str(cluster.port),
        "PGUSER": user,
        "PGDATABASE": database,
    }


def _sql(cluster: EmbeddedCluster, statement: str, database: str = "postgres", user: str = "postgres") -> Any:
    conninfo = f"host={cluster.directory} port={cluster.port} user={user} dbname={database}"
    with psycopg.connect(conninfo, autocommit=True) as conn:
        cursor = conn.execute(statement)
        return cursor.fetchall() if cursor.description else None


def test_postgresql_18_makes_the_key_with_nothing_installed() -> None:
    (create,) = ROWS[SITUATIONS["pg18"]]
    # As `pkbench run --pg 18` starts it: as root, from a copy the server's OS user can reach (a clone in a
    # 0700 directory, as mktemp -d makes, holds a wheel that user cannot run).
    bindir = server_bindir(18)
    with EmbeddedCluster(bindir, find_pgbench(bindir), SETTINGS) as cluster:
        _sql(cluster, create)
        made = _sql(cluster, "INSERT INTO orders (total) VALUES (1) RETURNING uuid_extract_version(id)")
        assert made == [(7,)]


@pytest.fixture(scope="module")
def workdir() -> Iterator[Path]:
    """The module's folder, one the server's OS user can enter (pytest's tmp_path is 0700)."""
    path = Path(tempfile.mkdtemp(prefix="pkbench-first-screen-"))
    path.chmod(0o755)
    yield path
    shutil.rmtree(path, ignore_errors=True)


@pytest.fixture(scope="module")
def clone(workdir: Path) -> Path:
    return _clone(workdir / "clone")


@pytest.fixture(scope="module")
def own_server(workdir: Path, clone: Path) -> Iterator[EmbeddedCluster]:
    """A PostgreSQL 16 build of one's own: the wheel's, copied where `make install` may write."""
    build = find_server_build(16)
    wheel_root = build.bindir.parents[2]
    for name in (build.origin, f"{build.origin}.libs"):
        if (wheel_root / name).exists():
            shutil.copytree(wheel_root / name, workdir / "wheel" / name, symlinks=True)
    bindir = workdir / "wheel" / build.bindir.relative_to(wheel_root)
    installed = bindir.parent
    for found in [*installed.glob("share/**/extension/sequuid*"), *installed.glob("lib/**/sequuid*.so")]:
        found.unlink()
    install = ROWS[SITUATIONS["own"]][0]
    # the first pg_config on PATH is the copy's: install.md's "sequuid on your own server"
    _shell(install, clone, {"PATH": f"{bindir}:{os.environ['PATH']}"})
    with EmbeddedCluster(bindir, find_pgbench(bindir), SETTINGS) as cluster:
        yield cluster


def test_postgresql_15_to_17_installs_the_extension_and_makes_the_key(own_server: EmbeddedCluster) -> None:
    _install, *statements = ROWS[SITUATIONS["own"]]
    assert statements == [
        "CREATE EXTENSION sequuid;",
        "CREATE TABLE orders (id uuid PRIMARY KEY DEFAULT uuid_generate_v7(), total numeric);",
    ]
    _sql(own_server, "CREATE DATABASE own")
    for statement in statements:
        _sql(own_server, statement, "own")
    made = _sql(own_server, "INSERT INTO orders (total) VALUES (1) RETURNING uuid_version(id)", "own")
    assert made == [(7,)]
    (drop,) = [c for c in next_steps(README) if c.startswith("DROP EXTENSION")]
    # refused while the table's default uses it, as the README says; then gone
    with pytest.raises(psycopg.errors.DependentObjectsStillExist):
        _sql(own_server, drop, "own")
    _sql(own_server, "DROP TABLE orders", "own")
    _sql(own_server, drop, "own")
    assert _sql(own_server, "SELECT count(*) FROM pg_extension WHERE extname = 'sequuid'", "own") == [(0,)]
    # what lets one schema run on 15 to 17 and on 18 alike
    (pg18api,) = [c for c in next_steps(README) if "sequuid_pg18api" in c]
    _sql(own_server, pg18api, "own")
    assert _sql(own_server, "SELECT uuid_extract_version(uuidv7())", "own") == [(7,)]


def test_a_managed_service_role_installs_the_port_and_removes_it(
    own_server: EmbeddedCluster, clone: Path
) -> None:
    (install,) = ROWS[SITUATIONS["managed"]]
    _sql(own_server, "CREATE ROLE app LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE")
    _sql(own_server, "CREATE DATABASE app OWNER app")
    env = _psql_env(own_server, "app", "app")
    _shell(install, clone, env)
    made = _sql(own_server, "SELECT uuid_version(uuid_generate_v7())", "app", "app")
    assert made == [(7,)]
    assert _sql(own_server, "SELECT rolsuper FROM pg_roles WHERE rolname = 'app'") == [(False,)]
    (uninstall,) = [c for c in next_steps(README) if c.startswith("psql ")]
    _shell(uninstall, clone, env)
    left = _sql(own_server, "SELECT count(*) FROM pg_proc WHERE proname = 'uuid_generate_v7'", "app", "app")
    assert left == [(0,)]


@pytest.fixture(scope="module")
def fresh_venv(workdir: Path) -> Path:
    """A new virtual environment whose `pip` is this one's pip, borrowing this one's packages (the build
    backend, pkbench's dependencies) but for sequuid's and pkbench's own."""
    venv = workdir / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", venv], check=True, timeout=120)
    borrowed = workdir / "borrowed"
    borrowed.mkdir()
    own = re.compile(r"^(__editable__|pkbench|sequuid|_pytest|pytest|py\.py)", re.I)
    for entry in Path(sysconfig.get_paths()["purelib"]).iterdir():
        if not own.match(entry.name) and not entry.name.endswith(".pth"):
            (borrowed / entry.name).symlink_to(entry)
    site = next((venv / "lib").glob("python3*/site-packages"))
    (site / "borrowed.pth").write_text(f"{borrowed}\n")
    pip = venv / "bin" / "pip"
    main = "import sys\nfrom pip._internal.cli.main import main\nsys.exit(main())\n"
    pip.write_text(f"#!{venv / 'bin' / 'python'}\n{main}")
    pip.chmod(0o755)
    return venv


def _offline(venv: Path) -> dict[str, str]:
    # no index, and the build backend from the environment (0 turns build isolation off, in pip's spelling)
    return {
        "PATH": f"{venv / 'bin'}:{os.environ['PATH']}",
        "PIP_NO_INDEX": "1",
        "PIP_NO_BUILD_ISOLATION": "0",
        "PIP_DISABLE_PIP_VERSION_CHECK": "1",
        "VIRTUAL_ENV": str(venv),
    }


def test_an_application_installs_sequuid_py_and_makes_a_v7(fresh_venv: Path, clone: Path) -> None:
    install, run = ROWS[SITUATIONS["application"]]
    env = _offline(fresh_venv)
    _shell(install, clone, env)
    made = _shell(run, clone, env).stdout.strip()
    assert re.fullmatch(r"[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}", made), made
    where = _shell("python3 -c 'import sequuid; print(sequuid.__file__)'", clone, env).stdout
    assert str(fresh_venv) in where, "sequuid from the fresh environment, not this one"


def test_the_survey_of_ones_own_database(fresh_venv: Path, clone: Path, own_server: EmbeddedCluster) -> None:
    install, survey = ROWS[SITUATIONS["survey"]]
    env = _offline(fresh_venv)
    _shell(install, clone, env)
    assert Path(_shell("command -v pkbench", clone, env).stdout.strip()) == fresh_venv / "bin" / "pkbench"
    _sql(own_server, "CREATE DATABASE shop")
    _sql(
        own_server,
        "CREATE TABLE orders (id uuid PRIMARY KEY DEFAULT gen_random_uuid(), total numeric);"
        "INSERT INTO orders (total) SELECT g FROM generate_series(1, 1000) AS g; ANALYZE orders",
        "shop",
    )
    url = f"postgresql://postgres@127.0.0.1:{own_server.port}/shop"
    said = _shell(survey, clone, {**env, "DATABASE_URL": url}).stdout
    assert "orders" in said, said


def test_the_short_try_is_the_default_run_at_its_quick_preset() -> None:
    """`./dev bench --scale quick` hands its arguments to `pkbench run`, whose default scenario has that
    preset, smaller than the default run (the run itself takes minutes: it is not repeated here)."""
    tries = [c for c in CODE_SPAN.findall(_section(README, NEXT_HEADING)) if "--scale quick" in c]
    assert tries == ["./dev bench --scale quick", "pkbench run --pg 18 --scale quick"]
    dev = (REPOSITORY / "dev").read_text()
    assert re.search(r'^\s*bench\) setup bench; exec "\$VENV/bin/pkbench" run "\$@" ;;$', dev, re.M)
    default = scenario_file.load("war")
    quick = default.at_scale("quick")
    assert quick.parameters["rows"] < default.at_scale(None).parameters["rows"]
    assert quick.parameters["rounds"] < default.at_scale(None).parameters["rounds"]
