"""The README's first screen: the decision's short lines and the forest plot come from the table's cells,
the figure is the same bytes from the same runs and goes stale with a changed run, and the prose check fails
on what the tree contradicts. Pure file work: no server."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from pkbench.evidence import forest, headline, machines, prose
from pkbench.evidence.advice import Cell, Table, Work
from pkbench.evidence.advice_rows import Column, Condition

COLUMNS = (
    Column("bigint", "bigint"),
    Column("uuid-v4", "v4"),
    Column("uuid-v7", "v7"),
    Column("uuid-striped", "striped"),
    Column("app-v7-random", "v7 made by app servers, random sub-ms bits", made_by_clients=True),
)
CONDITIONS = (
    Condition("memory", "data", "beyond RAM"),
    Condition("cores", "clients", "many clients on many cores"),
    Condition("fleet", "keys made outside", "keys made by application servers, clocks 50 ms apart"),
)


def _rate(ratio: float, low: float, high: float, wal: float, run: str = "r1") -> Cell:
    resolved = not low <= 1 <= high
    return Cell(
        "verdict", ratio, low, high, resolved, ratio > 1 if resolved else None, run, "w", 5,
        work=Work(wal, wal * 0.95, wal * 1.05, True),
    )  # fmt: skip


def table(tmp_path: Path) -> Table:
    base = Cell("baseline", run="r1", window="w")
    cells = {
        "memory": {
            "bigint": base,
            "uuid-v4": _rate(0.28, 0.27, 0.29, 25.8),
            "uuid-v7": _rate(1.0, 0.95, 1.05, 1.04),
            "uuid-striped": Cell("not measured"),
            "app-v7-random": Cell("not measured"),
        },
        "cores": {
            "bigint": base,
            "uuid-v4": _rate(1.47, 1.40, 1.54, 2.24, "r2"),
            "uuid-v7": _rate(1.01, 0.95, 1.07, 1.13, "r2"),
            "uuid-striped": _rate(1.45, 1.38, 1.52, 1.19, "r2"),
            "app-v7-random": Cell("not measured"),
        },
        "fleet": {
            "bigint": base,
            "uuid-v4": Cell("not measured"),
            "uuid-v7": _rate(1.0, 0.99, 1.01, 1.07, "r3"),
            "uuid-striped": Cell("not measured"),
            "app-v7-random": _rate(0.98, 0.97, 0.99, 1.12, "r3"),
        },
    }
    return Table(cells, ["r1", "r2", "r3"], tmp_path / "runs", COLUMNS, CONDITIONS)


def test_the_decision_is_a_few_rounded_lines_from_the_cells(tmp_path: Path) -> None:
    lines = headline.lines(table(tmp_path), tmp_path)
    assert lines[0].startswith("- **bigint** where one database makes every key")
    assert lines[1].startswith(
        "- **uuid-v7** where the key must be a UUID: slower than bigint past \u00b110%, or writing "
        "1.25\u00d7 its WAL or more, in none of the 3 conditions its rate was measured in; level with bigint "
        "or faster in 3"
    )
    assert "(1.0\u00d7 its rate, 1.0\u00d7\u20131.1\u00d7 its WAL)" in lines[1]
    (v4,) = [line for line in lines if line.startswith("- not **uuid-v4**")]
    assert "in 1 condition, down to 0.3\u00d7 bigint's rate and 26\u00d7 its WAL" in v4
    assert "beyond RAM ([r1](runs/r1))" in v4
    (cores,) = [line for line in lines if line.startswith("- except with many clients on many cores")]
    # the key that pulls ahead at the least WAL first
    assert cores.index("**uuid-striped** 1.4\u00d7") < cores.index("**uuid-v4** 1.5\u00d7")
    # a key the clients build is never the one to start with, and its line says what its rate carries
    (fleet,) = [line for line in lines if line.startswith("- v7 made by application servers")]
    # the rule's words and two digits, as advice.md says them: 0.98 held is not "1.0x"
    said = "clocks 50 ms apart: slower, within the margin (0.98\u00d7 bigint's rate) with random sub-ms bits"
    assert said in fleet
    assert "pgbench has no clock" in fleet
    assert [headline.rounded(r) for r in (0.279, 1.47, 25.83, 9.96)] == [
        "0.3\u00d7",
        "1.5\u00d7",
        "26\u00d7",
        "10\u00d7",
    ]


def test_a_run_is_cited_by_its_folder_whatever_is_cited_before_it(tmp_path: Path) -> None:
    first = table(tmp_path)
    later = Table(first.cells, ["r0", *first.runs], first.runs_dir, COLUMNS, CONDITIONS)
    for run in first.runs:
        assert first.label(run) == later.label(run) == run
        assert first.link(run, tmp_path) == later.link(run, tmp_path) == f"[{run}](runs/{run})"


def test_the_figure_draws_a_row_per_condition_an_interval_per_key_and_the_band(tmp_path: Path) -> None:
    drawn = forest.svg(table(tmp_path))
    assert drawn == forest.svg(table(tmp_path))
    # a changed cell is a changed drawing
    changed = table(tmp_path)
    changed.cells["memory"]["uuid-v4"] = _rate(0.5, 0.45, 0.55, 25.8)
    assert forest.svg(changed) != drawn
    assert drawn.startswith("<svg xmlns='http://www.w3.org/2000/svg'") and drawn.endswith("</svg>\n")
    for condition in CONDITIONS:
        assert f">{condition.label}</text>" in drawn
    # seven rates and seven WAL figures, each a dot and a bar; the band around 1 is one shaded rectangle
    assert drawn.count("<circle cx=") == 7 * 2 + 4  # and a legend dot for each of the four keys
    assert drawn.count("fill='#e8e8e8'") == 1
    assert "app-v7-random*" in drawn and "pgbench has no clock" in drawn
    # every figure here is decided by the rule: filled; an unresolved rate is hollow, as its cell's word says
    assert "fill='white' stroke=" not in drawn
    wide = table(tmp_path)
    wide.cells["cores"]["uuid-v7"] = _rate(1.01, 0.85, 1.20, 1.13, "r2")
    assert wide.cells["cores"]["uuid-v7"].speed() == "unresolved"
    assert forest.svg(wide).count("fill='white' stroke=") == 1


def test_the_figure_leaves_out_keys_no_condition_resolves_and_says_storage(tmp_path: Path) -> None:
    wide = table(tmp_path)
    wide.cells["cores"]["uuid-striped"] = _rate(1.01, 0.80, 1.25, 1.19, "r2")
    size = Cell("size", 1.18, None, None, True, False, "r1")
    wide.cells["storage"] = {c.strategy: Cell("not measured") for c in COLUMNS} | {"uuid-v7": size}
    conditions = (*CONDITIONS, Condition("storage", "size", "storage size"))
    drawn = forest.svg(Table(wide.cells, wide.runs, wide.runs_dir, COLUMNS, conditions))
    assert "Not drawn: uuid-striped, whose rate no condition resolves" in drawn
    assert "uuid-striped</text>" not in drawn
    assert "storage over bigint&#x27;s (one measurement each): uuid-v7 1.18\u00d7" in drawn


def prose_tree(tmp_path: Path) -> prose.Tree:
    scenarios = tmp_path / prose.SCENARIOS
    scenarios.mkdir(parents=True)
    (scenarios / "war.toml").write_text('name = "war"\n[parameters]\nrounds = 6\nduration_s = 3\n')
    (scenarios / "read.toml").write_text('name = "read"\n[parameters]\nrounds = 1\n')
    for run in ("war-a", "war-b", "sweep/point-1"):
        (tmp_path / prose.RUNS / run).mkdir(parents=True)
        (tmp_path / prose.RUNS / run / "results.json").write_text('{"scenario": {"name": "war"}}')
    (tmp_path / prose.RUNS / "sweep/sweep.json").write_text('{"points": [{"directory": "point-1"}]}')
    (tmp_path / "pkbench/src/pkbench/evidence").mkdir(parents=True)
    (tmp_path / "pkbench/src/pkbench/evidence/advice.py").write_text("")
    (tmp_path / "pkbench/tests").mkdir(parents=True)
    (tmp_path / "pkbench/tests/test_upgrade.py").write_text("")
    return prose.Tree(tmp_path)


def test_prose_the_tree_contradicts_is_named(tmp_path: Path) -> None:
    found = prose.check_text(
        prose_tree(tmp_path),
        "The table is built in `evidence/advice.py`; its rules in `summary/advice.py`.\n\n"
        "`--rounds R` (default: the scenario's `rounds` parameter, 7 in war).\n\n"
        "Two committed runs of `war` and one committed sweep of `war`. `read` has no run committed yet. "
        "`war` has no run committed either.\n\n"
        '```toml\nname = "war"\n[parameters]\nduration_s = 50\n```\n',
    )
    assert found == [
        "line 7: quotes war.toml's [parameters] duration_s = 50; the file says 3",
        "line 1: names summary/advice.py, which is not in the tree",
        "line 3: says rounds is 7 in war; its scenario file says 6",
        "line 5: says Two runs of war; 3 are committed",
        "line 5: says war has no run committed; 3 are",
    ]


def test_a_capability_names_the_test_that_shows_it_and_fails_once_that_test_is_gone(tmp_path: Path) -> None:
    tree_ = prose_tree(tmp_path)
    assert prose.check_text(tree_, "Upgrades are checked from 16 to 18 (`tests/test_upgrade.py`).\n") == []
    assert prose.check_text(tree_, "sequuid is a drop-in for pg_uuidv7.\n") == [
        "line 1: says 'drop-in' and names no test that shows it"
    ]
    assert prose.check_text(tree_, "It is tested on 15 to 18 (`sequuid/test/run`).\n") == [
        "line 1: names the test sequuid/test/run, which is not in the tree"
    ]
    # a generated block and fenced code are not prose; a function passing its argument is no claim
    assert (
        prose.check_text(
            tree_,
            "<!-- generated: x from y -->\nIt passes.\n<!-- end generated: x -->\n\n```\nIt passes.\n```\n\n"
            "`./dev bench` passes its arguments to `pkbench run`.\n",
        )
        == []
    )


def test_the_machine_sentence_is_read_from_the_cited_runs_records(tmp_path: Path) -> None:
    """The main machine first; another machine with the rows it alone answers; a changed record changes it."""
    committed_runs = Path(__file__).resolve().parents[1] / "docs" / "reproductions"
    runs = tmp_path / "runs"
    for name, source in (("r1", "war-default"), ("r2", "contention-16-cores-async/clients-64")):
        (runs / name).mkdir(parents=True)
        shutil.copy(committed_runs / source / "results.json", runs / name / "results.json")
    memory, cores = table(tmp_path).cells["memory"], table(tmp_path).cells["cores"]
    only = Table({"memory": memory, "cores": cores}, ["r1", "r2"], runs, COLUMNS, CONDITIONS[:2])
    (said,) = machines.line(only)
    assert said.startswith("Measured on 2 cores and 24 GiB (AMD EPYC), PostgreSQL 15.20 (1 run); ")
    assert '; the row "many clients on many cores" on 16 cores and 126 GiB (Intel Xeon Processor), ' in said
    assert "PostgreSQL 18.6 (1 run)." in said
    recorded = json.loads((runs / "r2" / "results.json").read_text())
    recorded["machine"]["cores"] = 64
    (runs / "r2" / "results.json").write_text(json.dumps(recorded))
    assert "on 64 cores" in machines.line(only)[0]
