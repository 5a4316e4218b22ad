"""The "which key?" table (summary.advice): cells read from the committed runs' recorded verdicts, rows that a
new run fills by being there, and rules generated from the cells. Pure file work: no server."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from pkbench import results
from pkbench.evidence import advice, advice_text

RUNS = Path(__file__).resolve().parents[1] / "docs" / "reproductions"


def recorded(run: str, strategy: str, metric: str, workload: str | None = None) -> results.Verdict:
    return next(
        v
        for v in results.load(RUNS / run).verdicts
        if v.strategy == strategy and v.metric == metric and (workload is None or v.workload == workload)
    )


def test_a_cell_is_the_recorded_verdict_and_the_load_reads_as_a_rate() -> None:
    table = advice.build(RUNS, advice.COMMITTED)
    cell = table.cells["few-cores"]["uuid-v4"]
    verdict = recorded("war-default", "uuid-v4", "tps", "lookup-by-data")
    assert (cell.ratio, cell.low, cell.high, cell.resolved) == (
        verdict.ratio,
        verdict.low,
        verdict.high,
        verdict.resolved,
    )
    said = "no difference resolved" if not verdict.resolved else "slower" if verdict.ratio < 1 else "faster"
    assert cell.run == "war-default" and cell.word() == said
    # The load's verdict is seconds per row over bigint's; its cell is the rate, the interval turned over.
    load = recorded("war-default", "uuid-v4", "load")
    bulk = table.cells["bulk-load"]["uuid-v4"]
    assert load.ratio and load.low and load.high and bulk.ratio and bulk.low and bulk.high
    assert bulk.ratio == pytest.approx(1 / load.ratio)
    assert (bulk.low, bulk.high) == (pytest.approx(1 / load.high), pytest.approx(1 / load.low))
    assert table.cells["few-cores"]["bigint"].kind == "baseline"


def test_a_row_without_its_run_says_not_measured_and_fills_once_the_run_is_there(tmp_path: Path) -> None:
    runs = tmp_path / "reproductions"
    shutil.copytree(RUNS / "war-default", runs / "war-default")
    before = advice.build(runs, advice.COMMITTED)
    assert {c.kind for c in before.cells["many-cores"].values()} == {"not measured"}
    # The many-core sweep's point, committed under the name the row reads, fills the row with no other change:
    # its window's recorded verdicts, the striped key's too.
    point = "contention-16-cores-async/clients-64"
    shutil.copytree(RUNS / point, runs / point)
    after = advice.build(runs, advice.COMMITTED)
    verdict = recorded(point, "uuid-v7", "tps", "insert-async")
    assert after.cells["many-cores"]["uuid-v7"].ratio == verdict.ratio
    assert after.cells["many-cores"]["uuid-v7"].run == point
    striped = recorded(point, "uuid-striped", "tps", "insert-async")
    assert after.cells["many-cores"]["uuid-striped"].ratio == striped.ratio
    assert after.cells["many-cores"]["uuid-v4-text"].kind == "not measured"
    lines = advice_text.table_lines(after, tmp_path)
    row = next(line for line in lines if line.startswith("| many clients on many cores, asynchronous"))
    assert f"(reproductions/{point})" in row


def test_the_rules_follow_the_cells(tmp_path: Path) -> None:
    runs = tmp_path / "reproductions"
    shutil.copytree(RUNS / "war-default", runs / "war-default")
    sources = {"bulk-load": advice.COMMITTED["bulk-load"]}
    rules = advice_text.rules(advice.build(runs, sources))
    v7 = recorded("war-default", "uuid-v7", "load")
    v4 = recorded("war-default", "uuid-v4", "load")
    assert v7.high and v4.low and v7.high < v4.low, "the committed run has v7 loading faster than v4"
    assert any(r.startswith("- **uuid-v7 rather than uuid-v4**: ") and "bulk load" in r for r in rules)
    # Made to load as slowly as v4, v7 no longer comes first: the rule is remade from the run, not typed.
    path = runs / "war-default" / "results.json"
    data = json.loads(path.read_text())
    for verdict in data["verdicts"]:
        if verdict["strategy"] == "uuid-v7" and verdict["metric"] == "load":
            verdict.update(
                ratio=v4.ratio, low=v4.low, high=v4.high, resolved=True, better=False, familywise=True
            )
    path.write_text(json.dumps(data))
    rules = advice_text.rules(advice.build(runs, sources))
    assert not any(r.startswith("- **uuid-v7 rather than uuid-v4**") for r in rules)
    assert any(r.startswith("- **uuid-v7 or uuid-v4: no order resolved**") for r in rules)
    assert any(
        r.startswith("- **uuid-v7**, measured under 1 of 17 conditions: behind bigint in bulk load")
        for r in rules
    )


def test_keys_are_compared_only_within_one_run() -> None:
    # The storage size of uuid-v7 comes from war-default, seq-time's from another run: their ratios to bigint
    # share no baseline, so the rule setting the two against each other leaves that condition out.
    table = advice.build(RUNS, advice.COMMITTED)
    assert table.cells["storage-size"]["uuid-v7"].run != table.cells["storage-size"]["seq-time"].run
    pair = [r for r in advice_text.rules(table) if "seq-time" in r and r.startswith("- **uuid-v7")]
    assert pair and not any("storage size" in r for r in pair)
