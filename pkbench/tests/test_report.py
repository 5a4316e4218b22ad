"""The run report and the comparison, built from the fixture results directories in tests/data."""

from __future__ import annotations

import json
import re
from pathlib import Path

import plotly.graph_objects as go
import pytest
from report_pages import (
    BLOAT_PG15,
    BLOAT_REAL_PG15,
    WAL_REAL_PG15,
    WAR_PG15,
    WAR_PG18,
    WAR_REAL_PG15,
    WAR_REAL_PG18,
    copy_run,
    embedded_figures,
    trace_color,
    trace_strategy,
)

from pkbench.errors import PkbenchError
from pkbench.report import stacks
from pkbench.report.comparison import compare_directories
from pkbench.report.loading import load_run
from pkbench.report.palette import PALETTE, shades, strategy_colors
from pkbench.report.render import write_report
from pkbench.results import ResultsNotFoundError
from pkbench.strategies.builtin import BUILTIN

WORKLOADS = ("lookup-by-data", "lookup-by-key")
PER_WORKLOAD_CHARTS = (
    "tps",
    "latency",
    "wal",
    "hit-ratio",
    "buffercache",
    "usagecount",
    "wait_events",
    "sizes",
)
MEASURED = ("bigint", "uuid-v4", "uuid-v4-text", "uuid-v7")


@pytest.fixture
def war15(tmp_path: Path) -> Path:
    return copy_run(WAR_PG15, tmp_path / "war-pg15")


def report_html(directory: Path) -> str:
    path = write_report(directory)
    assert path == directory / "report.html"
    return path.read_text(encoding="utf-8")


def test_report_has_every_section_and_chart(war15: Path) -> None:
    html = report_html(war15)
    for anchor in ("run", "summary", "sizes", *(f"workload-{w}" for w in WORKLOADS)):
        assert f'<section id="{anchor}">' in html
    figures = embedded_figures(html)
    expected = {f"chart-{kind}-{w}" for kind in PER_WORKLOAD_CHARTS for w in WORKLOADS}
    expected |= {"chart-sizes", "chart-tps-per-workload"}
    assert set(figures) == expected
    for div_id, traces in figures.items():
        assert traces, f"{div_id} has no traces"
        assert all(len(t.get("y") or []) > 0 for t in traces), f"{div_id} has a trace without data"


def test_report_shows_run_metadata_and_summary(war15: Path) -> None:
    html = report_html(war15)
    for text in (
        "0.1.0",
        "pkbench run war --rows 5000000",
        "15.20",
        "shared_buffers",
        "128MB",
        "2 cores",
        "Linux 6.1.0 x86_64",
        "rows=5000000, clients=10",
        "Time to insert 5,000,000 rows",
        "than bigint",
    ):
        assert text in html, text


def test_report_is_self_contained(war15: Path) -> None:
    html = report_html(war15)
    assert "Plotly.newPlot" in html
    assert html.count("<script") == html.count("</script>")
    assert not re.search(r"""<(script|link|img)[^>]+(src|href)=["']?(https?:)?//""", html)
    assert html.count("plotly.js v") <= 2, "the plotly bundle is inlined once"


def test_every_chart_keeps_one_colour_per_strategy(war15: Path, tmp_path: Path) -> None:
    colors = strategy_colors(["bigint", "uuid-v4", "uuid-v4-text", "uuid-v7", "ulid", "uuid-v1"])
    pages = [report_html(war15)]
    pages.append(
        compare_directories([WAR_PG15, WAR_PG18], tmp_path / "compare")[0].read_text(encoding="utf-8"),
    )
    for html in pages:
        for div_id, traces in embedded_figures(html).items():
            for trace in traces:
                strategy = trace_strategy(trace).split(" · ")[0]
                assert strategy in MEASURED, (div_id, trace.get("name"))
                allowed = {colors[strategy], *shades(colors[strategy], 2), *shades(colors[strategy], 3)}
                allowed |= {tone for n in range(4, 8) for tone in shades(colors[strategy], n)}
                assert trace_color(trace) in allowed, (div_id, trace.get("name"))
                assert trace["name"].startswith(strategy), "the legend names the strategy"


