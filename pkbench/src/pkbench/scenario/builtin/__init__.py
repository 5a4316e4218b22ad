"""The built-in scenario files, as shipped inside the package: their names and their text."""

from __future__ import annotations

from importlib import resources


def names() -> list[str]:
    folder = resources.files(__name__)
    return sorted(p.name.removesuffix(".toml") for p in folder.iterdir() if p.name.endswith(".toml"))


def source(name: str) -> str:
    """How results.json names a built-in scenario's file."""
    return f"scenarios/{name}.toml"


def text(name: str) -> str:
    return (resources.files(__name__) / f"{name}.toml").read_text()
