"""The Results Summary on real runs of every scenario: labels say what was measured, nothing said twice."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from report_pages import BLOAT_REAL_PG15, DATA, WAL_REAL_PG15, WAR_REAL_PG15, WAR_REAL_PG18, copy_run

from pkbench import results
from pkbench.errors import PkbenchError
from pkbench.report.render import write_report
from pkbench.results import Prefill, RunResult, StrategyResult
from pkbench.scenario import file as scenario
from pkbench.summary import document as summary
from pkbench.summary import headline as summary_table
from pkbench.text import GIB, KIB, MIB, binary_size

# pkbench run insert-scaling --strategies bigint,uuid-v4-char32,uuid-v7 --rows 60000 --duration 1 --clients 2,
# with rows_small = 20000, on PostgreSQL 15.20 (runner.Options; the CLI sets no rows_small).
INSERT_SCALING_REAL_PG15 = DATA / "insert-scaling-real-pg15"
# pkbench run bloat --rows 20000 --strategies bigint,uuid-v4,uuid-v7, on PostgreSQL 15.20.
BLOAT_SUMMARY_PG15 = DATA / "bloat-summary-pg15"
# pkbench run wal --rows 40000 --duration 2 --strategies bigint,uuid-v4,uuid-v7, on PostgreSQL 15.20: the
# smaller --rows pulls every tier down to 40000 rows, so the fill the summary headlines has nothing to insert.
WAL_SUMMARY_PG15 = DATA / "wal-summary-pg15"
EVERY_REAL_RUN = [
    WAR_REAL_PG15,
    WAR_REAL_PG18,
    BLOAT_REAL_PG15,
    WAL_REAL_PG15,
    INSERT_SCALING_REAL_PG15,
    BLOAT_SUMMARY_PG15,
    WAL_SUMMARY_PG15,
]


def load(run: Path) -> RunResult:
    return results.load(run)


def columns(run: RunResult) -> dict[str, dict[str, str]]:
    """Strategy → header → cell."""
    header, table = summary.rows(run)
    return {row[0]: dict(zip(header, row, strict=True)) for row in table}


def measured(run: RunResult) -> dict[str, StrategyResult]:
    return {s.name: s for s in run.strategies if s.status == "ok"}


def prefill_of(strategy: StrategyResult) -> Prefill:
    assert strategy.prefill is not None
    return strategy.prefill


def test_insert_scaling_times_the_fill_its_summary_names_with_the_rows_it_really_inserted() -> None:
    run = load(INSERT_SCALING_REAL_PG15)
    assert run.scenario["summary"] == scenario.load("insert-scaling").summary.to_json()
    header, _ = summary.rows(run)
    # Each fill tops the table up after a window that inserted a different number of rows per strategy.
    assert header[1] == "Time to insert"
    for name, cells in columns(run).items():
        prefill = prefill_of(measured(run)[name])
        assert prefill.step == "pk-fill-large"
        assert prefill.duration_s == measured(run)[name].step_durations_s["pk-fill-large"]
        assert cells["Time to insert"] == f"{prefill.duration_s:.2f} s ({prefill.rows:,} rows)"
        assert 20000 < prefill.rows < 60000, "the large fill adds what the small size and the window left"
    text = summary.markdown(run)
    assert "0.0 s" not in text and "60,000 rows" not in text
    assert "Time to insert: fill step pk-fill-large" in text


def test_insert_scaling_sizes_are_those_its_summary_names() -> None:
    run = load(INSERT_SCALING_REAL_PG15)
    for name, cells in columns(run).items():
        sizes = measured(run)[name].sizes_after_prefill
        assert sizes is not None
        assert cells["Size at sizes_after_prefill"] == binary_size(sizes.total_bytes)


def test_a_run_without_pgbench_workloads_claims_no_pgbench_figures() -> None:
    run = load(BLOAT_SUMMARY_PG15)
    header, _ = summary.rows(run)
    assert not [h for h in header if h.startswith(("TPS", "WAL/tx")) or "hit ratio" in h]
    setup = summary.markdown(run).splitlines()[2]
    assert "pgbench" not in setup and setup.startswith("PostgreSQL 15.")


def test_bloat_shows_each_stage_its_summary_names_and_the_last_size() -> None:
    run = load(BLOAT_SUMMARY_PG15)
    assert run.scenario["summary"]["timed"] == ["delete-oldest-half", "vacuum", "copy-4n"]
    for name, cells in columns(run).items():
        strategy = measured(run)[name]
        assert cells["Time to insert 20,000 rows"] == f"{prefill_of(strategy).duration_s:.2f} s"
        for step in ("delete-oldest-half", "vacuum", "copy-4n"):
            seconds = strategy.step_durations_s[step]
            assert cells[f"Time of {step}"] == (f"{seconds:.2f} s" if seconds < 1 else f"{seconds:,.1f} s")
        # The COPY of 4N rows comes after the insert: the size at the end is the last snapshot's.
        assert cells["Size at sizes_after_copy"] == binary_size(
            strategy.snapshots["sizes_after_copy"].total_bytes
        )


def test_a_fill_that_inserted_nothing_is_not_timed() -> None:
    run = load(WAL_SUMMARY_PG15)
    assert {prefill_of(s).step for s in measured(run).values()} == {"fill-tier-3"}
    assert {prefill_of(s).rows for s in measured(run).values()} == {0}
    header, _ = summary.rows(run)
    assert not [h for h in header if h.startswith(("Time to insert", "Average rate"))]
    assert "fill step fill-tier-3 found the table at its size already" in summary.markdown(run)
    for cells in columns(run).values():
        assert "faster" not in cells["Compared with the one before"] + cells["Compared with bigint"]


def test_war_keeps_its_headline_and_names_the_window_sizes_come_from() -> None:
    run = load(WAR_REAL_PG15)
    header, _ = summary.rows(run)
    assert header[1] == "Time to insert 300,000 rows"
    assert "Size at end of lookup-by-key" in header
    assert "pgbench -c 4 -j 2 for 20 s per workload" in summary.markdown(run)


def test_a_unique_index_alone_is_the_key_index_of_the_hit_ratio() -> None:
    run = load(WAL_REAL_PG15)
    cells = columns(run)["uuid-v4"]
    window = measured(run)["uuid-v4"].workloads[0]
    assert (
        cells[f"records_id_key hit ratio {window.name}"] == f"{window.hit_ratio['records_id_key'] * 100:.1f}%"
    )


@pytest.mark.parametrize("directory", EVERY_REAL_RUN, ids=lambda p: p.name)
@pytest.mark.parametrize("order", ["as run", "bigint second"])
def test_no_row_says_the_same_comparison_twice(directory: Path, order: str) -> None:
    run = load(directory)
    run.baseline = "bigint"
    if order == "bigint second":
        others = [s for s in run.strategies if s.name != "bigint"]
        run.strategies = [others[0], *[s for s in run.strategies if s.name == "bigint"], *others[1:]]
    for name, cells in columns(run).items():
        before, against_bigint = cells["Compared with the one before"], cells["Compared with bigint"]
        assert not (before and before == against_bigint), name
        assert (
            f"{before} {against_bigint}".count("than bigint")
            + f"{before} {against_bigint}".count("as bigint")
            <= 1
        ), name
        assert "same size than" not in before + against_bigint


def test_every_table_compares_with_the_runs_one_baseline() -> None:
    run = load(WAR_REAL_PG15)
    run.strategies = [s for s in run.strategies if s.name != "bigint"]
    header, table = summary.rows(run)
    # No baseline recorded and bigint gone: the first strategy is the baseline, not a name the code knows.
    assert "Compared with bigint" not in header and header[-1] == "Compared with uuid-v4"
    assert table[1][-2] == summary_table.comparison(
        run.strategies[1], run.strategies[0], summary.Headline.of(run)
    )
    assert table[1][-1] == "", "beside the one before, the baseline would say the same thing twice"
    run.baseline = "uuid-v7"
    header, table = summary.rows(run)
    assert header[-1] == "Compared with uuid-v7"
    assert table[0][-1] == summary_table.comparison(
        run.strategies[0], run.strategies[2], summary.Headline.of(run)
    )


def test_sizes_are_binary_units_in_the_summary_and_the_report(tmp_path: Path) -> None:
    assert binary_size(1023) == "1,023 B"
    assert binary_size(KIB) == "1.0 KiB"
    assert binary_size(479 * MIB) == "479 MiB"
    assert binary_size(1.5 * GIB) == "1.5 GiB"
    directory = copy_run(BLOAT_REAL_PG15, tmp_path / "bloat")
    html = write_report(directory).read_text()
    text = summary.markdown(load(directory))
    for page in (html, text):
        assert "MiB" in page
        assert not re.search(r"\d (kB|MB|GB)\b", page), "decimal-looking units for powers of 1024"


@pytest.mark.parametrize(
    ("summary_table", "message"),
    [
        ('insert = "w"', "insert must name a 'fill' step of this scenario"),
        ('timed = ["w"]', "timed must name a 'sql', 'fill', 'copy' or 'churn' step"),
        ('size = "fill"', "size must name a 'snapshot' step"),
        ('headline = "tps"', r"unknown key 'headline'"),
    ],
)
def test_a_summary_table_must_name_steps_of_the_right_kind(
    tmp_path: Path, summary_table: str, message: str
) -> None:
    path = tmp_path / "s.toml"
    path.write_text(SCENARIO + f"[summary]\n{summary_table}\n")
    with pytest.raises(PkbenchError, match=message) as info:
        scenario.load(str(path))
    assert "\n" not in str(info.value)


def test_without_a_summary_table_the_first_fill_is_time_to_insert(tmp_path: Path) -> None:
    path = tmp_path / "s.toml"
    path.write_text(SCENARIO)
    assert scenario.load(str(path)).summary == scenario.SummarySpec(insert="fill")
    path.write_text(
        SCENARIO + '[summary]\ninsert = "top-up"\ntimed = ["top-up"]\nsize = "sizes_after_prefill"\n'
    )
    assert scenario.load(str(path)).summary == scenario.SummarySpec(
        "top-up", ("top-up",), "sizes_after_prefill"
    )


SCENARIO = """
name = "mini"
[parameters]
rows = 10
clients = 1
jobs = 1
duration_s = 1
batch_rows = 5
[[steps]]
kind = "fill"
name = "fill"
statement = "INSERT INTO records SELECT FROM generate_series(1, {batch})"
[[steps]]
kind = "fill"
name = "top-up"
total = true
statement = "INSERT INTO records SELECT FROM generate_series(1, {batch})"
[[steps]]
kind = "snapshot"
name = "sizes_after_prefill"
[[steps]]
kind = "pgbench"
name = "w"
scripts = [{ name = "a", weight = 1, sql = "SELECT 1;" }]
"""
