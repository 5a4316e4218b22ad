"""What pip users get: the wheel and the sdist built from this folder, their metadata and their files."""

from __future__ import annotations

import email
import shutil
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest

import sequuid

PROJECT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The sdist and the wheel, built by setuptools' own backend from a copy of the project (pip wheel's
    build isolation would download setuptools)."""
    work = tmp_path_factory.mktemp("packaging")
    source = work / "sequuid-py"
    shutil.copytree(
        PROJECT,
        source,
        # what a checkout holds, less the harness's builds (node_modules, Rust's and Java's target, Go's bin)
        ignore=shutil.ignore_patterns(
            "build", "dist", "*.egg-info", "__pycache__", ".*cache", "node_modules", "target", "bin"
        ),
    )
    out = work / "dist"
    built: dict[str, Path] = {}
    # one process per build: setuptools keeps state between builds in one process
    for kind in ("sdist", "wheel"):
        script = (
            "import sys\nfrom setuptools import build_meta\n"
            f"print('built', build_meta.build_{kind}(sys.argv[1]))\n"
        )
        result = subprocess.run(
            [sys.executable, "-c", script, str(out)], cwd=source, capture_output=True, text=True, check=False
        )
        assert result.returncode == 0, result.stderr[-3000:]
        built[kind] = out / result.stdout.splitlines()[-1].split()[1]
    return built


def test_the_wheel_carries_the_library_and_its_licence_and_no_harness(built: dict[str, Path]) -> None:
    with zipfile.ZipFile(built["wheel"]) as wheel:
        names = wheel.namelist()
        dist_info = next(name.split("/")[0] for name in names if name.endswith(".dist-info/METADATA"))
        metadata = email.message_from_bytes(wheel.read(f"{dist_info}/METADATA"))
        licence = wheel.read(f"{dist_info}/licenses/LICENSE").decode()
    assert "sequuid/__init__.py" in names and "sequuid/py.typed" in names
    assert not [name for name in names if name.startswith(("sequuid_conformance", "tests/", "conformance/"))]
    assert licence == (PROJECT / "LICENSE").read_text(encoding="utf-8")
    assert metadata["Name"] == "sequuid"
    assert metadata["Version"] == sequuid.__version__
    assert metadata["License-Expression"] == "PostgreSQL"
    assert metadata["Requires-Python"] == ">=3.11"
    runtime = [need for need in metadata.get_all("Requires-Dist") or [] if "extra ==" not in need]
    assert runtime == ['tzdata; sys_platform == "win32"']
    classifiers = metadata.get_all("Classifier") or []
    assert "Typing :: Typed" in classifiers and "Programming Language :: Python :: 3.11" in classifiers
    # no licence classifier beside the SPDX expression, which PEP 639 forbids
    assert not [classifier for classifier in classifiers if classifier.startswith("License ::")]


def test_the_sdist_carries_the_licence_and_no_harness(built: dict[str, Path]) -> None:
    with tarfile.open(built["sdist"]) as sdist:
        names = [name.split("/", 1)[1] for name in sdist.getnames() if "/" in name]
    assert "LICENSE" in names and "pyproject.toml" in names and "src/sequuid/_generate.py" in names
    assert not [name for name in names if "conformance" in name]


def test_the_licence_is_the_repository_s() -> None:
    # sequuid-py/LICENSE is a copy (a wheel and an sdist take licence files from inside the project only)
    assert (PROJECT / "LICENSE").read_text(encoding="utf-8") == (PROJECT.parent / "LICENSE").read_text(
        encoding="utf-8"
    )
