"""The pgbench parsers on real pgbench 15.20 output captured once (tests/data/pgbench15_*)."""

from __future__ import annotations

from pathlib import Path

import pytest

from pkbench.pgbench import driver as pgbench
from pkbench.pgbench import output

DATA = Path(__file__).parent / "data"


def read(name: str) -> str:
    return (DATA / name).read_text()


def test_two_scripts_summary_has_each_script_and_its_sql_statement_means() -> None:
    summary = output.parse_summary(read("pgbench15_two_scripts.stdout"))
    assert summary.transactions == 115546
    assert summary.failed_transactions == 0
    assert summary.tps == pytest.approx(19256.405372)
    assert summary.latency_ms_mean == pytest.approx(0.202)
    assert summary.latency_ms_stddev == pytest.approx(0.281)
    assert [s.name for s in summary.scripts] == ["insert.sql", "lookup.sql"]
    insert, lookup = summary.scripts
    assert (insert.weight, insert.transactions, insert.tps) == (1, 57882, pytest.approx(9646.368163))
    assert insert.latency_ms_mean == pytest.approx(0.359)
    assert [s.text for s in insert.statements] == [
        r"\set search_data random(1, 10000)",
        "INSERT INTO records (data) VALUES (:search_data);",
    ]
    assert lookup.statements[1].latency_ms == pytest.approx(0.044)
    assert lookup.statements[1].failures == 0
    assert summary.errors == ()


def test_one_script_summary_takes_the_run_figures_as_the_script_figures() -> None:
    summary = output.parse_summary(read("pgbench15_one_script.stdout"))
    assert summary.transactions == 15617
    (script,) = summary.scripts
    assert script.name == "insert.sql"
    assert script.transactions == 15617
    assert script.tps == pytest.approx(5206.829525)
    assert script.statements[-1].latency_ms == pytest.approx(0.383)


def test_aborted_run_has_no_tps_and_reports_the_first_error() -> None:
    summary = output.parse_summary(read("pgbench15_aborted.stdout"), read("pgbench15_aborted.stderr"))
    assert summary.transactions == 0
    assert summary.tps is None, "a run that measured nothing has no tps, not 0"
    assert summary.errors[0] == 'pgbench: error: ERROR:  relation "keys" does not exist'
    run = pgbench.Run(2, summary, [], {}, 3.0)
    assert pgbench.failure_reason(run) == 'ERROR:  relation "keys" does not exist'


def test_progress_lines_come_from_stderr_and_other_lines_are_ignored() -> None:
    samples = [output.parse_progress(line) for line in read("pgbench15_two_scripts.stderr").splitlines()]
    parsed = [s for s in samples if s is not None]
    assert [s.elapsed_s for s in parsed] == [2.0, 4.0, 6.0]
    assert parsed[0].tps == pytest.approx(19572.6)
    assert parsed[0].latency_ms_mean == pytest.approx(0.199)
    assert parsed[0].latency_ms_stddev == pytest.approx(0.260)
    assert parsed[0].failed == 0
    assert output.parse_progress("pgbench (15.20 (Debian 15.20-0+deb12u1))") is None


def test_a_progress_interval_without_transactions_has_no_latency() -> None:
    # pgbench prints NaN latencies when an interval completed nothing (e.g. the server stalled).
    sample = output.parse_progress("progress: 5.0 s, 0.0 tps, lat NaN ms stddev NaN, 0 failed")
    assert sample is not None
    assert (sample.tps, sample.latency_ms_mean, sample.latency_ms_stddev) == (0.0, None, None)


def test_log_gives_latencies_by_script_in_ms() -> None:
    lines = read("pgbench15_two_scripts.log").splitlines() + read("pgbench15_two_scripts.log.1").splitlines()
    by_script = output.parse_log(lines)
    assert set(by_script) == {0, 1}
    assert sum(len(v) for v in by_script.values()) == len(lines)
    # first line of the first file: client 0, transaction 1, 1331 us, script 1 (the lookup)
    assert by_script[1][0] == pytest.approx(1.331)
    # the inserts (script 0) are slower than the lookups (script 1) in this capture
    insert = output.latency_summary(by_script[0])
    lookup = output.latency_summary(by_script[1])
    assert insert["p50"] is not None and lookup["p50"] is not None
    assert insert["p50"] > lookup["p50"]


def test_log_skips_failed_and_skipped_transactions() -> None:
    lines = ["0 1 1331 0 1795218616 192928", "0 2 failed 0 1795218616 193231", "0 3 skipped 0 1 2"]
    assert output.parse_log(lines) == {0: [1.331]}


def test_percentiles_interpolate_between_ranks() -> None:
    values = [float(v) for v in range(1, 101)]
    assert output.percentile(values, 0.5) == pytest.approx(50.5)
    assert output.percentile(values, 0.99) == pytest.approx(99.01)
    assert output.percentile([7.0], 0.95) == 7.0
    summary = output.latency_summary(reversed(values))
    assert summary == {"mean": 50.5, "p50": 50.5, "p95": 95.05, "p99": 99.01, "max": 100.0}


def test_no_latencies_are_null_not_zero() -> None:
    assert output.latency_summary([]) == {"mean": None, "p50": None, "p95": None, "p99": None, "max": None}
