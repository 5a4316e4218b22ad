"""Draw docs/report-screenshot.png: the top of `pkbench report` on a committed run, in headless Chromium.

The run is copied to a temporary directory (its report.html is never committed), its report written there and
opened at 1300 pixels wide; the screenshot is the top HEIGHT pixels of the page, after every chart has drawn.

    .venv/bin/python pkbench/benchmarks/report_screenshot.py pkbench/docs/reproductions/war-default
"""

from __future__ import annotations

import argparse
import shutil
import tempfile
from pathlib import Path

from playwright.sync_api import sync_playwright

from pkbench.report.render import write_report

CHROMIUM = "/usr/bin/chromium"
WIDTH = 1300


def draw(run: Path, out: Path, height: int) -> None:
    with tempfile.TemporaryDirectory() as scratch:
        copy = Path(scratch) / run.name
        shutil.copytree(run, copy)
        page_path = write_report(copy)
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(
                executable_path=CHROMIUM, args=["--no-sandbox", "--headless"]
            )
            page = browser.new_page(viewport={"width": WIDTH, "height": height})
            page.goto(page_path.as_uri())
            page.wait_for_function(
                "() => Array.from(document.querySelectorAll('.plotly-graph-div')).every(g => g._fullLayout)"
            )
            page.screenshot(path=str(out), clip={"x": 0, "y": 0, "width": WIDTH, "height": height})
            browser.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("run", type=Path, help="a committed results directory")
    parser.add_argument(
        "--out", type=Path, default=Path(__file__).parents[1] / "docs" / "report-screenshot.png"
    )
    parser.add_argument("--height", type=int, default=2080)
    arguments = parser.parse_args()
    draw(arguments.run, arguments.out, arguments.height)
    print(arguments.out)


if __name__ == "__main__":
    main()
