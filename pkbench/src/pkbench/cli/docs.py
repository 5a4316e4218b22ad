"""`pkbench docs`: the documents' generated blocks, written from the committed runs or checked."""

from __future__ import annotations

from pathlib import Path

import click

from pkbench.errors import PkbenchError
from pkbench.evidence import blocks as evidence


@click.command("docs")
@click.option(
    "--check",
    is_flag=True,
    help="Change nothing; fail naming each block or figure that differs, and prose the tree contradicts.",
)
@click.option(
    "--root",
    type=click.Path(path_type=Path, file_okay=False),
    default=Path("."),
    help="The repository (default: the one around the current directory).",
)
def docs(check: bool, root: Path) -> None:
    """Regenerate every measured figure in the READMEs and docs/*.md from the committed runs.

    Each figure sits in a block marked `<!-- generated: NAME from SOURCE -->`; docs/reproductions.md is
    remade by the `pkbench reproductions` command it records, and docs/which-key.svg drawn from the runs.
    --check also reads the prose: a module path, scenario default or count of committed runs the tree
    contradicts, or a capability claim that names no test, fails it.

    \b
    Example:
        pkbench docs --check
    """
    top = evidence.root_of(root)
    if not check:
        for path in evidence.write(top):
            click.echo(str(path.relative_to(top)))
        return
    problems = evidence.check(top)
    for problem in problems:
        click.echo(str(problem), err=True)
    if problems:
        prose = sum(1 for p in problems if p.block == "prose")
        raise PkbenchError(
            f"{len(problems) - prose} generated part(s) differ from the committed runs (./dev docs rewrites "
            f"them), {prose} sentence(s) of prose the tree contradicts (fix the prose or the tree)"
        )
