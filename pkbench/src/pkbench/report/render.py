"""Turning loaded runs into the report pages (Jinja2 templates in templates/)."""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import plotly.io as pio
from jinja2 import Environment, PackageLoader, StrictUndefined, select_autoescape
from markupsafe import Markup
from plotly.offline import get_plotlyjs

from pkbench.report import charts, shards, stacks, steps, tables
from pkbench.report.loading import Run, load_run
from pkbench.report.palette import strategy_colors
from pkbench.summary import reproductions
from pkbench.summary import verdicts as verdict_tables
from pkbench.text import binary_size

PLOTLY_CONFIG = {"displaylogo": False, "responsive": True}


@dataclass
class Section:
    """A titled part of the page: optional tables, then charts."""

    anchor: str
    title: str
    intro: str = ""
    tables: list[Table] = field(default_factory=list)
    charts: list[RenderedChart] = field(default_factory=list)


@dataclass
class Table:
    headers: list[str]
    rows: list[tables.TableRow]
    caption: str = ""

    @property
    def notes(self) -> list[str]:
        """Under the table, once per column: which figures are n/a and why (the cells show only the dash)."""
        return tables.column_notes(self.headers, self.rows)


@dataclass(frozen=True)
class RenderedChart:
    div_id: str
    title: str
    html: Markup | None
    notes: list[str]


def slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "x"


@functools.cache
def chart_template() -> dict[str, Any]:
    """plotly_white as plotly's JSON, made once: every chart's layout carries it."""
    template: dict[str, Any] = pio.templates["plotly_white"].to_plotly_json()
    return template


def rendered(chart: charts.Chart) -> RenderedChart:
    html = None
    if chart.figure is not None:
        # plotly checked a Figure's parts as they were set; a dict was made from checked parts
        figure = chart.figure if isinstance(chart.figure, dict) else chart.figure.to_dict()
        figure["layout"]["template"] = chart_template()
        height = figure["layout"].get("height")
        html = Markup(
            pio.to_html(
                figure,
                validate=False,
                include_plotlyjs=False,
                full_html=False,
                div_id=chart.div_id,
                config=PLOTLY_CONFIG,
                default_height=f"{height or 440}px",
            )
        )
    return RenderedChart(chart.div_id, chart.title, html, chart.all_notes())


def environment() -> Environment:
    return Environment(
        loader=PackageLoader("pkbench.report", "templates"),
        autoescape=select_autoescape(["html", "j2"]),
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )


@functools.cache
def inline_plotly_js() -> Markup:
    """plotly's bundled JavaScript, safe inside a <script> element (read once: it is 4.8 MB)."""
    return Markup(get_plotlyjs().replace("</script", "<\\/script"))


def page(template: str, **context: Any) -> str:
    return environment().get_template(template).render(plotly_js=inline_plotly_js(), **context)


def metadata_rows(run: Run) -> list[tuple[str, str]]:
    result = run.result
    scenario, server, machine, target = result.scenario, result.server, result.machine, result.target
    memory = machine.get("memory_bytes")
    limit = machine.get("memory_limit_bytes")
    parameters = scenario.get("parameters") or {}
    return [
        ("pkbench", result.pkbench_version),
        ("command", " ".join(str(part) for part in result.command) or "unknown"),
        ("started / finished", f"{result.started_at} / {result.finished_at}"),
        (
            "scenario",
            ": ".join(str(part) for part in (scenario.get("name", "?"), scenario.get("description")) if part),
        ),
        ("scenario parameters", ", ".join(f"{k}={v}" for k, v in parameters.items()) or "none recorded"),
        (
            "PostgreSQL",
            f"{server.get('version', 'unknown')}"
            + (", embedded cluster" if server.get("embedded") else ", existing server")
            + (", superuser" if server.get("superuser") else ", not superuser"),
        ),
        (
            "target",
            ", ".join(
                f"{label} {target[key]}"
                for key, label in (
                    ("connection", "connection"),
                    ("schema", "schema"),
                    ("pgbench", "driven by"),
                )
                if target.get(key)
            )
            or "not recorded",
        ),
        (
            "machine",
            ", ".join(
                part
                for part in (
                    f"{machine['cores']} cores" if machine.get("cores") else "",
                    f"{binary_size(memory)} memory" if isinstance(memory, int | float) else "",
                    f"server limited to {binary_size(limit)}" if isinstance(limit, int | float) else "",
                    str(machine.get("cpu_model") or ""),
                    str(machine.get("kernel") or ""),
                )
                if part
            )
            or "unknown",
        ),
    ]


def settings_of(run: Run) -> dict[str, str]:
    settings = run.result.server.get("settings") or {}
    return {str(k): str(v) for k, v in settings.items()} if isinstance(settings, dict) else {}