def test_every_chart_has_title_and_axis_titles(war15: Path) -> None:
    html = report_html(war15)
    layouts = re.findall(r'"title":\{"text":"([^"]*)"', html)
    assert len(layouts) >= len(embedded_figures(html))
    for unit in ("(s)", "(tps)", "(ms)", "(bytes)", "(MiB)", "(%", "buffers (8 kB pages)", "backends"):
        assert unit in html, unit


def test_palette_is_stable_and_distinct() -> None:
    names = [s.name for s in BUILTIN]
    colors = strategy_colors(names)
    assert len(set(colors.values())) == len(names)
    assert strategy_colors(["uuid-v7"]) == {"uuid-v7": colors["uuid-v7"]}
    assert strategy_colors(["my-own", "uuid-v4"])["my-own"] == strategy_colors(["my-own"])["my-own"]
    many = [f"custom-{i}" for i in range(len(PALETTE))]
    assert len(set(strategy_colors(many).values())) == len(PALETTE)


def test_null_figures_show_na_and_the_reason(tmp_path: Path) -> None:
    html = report_html(copy_run(WAR_PG18, tmp_path / "war-pg18"))
    assert "pg_walinspect needs superuser" in html
    na_cells = re.findall(r'<td class="na" title="([^"]+)">\u2013', html)
    assert "pg_walinspect needs superuser" in na_cells
    assert "wal_fpi_bytes is n/a, so the bytes cannot be split" in html
    assert "full-page images per transaction (count)" in html


def test_null_inside_a_figure_group_is_na(tmp_path: Path) -> None:
    run = copy_run(WAR_PG15, tmp_path / "war")
    results = json.loads((run / "results.json").read_text())
    workload = results["strategies"][1]["workloads"][0]
    workload["tps"] = None
    workload["hit_ratio"]["records_pkey"] = None
    workload["latency_ms"]["p99"] = None
    workload["unavailable"] = [
        {"metric": "tps", "reason": "pgbench printed no summary"},
        {"metric": "hit_ratio.records_pkey", "reason": "no block of it was accessed"},
        {"metric": "latency_ms", "reason": "pgbench log incomplete"},
    ]
    (run / "results.json").write_text(json.dumps(results))
    html = report_html(run)
    assert re.search(r'<td class="na" title="pgbench printed no summary">\u2013', html)
    assert "hit ratio of records_pkey: n/a for uuid-v4 (no block of it was accessed)" in html
    assert "whole transaction p99: n/a for uuid-v4 (pgbench log incomplete)" in html
    assert re.search(r'<td class="na" title="pgbench log incomplete">\u2013', html)


def test_missing_timeseries_file_is_reported_not_fatal(war15: Path) -> None:
    (war15 / "timeseries" / "buffercache.csv").unlink()
    html = report_html(war15)
    figures = embedded_figures(html)
    assert not any(div_id.startswith("chart-buffercache") for div_id in figures)
    assert "chart-usagecount-lookup-by-data" in figures
    assert "timeseries/buffercache.csv is missing" in html


def test_failed_and_skipped_strategies_are_listed_not_drawn(war15: Path) -> None:
    html = report_html(war15)
    assert "needs sequuid 0.2, the server has 0.1" in html
    assert "prefill: server closed the connection unexpectedly" in html
    assert 'class="status-failed"' in html and 'class="status-skipped"' in html
    for traces in embedded_figures(html).values():
        assert not any(trace_strategy(t).split(" · ")[0] in ("ulid", "uuid-v1") for t in traces)


def test_unknown_fields_are_ignored(war15: Path) -> None:
    results = json.loads((war15 / "results.json").read_text())
    assert "some_future_field" in results["strategies"][0]["workloads"][0]
    results["a_field_from_the_future"] = {"x": [1, 2]}
    (war15 / "results.json").write_text(json.dumps(results))
    html = report_html(war15)
    assert "some_future_field" not in html and "a_field_from_the_future" not in html


def test_bloat_scenario_draws_density_before_and_after(tmp_path: Path) -> None:
    html = report_html(copy_run(BLOAT_PG15, tmp_path / "bloat"))
    figures = embedded_figures(html)
    # Density steps record per strategy (docs/results.md), so the density is drawn once, not per workload.
    traces = figures["chart-steps-density"]
    assert {t["name"] for t in traces} == set(MEASURED)
    moments = set(traces[0]["x"][1])
    assert moments == {"before", "after"}
    assert "average leaf density (%)" in html


