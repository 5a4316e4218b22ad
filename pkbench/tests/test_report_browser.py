"""The report and the comparison opened in a real headless Chromium (Debian's chromium, driven by Playwright).

Fails on any JavaScript error, on any chart without drawn data, and saves a screenshot of each page's first
screen into pytest's tmp dir (a whole page's took Chromium a third of these tests' CPU; the charts below the
fold are checked by what they drew). Chromium missing is a failure; only PKBENCH_NO_BROWSER=1 skips these
tests.
"""

from __future__ import annotations

import contextlib
import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

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
)

from pkbench.report.comparison import compare_directories
from pkbench.report.render import write_report

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--headless",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]

# Per chart div: how many SVG traces plotly drew and how many of their paths carry real geometry.
DRAWN_CHARTS_JS = """() => Array.from(document.querySelectorAll('.plotly-graph-div')).map(gd => ({
  id: gd.id,
  title: (gd.querySelector('.gtitle') || {}).textContent || '',
  axisTitles: Array.from(gd.querySelectorAll('.xtitle, .ytitle')).map(t => t.textContent).filter(t => t),
  legendItems: Array.from(gd.querySelectorAll('.legend .traces .legendtext')).map(t => t.textContent),
  traces: gd.querySelectorAll('g.trace').length,
  drawnPaths: Array.from(gd.querySelectorAll('g.trace path')).filter(p => {
    const d = p.getAttribute('d') || '';
    return d.length > 4 && d !== 'M0,0Z';
  }).length,
}))"""

pytestmark = pytest.mark.skipif(
    os.environ.get("PKBENCH_NO_BROWSER") == "1", reason="PKBENCH_NO_BROWSER=1 set explicitly"
)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    if not shutil.which(CHROMIUM):
        pytest.fail(f"{CHROMIUM} is missing: apt-get install chromium (or set PKBENCH_NO_BROWSER=1 to skip)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield launched
        finally:
            launched.close()


def open_and_check(
    browser: Any, page_path: Path, screenshot: Path, chart_timeout_ms: int = 60_000, width: int = 1400
) -> list[dict[str, Any]]:
    """Open PAGE_PATH offline in a window WIDTH pixels wide, wait for its charts, fail on JavaScript errors
    and on anything wider than the window; return what each chart drew."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    context = browser.new_context(viewport={"width": width, "height": 1000}, offline=True)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(f"pageerror: {error}"))
    page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    requests: list[str] = []
    page.on("request", lambda request: requests.append(request.url))
    try:
        # A page of a few MB of inline plotly loads in seconds; a loaded machine can take far longer than
        # playwright's 30-second default, which is not what this test is about.
        page.goto(page_path.as_uri(), wait_until="load", timeout=180_000)
        # A chart that never draws is not an error here: assert_every_chart_drawn names it.
        with contextlib.suppress(PlaywrightTimeout):
            page.wait_for_function(
                "() => Array.from(document.querySelectorAll('.plotly-graph-div'))"
                ".every(gd => gd.querySelector('svg.main-svg g.trace'))",
                timeout=chart_timeout_ms,
            )

        charts: list[dict[str, Any]] = page.evaluate(DRAWN_CHARTS_JS)
        scrolled = page.evaluate("() => document.documentElement.scrollWidth")
        page.screenshot(path=str(screenshot))
    finally:
        context.close()
    assert errors == [], errors
    assert scrolled <= width, f"the page is {scrolled} pixels wide in a window of {width}"
    assert [url for url in requests if not url.startswith("file://")] == []
    assert screenshot.stat().st_size > 10_000
    return charts


def assert_every_chart_drawn(charts: list[dict[str, Any]], html: str) -> None:
    assert {chart["id"] for chart in charts} == set(embedded_figures(html)), "every figure has its div"
    for chart in charts:
        assert chart["traces"] > 0, f"{chart['id']} has no traces"
        assert chart["drawnPaths"] > 0, f"{chart['id']} drew no data points"
        assert chart["title"], f"{chart['id']} has no title"
        assert chart["axisTitles"], f"{chart['id']} has no axis titles"
        assert chart["legendItems"], f"{chart['id']} has no legend"


@pytest.mark.parametrize(
    "fixture",
    [WAR_PG15, BLOAT_PG15, WAR_REAL_PG15, WAR_REAL_PG18, BLOAT_REAL_PG15, WAL_REAL_PG15],
    ids=lambda p: p.name,
)
def test_report_renders_in_chromium(browser: Any, fixture: Path, tmp_path: Path) -> None:
    report = write_report(copy_run(fixture, tmp_path / fixture.name))
    # Every table of the report, the workload's figures included, fits a page 1300 pixels wide.
    charts = open_and_check(browser, report, tmp_path / f"{fixture.name}.png", width=1300)
    assert len(charts) >= (4 if fixture == BLOAT_REAL_PG15 else 17)
    assert_every_chart_drawn(charts, report.read_text(encoding="utf-8"))


def test_report_without_a_timeseries_file_renders(browser: Any, tmp_path: Path) -> None:
    run = copy_run(WAR_PG15, tmp_path / "war")
    (run / "timeseries" / "wait_events.csv").unlink()
    report = write_report(run)
    charts = open_and_check(browser, report, tmp_path / "partial.png")
    assert not any(chart["id"].startswith("chart-wait_events") for chart in charts)
    assert_every_chart_drawn(charts, report.read_text(encoding="utf-8"))


@pytest.mark.parametrize(
    ("runs", "at_least"),
    [
        ([WAR_PG15, WAR_PG18, BLOAT_PG15], 15),
        ([WAR_REAL_PG15, WAR_REAL_PG18], 15),
        ([BLOAT_REAL_PG15, BLOAT_REAL_PG15], 5),
    ],
    ids=["fixtures", "real", "bloat-twice"],
)
def test_comparison_renders_in_chromium(
    browser: Any, runs: list[Path], at_least: int, tmp_path: Path
) -> None:
    comparison = compare_directories(runs, tmp_path / "compare")[0]
    # Like the report's, each workload's differences come in tables that fit a page 1300 pixels wide.
    charts = open_and_check(browser, comparison, tmp_path / "comparison.png", width=1300)
    assert len(charts) >= at_least
    assert_every_chart_drawn(charts, comparison.read_text(encoding="utf-8"))


def test_checks_catch_a_script_error_and_an_empty_chart(browser: Any, tmp_path: Path) -> None:
    """The checks above can fail: a thrown error and a chart div without data are both caught."""
    # The report of fewest charts: what is caught is the same on any page, and each of the two pages here
    # loads and draws in a fraction of a war report's time.
    report = write_report(copy_run(BLOAT_REAL_PG15, tmp_path / "bloat"))
    html = report.read_text(encoding="utf-8")
    broken = tmp_path / "broken.html"
    broken.write_text(html.replace("</body>", "<script>notAFunction();</script></body>"), encoding="utf-8")
    with pytest.raises(AssertionError, match="notAFunction"):
        open_and_check(browser, broken, tmp_path / "broken.png", chart_timeout_ms=5_000)
    empty = tmp_path / "empty.html"
    empty_chart = (
        '<div id="chart-empty" class="plotly-graph-div"></div>'
        '<script>Plotly.newPlot("chart-empty", [])</script>'
    )
    empty.write_text(html.replace("</main>", empty_chart + "</main>"), encoding="utf-8")
    charts = open_and_check(browser, empty, tmp_path / "empty.png", chart_timeout_ms=3_000)
    with pytest.raises(AssertionError, match="chart-empty has no traces"):
        assert_every_chart_drawn(charts, empty.read_text(encoding="utf-8"))
