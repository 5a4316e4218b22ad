"""pkbench docs: the documents' measured figures come from the committed runs, and the check says which
block stops matching them. Pure file work on a copy of the documents and runs: no server."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from pkbench import results
from pkbench.errors import PkbenchError
from pkbench.evidence import blocks as evidence
from pkbench.evidence import forest, model_check, sequuid_benchmarks
from pkbench.evidence import tables as evidence_tables

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
        "pkbench/benchmarks/inspect-footprint.txt",
        str(forest.FIGURE),
        str(model_check.FIGURE),
    ):
        (copy / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(ROOT / name, copy / name)
    shutil.copytree(ROOT / "pkbench/docs/reproductions", copy / "pkbench/docs/reproductions")
    return copy


def block_problems(copy: Path) -> list[evidence.Problem]:
    """What the check says of a copy's blocks and figure: the copy holds none of the tests and modules its
    prose names, which the prose check reads from the whole tree."""
    return [p for p in evidence.check(copy) if p.block != "prose"]


def test_the_committed_documents_match_the_committed_runs() -> None:
    assert [str(p) for p in evidence.check(ROOT)] == []


def test_a_stale_figure_is_named_with_the_drawing_the_runs_give(tmp_path: Path) -> None:
    # The committed ones are compared by the check above; the runs are read once, as the one the link names.
    copy = tmp_path / "repo"
    (copy / forest.RUNS).parent.mkdir(parents=True)
    (copy / forest.RUNS).symlink_to(ROOT / forest.RUNS)
    # missing, then an older drawing: each is named stale, with the drawing the runs give
    with results.shared_loads():
        fresh = evidence.stale_figures(copy)
        assert set(fresh) == {forest.FIGURE, model_check.FIGURE}
        assert fresh[forest.FIGURE] == (ROOT / forest.FIGURE).read_text()
        assert fresh[model_check.FIGURE] == (ROOT / model_check.FIGURE).read_text()
        (copy / forest.FIGURE).parent.mkdir(parents=True, exist_ok=True)
        (copy / forest.FIGURE).write_text(fresh[forest.FIGURE].replace("r='3.2'", "r='3'", 1))
        (copy / model_check.FIGURE).write_text(fresh[model_check.FIGURE])
        assert evidence.stale_figures(copy) == {forest.FIGURE: fresh[forest.FIGURE]}


def test_a_changed_figure_of_a_committed_run_fails_naming_the_block(tmp_path: Path) -> None:
    copy = tree(tmp_path)
    path = copy / "pkbench/docs/reproductions/war-study/results.json"
    data = json.loads(path.read_text())
    window = data["strategies"][1]["workloads"][0]
    window["tps"] = window["tps"] * 1.5
    path.write_text(json.dumps(data))
    problems = [str(p) for p in block_problems(copy)]
    assert (
        "pkbench/docs/default-run.md: block war-study: "
        "differs from what pkbench/docs/reproductions/war-study gives" in problems
    )
    assert "pkbench/docs/reproductions.md: block page: differs from what its command makes" in problems
    evidence.write(copy)
    assert block_problems(copy) == []


def test_a_block_quoting_a_run_that_is_not_there_fails(tmp_path: Path) -> None:
    copy = tree(tmp_path)
    readme = copy / "README.md"
    readme.write_text(
        readme.read_text() + "\n<!-- generated: wal-tiers from pkbench/docs/reproductions/gone -->\n"
        "<!-- end generated: wal-tiers -->\n"
    )
    (problem,) = block_problems(copy)
    assert str(problem).startswith("README.md: block wal-tiers: from pkbench/docs/reproductions/gone: ")
    with pytest.raises(PkbenchError, match="no committed run there"):
        evidence.write(copy)


def test_an_edited_block_is_found_and_rewritten(tmp_path: Path) -> None:
    copy = tree(tmp_path)
    readme = copy / "pkbench/docs/default-run.md"
    text = readme.read_text()
    readme.write_text(
        text.replace("| uuid-v4 | core PostgreSQL | 97.3 s", "| uuid-v4 | core PostgreSQL | 90.0 s")
    )
    assert [p.block for p in block_problems(copy)] == ["war-study"]
    assert evidence.write(copy) == [readme]
    assert readme.read_text() == text


def test_an_unknown_or_unclosed_block_is_named(tmp_path: Path) -> None:
    text = "<!-- generated: nonsense from x -->\n<!-- end generated: nonsense -->\n"
    text += "<!-- generated: run from y -->\n"
    _, problems = evidence.render(tmp_path, text, "doc.md")
    assert {p.block for p in problems} == {"?", "nonsense"}


def test_the_per_call_table_is_the_newest_raw_run() -> None:
    text = (ROOT / "sequuid/BENCHMARKS.md").read_text()
    rows = {name: ns for name, ns, _ in sequuid_benchmarks.benchmark_rows(text)}
    first = text.index("$ bash sequuid/bench/run\n")
    assert re.search(rf"^gen_random_uuid +{rows['gen_random_uuid']} ", text[first : first + 600], re.M)
    assert "plpgsql_port.v7" in rows


def test_the_contention_blocks_read_a_sweep_of_both_commit_modes_and_one_of_async_alone() -> None:
    runs = ROOT / "pkbench/docs/reproductions"
    both = evidence_tables.table("contention-headline", runs / "contention-16-cores")
    alone = evidence_tables.table("contention-headline", runs / "contention-16-cores-async")
    assert "**insert-sync**" in both and "**insert-async**" in both
    assert "**insert-async**" in alone and "**insert-sync**" not in alone
    assert "| strategy | 1 client | 16 clients | 64 clients | 128 clients |" in both
    # The baseline's own TPS, every other cell a verdict with its interval.
    bigint = next(line for line in alone if line.startswith("| bigint |"))
    assert bigint.count(" TPS; ") == 3
    assert all(
        "(" in cell for cell in next(li for li in alone if li.startswith("| uuid-v4 |")).split("|")[2:-1]
    )
    # The full table sets its windows in bold, to sit under any heading of the document quoting it.
    full = evidence_tables.table("contention", runs / "contention-16-cores-async")
    assert full[0] == "**insert-async**" and not any(line.startswith("#") for line in full)
    (line,) = evidence_tables.table("contention-run", runs / "contention-16-cores-async")
    assert "clients 16, 64, 128, one run each; 7 mixed rounds" in line
    assert "in any of its 210 windows" in line  # 3 points x 5 strategies x 2 windows x 7 rounds
    # Steal counted over every round's window: the both-modes run shared its host.
    (line,) = evidence_tables.table("contention-run", runs / "contention-16-cores")
    assert "reached 5% or more in 39 of its 240 windows, at most 15%" in line
    costs = evidence_tables.table("contention-order-costs", runs / "contention-16-cores")
    assert costs[0].startswith("Against uuid-v7 in brackets.")
    durable = evidence_tables.table("contention-headline", runs / "contention-16-cores-sync")
    assert "**insert-sync**" in durable and "**insert-async**" not in durable


BENCH_CORES = """```
$ bash sequuid/bench/cores --clients 4
== sequuid generators on 4 clients: PostgreSQL 17.2, 8 cores, 5 s per measurement, 1000 calls per transaction
generator            plain 1    plain 4  scale  preload 1  preload 4  scale  preload/plain at 4
--------------------------------------------------------------------------------------------
uuid_generate_v7   1,000,000  4,000,000   4.00  1,000,000  1,000,000   1.00                0.25
uuid_generate_ulid 1,000,000  4,000,000   4.00  1,000,000  4,000,000   4.00                1.00
```
"""


def test_the_cores_table_is_the_newest_run_and_names_what_the_shared_order_costs(tmp_path: Path) -> None:
    committed = sequuid_benchmarks.cores_run((ROOT / "sequuid/BENCHMARKS.md").read_text())
    # The 16-core run sits above the 2-core trial: the newest, the one quoted.
    assert (committed.clients, committed.cores) == (16, 16)
    assert "uuid_generate_striped(N)" in [r.name for r in committed.rows]
    path = tmp_path / "BENCHMARKS.md"
    path.write_text("# later runs first\n\n" + BENCH_CORES)
    lines = sequuid_benchmarks.on_many_cores(path)
    assert lines[0] == "PostgreSQL 17.2, 8 cores; calls per second, 1,000 calls per transaction:"
    assert (
        "| `uuid_generate_v7` | 1,000,000 | 4,000,000 | 4.00\u00d7 "
        "| 1,000,000 | 1,000,000 | 1.00\u00d7 | 0.25 |" in lines
    )
    assert lines[-1] == (
        "Keeping order across backends costs more than half the plain rate at 4 clients for "
        "`uuid_generate_v7`: preloaded, they keep 0.25 of it, one value every 1000 ns for the whole server."
    )
    path.write_text(
        BENCH_CORES.replace("1,000,000   1.00                0.25", "3,000,000   3.00                0.75")
    )
    assert sequuid_benchmarks.on_many_cores(path)[-1].endswith(
        "costs at most half the plain rate at 4 clients."
    )
    path.write_text("no runs yet\n")
    with pytest.raises(PkbenchError, match="bench/cores"):
        sequuid_benchmarks.on_many_cores(path)
