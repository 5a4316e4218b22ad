"""pkbench's build: pyproject.toml says everything but one step, done here. The committed runs that the
which-key table reads (pyproject's [tool.pkbench] shipped-runs, under docs/reproductions) are copied into the
built package as pkbench/reproductions, so that `pkbench inspect` installed without a clone places tables.
The runs stay in one place in the repository; an editable install reads them there."""

from __future__ import annotations

import shutil
import tomllib
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py
from setuptools.command.sdist import sdist

PROJECT = Path(__file__).resolve().parent
RUNS = PROJECT / "docs" / "reproductions"


def shipped_runs() -> list[str]:
    """The runs to ship, as paths under RUNS."""
    declared = tomllib.loads((PROJECT / "pyproject.toml").read_text())
    runs: list[str] = declared["tool"]["pkbench"]["shipped-runs"]
    return runs


def documents() -> list[Path]:
    missing = [run for run in shipped_runs() if not (RUNS / run).is_dir()]
    if missing:
        raise SystemExit(f"committed runs not under {RUNS}: {', '.join(missing)}")
    return [document for run in shipped_runs() for document in sorted((RUNS / run).rglob("*.json"))]


class BuildWithRuns(build_py):
    """build_py, then each shipped run's JSON documents (results.json, a sweep's sweep.json) copied in."""

    def run(self) -> None:
        super().run()
        if self.editable_mode:
            return
        target = Path(self.build_lib) / "pkbench" / "reproductions"
        for document in documents():
            copied = target / document.relative_to(RUNS)
            copied.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(document, copied)


class SdistWithRuns(sdist):
    """An sdist holds the shipped runs where they are in the repository, for the wheel built from it."""

    def make_distribution(self) -> None:
        self.filelist.extend(str(document.relative_to(PROJECT)) for document in documents())
        super().make_distribution()


setup(cmdclass={"build_py": BuildWithRuns, "sdist": SdistWithRuns})
