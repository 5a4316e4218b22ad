"""The prose check fails on each statement a newcomer's read found the tree contradicting, put back into the
page it was fixed in: versions, counts of schedules and rounds, PostgreSQL ranges, typed costs per call,
folder tables, and pointers that lead nowhere. Pure file work on the repository's own pages: no server."""

from __future__ import annotations

from pathlib import Path

import pytest

from pkbench.evidence import prose, prose_claims

REPOSITORY = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def tree() -> prose.Tree:
    return prose.Tree(REPOSITORY)


# (page, the words as fixed, the words as they were, what the check says of them)
PUT_BACK = [
    (
        "pkbench/docs/layout.md",
        "sequuid--1.6.sql and the upgrades to 1.6,",
        "sequuid--1.0.sql and its upgrades to 1.4,",
        "says sequuid is at 1.4; sequuid.control's default_version is 1.6",
    ),
    (
        "pkbench/docs/layout.md",
        "pg_regress schedules for five configurations",
        "pg_regress schedules for three configurations",
        "says 3 test schedules; sequuid/test has 5",
    ),
    (
        "pkbench/docs/layout.md",
        "| `survey/` |",
        "| `not-a-folder/` |",
        "the table of folders leaves out survey; names not-a-folder, not a package there",
    ),
    (
        "pkbench/docs/many-cores.md",
        "seven [mixed](glossary.md#rounds) rounds",
        "seven [paired](glossary.md#rounds) rounds",
        "says seven paired rounds; the runs this page quotes recorded",
    ),
    (
        "pkbench/docs/distributed.md",
        "three [mixed](glossary.md#rounds)\nrounds",
        "three paired\nrounds",
        "says three paired rounds; the runs this page quotes recorded 3 mixed",
    ),
    (
        "pkbench/docs/install.md",
        "(or `./dev bench` and `./dev test`, which run it first)",
        "(or the two commands above)",
        "says the two commands above; 0 are above it",
    ),
    (
        "pkbench/docs/studies.md",
        "reproduced at the study's scale ([default-run.md](default-run.md));",
        "reproduced at the study's scale (above);",
        "says (above) in a table row",
    ),
    (
        "pkbench/docs/scenarios.md",
        "The format is described in\n[scenario-files.md](scenario-files.md)",
        "The format is described in the\nREADME",
        "says in the README without a link to the part meant",
    ),
    (
        "pkbench/docs/inspect.md",
        "[advice.md](advice.md)'s which-key table shows them",
        "the README's which-key table shows them",
        "says the README's which-key table; no section of that name in pkbench/README.md has one",
    ),
    (
        "sequuid-py/README.md",
        "| cost | the server's CPU, a fraction of `gen_random_uuid()`'s (below) |",
        "| cost | about 40 ns of server CPU per key |",
        "types a cost per call (40 ns)",
    ),
    (
        "sequuid-py/README.md",
        "read by the extension's functions on PostgreSQL 15 to 18 |",
        "read by the extension's functions on PostgreSQL 15 to 19 |",
        "says PostgreSQL 15 to 19; install.md claims 15 to 18 only",
    ),
]


def _problems(tree: prose.Tree, page: str, text: str) -> list[str]:
    path = REPOSITORY / page
    return prose.check_text(tree, text, prose._readme_above(REPOSITORY, path))


@pytest.mark.parametrize(("page", "fixed", "was", "said"), PUT_BACK, ids=[f"{p[0]}:{p[2]}" for p in PUT_BACK])
def test_the_check_fails_on_the_statement_put_back(
    tree: prose.Tree, page: str, fixed: str, was: str, said: str
) -> None:
    text = (REPOSITORY / page).read_text()
    assert fixed in text, f"{page} no longer says {fixed!r}: update this case"
    assert _problems(tree, page, text) == []
    found = _problems(tree, page, text.replace(fixed, was, 1))
    assert any(said in problem for problem in found), found


def test_claims_are_read_from_prose_and_listings_not_from_code_or_generated_blocks(tmp_path: Path) -> None:
    (tmp_path / "sequuid/test").mkdir(parents=True)
    (tmp_path / "sequuid/sequuid.control").write_text("default_version = '2.0'\n")
    for name in ("c", "plpgsql"):
        (tmp_path / "sequuid/test" / f"schedule-{name}").write_text("")
    recorded = prose_claims.Recorded(tmp_path)
    text = (
        "It upgrades to 1.9; two schedules.\n\n"
        "```\ntest/ (pg_regress schedules for three configurations)\n```\n\n"
        "```sh\nupgrades to 1.1 # code, not a claim\n```\n\n"
        "<!-- generated: x from y -->\nupgrades to 1.2, 9 ns a call\n<!-- end generated: x -->\n\n"
        "| row | 12 ns per call |\n"
    )
    assert prose_claims.check_text(recorded, text) == [
        (1, "says sequuid is at 1.9; sequuid.control's default_version is 2.0"),
        (4, "says 3 test schedules; sequuid/test has 2 (schedule-*)"),
        (15, "types a cost per call (12 ns): quote it from the committed benchmark in a generated block"),
    ]