def run_sections(run: Run, colors: dict[str, str]) -> list[Section]:
    """Everything the report shows about one run, section by section."""
    sections = []
    workloads = set(run.workload_names())
    for found in verdict_tables.tables(run.result):
        # The load's verdicts (over its parts) belong to no workload's section.
        if found.workload not in workloads:
            section = Section(f"load-{slug(found.workload)}", f"Load: {found.workload}", found.note)
            rows = [tables.TableRow(row[0], "ok", [tables.Cell(c) for c in row[1:]]) for row in found.rows]
            section.tables.append(Table(found.header, rows))
            sections.append(section)
    for workload in run.workload_names():
        key = slug(workload)
        section = Section(
            f"workload-{key}",
            f"Workload {workload}",
            next((w.description or "" for _, w in run.measured_in(workload)), ""),
        )
        section.tables += [
            Table(found.headers, found.rows, found.caption) for found in tables.workload_tables(run, workload)
        ]
        section.tables += [
            Table(
                found.header,
                [tables.TableRow(row[0], "ok", [tables.Cell(c) for c in row[1:]]) for row in found.rows],
                f"Verdicts against {run.result.baseline or 'the baseline'}",
            )
            for found in verdict_tables.tables(run.result)
            if found.workload == workload
        ]
        builders = [
            charts.tps_over_time(run, workload, colors, f"chart-tps-{key}"),
            charts.latency_percentiles(run, workload, colors, f"chart-latency-{key}"),
            charts.wal_per_transaction(run, workload, colors, f"chart-wal-{key}"),
            charts.hit_ratios(run, workload, colors, f"chart-hit-ratio-{key}"),
        ]
        builders += [
            stacks.stacked_over_time(run, spec, workload, colors, f"chart-{spec.kind}-{key}")
            for spec in stacks.STACKS
        ]
        section.charts = [rendered(chart) for chart in builders]
        sections.append(section)
    if steps.has_steps(run):
        study = Section(
            "steps",
            "Scenario steps",
            "What the scenario's own steps measured outside pgbench windows: pgstatindex and pgstattuple "
            "after each density step, how long each timed step ran, and the buffers each explained query "
            "touched per row, and each shard's share of the inserts, over the window too.",
        )
        study.charts = [
            rendered(chart)
            for chart in (
                steps.index_density(run, colors, "chart-steps-density"),
                steps.table_space(run, colors, "chart-steps-table-space"),
                steps.step_durations(run, colors, "chart-steps-durations"),
                steps.query_blocks(run, colors, "chart-steps-query-blocks"),
                steps.shard_shares(run, colors, "chart-steps-shard-shares"),
                *(
                    shards.shares_chart(run, workload, colors, f"chart-steps-shard-shares-{index}")
                    for index, workload in enumerate(shards.workloads_sampled(run), 1)
                ),
            )
            if chart.figure is not None or chart.all_notes()
        ]
        sections.append(study)
    beside = reproductions.report_rows(run.result)
    if beside:
        section = Section("published", "Published figures beside ours", reproductions.RULE)
        rows = [tables.TableRow(name, "ok", [tables.Cell(text) for text in cells]) for name, cells in beside]
        section.tables.append(Table(reproductions.REPORT_HEADER, rows))
        sections.append(section)
    sizes = Section("sizes", "Sizes after prefill and at the end")
    sizes.tables.append(Table(tables.SIZE_TABLE_HEADERS, tables.size_rows(run)))
    sizes.charts.append(rendered(charts.sizes_chart(run, colors, "chart-sizes")))
    sections.append(sizes)
    return sections


def strategy_table(run: Run, colors: dict[str, str]) -> list[dict[str, str]]:
    return [
        {
            "name": s.name,
            "color": colors.get(s.name, "#999999"),
            "description": s.description or "",
            "column_type": s.column_type or "",
            "default_expression": s.default_expression or "",
            "status": s.status,
            "error": s.error or "",
            "could_not": "; ".join(f"{entry.metric}: {entry.reason}" for entry in s.unavailable),
        }
        for s in run.strategies
    ]


def render_report(run: Run) -> str:
    colors = strategy_colors(s.name for s in run.strategies)
    scenario = run.result.scenario.get("name", "run")
    return page(
        "report.html.j2",
        title=f"pkbench: {scenario} on PostgreSQL {run.server_version}",
        metadata=metadata_rows(run),
        settings=settings_of(run),
        strategies=strategy_table(run, colors),
        summary=Table(*tables.summary_table(run)),
        overview=rendered(charts.tps_per_workload(run, colors, "chart-tps-per-workload")),
        sections=run_sections(run, colors),
        missing_series=run.missing_series,
        incomplete=run.result.completion.line() if run.result.completion else "",
    )


def write_report(results_dir: Path) -> Path:
    """Write RESULTS_DIR/report.html for one run and return its path."""
    path = results_dir / "report.html"
    path.write_text(render_report(load_run(results_dir)), encoding="utf-8")
    return path
