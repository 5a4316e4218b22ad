"""pkbench docs: the documents' measured figures come from the committed runs, and the check says which
block stops matching them. Pure file work on a copy of the documents and runs: no server."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from pkbench.errors import PkbenchError
from pkbench.summary import evidence, evidence_tables

ROOT = Path(__file__).resolve().parents[2]


def tree(tmp_path: Path) -> Path:
    """A copy of what the check reads: the documents, the committed runs, the notes and BENCHMARKS.md."""
    copy = tmp_path / "repo"
    for document in evidence.documents(ROOT):
        target = copy / document.relative_to(ROOT)
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(document, target)
    for name in (
        "pkbench/docs/reproductions.md",
        "pkbench/docs/reproductions-notes.md",
        "sequuid/BENCHMARKS.md",
    ):
        shutil.copy(ROOT / name, copy / name)
    shutil.copytree(ROOT / "pkbench/docs/reproductions", copy / "pkbench/docs/reproductions")
    return copy


def test_the_committed_documents_match_the_committed_runs() -> None:
    assert [str(p) for p in evidence.check(ROOT)] == []


def test_a_changed_figure_of_a_committed_run_fails_naming_the_block(tmp_path: Path) -> None:
    copy = tree(tmp_path)
    path = copy / "pkbench/docs/reproductions/war-study/results.json"
    data = json.loads(path.read_text())
    window = data["strategies"][1]["workloads"][0]
    window["tps"] = window["tps"] * 1.5
    path.write_text(json.dumps(data))
    problems = [str(p) for p in evidence.check(copy)]
    assert (
        "README.md: block war-study: differs from what pkbench/docs/reproductions/war-study gives" in problems
    )
    assert "pkbench/docs/reproductions.md: block page: differs from what its command makes" in problems
    evidence.write(copy)
    assert evidence.check(copy) == []


def test_a_block_quoting_a_run_that_is_not_there_fails(tmp_path: Path) -> None:
    copy = tree(tmp_path)
    readme = copy / "README.md"
    readme.write_text(
        readme.read_text() + "\n<!-- generated: wal-tiers from pkbench/docs/reproductions/gone -->\n"
        "<!-- end generated: wal-tiers -->\n"
    )
    (problem,) = evidence.check(copy)
    assert str(problem).startswith("README.md: block wal-tiers: from pkbench/docs/reproductions/gone: ")
    with pytest.raises(PkbenchError, match="no committed run there"):
        evidence.write(copy)


def test_an_edited_block_is_found_and_rewritten(tmp_path: Path) -> None:
    copy = tree(tmp_path)
    readme = copy / "README.md"
    text = readme.read_text()
    readme.write_text(
        text.replace("| uuid-v4 | core PostgreSQL | 97.3 s", "| uuid-v4 | core PostgreSQL | 90.0 s")
    )
    assert [p.block for p in evidence.check(copy)] == ["war-study"]
    assert evidence.write(copy) == [readme]
    assert readme.read_text() == text


def test_an_unknown_or_unclosed_block_is_named(tmp_path: Path) -> None:
    text = "<!-- generated: nonsense from x -->\n<!-- end generated: nonsense -->\n"
    text += "<!-- generated: run from y -->\n"
    _, problems = evidence.render(tmp_path, text, "doc.md")
    assert {p.block for p in problems} == {"?", "nonsense"}


def test_the_per_call_table_is_the_newest_raw_run() -> None:
    text = (ROOT / "sequuid/BENCHMARKS.md").read_text()
    rows = {name: ns for name, ns, _ in evidence_tables.benchmark_rows(text)}
    first = text.index("$ bash sequuid/bench/run\n")
    assert f"gen_random_uuid                   {rows['gen_random_uuid']}" in text[first : first + 600]
    assert "plpgsql_port.v7" in rows
