"""The harness README documents every command and every option of `pkbench run`, and the scenario file page
every step kind and `[summary]` key: a new one fails here."""

from __future__ import annotations

import re
from pathlib import Path

import click

from pkbench import steps
from pkbench.cli.main import cli
from pkbench.scenario import file as scenario

README = (Path(__file__).parent.parent / "README.md").read_text()
SCENARIO_FILES = (Path(__file__).parent.parent / "docs" / "scenario-files.md").read_text()


def test_every_command_is_documented() -> None:
    for name in cli.commands:
        assert f"`pkbench {name}" in README, name


def test_every_run_option_is_documented() -> None:
    run = cli.commands["run"]
    options = [p for p in run.params if isinstance(p, click.Option)]
    for option in options:
        for flag in option.opts:
            if flag.startswith("--"):
                # the flag whole, not as the start of a longer one (--pg within --pg-bin)
                assert re.search(rf"`{re.escape(flag)}[` ]", README), flag


def test_every_step_kind_and_summary_key_is_documented() -> None:
    for kind in steps.KINDS:
        assert f"| `{kind}` |" in SCENARIO_FILES, kind
    for key in scenario.SUMMARY_KEYS:
        assert f"\n{key} = " in SCENARIO_FILES, key