def test_war_report_has_no_density_chart(war15: Path) -> None:
    assert not any(d.startswith("chart-density") for d in embedded_figures(report_html(war15)))


def test_directory_without_results_json_is_a_user_error(tmp_path: Path) -> None:
    with pytest.raises(ResultsNotFoundError, match=r"no results\.json") as caught:
        write_report(tmp_path)
    assert isinstance(caught.value, PkbenchError)
    assert str(tmp_path) in str(caught.value)
    with pytest.raises(PkbenchError):
        compare_directories([WAR_PG15, tmp_path], tmp_path / "out")[0]
    assert not (tmp_path / "out").exists()


def test_unreadable_results_json_is_a_user_error(tmp_path: Path) -> None:
    (tmp_path / "results.json").write_text("{not json")
    with pytest.raises(ResultsNotFoundError, match="cannot be read as JSON"):
        write_report(tmp_path)


def test_comparison_labels_runs_and_calls_out_differences(tmp_path: Path) -> None:
    path = compare_directories([WAR_PG15, WAR_PG18], tmp_path / "compare")[0]
    assert path == tmp_path / "compare" / "comparison.html"
    html = path.read_text(encoding="utf-8")
    assert "war-pg15 (PostgreSQL 15.20)" in html and "war-pg18 (PostgreSQL 18.1)" in html
    # One round each: the +12% is shown in its table, but no difference of one round is called out.
    assert "+12%" in html
    assert "No change resolved over the rounds of these runs" in html
    for part in ("speed", "work per transaction", "size and key hit ratio at the end"):
        assert f"<h3>workload {WORKLOADS[0]}: {part}</h3>" in html
    assert 'class="large better"' not in html
    # war-pg18 could not measure page splits: n/a with its reason, never 0
    figures = embedded_figures(html)
    for workload in WORKLOADS:
        assert f"chart-compare-tps-over-time-{workload}" in figures
        assert f"chart-compare-wal-{workload}" in figures
        run_labels = set(figures[f"chart-compare-tps-{workload}"][0]["x"][1])
        assert run_labels == {"run 1", "run 2"}


def test_comparison_marks_settings_that_differ(tmp_path: Path) -> None:
    other = copy_run(WAR_PG18, tmp_path / "bigger-buffers")
    results = json.loads((other / "results.json").read_text())
    results["server"]["settings"]["shared_buffers"] = "1GB"
    (other / "results.json").write_text(json.dumps(results))
    html = compare_directories([WAR_PG15, other], tmp_path / "compare")[0].read_text(encoding="utf-8")
    assert re.search(
        r'<tr class="large"><th><code>shared_buffers</code></th><td>128MB</td><td>1GB</td>', html
    )
    assert not re.search(r'<tr class="large"><th><code>fsync</code>', html)


def test_comparison_of_disjoint_runs_says_so(tmp_path: Path) -> None:
    other = copy_run(WAR_PG18, tmp_path / "renamed")
    results = json.loads((other / "results.json").read_text())
    for strategy in results["strategies"]:
        strategy["name"] = "my-" + strategy["name"]
    (other / "results.json").write_text(json.dumps(results))
    html = compare_directories([WAR_PG15, other], tmp_path / "compare")[0].read_text(encoding="utf-8")
    assert "no strategy was measured here in more than one of these runs" in html


@pytest.mark.parametrize("real", [WAR_REAL_PG15, WAR_REAL_PG18], ids=lambda p: p.name)
def test_report_of_a_real_run(real: Path, tmp_path: Path) -> None:
    html = report_html(copy_run(real, tmp_path / real.name))
    figures = embedded_figures(html)
    results = json.loads((real / "results.json").read_text())
    expected = {f"chart-{kind}-{w}" for kind in PER_WORKLOAD_CHARTS for w in WORKLOADS}
    expected |= {"chart-sizes", "chart-tps-per-workload"}
    if any(s.get("step_durations_s") for s in results["strategies"]):
        expected.add("chart-steps-durations")
    assert set(figures) == expected
    assert f"PostgreSQL {results['server']['version']}" in html
    assert f"driven by {results['target']['pgbench']}" in html
    # pg_walinspect was not used: WAL is shown as bytes beside counts of full-page images, and says why
    assert "wal_fpi_bytes is n/a, so the bytes cannot be split" in html
    assert re.search(
        r"hit ratio of key_sample: n/a for bigint, uuid-v4, uuid-v4-text, uuid-v7 \(no block", html
    )


