"""The recorded command is the one that reruns the run, and the documents show it without a path of the
machine that made it."""

from __future__ import annotations

from pathlib import Path

from pkbench.cli.arguments import once_each
from pkbench.cli.run import run
from pkbench.results import RunResult
from pkbench.summary.runs import shown_command

ROOT = Path(__file__).parent.parent.parent


def test_each_single_valued_option_is_recorded_once_with_the_value_that_counted() -> None:
    given = ["pkbench", "run", "contention", "--clients", "64,1", "--rounds", "3", "--no-report"]
    given += ["--set", "a=1", "--scale", "async", "--clients", "128,64", "--rounds=7", "--set", "b=2"]
    given += ["--paired", "--interleave", "--no-report"]
    assert once_each(given, run) == [
        *["pkbench", "run", "contention", "--set", "a=1", "--scale", "async", "--clients", "128,64"],
        *["--rounds=7", "--set", "b=2", "--interleave", "--no-report"],
    ]
    # A value that looks like an option is still the option's value.
    assert once_each(["pkbench", "run", "--schema", "--out", "--out", "x"], run) == [
        *["pkbench", "run", "--schema", "--out", "--out", "x"]
    ]


def recorded(command: list[str], version_num: int | None) -> RunResult:
    server = {"version": "18.6", "version_num": version_num} if version_num else {}
    return RunResult(command, "2026-11-28T00:00:00", {}, server, {}, {})


def test_the_shown_command_names_no_folder_of_the_machine_that_ran_it() -> None:
    command = ["pkbench", "run", "contention", "--pg-bin", "/tmp/pkbench-many-cores-Iz49tl/bin"]
    command += ["--out", "/root/out/contention", "--clients", "16,64"]
    committed = Path("pkbench/docs/reproductions/contention-16-cores-async")
    assert shown_command(recorded(command, 180006), committed) == (
        "pkbench run contention --pg 18 --out contention-16-cores-async --clients 16,64"
    )
    assert shown_command(recorded(["pkbench", "run", "--pg-bin=/opt/pg/bin"], None), committed) == (
        "pkbench run --pg-bin PG_BIN"
    )


def test_no_document_prints_a_temporary_folder() -> None:
    for document in (
        ROOT / "README.md",
        ROOT / "pkbench" / "README.md",
        *(ROOT / "pkbench" / "docs").glob("*.md"),
    ):
        text = document.read_text()
        assert "/tmp/pkbench-" not in text and "/root/out/" not in text, document
