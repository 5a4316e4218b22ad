"""The results model read back: versions checked, the metric registry as the one source of every figure,
summary.csv, and the summary's comparisons worded as what they compute."""

from __future__ import annotations

import csv
import dataclasses
import json
import re
import shutil
from pathlib import Path

import pytest
from conftest import run_cli
from report_pages import DATA, WAR_REAL_PG15, copy_run

from pkbench import results
from pkbench.analysis import metrics
from pkbench.analysis.metrics import Figure, Metric
from pkbench.errors import PkbenchError
from pkbench.report.comparison import compare_directories
from pkbench.report.render import write_report
from pkbench.summary import csv_export as export
from pkbench.summary import document as summary
from pkbench.summary import headline as summary_table

FIXTURES = sorted(d for d in DATA.iterdir() if (d / "results.json").is_file())


def with_version(tmp_path: Path, version: object) -> Path:
    run = copy_run(WAR_REAL_PG15, tmp_path / f"v{version}")
    data = json.loads((run / "results.json").read_text())
    data["schema_version"] = version
    (run / "results.json").write_text(json.dumps(data))
    return run


def contains(written: object, read: object) -> bool:
    """Whether READ holds everything WRITTEN holds (fields added since are allowed, with their defaults)."""
    if isinstance(written, dict):
        return isinstance(read, dict) and all(k in read and contains(v, read[k]) for k, v in written.items())
    if isinstance(written, list):
        return isinstance(read, list) and len(read) == len(written) and all(map(contains, written, read))
    return written == read


@pytest.mark.parametrize("fixture", FIXTURES, ids=lambda d: d.name)
def test_every_fixture_loads_as_the_typed_objects_a_run_writes(fixture: Path) -> None:
    run = results.load(fixture)
    assert all(isinstance(s, results.StrategyResult) for s in run.strategies)
    typed = [s for s in run.strategies if not isinstance(s, results.RepeatedStrategy)]
    assert typed, "a run measured once reads back as StrategyResult objects"
    for strategy in typed:
        assert all(isinstance(w, results.WorkloadResult) for w in strategy.workloads)
        assert all(isinstance(u, results.Unavailable) for u in strategy.unavailable)
        assert strategy.sizes_after_prefill is None or isinstance(strategy.sizes_after_prefill, results.Sizes)
    written = json.loads((fixture / "results.json").read_text())
    # The synthetic fixtures carry fields no pkbench wrote (the report ignores them); the model drops them.
    known = {f.name for f in dataclasses.fields(results.WorkloadResult)}
    for strategy_json in written["strategies"]:
        for workload in strategy_json.get("workloads") or []:
            assert set(workload) - known <= {"some_future_field"}
            for unknown in set(workload) - known:
                del workload[unknown]
    assert contains(written["strategies"], run.to_json()["strategies"])


def test_what_a_run_writes_reads_back_equal(tmp_path: Path) -> None:
    run = results.RunResult(["pkbench", "run"], "2026-11-23T00:00:00+00:00", {}, {}, {}, {})
    strategy = results.StrategyResult("bigint", "a bigint", "bigint", "nextval()")
    strategy.record_sizes(
        results.PREFILL_SNAPSHOT, results.Sizes(8192, 16384, 24576, {"records_pkey": 16384})
    )
    strategy.record_sizes("after-copy", results.Sizes(1, None, 2))
    strategy.workloads.append(results.WorkloadResult("w", "", tps=12.5, latency_ms={"p95": 1.0}))
    strategy.unavailable.append(results.Unavailable("checkpoint", "needs superuser"))
    run.strategies = [strategy]
    results.write(tmp_path, run)
    assert results.load(tmp_path).strategies == [strategy]


def test_a_newer_schema_version_is_refused_in_one_line_naming_both(tmp_path: Path) -> None:
    run = with_version(tmp_path, results.SCHEMA_VERSION + 1)
    with pytest.raises(PkbenchError) as refused:
        results.load(run)
    message = str(refused.value)
    assert f"schema_version {results.SCHEMA_VERSION + 1}" in message
    assert f"version {results.SCHEMA_VERSION}" in message and "newer" in message
    assert "\n" not in message
    # The report and the comparison read through the same check.
    with pytest.raises(PkbenchError, match="newer"):
        write_report(run)


def test_an_unknown_schema_version_is_one_line_from_the_command_line(tmp_path: Path) -> None:
    run = with_version(tmp_path, 0)
    result = run_cli("report", str(run), timeout=60)
    assert result.returncode != 0
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "schema_version 0" in lines[0] and "Traceback" not in result.stderr


def test_summary_csv_has_one_row_per_strategy_workload_and_figure(tmp_path: Path) -> None:
    run = results.load(WAR_REAL_PG15)
    path = export.write_csv(tmp_path, run)
    with path.open(newline="") as f:
        rows = list(csv.DictReader(f))
    measured = [s for s in run.strategies if s.status == "ok"]
    workloads = sum(len(s.workloads) for s in measured)
    assert len(rows) == workloads * len(metrics.WORKLOAD_METRICS) + len(measured) * len(
        metrics.STRATEGY_METRICS
    )
    bigint = next(s for s in measured if s.name == "bigint")
    first = bigint.workloads[0]
    tps = next(
        r for r in rows if r["strategy"] == "bigint" and r["workload"] == first.name and r["figure"] == "tps"
    )
    assert float(tps["value"]) == pytest.approx(first.tps) and tps["unit"] == "tps"