def test_comparison_of_real_runs_across_versions(tmp_path: Path) -> None:
    html = compare_directories([WAR_REAL_PG15, WAR_REAL_PG18], tmp_path / "compare")[0].read_text(
        encoding="utf-8"
    )
    assert "war-real-pg15 (PostgreSQL 15.20)" in html and "war-real-pg18 (PostgreSQL 18.4)" in html
    figures = embedded_figures(html)
    for workload in WORKLOADS:
        assert {t["name"] for t in figures[f"chart-compare-tps-{workload}"]} == set(MEASURED)


def test_repeats_show_spread_and_every_repeat(war15: Path) -> None:
    results = json.loads((war15 / "results.json").read_text())
    results["strategies"][0]["spread"] = {"workloads.lookup-by-data.tps": [2900.0, 3100.0]}
    (war15 / "results.json").write_text(json.dumps(results))
    tps_csv = war15 / "timeseries" / "tps.csv"
    lines = tps_csv.read_text().splitlines()
    second = [
        line.replace(",1,", ",2,", 1) for line in lines[1:] if line.startswith("bigint,lookup-by-data,")
    ]
    tps_csv.write_text("\n".join([*lines, *second]) + "\n")
    html = report_html(war15)
    assert "3,010.0 (2,900.0\N{EN DASH}3,100.0)" in html
    bigint_lines = [
        t for t in embedded_figures(html)["chart-tps-lookup-by-data"] if t["legendgroup"] == "bigint"
    ]
    assert [t["name"] for t in bigint_lines] == ["bigint (repeat 1)", "bigint (repeat 2)"]
    assert len({t["line"]["color"] for t in bigint_lines}) == 1


def test_bloat_steps_show_density_table_space_durations_and_snapshots(tmp_path: Path) -> None:
    html = report_html(copy_run(BLOAT_REAL_PG15, tmp_path / "bloat"))
    figures = embedded_figures(html)
    assert set(figures) == {
        "chart-steps-density",
        "chart-steps-table-space",
        "chart-steps-durations",
        "chart-sizes",
    }, "no pgbench workload ran, so no workload charts"
    strategies = {"bigint", "uuid-v1", "uuid-v6", "uuid-v4", "uuid-v7"}
    density = figures["chart-steps-density"]
    assert {t["name"] for t in density} == strategies
    assert list(dict.fromkeys(density[0]["x"][1])) == [
        "after-insert",
        "after-delete",
        "after-vacuum",
        "after-copy",
    ]
    uuid_v4 = next(t for t in density if t["name"] == "uuid-v4")
    assert all(0 < y <= 100 for y in uuid_v4["y"]), "leaf density is drawn in percent"
    durations = {t["name"]: dict(zip(t["x"], t["y"], strict=True)) for t in figures["chart-steps-durations"]}
    assert set(durations["uuid-v1"]) >= {"insert", "vacuum", "copy-4n"}
    assert "after copy" in set(figures["chart-sizes"][0]["x"][1])
    # The sizes table has a row per strategy and moment, the snapshot after the copy among them.
    assert '<td class="">after copy</td>' in html


def test_comparison_of_bloat_runs_compares_steps_per_strategy(tmp_path: Path) -> None:
    slower = copy_run(BLOAT_REAL_PG15, tmp_path / "slower-disk")
    results = json.loads((slower / "results.json").read_text())
    for strategy in results["strategies"]:
        strategy["step_durations_s"]["copy-4n"] *= 2
    (slower / "results.json").write_text(json.dumps(results))
    html = compare_directories([BLOAT_REAL_PG15, slower], tmp_path / "compare")[0].read_text(encoding="utf-8")
    # Shown in the table, not called out: one measurement per run resolves no change.
    assert "+100%" in html
    assert not re.search(r"uuid-v1,\s+per strategy: copy-4n time \+100% in run 2", html)
    figures = embedded_figures(html)
    assert {"chart-compare-prefill", "chart-compare-step-copy-4n"} <= set(figures)
    assert "chart-compare-density-after-vacuum-records-pkey" in figures
    assert not any(div_id.startswith("chart-compare-tps") for div_id in figures), "bloat runs no workload"


