"""The hand-written prose of the READMEs and docs pages, checked against the tree: what a sentence states
that the tree can contradict fails `pkbench docs --check`, as a stale generated figure does.

- A path to a source file (`summary/advice.py`, `sequuid/test/run`) names a file that is there.
- A scenario default quoted in prose ("the scenario's `rounds` parameter, 6 in war", "`--rounds` defaults to 6
  in war") or in a quoted scenario file (a ```toml block whose `name` is a built-in scenario) is what the
  built-in file says.
- A count of committed runs ("three committed sweeps of `contention`", "two committed runs of `read`") is
  the count under pkbench/docs/reproductions, and a scenario said to have "no run committed" has none.
- A capability sentence ("tested on", "drop-in", "passes", "checked") names the test that shows it, a test
  file or script that is there: a claim no test backs is not made.
- Versions and counts (sequuid's version, its test schedules, a run's rounds, the PostgreSQL versions tested,
  a cost per call) and pointers a reader cannot follow: evidence.prose_claims.

Generated blocks and fenced code (but for quoted scenario files) are not prose and are left alone.
"""

from __future__ import annotations

import json
import os
import re
import tomllib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pkbench.evidence import prose_claims
from pkbench.evidence.prose_claims import NUMBERS

DOCUMENTS = (
    "README.md",
    "pkbench/README.md",
    "sequuid/README.md",
    "sequuid-py/README.md",
    "docs/*.md",
    "pkbench/docs/*.md",
    "sequuid/docs/*.md",
    "sequuid-py/docs/*.md",
)
# Pages written by a command (their prose is the command's, checked with it) and the notes they quote.
LEFT_ALONE = ("pkbench/docs/reproductions.md",)
SCENARIOS = Path("pkbench/src/pkbench/scenario/builtin")
RUNS = Path("pkbench/docs/reproductions")
# Folders whose files no document names.
SKIPPED = frozenset({"node_modules", "__pycache__", "build", "timeseries"})

GENERATED = re.compile(r"^<!-- generated: .*?^<!-- end generated: [a-z0-9-]+ -->", re.S | re.M)
FENCE = re.compile(r"^(```|~~~)(?P<lang>\w*)\n(?P<body>.*?)^\1", re.S | re.M)
SOURCE_PATH = re.compile(
    r"(?<![\w/.:<{*-])((?:[A-Za-z0-9_.-]+/)+[A-Za-z0-9_-]+\.(?:py|toml|sql|sh|c|h))(?![\w/*])"
)
# A test: a file under a test(s)/ folder, or a test_*.py file, named as a path.
TEST_PATH = re.compile(
    r"(?<![\w/.-])((?:[A-Za-z0-9_.-]+/)*(?:tests?/[A-Za-z0-9_./-]*[A-Za-z0-9_]|test_\w+\.py))"
)
# "passes" as a suite passes, not as a function passes its argument; "checked" as a claim checked by, from,
# on or against something, not as an option checked when read.
CAPABILITY = re.compile(
    r"\b(tested on|drop-in|(?<!strategy )passes(?!\s+(?:its|the|a|an|their|them|through|and|on)\b)"
    r"|checked (?:by|from|on|against|with)\b)",
    re.I,
)
PARAMETER_DEFAULT = re.compile(
    r"`(?P<parameter>[a-z_]+)` parameter, (?P<value>[\w.]+) in `?(?P<scenario>[a-z][a-z-]*)\b"
)
OPTION_DEFAULT = re.compile(
    r"`--(?P<option>[a-z-]+)[^`]*`[^.;|]*?\bdefaults? (?:to |is )?(?P<value>[\w.]+) in "
    r"`?(?P<scenario>[a-z][a-z-]*)\b"
)
RUN_COUNT = re.compile(
    r"\b(?P<count>\w+) (?:committed )?(?P<what>runs?|sweeps?) of `(?P<scenario>[a-z][a-z-]*)`", re.I
)
NO_RUN = re.compile(r"\bno run committed\b", re.I)
SCENARIO_NAME = re.compile(r"`([a-z][a-z-]*)`")