def test_a_metric_added_to_the_registry_appears_in_summary_csv_report_and_compare(
    tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    def transactions_per_tps(_: results.StrategyResult, workload: results.WorkloadResult | None) -> Figure:
        assert workload is not None and workload.transactions and workload.tps
        return Figure(float(workload.transactions) / float(workload.tps))

    added = Metric(
        "seconds-measured",
        "seconds measured by tps",
        "s",
        False,
        transactions_per_tps,
        "{:.2f}",
        "seconds measured",
    )
    # Every exporter reads the registry's own list: the entry is all it takes.
    metrics.WORKLOAD_METRICS.append(added)
    request.addfinalizer(lambda: metrics.WORKLOAD_METRICS.remove(added))
    first, second = copy_run(WAR_REAL_PG15, tmp_path / "a"), copy_run(WAR_REAL_PG15, tmp_path / "b")
    rows = list(export.rows(results.load(first)))
    assert "| seconds measured by tps (s) |" in summary.markdown(results.load(first))
    assert any(row[2] == "seconds-measured" for row in rows)
    assert "seconds measured" in write_report(first).read_text(encoding="utf-8")
    compared = compare_directories([first, second], tmp_path / "compare")[0].read_text(encoding="utf-8")
    assert "seconds measured by tps" in compared and "chart-compare-seconds-measured-" in compared


def sizes_and_sentences(fixture: Path) -> list[tuple[float, float, str]]:
    """(this size, the other's size, what the summary says) for every size comparison it makes."""
    run = results.load(fixture)
    headline = summary.Headline.of(run)
    by_name = {s.name: s for s in run.strategies if s.status == "ok"}
    header, table = summary.rows(run)
    found = []
    for row in table:
        for cell in row[header.index("Compared with the one before") :]:
            match = re.search(
                r"(\d+(?:\.\d+)?)(%|\u00d7) (smaller|larger|the size) (?:than|of) ([\w-]+)",
                cell.replace(" and ", " "),
            )
            names = re.findall(r"(?:than|of) ([\w-]+)", cell)
            if match and names:
                this = headline.size(by_name[row[0]])[1]
                other = headline.size(by_name[names[-1]])[1]
                assert this and other
                found.append((this, other, f"{match[1]}{match[2]} {match[3]}"))
    return found


@pytest.mark.parametrize("fixture", FIXTURES, ids=lambda d: d.name)
def test_size_comparisons_say_what_they_compute(fixture: Path) -> None:
    for this, other, said in sizes_and_sentences(fixture):
        amount, unit, direction = re.match(r"([\d.]+)(%|\u00d7) (\w+)", said).groups()  # type: ignore[union-attr]
        if unit == "%":
            # No percentage beyond half: further off, the comparison is a ratio of the size.
            assert float(amount) <= 50
        if direction == "smaller":
            # Half the size is "50% smaller": the share of the other's size saved.
            assert this < other and unit == "%"
            assert float(amount) == pytest.approx((1 - this / other) * 100, abs=0.5)
        elif unit == "%":
            assert float(amount) == pytest.approx((this / other - 1) * 100, abs=0.5)
        else:
            assert float(amount) == pytest.approx(this / other, abs=0.05)


def test_half_the_size_reads_as_fifty_percent_smaller_and_twice_as_a_ratio_never_as_100_percent() -> None:
    def said(this: float, other: float) -> str:
        return summary_table.relative(this, other, "smaller", "larger", "same", noun="size")

    assert said(50, 100) == "50% smaller"
    assert said(100, 50) == "2.0\u00d7 the size"
    assert said(100, 80) == "25% larger"
    # Just under twice and far under half: never "100% larger" or "100% smaller".
    assert said(1.996, 1) == "2.0\u00d7 the size"
    assert said(0.003, 1) == "0.00\u00d7 the size"
    assert said(1, 3) == "0.33\u00d7 the size"


REPRODUCTIONS = sorted((Path(__file__).parent.parent / "docs" / "reproductions").glob("*/results.json"))


@pytest.mark.parametrize("found", REPRODUCTIONS, ids=lambda p: p.parent.name)
def test_committed_reproductions_load_and_render_through_the_model(found: Path, tmp_path: Path) -> None:
    directory = copy_run(found.parent, tmp_path / found.parent.name)
    run = results.load(directory)
    written = json.loads(found.read_text())
    assert contains(written["strategies"], run.to_json()["strategies"])
    measured = [s.name for s in run.strategies if s.status == "ok"]
    assert measured
    text = summary.markdown(run)
    header, table = summary.rows(run)
    assert [row[0] for row in table] == [s.name for s in run.strategies]
    assert "| " + " | ".join(header) + " |" in text
    html = write_report(directory).read_text(encoding="utf-8")
    assert all(name in html for name in measured)
    # The report's first table is the summary's, cell for cell from the same model.
    assert all(f">{name}<" in html for name in header)


def test_shared_loads_read_a_run_once_and_again_once_it_changes(tmp_path: Path) -> None:
    source = Path(__file__).parents[1] / "docs" / "reproductions" / "war-default"
    shutil.copytree(source, tmp_path / "run", ignore=shutil.ignore_patterns("timeseries"))
    run_dir = tmp_path / "run"
    assert results.load(run_dir) is not results.load(run_dir)
    with results.shared_loads():
        first = results.load(run_dir)
        assert results.load(run_dir) is first
        data = json.loads((run_dir / "results.json").read_text())
        data["command"] = ["pkbench", "run", "--rounds", "3"]
        (run_dir / "results.json").write_text(json.dumps(data))
        changed = results.load(run_dir)
        assert changed is not first and changed.command == data["command"]
    assert results.load(run_dir) is not changed