def test_comparing_a_run_with_itself_keeps_labels_apart(tmp_path: Path) -> None:
    html = compare_directories([WAR_PG15, WAR_PG15], tmp_path / "compare")[0].read_text(encoding="utf-8")
    assert "run 1: war-pg15 (PostgreSQL 15.20)" in html
    assert "run 2: war-pg15 (PostgreSQL 15.20) #2" in html
    assert "No change resolved over the rounds of these runs" in html


def test_run_where_every_strategy_failed_still_reports(war15: Path) -> None:
    results = json.loads((war15 / "results.json").read_text())
    for strategy in results["strategies"]:
        strategy.update(status="failed", error="server terminated by signal 9", workloads=[])
    (war15 / "results.json").write_text(json.dumps(results))
    html = report_html(war15)
    assert embedded_figures(html) == {}
    assert html.count("server terminated by signal 9") >= len(results["strategies"])
    assert "n/a: nothing to draw" in html


def test_interrupted_run_without_strategies_still_reports(war15: Path) -> None:
    results = json.loads((war15 / "results.json").read_text())
    results["strategies"] = []
    (war15 / "results.json").write_text(json.dumps(results))
    assert '<section id="summary">' in report_html(war15)


def test_missing_samples_show_the_recorded_reason(war15: Path) -> None:
    results = json.loads((war15 / "results.json").read_text())
    reason = "pg_buffercache needs pg_monitor or superuser"
    for strategy in results["strategies"]:
        for workload in strategy["workloads"]:
            workload["unavailable"].append({"metric": "buffercache", "reason": reason})
    (war15 / "results.json").write_text(json.dumps(results))
    for kind in ("buffercache", "usagecount"):
        path = war15 / "timeseries" / f"{kind}.csv"
        path.write_text(path.read_text().splitlines()[0] + "\n")
    html = report_html(war15)
    figures = embedded_figures(html)
    assert not any(d.startswith(("chart-buffercache", "chart-usagecount")) for d in figures)
    assert f"samples: n/a for bigint, uuid-v4, uuid-v4-text, uuid-v7 ({reason})" in html
    assert "chart-wait_events-lookup-by-data" in figures


def test_wal_scenario_splits_wal_with_pg_walinspect_figures(tmp_path: Path) -> None:
    html = report_html(copy_run(WAL_REAL_PG15, tmp_path / "wal"))
    results = json.loads((WAL_REAL_PG15 / "results.json").read_text())
    workload = results["strategies"][1]["workloads"][0]
    figures = embedded_figures(html)
    traces = {t["name"]: t["y"][0] for t in figures[f"chart-wal-{workload['name']}"]}
    name = results["strategies"][1]["name"]
    assert traces[f"{name} · full-page images"] == pytest.approx(workload["wal_fpi_bytes_per_transaction"])
    assert traces[f"{name} · other records"] == pytest.approx(workload["wal_record_bytes_per_transaction"])
    assert "Split by bytes from wal_fpi_bytes" in html
    blocks = workload["wal_distinct_blocks"]
    assert ", ".join(f"{relation} {count:,}" for relation, count in blocks.items()) in html
    assert f"({workload['page_splits_per_transaction']:.4f} / tx)" in html


def test_statement_percentiles_missing_for_a_multi_statement_script(war15: Path) -> None:
    results = json.loads((war15 / "results.json").read_text())
    workload = results["strategies"][0]["workloads"][0]
    reason = "pgbench logs latency per script run; this script has several statements: means only"
    for index, statement in enumerate(workload["statements"], start=1):
        statement["name"] = f"txn.{index}"
        statement["latency_ms"] = {"mean": 1.0, "p50": None, "p95": None, "p99": None, "max": None}
    workload["unavailable"].append({"metric": "statements.txn.percentiles", "reason": reason})
    (war15 / "results.json").write_text(json.dumps(results))
    html = report_html(war15)
    assert f"txn.1 p95: n/a for bigint ({reason})" in html
    assert f"txn.2 p99: n/a for bigint ({reason})" in html
    bigint = next(t for t in embedded_figures(html)["chart-latency-lookup-by-data"] if t["name"] == "bigint")
    assert set(bigint["x"][0]) == {"whole transaction"}


