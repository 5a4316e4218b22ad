"""Helpers the report tests share: fixture directories and the plotly figures embedded in a page."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

DATA = Path(__file__).parent / "data"
WAR_PG15 = DATA / "war-pg15"
WAR_PG18 = DATA / "war-pg18"
BLOAT_PG15 = DATA / "bloat-pg15"
# Real runs (results.json and timeseries of `pkbench run --strategies bigint,uuid-v4,uuid-v4-text,uuid-v7
# --rows 300000 --clients 4 --duration 20 --sample-every 2`, on PostgreSQL 15.20 and 18.4).
WAR_REAL_PG15 = DATA / "war-real-pg15"
WAR_REAL_PG18 = DATA / "war-real-pg18"
# `pkbench run bloat --rows 50000` on PostgreSQL 15.20: no pgbench workload, density and step durations only.
BLOAT_REAL_PG15 = DATA / "bloat-real-pg15"
# `pkbench run wal --rows 40000 --duration 5` on PostgreSQL 15.20: insert-only tiers, pg_walinspect figures.
WAL_REAL_PG15 = DATA / "wal-real-pg15"


def copy_run(source: Path, destination: Path) -> Path:
    """A writable copy of a fixture results directory (the report is written into it)."""
    shutil.copytree(source, destination)
    return destination


def embedded_figures(html: str) -> dict[str, list[dict[str, Any]]]:
    """Each chart's div id and its traces, read back from the Plotly.newPlot calls of a page."""
    decoder = json.JSONDecoder()
    figures: dict[str, list[dict[str, Any]]] = {}
    marker = "Plotly.newPlot("
    start = html.find(marker)
    while start != -1:
        position = start + len(marker)
        position = len(html) - len(html[position:].lstrip())
        div_id, position = decoder.raw_decode(html, position)
        position = html.index("[", position)
        traces, position = decoder.raw_decode(html, position)
        figures[div_id] = traces
        start = html.find(marker, position)
    return figures


def trace_color(trace: dict[str, Any]) -> str:
    if trace.get("type") == "bar":
        return str(trace["marker"]["color"])
    return str(trace.get("fillcolor") or trace["line"]["color"])


def trace_strategy(trace: dict[str, Any]) -> str:
    return str(trace.get("legendgroup") or trace["name"])
