"""Every relative link in the repository's Markdown files leads to a file inside the repository.

A link that climbs out of the repository (to notes kept beside a working copy, say) works on one machine and
is broken in every clone.
"""

from __future__ import annotations

import re
import subprocess
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
