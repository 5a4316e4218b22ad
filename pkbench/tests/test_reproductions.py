"""pkbench reproductions: one page of the studies' figures beside ours, generated from results directories."""

from __future__ import annotations

import json
from pathlib import Path

from conftest import run_cli
from report_pages import BLOAT_REAL_PG15, DATA, copy_run

from pkbench import results
from pkbench.evidence import reproductions_page
from pkbench.report.render import write_report
from pkbench.scenario import published
from pkbench.summary import document as summary

INSERT_SCALING_REAL_PG15 = DATA / "insert-scaling-real-pg15"


def test_the_page_puts_each_study_beside_its_runs_and_regenerates_identically(tmp_path: Path) -> None:
    page = tmp_path / "docs" / "reproductions.md"
    args = ("reproductions", str(INSERT_SCALING_REAL_PG15), str(BLOAT_REAL_PG15), "-o", str(page))
    done = run_cli(*args)
    assert done.returncode == 0, done.stderr
    text = page.read_text()
    assert text.index("## Seed 001") < text.index("## Seed 002"), "in seed order"
    assert f"pkbench reproductions {INSERT_SCALING_REAL_PG15} {BLOAT_REAL_PG15} -o {page}" in text
    # --out names the results directory, not the path on the machine that ran it
    assert f"`pkbench run bloat --rows 50000 --out {BLOAT_REAL_PG15.name}`" in text
    # the test's own paths aside (a checkout under /tmp has its test data there too)
    assert "/tmp/" not in text.replace(str(tmp_path), "").replace(str(DATA), "")
    assert "Generators: " in text
    assert "PostgreSQL 15" in text and "wall time" in text

    bloat = json.loads((BLOAT_REAL_PG15 / "results.json").read_text())
    times = {s["name"]: s["step_durations_s"]["vacuum"] for s in bloat["strategies"]}
    ratio = times["uuid-v1"] / times["uuid-v6"]
    word = published.agreement(15.70 / 3.97, ratio)
    cells = ["VACUUM time", "uuid-v1 (uuid_v1)", "15.7 s", f"{times['uuid-v1']:.3g} s"]
    cells += ["3.95\u00d7", f"{ratio:.2f}\u00d7", word]
    assert "| " + " | ".join(cells) + " |" in text

    first = text
    assert run_cli(*args).returncode == 0
    assert page.read_text() == first


def test_a_directory_without_results_is_one_line(tmp_path: Path) -> None:
    done = run_cli("reproductions", str(tmp_path / "nothing"), "-o", str(tmp_path / "page.md"))
    assert done.returncode == 1
    assert done.stderr.count("\n") == 1 and "nothing" in done.stderr


def test_the_summary_shows_the_published_rows_under_its_own() -> None:
    text = summary.markdown(results.load(INSERT_SCALING_REAL_PG15))
    section = text[text.index("## Published figures beside ours") :]
    assert "### Seed 001" in section
    assert "| TPS, primary key, empty table | uuid-v4-char32 (random uuid char(32)) | 906 tps |" in section
    # seq-time did not run in this capture: its row says so rather than showing a number.
    assert "| TPS, primary key, empty table | seq-time" in section and "not run" in section


def test_the_report_has_a_section_of_the_published_figures(tmp_path: Path) -> None:
    html = write_report(copy_run(INSERT_SCALING_REAL_PG15, tmp_path / "run")).read_text()
    section = html[html.index("Published figures beside ours") :]
    assert "TPS, primary key, after 10M rows" in section
    assert "random uuid char(32)" in section


def test_a_default_war_names_the_study_without_rows_it_did_not_measure() -> None:
    text = summary.markdown(results.load(DATA / "war-real-pg15"))
    section = text[text.index("## Published figures beside ours") :]
    assert "### Seed 000" in section
    assert "This run measured none of its figures" in section
    assert "| Average rate |" not in section


def test_hand_written_notes_land_under_their_seed() -> None:
    notes = "# Why\n\nintro\n\n## Seed 002\n\nVACUUM ran in memory.\n\n## Seed 009\n\nno such study\n"
    text = reproductions_page.page([BLOAT_REAL_PG15], "pkbench reproductions x", notes)
    assert text.index("## Seed 002") < text.index("VACUUM ran in memory.")
    assert "intro" not in text and "no such study" not in text
