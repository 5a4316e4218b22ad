"""The "which key?" table (evidence.advice): cells read from the committed runs' recorded verdicts, rows that
a new run fills by being there, and rules generated from the cells. Pure file work: no server."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from pkbench import results
from pkbench.evidence import advice, advice_rows, advice_text
from pkbench.evidence import cell as cell_module
from pkbench.summary import fleet

RUNS = Path(__file__).resolve().parents[1] / "docs" / "reproductions"


def recorded(run: str, strategy: str, metric: str, workload: str | None = None) -> results.Verdict:
    return next(
        v
        for v in results.load(RUNS / run).verdicts
        if v.strategy == strategy and v.metric == metric and (workload is None or v.workload == workload)
    )


def test_a_cell_is_the_recorded_verdict_and_the_load_reads_as_a_rate() -> None:
    table = advice.build(RUNS, advice_rows.COMMITTED)
    cell = table.cells["few-cores"]["uuid-v4"]
    verdict = recorded("war-default", "uuid-v4", "tps", "lookup-by-data")
    assert (cell.ratio, cell.low, cell.high, cell.holds) == (
        verdict.ratio,
        verdict.low,
        verdict.high,
        verdict.resolved,
    )
    # Held, 4% slower: within the rule's ±10% margin, said as such.
    assert verdict.resolved and verdict.ratio is not None and 0.9 < verdict.ratio < 1
    assert cell.run == "war-default" and cell.word() == cell.speed() == "slower, within the margin"
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
    before = advice.build(runs, advice_rows.COMMITTED)
    assert {c.kind for c in before.cells["many-cores"].values()} == {"not measured"}
    # The many-core sweep's point, committed under the name the row reads, fills the row with no other change:
    # its window's recorded verdicts, the striped key's too.
    point = "contention-16-cores-async/clients-64"
    shutil.copytree(RUNS / point, runs / point)
    after = advice.build(runs, advice_rows.COMMITTED)
    verdict = recorded(point, "uuid-v7", "tps", "insert-async")
    assert after.cells["many-cores"]["uuid-v7"].ratio == verdict.ratio
    assert after.cells["many-cores"]["uuid-v7"].run == point
    striped = recorded(point, "uuid-striped", "tps", "insert-async")
    assert after.cells["many-cores"]["uuid-striped"].ratio == striped.ratio
    assert after.cells["many-cores"]["uuid-v4-text"].kind == "not measured"
    lines = advice_text.table_lines(after, tmp_path)
    row = next(line for line in lines if line.startswith("| many clients on many cores, asynchronous"))
    assert f"(reproductions/{point})" in row


def _doctor(path: Path, strategy: str, metric: str, workload: str | None, **fields: object) -> None:
    """Rewrite one recorded verdict of a copied run, as if the run had measured that."""
    data = json.loads(path.read_text())
    for verdict in data["verdicts"]:
        same_window = workload is None or verdict["workload"] == workload
        if verdict["strategy"] == strategy and verdict["metric"] == metric and same_window:
            verdict.update(fields)
    path.write_text(json.dumps(data))


def test_the_rules_follow_the_cells(tmp_path: Path) -> None:
    runs = tmp_path / "reproductions"
    shutil.copytree(RUNS / "war-default", runs / "war-default")
    sources = {"few-cores": advice_rows.COMMITTED["few-cores"]}
    rules = advice_text.rules(advice.build(runs, sources))
    v4 = recorded("war-default", "uuid-v4", "tps", "lookup-by-data")
    (v7_rule,) = [r for r in rules if r.startswith("- **uuid-v7**,")]
    assert "level with bigint (within \u00b110%) in many clients on few cores" in v7_rule
    # Keys are weighed each against bigint by one rule: no second rule ranks them against each other.
    assert not any("rather than" in r for r in rules)
    # Made as slow as v4, v7 is said as v4 is: the rule is remade from the run, not typed.
    _doctor(
        runs / "war-default" / "results.json",
        "uuid-v7",
        "tps",
        "lookup-by-data",
        ratio=v4.ratio,
        low=v4.low,
        high=v4.high,
        resolved=True,
        better=False,
        familywise=True,
        p_value=v4.p_value,
    )
    rules = advice_text.rules(advice.build(runs, sources))
    assert any(
        r.startswith(
            "- **uuid-v7**, its rate measured under 1 of 1 condition (level or faster in 1, a cost in 0): "
            "slower than bigint, within \u00b110% in many clients on few"
        )
        for r in rules
    )


def test_a_rate_wider_than_the_precision_shows_the_direction_its_interval_holds(tmp_path: Path) -> None:
    # The committed war-default loaded uuid-v4 in five parts, its interval about ±31% of its estimate but
    # wholly below 1: the cell shows the direction with its ratio and says how wide the interval is, and the
    # rules count it as behind bigint. One without a direction says only how wide it got.
    table = advice.build(RUNS, {"bulk-load": advice_rows.COMMITTED["bulk-load"]})
    cell = table.cells["bulk-load"]["uuid-v4"]
    assert cell.reach is not None and cell.reach > cell_module.PRECISION and not cell.precise
    assert cell.holds and cell.word() == "slower"
    assert cell.figures() == (
        f"{cell.ratio:.2f}\u00d7 ({cell.low:.2f}\u2013{cell.high:.2f}; \u00b1{cell.reach:.0%} after "
        f"{cell.rounds} rounds, wider than \u00b110%)"
    )
    near = cell_module.Cell("verdict", 1.0, 0.9, 1.104, rounds=5)
    assert near.figures() == "not resolved to \u00b110%: \u00b110.4% after 5 rounds"
    v7 = table.cells["bulk-load"]["uuid-v7"]
    assert v7.precise and f"{v7.ratio:.2f}\u00d7 ({v7.low:.2f}\u2013{v7.high:.2f})" == v7.figures()
    rules = advice_text.rules(table)
    (v4_rule,) = [r for r in rules if r.startswith("- **uuid-v4**,")]
    assert "slower than bigint in bulk load" in v4_rule


def test_rows_that_cite_the_same_windows_are_one_row() -> None:
    table = advice.build(RUNS, advice_rows.COMMITTED)
    keys = [c.key for c in table.conditions]
    # Few cores, durable commit and one table all read war-default's lookup-by-data: one row, three names.
    merged = next(c for c in table.conditions if c.key == "few-cores")
    assert merged.keys == ("few-cores", "durable", "one-table")
    assert merged.label == "many clients on few cores / durable commit / one table"
    assert "durable" not in keys and "one-table" not in keys
    cited = [
        tuple((cell.run, cell.window) for cell in table.cells[c.key].values())
        for c in table.conditions
        if any(cell.measured for cell in table.cells[c.key].values())
    ]
    assert len(cited) == len(set(cited))


def test_a_window_cell_gives_the_wal_per_transaction_of_the_same_window() -> None:
    table = advice.build(RUNS, advice_rows.COMMITTED)
    cell = table.cells["few-cores"]["uuid-v4"]
    wal = recorded("war-default", "uuid-v4", "wal", "lookup-by-data")
    assert cell.work is not None and (cell.work.ratio, cell.work.low, cell.work.high) == (
        wal.ratio,
        wal.low,
        wal.high,
    )
    assert f"WAL {wal.ratio:.2f}\u00d7" in cell.figures()
    # The load has no window: no WAL beside it.
    assert table.cells["bulk-load"]["uuid-v7"].work is None


def test_the_decision_is_made_from_the_cells(tmp_path: Path) -> None:
    runs = tmp_path / "reproductions"
    shutil.copytree(RUNS / "war-default", runs / "war-default")
    sources = {
        "few-cores": advice_rows.COMMITTED["few-cores"],
        "bulk-load": advice_rows.COMMITTED["bulk-load"],
    }
    said = advice_text.decision(advice.build(runs, sources), tmp_path)
    assert said[0].startswith("- Start with **bigint**")
    # v7 costs nothing here, but the memory tiers where keys differ were not measured: said, not chosen.
    assert any(
        s.startswith("- Where the key must be a UUID, no key to start with can be named: **uuid-v7**")
        for s in said
    )
    (avoid,) = [s for s in said if s.startswith("- Avoid **uuid-v4**")]
    v4 = recorded("war-default", "uuid-v4", "tps", "lookup-by-data")
    assert f"{v4.ratio:.2f}\u00d7" in avoid and "[war-default](reproductions/war-default)" in avoid
    # Made as fast as bigint, uuid-v4 is still to be avoided there for the WAL it writes, and the sentence
    # names that figure; with bigint's WAL as well, it no longer is.
    level = {"resolved": False, "better": None, "familywise": False, "p_value": 1.0}
    _doctor(
        runs / "war-default" / "results.json",
        "uuid-v4",
        "tps",
        "lookup-by-data",
        ratio=1.0,
        low=0.99,
        high=1.01,
        **level,
    )
    said = advice_text.decision(advice.build(runs, sources), tmp_path)
    (avoid,) = [s for s in said if s.startswith("- Avoid **uuid-v4**")]
    wal = recorded("war-default", "uuid-v4", "wal", "lookup-by-data")
    assert (
        f"rate level 1.00\u00d7 (0.99\u20131.01), {wal.ratio:.2f}\u00d7 bigint's WAL per transaction" in avoid
    )
    _doctor(
        runs / "war-default" / "results.json",
        "uuid-v4",
        "wal",
        "lookup-by-data",
        ratio=1.0,
        low=0.99,
        high=1.01,
        **level,
    )
    said = advice_text.decision(advice.build(runs, sources), tmp_path)
    assert not any("few cores" in s for s in said if s.startswith("- Avoid **uuid-v4**"))


def test_a_size_is_said_beside_its_key_and_no_rule_ranks_two_keys() -> None:
    # The storage size of uuid-v7 comes from war-default, seq-time's from another run: their ratios to bigint
    # share no baseline; each key's line says its own size against bigint, and none sets two keys apart.
    table = advice.build(RUNS, advice_rows.COMMITTED)
    assert table.cells["storage-size"]["uuid-v7"].run != table.cells["storage-size"]["seq-time"].run
    rules = advice_text.rules(table)
    (v7,) = [r for r in rules if r.startswith("- **uuid-v7**,")]
    assert "larger in storage size (1.18\u00d7 the size, war-default)" in v7
    assert not any("rather than" in r or "no order resolved" in r for r in rules)


def test_the_fleet_row_reads_the_sweep_where_a_client_made_key_first_departs(tmp_path: Path) -> None:
    runs = tmp_path / "reproductions"
    runs.mkdir()
    assert advice_rows.fleet_row(runs) is None
    assert advice_rows.committed(runs) == (advice_rows.COMMITTED, advice_rows.CONDITIONS)
    shutil.copytree(RUNS / advice_rows.FLEET_RUN, runs / advice_rows.FLEET_RUN)
    found = advice_rows.fleet_row(runs)
    assert found is not None
    condition, source = found
    recorded = json.loads((runs / advice_rows.FLEET_RUN / "sweep.json").read_text())
    points, _ = fleet.read(runs / advice_rows.FLEET_RUN, recorded)
    departed = [p for s in fleet.APP_STRATEGIES if (p := fleet.first_departure(points, s)) is not None]
    skew = min(p.skew_ms for p in departed) if departed else max(p.skew_ms for p in points)
    assert condition.label == f"keys made by application servers, clocks {fleet.skew_words(skew)} apart"
    assert source.run.startswith(f"{advice_rows.FLEET_RUN}/") and source.window == advice_rows.FLEET_WINDOW
    sources, conditions = advice_rows.committed(runs)
    assert condition in conditions and sources[condition.key] == [source]
    # Its cells are the clients' keys against bigint in that point's window, the README's short table shows
    # the random-bits one.
    table = advice.build(runs, sources, conditions=conditions)
    cell = table.cells[condition.key]["app-v7-random"]
    assert cell.measured and cell.run == source.run
    lines = advice_text.table_lines(table, tmp_path, asked_only=True, columns=advice_text.README_COLUMNS)
    assert lines[0].endswith("| v7 made by app servers, random sub-ms bits |")