def test_strategy_level_gaps_and_sampling_cost_are_shown(war15: Path) -> None:
    results = json.loads((war15 / "results.json").read_text())
    strategy = results["strategies"][0]
    strategy["unavailable"] = [{"metric": "maintenance: CHECKPOINT", "reason": "must be superuser"}]
    strategy["workloads"][0].update(sampling_busy_s=0.41, sampling_cpu_s=0.17)
    (war15 / "results.json").write_text(json.dumps(results))
    html = report_html(war15)
    assert "n/a: maintenance: CHECKPOINT: must be superuser" in html
    assert ">0.41 / 0.17</td>" in html


def test_overview_puts_every_workload_side_by_side(war15: Path) -> None:
    traces = embedded_figures(report_html(war15))["chart-tps-per-workload"]
    bigint = next(t for t in traces if t["name"] == "bigint")
    assert list(bigint["x"]) == list(WORKLOADS)
    assert bigint["y"] == [3010.0, pytest.approx(2919.7)]


def test_workload_figures_come_in_three_tables_and_a_missing_column_says_why_once(tmp_path: Path) -> None:
    html = report_html(copy_run(WAR_PG18, tmp_path / "war-pg18"))
    for caption in ("Speed", "Work per transaction and in the window", "Size at the end of the window"):
        assert html.count(f"<caption>{caption}</caption>") == len(WORKLOADS)
    # pg_walinspect was refused to every strategy: one line under each workload's work table, not a reason
    # repeated in every cell.
    line = "full-page image bytes: n/a for every strategy (pg_walinspect needs superuser)"
    assert html.count(line) == len(WORKLOADS)
    assert "<small>" not in html


def test_speed_charts_of_a_run_in_rounds_have_whiskers_and_dots(tmp_path: Path) -> None:
    committed = Path(__file__).parent.parent / "docs" / "reproductions" / "war-default"
    run = copy_run(committed, tmp_path / "war-default")
    html = report_html(run)
    rounds = json.loads((run / "results.json").read_text())["rounds"]["count"]
    assert f"whiskers: its 95% interval (bootstrap over {rounds} rounds); dots: the rounds." in html
    traces = embedded_figures(html)["chart-tps-per-workload"]
    bars = [t for t in traces if t["type"] == "bar"]
    dots = {t["legendgroup"]: t for t in traces if t["type"] == "scatter"}
    assert {t["name"] for t in bars} == set(dots) == set(MEASURED)
    for bar in bars:
        whisker = bar["error_y"]
        points = dots[bar["name"]]
        for index, (workload, median) in enumerate(zip(bar["x"], bar["y"], strict=True)):
            mine = [y for x, y in zip(points["x"], points["y"], strict=True) if x == workload]
            assert len(mine) == rounds
            low, high = median - whisker["arrayminus"][index], median + whisker["array"][index]
            # The median's interval lies within the rounds and holds the median.
            assert min(mine) <= low <= median <= high <= max(mine)


def test_a_stacked_chart_is_the_figure_plotly_would_make_trace_by_trace(war15: Path) -> None:
    run = load_run(war15)
    colors = strategy_colors([s.name for s in run.result.strategies])
    chart = stacks.stacked_over_time(run, stacks.BUFFERCACHE, "lookup-by-data", colors, "stack")
    drawn = chart.figure
    assert isinstance(drawn, dict) and drawn["data"]
    # The same figure through plotly's checks: every trace and the layout accepted as they are.
    assert go.Figure(drawn).to_dict() == drawn
    # Each panel's traces on its own row's axes, as make_subplots numbers them from the top.
    titles = [a["text"] for a in drawn["layout"]["annotations"]]
    for trace in drawn["data"]:
        row = titles.index(trace["legendgroup"]) + 1
        suffix = "" if row == 1 else str(row)
        assert (trace["xaxis"], trace["yaxis"]) == (f"x{suffix}", f"y{suffix}")
        assert f"yaxis{suffix}" in drawn["layout"]