@dataclass(frozen=True)
class Unit:
    """A sentence, or a table row, of a document's prose, with the line it starts on."""

    line: int
    text: str


def documents(root: Path) -> list[Path]:
    found: list[Path] = []
    for pattern in DOCUMENTS:
        found += sorted(p for p in root.glob(pattern) if str(p.relative_to(root)) not in LEFT_ALONE)
    return found


def _blank(match: re.Match[str]) -> str:
    """The match's text with every character but its line breaks blanked: line numbers stay right."""
    return re.sub(r"[^\n]", " ", match[0])


def units(text: str) -> Iterator[Unit]:
    """The sentences and table rows of TEXT, outside generated blocks and fenced code."""
    prose = FENCE.sub(_blank, GENERATED.sub(_blank, text))
    paragraph: list[str] = []
    start = 0
    lines = prose.split("\n")
    for number, line in enumerate([*lines, ""], start=1):
        if line.lstrip().startswith("|"):
            yield Unit(number, line)
            continue
        if line.strip() and not line.lstrip().startswith("#"):
            if not paragraph:
                start = number
            paragraph.append(line.strip())
            continue
        if paragraph:
            joined = " ".join(paragraph)
            for sentence in re.split(r"(?<=[.!?])\s+(?=[A-Z`*\[(-])", joined):
                yield Unit(start, sentence)
            paragraph = []


class Tree:
    """What the prose is checked against, read once per check: the files, the built-in scenarios and the
    committed runs under a repository's ROOT."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.files = _files(root)
        self.runs, self.sweeps = _committed_runs(root)
        self.recorded = prose_claims.Recorded(root)
        self._scenarios: dict[str, dict[str, Any] | None] = {}

    def exists(self, name: str) -> bool:
        """A file (or folder) of the tree whose path is NAME or ends with /NAME."""
        name = name.rstrip("/")
        return any(f == name or f.endswith("/" + name) or f"/{name}/" in f"/{f}" for f in self.files)

    def scenario(self, name: str) -> dict[str, Any] | None:
        if name not in self._scenarios:
            path = self.root / SCENARIOS / f"{name}.toml"
            self._scenarios[name] = tomllib.loads(path.read_text()) if path.is_file() else None
        return self._scenarios[name]

    def default(self, scenario: str, parameter: str) -> tuple[bool, Any]:
        """Whether SCENARIO's file sets PARAMETER (or PARAMETER_s), and to what."""
        data = self.scenario(scenario)
        parameters = data.get("parameters", {}) if data is not None else {}
        key = parameter.replace("-", "_")
        for name in (key, f"{key}_s"):
            if name in parameters:
                return True, parameters[name]
        return False, None


def _files(root: Path) -> frozenset[str]:
    """Every file under ROOT, relative to it, but in hidden folders (.git, .venv), caches and build output,
    which are not walked at all."""
    found: set[str] = set()
    for folder, folders, names in os.walk(root):
        folders[:] = [f for f in folders if not f.startswith(".") and f not in SKIPPED]
        where = Path(folder).relative_to(root)
        found.update((where / name).as_posix() for name in names)
    return frozenset(found)


def _value(text: str) -> Any:
    word = text.lower()
    if word in NUMBERS:
        return NUMBERS[word]
    try:
        return tomllib.loads(f"v = {text}")["v"]
    except tomllib.TOMLDecodeError:
        return text


def _scenario_of(results: Path) -> str | None:
    name = json.loads(results.read_text()).get("scenario", {}).get("name")
    return name if isinstance(name, str) else None


def _committed_runs(root: Path) -> tuple[dict[str, int], dict[str, int]]:
    """How many committed runs, and sweeps, there are of each scenario."""
    runs: dict[str, int] = {}
    sweeps: dict[str, int] = {}
    for path in sorted((root / RUNS).rglob("results.json")):
        if (name := _scenario_of(path)) is not None:
            runs[name] = runs.get(name, 0) + 1
    for path in sorted((root / RUNS).rglob("sweep.json")):
        points = json.loads(path.read_text()).get("points", [])
        first = next((path.parent / str(p.get("directory")) / "results.json" for p in points), None)
        if first is not None and first.is_file() and (name := _scenario_of(first)) is not None:
            sweeps[name] = sweeps.get(name, 0) + 1
    return runs, sweeps


