"""The task runner: a task needing what setup installs says so in one line in a clone before setup."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

DEV = Path(__file__).resolve().parents[2] / "dev"


TASKS = [("docs", "pkbench"), ("lint", "ruff"), ("test-pkbench", "pytest")]


@pytest.mark.parametrize(("task", "tool"), TASKS)
def test_a_task_before_setup_says_setup_comes_first(tmp_path: Path, task: str, tool: str) -> None:
    shutil.copy(DEV, tmp_path / "dev")
    done = subprocess.run(["bash", str(tmp_path / "dev"), task], capture_output=True, text=True, check=False)
    assert done.returncode == 1
    assert done.stdout == ""
    assert done.stderr.count("\n") == 1
    assert f"no {tmp_path}/.venv/bin/{tool}" in done.stderr
    assert "./dev setup first" in done.stderr
