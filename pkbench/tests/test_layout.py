"""The shape of the package the docs describe: no import circle, no module too long to read."""

from __future__ import annotations

import ast
from pathlib import Path

SOURCE = Path(__file__).parent.parent / "src"
PACKAGE = SOURCE / "pkbench"


def module_name(path: Path) -> str:
    parts = list(path.relative_to(SOURCE).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports_of(path: Path, modules: set[str]) -> set[str]:
    """The package's modules PATH imports when it is loaded (imports under TYPE_CHECKING or inside
    functions are not cycles)."""
    tree = ast.parse(path.read_text())
    found: set[str] = set()
    for node in tree.body:
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
            found |= {f"{node.module}.{alias.name}" for alias in node.names}
    return {name for name in found if name in modules}


def graph() -> dict[str, set[str]]:
    paths = {module_name(p): p for p in PACKAGE.rglob("*.py")}
    edges = {name: imports_of(path, set(paths)) for name, path in paths.items()}
    # A package's submodule imports its package's __init__ first: that edge is implicit, not a cycle.
    return {name: {d for d in deps if not name.startswith(d + ".")} - {name} for name, deps in edges.items()}


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


def test_no_import_circle_in_the_package() -> None:
    circle = find_circle(graph())
    assert circle is None, " -> ".join(circle or [])


def test_the_check_finds_a_circle() -> None:
    assert find_circle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_circle({"a": {"b"}, "b": set()}) is None


def test_no_module_over_about_400_lines_and_the_orchestrator_under_250() -> None:
    lengths = {module_name(p): len(p.read_text().splitlines()) for p in PACKAGE.rglob("*.py")}
    too_long = {name: n for name, n in lengths.items() if n > 400}
    assert not too_long, too_long
    assert lengths["pkbench.run.runner"] <= 250
