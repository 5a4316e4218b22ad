"""The shape of the package docs/architecture.md draws: packages on floors that import only downwards, no
import circle, a short way from the command line to the lowest leaf, and no module too long to read.

Every import counts, wherever it sits: inside a function or under TYPE_CHECKING it is still a dependency of
the design, so it is still an edge here.
"""

from __future__ import annotations

import ast
import functools
import subprocess
import sys
from pathlib import Path

SOURCE = Path(__file__).parent.parent / "src"
PACKAGE = SOURCE / "pkbench"

# Top to bottom: a module may import its own floor and the floors below it, never one above.
FLOORS = (
    "cli",  # the front door: click commands, the one error boundary, the console
    "advise",  # pkbench advise: its plan of runs, running them, what they answer; --like's replica
    "run",  # planning and orchestration: options and plan, the runner, paired rounds, sweeps
    "report",  # report.html, comparison.html, sweep.html
    "survey",  # pkbench inspect: a live server's keys read-only, each placed in the which-key table
    "evidence",  # what the documents say from the committed runs: the generated blocks, the which-key table
    "model",  # a key's cost on a server it never ran on: b-tree and checkpoint arithmetic fitted to runs
    "summary",  # what one run writes about itself: summary.md, summary.csv, the console's tables, sweep.md
    "scenario",  # scenario files, the built-in ones, the studies' published figures
    "steps",  # one module per step kind, and their registry
    "probes",  # what is read from the server while and after a step runs
    "pgbench",  # the pgbench driver and the pure parsers of its output
    "server",  # where the benchmark runs: embedded cluster, builds, OS user, limits, --dsn, standby
    "strategies",  # the strategy catalog
    "analysis",  # statistics, verdicts, the metric registry, run diffs
    "reporting",  # the progress interface every floor above reports through
    "results",  # the results model and results.json
    "schema",  # how a TOML table is checked
    "text",  # how figures are written for people
    "errors",  # the one exception type
)
ENTRY_POINTS = {"pkbench", "pkbench.__main__"}
MOST_LEVELS = 12
MOST_TOP_LEVEL_FILES = 12


def module_name(path: Path) -> str:
    parts = list(path.relative_to(SOURCE).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports_of(name: str, path: Path, modules: set[str]) -> set[str]:
    """The package's modules that the module NAME at PATH imports, anywhere in it."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                module = ".".join([*base, *([node.module] if node.module else [])])
            else:
                module = node.module or ""
            found.add(module)
            found |= {f"{module}.{alias.name}" for alias in node.names}
    # A submodule's own packages load before it: that is Python's doing, not an edge of the design.
    return {m for m in found & modules if m != name and not name.startswith(m + ".")}


def graph() -> dict[str, set[str]]:
    paths = {module_name(p): p for p in PACKAGE.rglob("*.py")}
    return {name: imports_of(name, path, set(paths)) for name, path in paths.items()}


def floor(name: str) -> int | None:
    parts = name.split(".")
    return FLOORS.index(parts[1]) if len(parts) > 1 and parts[1] in FLOORS else None


def find_circle(edges: dict[str, set[str]]) -> list[str] | None:
    """One import circle of EDGES (module -> modules it imports), or None."""
    visiting: list[str] = []
    done: set[str] = set()

    def visit(name: str) -> list[str] | None:
        if name in done:
            return None
        if name in visiting:
            return [*visiting[visiting.index(name) :], name]
        visiting.append(name)
        for dependency in sorted(edges.get(name, ())):
            circle = visit(dependency)
            if circle:
                return circle
        visiting.pop()
        done.add(name)
        return None

    for name in sorted(edges):
        circle = visit(name)
        if circle:
            return circle
    return None


def longest_chain(edges: dict[str, set[str]], start: str) -> list[str]:
    """The longest way down the imports from START (EDGES has no circle)."""

    @functools.cache
    def chain(name: str) -> tuple[str, ...]:
        below = [chain(d) for d in sorted(edges.get(name, ()))]
        return (name, *max(below, key=len, default=()))

    return list(chain(start))


def test_no_import_circle_counting_every_import() -> None:
    circle = find_circle(graph())
    assert circle is None, " -> ".join(circle or [])


def test_the_checks_find_a_circle_and_the_longest_chain() -> None:
    assert find_circle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_circle({"a": {"b"}, "b": set()}) is None
    assert longest_chain({"a": {"b", "c"}, "b": {"c"}, "c": set()}, "a") == ["a", "b", "c"]


def test_imports_inside_functions_and_under_type_checking_count(tmp_path: Path) -> None:
    module = tmp_path / "m.py"
    module.write_text(
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n    from pkbench.results import model\n"
        "def f():\n    from pkbench.report import render\n    from . import x\n"
    )
    known = {"pkbench.results", "pkbench.results.model", "pkbench.report.render", "pkbench.cli.x"}
    assert imports_of("pkbench.cli.m", module, known) == known


def test_every_package_is_on_a_floor_and_imports_only_downwards() -> None:
    edges = graph()
    unplaced = sorted(n for n in edges if floor(n) is None and n not in ENTRY_POINTS)
    assert not unplaced, f"modules on no floor: {unplaced}"
    upwards = [
        f"{name} -> {dependency}"
        for name, dependencies in edges.items()
        for dependency in dependencies
        if name not in ENTRY_POINTS and (floor(dependency) or 0) < (floor(name) or 0)
    ]
    assert not upwards, upwards


def test_the_entry_point_is_at_most_twelve_levels_above_the_lowest_leaf() -> None:
    chain = longest_chain(graph(), "pkbench.__main__")
    assert len(chain) <= MOST_LEVELS, " -> ".join(chain)


def test_the_top_of_the_package_holds_only_entry_points_and_shared_leaves() -> None:
    top = sorted(p.name for p in PACKAGE.glob("*.py"))
    assert len(top) <= MOST_TOP_LEVEL_FILES, top
    shared = {f"{name}.py" for name in FLOORS}
    assert set(top) <= shared | {"__init__.py", "__main__.py"}, top


def test_no_module_over_about_400_lines() -> None:
    # A smell detector, not a reason to split: a module this long usually does more than one job.
    lengths = {module_name(p): len(p.read_text().splitlines()) for p in PACKAGE.rglob("*.py")}
    too_long = {name: n for name, n in lengths.items() if n > 400}
    assert not too_long, too_long


def test_starting_pkbench_imports_no_scipy_statistics_or_optimizer() -> None:
    # Each takes seconds to import: a command pays them when it judges or fits, not whenever it starts (the
    # test suite starts pkbench a hundred times; a user's `pkbench --help` waits for what it imports).
    loaded = subprocess.run(
        [sys.executable, "-c", "import sys, pkbench.cli.main; print(' '.join(sorted(sys.modules)))"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    assert [m for m in loaded if m.startswith(("scipy.stats", "scipy.optimize"))] == []
