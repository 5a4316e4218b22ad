"""The HTML report of one results directory and the comparison of several.

Both read only what docs/results.md describes (results.json and timeseries/*.csv) and write one
self-contained HTML file that opens offline: plotly's JavaScript is inlined once per page.
"""

from pathlib import Path

from pkbench.report.loading import ResultsNotFoundError, load_run

__all__ = ["ResultsNotFoundError", "write_comparison", "write_report"]


def write_report(results_dir: Path) -> Path:
    """Write RESULTS_DIR/report.html for one run and return its path."""
    from pkbench.report.render import render_report

    run = load_run(results_dir)
    path = results_dir / "report.html"
    path.write_text(render_report(run), encoding="utf-8")
    return path


def write_comparison(dirs: list[Path], out_dir: Path) -> Path:
    """Write OUT_DIR/comparison.html comparing the runs in DIRS (the first is the baseline)."""
    from pkbench.report.comparison import render_comparison

    runs = [load_run(d) for d in dirs]
    out_dir.mkdir(parents=True, exist_ok=True)
    path = out_dir / "comparison.html"
    path.write_text(render_comparison(runs), encoding="utf-8")
    return path