def _quoted_scenarios(tree: Tree, text: str) -> Iterator[tuple[int, str]]:
    """Lines of a quoted built-in scenario file that say another value than the file does."""
    for fence in FENCE.finditer(text):
        if fence["lang"] != "toml":
            continue
        try:
            quoted = tomllib.loads(fence["body"])
        except tomllib.TOMLDecodeError:
            continue
        name = quoted.get("name")
        actual = tree.scenario(name) if isinstance(name, str) else None
        if actual is None:
            continue
        line = text.count("\n", 0, fence.start()) + 1
        for table in ("parameters", "settings"):
            for key, value in (quoted.get(table) or {}).items():
                if key in actual.get(table, {}) and actual[table][key] != value:
                    yield (
                        line,
                        (
                            f"quotes {name}.toml's [{table}] {key} = {value!r}; "
                            f"the file says {actual[table][key]!r}"
                        ),
                    )


def check_text(tree: Tree, text: str, readme: Path | None = None) -> list[str]:
    """What the prose of TEXT states that TREE contradicts, one line each."""
    found = [f"line {line}: {why}" for line, why in _quoted_scenarios(tree, text)]
    runs, sweeps = tree.runs, tree.sweeps
    for unit in units(text):
        where = f"line {unit.line}"
        for path in SOURCE_PATH.findall(unit.text):
            if not path.startswith("path/to/") and not tree.exists(path):
                found.append(f"{where}: names {path}, which is not in the tree")
        for match in [*PARAMETER_DEFAULT.finditer(unit.text), *OPTION_DEFAULT.finditer(unit.text)]:
            parameter = match.groupdict().get("parameter") or match["option"]
            known, actual = tree.default(match["scenario"], parameter)
            if known and _value(match["value"]) != actual:
                found.append(
                    f"{where}: says {parameter} is {match['value']} in {match['scenario']}; "
                    f"its scenario file says {actual}"
                )
        for match in RUN_COUNT.finditer(unit.text):
            counted = sweeps if match["what"].lower().startswith("sweep") else runs
            said, actual = _value(match["count"]), counted.get(match["scenario"], 0)
            if isinstance(said, int) and said != actual:
                found.append(
                    f"{where}: says {match['count']} {match['what']} of {match['scenario']}; "
                    f"{actual} are committed"
                )
        if NO_RUN.search(unit.text):
            for name in dict.fromkeys(SCENARIO_NAME.findall(unit.text)):
                if runs.get(name):
                    found.append(f"{where}: says {name} has no run committed; {runs[name]} are")
        if CAPABILITY.search(unit.text):
            tests = TEST_PATH.findall(unit.text)
            if not tests:
                claim = CAPABILITY.search(unit.text)
                assert claim is not None
                found.append(f"{where}: says {claim[0]!r} and names no test that shows it")
            for test in tests:
                if not tree.exists(test):
                    found.append(f"{where}: names the test {test}, which is not in the tree")
    claims = prose_claims.check_text(tree.recorded, text, readme)
    found += [f"line {line}: {why}" for line, why in claims]
    return found


def _readme_above(root: Path, page: Path) -> Path | None:
    """The README a page under a docs/ folder means by "the README": the nearest one above the folder."""
    if "docs" not in page.relative_to(root).parts:
        return None
    for folder in page.parents:
        if (folder / "README.md").is_file() and folder != page.parent:
            return folder / "README.md"
        if folder == root:
            break
    return None


def check(root: Path) -> list[tuple[str, str]]:
    """(document, what it states that the tree contradicts) for every document's prose."""
    tree = Tree(root)
    return [
        (str(path.relative_to(root)), why)
        for path in documents(root)
        for why in check_text(tree, path.read_text(), _readme_above(root, path))
    ]
