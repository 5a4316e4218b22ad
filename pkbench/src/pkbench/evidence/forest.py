"""The "which key?" table as a picture: a forest plot, one row per condition, each key's rate over bigint's
as a dot with its 95% interval as a bar on a log scale, the rule's ±10% margin drawn around 1, and its WAL per
transaction over bigint's beside it. Made from the cells of evidence.advice, so a committed run changes it;
a dot is filled where the decision rule's word for its cell decides something (evidence.cell), hollow where
it is *unresolved*, so the figure and the table say the same. Keys whose rate the rule leaves unresolved
everywhere are named in the caption rather than drawn, and so is storage, one measurement with no
interval.

A small SVG writer of its own: every coordinate is formatted to one decimal and nothing depends on the
clock, the locale or a library's version, so the same runs give the same bytes and `pkbench docs --check`
can compare the committed file with what the runs give.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from html import escape
from pathlib import Path

from pkbench.evidence.advice import Table, build
from pkbench.evidence.advice_rows import Column, committed
from pkbench.evidence.cell import BASELINE, RATE_MARGIN, TIMES, Cell

# Okabe-Ito colours, told apart with the commonest colour blindness; one per key, in the table's order.
COLOURS = ("#D55E00", "#E69F00", "#0072B2", "#56B4E9", "#009E73", "#CC79A7", "#999999", "#000000")
RATE_AXIS = (0.2, 2.5)
RATE_TICKS = (0.25, 0.5, 1.0, 2.0)
WAL_AXIS = (0.5, 40.0)
WAL_TICKS = (0.5, 1.0, 2.0, 5.0, 10.0, 30.0)

WIDTH = 900
LABEL_RIGHT = 330
RATE_LEFT, RATE_RIGHT = 345, 625
WAL_LEFT, WAL_RIGHT = 665, 885
LINE = 9  # one key's line within a row
ROW_PAD = 8
FONT = "font-family='Helvetica,Arial,sans-serif'"


@dataclass(frozen=True)
class Mark:
    """One key under one condition: its rate and WAL over bigint's, with their intervals."""

    column: Column
    colour: str
    cell: Cell


def _x(value: float, axis: tuple[float, float], left: float, right: float) -> float:
    low, high = (math.log(v) for v in axis)
    return left + (math.log(value) - low) / (high - low) * (right - left)


def _clamped(value: float, axis: tuple[float, float]) -> tuple[float, bool]:
    """VALUE within AXIS, and whether it had to be moved there."""
    inside = min(max(value, axis[0]), axis[1])
    return inside, inside != value


def _n(value: float) -> str:
    return f"{value:.1f}"


def _tick(value: float) -> str:
    return f"{value:g}{TIMES}"


def _drawn(cell: Cell) -> bool:
    interval = cell.low is not None and cell.high is not None
    return cell.kind == "verdict" and cell.ratio is not None and interval


def undecided_keys(table: Table) -> list[str]:
    """Keys measured with an interval somewhere whose rate the rule leaves unresolved in every condition:
    left out of the figure (their bars would be the widest and decide nothing), named in its caption."""
    found = []
    for column in table.columns[1:]:
        cells = [table.cells[c.key][column.strategy] for c in table.conditions]
        drawn = [cell for cell in cells if _drawn(cell)]
        if drawn and all(cell.speed() == "unresolved" for cell in drawn):
            found.append(column.strategy)
    return found


def rows(table: Table) -> list[tuple[str, list[Mark]]]:
    """The conditions with at least one key's rate measured with an interval, and those keys (but the keys
    the rule leaves unresolved everywhere)."""
    colours = {c.strategy: COLOURS[i % len(COLOURS)] for i, c in enumerate(table.columns[1:])}
    left_out = set(undecided_keys(table))
    found = []
    for condition in table.conditions:
        marks = [
            Mark(column, colours[column.strategy], cell)
            for column in table.columns
            if column.strategy != BASELINE
            and column.strategy not in left_out
            and (cell := table.cells[condition.key][column.strategy]).kind == "verdict"
            and cell.ratio is not None
            and cell.low is not None
            and cell.high is not None
        ]
        if marks:
            found.append((condition.label, marks))
    return found


def _bar(
    out: list[str],
    y: float,
    values: tuple[float, float | None, float | None],
    axis: tuple[float, float],
    span: tuple[float, float],
    colour: str,
    solid: bool,
) -> None:
    """A dot at the estimate and a bar over the interval, with an arrowhead where the interval leaves the
    axis; a hollow dot where the rule's word for the figure is *unresolved* (not SOLID)."""
    estimate, low, high = values
    left, right = span
    if low is not None and high is not None:
        (low_in, low_cut), (high_in, high_cut) = _clamped(low, axis), _clamped(high, axis)
        x1, x2 = _x(low_in, axis, left, right), _x(high_in, axis, left, right)
        out.append(
            f"<line x1='{_n(x1)}' y1='{_n(y)}' x2='{_n(x2)}' y2='{_n(y)}' stroke='{colour}' "
            "stroke-width='1.6'/>"
        )
        for cut, x, direction in ((low_cut, x1, -1), (high_cut, x2, 1)):
            if cut:
                tip = x + 4 * direction
                out.append(
                    f"<path d='M{_n(x)},{_n(y - 3)} L{_n(tip)},{_n(y)} L{_n(x)},{_n(y + 3)} Z' "
                    f"fill='{colour}'/>"
                )
    shown, _ = _clamped(estimate, axis)
    fill = colour if solid else "white"
    out.append(
        f"<circle cx='{_n(_x(shown, axis, left, right))}' cy='{_n(y)}' r='3.2' fill='{fill}' "
        f"stroke='{colour}' stroke-width='1.3'/>"
    )


def _axis(
    out: list[str],
    top: float,
    bottom: float,
    axis: tuple[float, float],
    span: tuple[float, float],
    ticks: tuple[float, ...],
    title: str,
) -> None:
    left, right = span
    out.append(
        f"<text x='{_n((left + right) / 2)}' y='{_n(top - 22)}' text-anchor='middle' "
        f"font-size='12' font-weight='bold'>{escape(title)}</text>"
    )
    for value in ticks:
        x = _x(value, axis, left, right)
        out.append(f"<line x1='{_n(x)}' y1='{_n(top)}' x2='{_n(x)}' y2='{_n(bottom)}' stroke='#dddddd'/>")
        out.append(
            f"<text x='{_n(x)}' y='{_n(top - 6)}' text-anchor='middle' font-size='10'>{_tick(value)}</text>"
        )
        out.append(
            f"<text x='{_n(x)}' y='{_n(bottom + 12)}' text-anchor='middle' font-size='10'>"
            f"{_tick(value)}</text>"
        )
    x1 = _x(1.0, axis, left, right)
    out.append(f"<line x1='{_n(x1)}' y1='{_n(top)}' x2='{_n(x1)}' y2='{_n(bottom)}' stroke='#555555'/>")


def svg(table: Table) -> str:
    """The figure of TABLE as an SVG document."""
    found = rows(table)
    keys: dict[str, Mark] = {}
    for _, marks in found:
        for mark in marks:
            keys.setdefault(mark.column.strategy, mark)
    legend_lines = 1 + (len(keys) - 1) // 4
    top = 62 + 16 * legend_lines
    heights = [ROW_PAD * 2 + LINE * (len(marks) - 1) for _, marks in found]
    bottom = top + sum(heights)
    notes = [
        "Dot: the key's rate (left) or WAL per transaction (right) over bigint's in the same run; bar: its "
        f"95% interval; shaded: the rule's margin, within \u00b1{RATE_MARGIN:.0%} of bigint's rate.",
        "Filled dot: a figure the rule decides (level, slower, faster; WAL heavier, lighter, similar); "
        "hollow: unresolved, deciding nothing.",
        "Arrowhead: an interval beyond the axis. Log scales.",
        *_caption(table),
    ]
    if any(m.column.made_by_clients for m in keys.values()):
        notes.append(
            "* v7 made by application servers, built in SQL inside each pgbench statement (pgbench has no "
            "clock): its rate carries a cost an application pays in its own process."
        )
    height = bottom + 26 + 14 * len(notes)
    out = [
        f"<svg xmlns='http://www.w3.org/2000/svg' width='{WIDTH}' height='{_n(height)}' "
        f"viewBox='0 0 {WIDTH} {_n(height)}' {FONT}>",
        f"<rect width='{WIDTH}' height='{_n(height)}' fill='white'/>",
        f"<text x='10' y='20' font-size='14' font-weight='bold'>Each key against bigint, condition by "
        f"condition ({len(table.runs)} committed runs)</text>",
    ]
    for index, (strategy, mark) in enumerate(keys.items()):
        x = 10 + (index % 4) * 220
        y = 38 + 16 * (index // 4)
        out.append(f"<circle cx='{x + 4}' cy='{y - 4}' r='4' fill='{mark.colour}'/>")
        label = f"{strategy}*" if mark.column.made_by_clients else strategy
        out.append(f"<text x='{x + 12}' y='{y}' font-size='11'>{escape(label)}</text>")
    x_low, x_high = (
        _x(1 - RATE_MARGIN, RATE_AXIS, RATE_LEFT, RATE_RIGHT),
        _x(1 + RATE_MARGIN, RATE_AXIS, RATE_LEFT, RATE_RIGHT),
    )
    out.append(
        f"<rect x='{_n(x_low)}' y='{_n(top)}' width='{_n(x_high - x_low)}' height='{_n(bottom - top)}' "
        "fill='#e8e8e8'/>"
    )
    _axis(out, top, bottom, RATE_AXIS, (RATE_LEFT, RATE_RIGHT), RATE_TICKS, "rate over bigint's")
    _axis(out, top, bottom, WAL_AXIS, (WAL_LEFT, WAL_RIGHT), WAL_TICKS, "WAL per transaction over bigint's")
    y = top
    for (label, marks), row_height in zip(found, heights, strict=True):
        if y > top:
            out.append(f"<line x1='10' y1='{_n(y)}' x2='{WIDTH - 10}' y2='{_n(y)}' stroke='#eeeeee'/>")
        middle = y + row_height / 2
        out.append(
            f"<text x='{LABEL_RIGHT}' y='{_n(middle + 4)}' text-anchor='end' font-size='11'>"
            f"{escape(label)}</text>"
        )
        for index, mark in enumerate(marks):
            line_y = y + ROW_PAD + LINE * index
            cell = mark.cell
            assert cell.ratio is not None
            _bar(
                out,
                line_y,
                (cell.ratio, cell.low, cell.high),
                RATE_AXIS,
                (RATE_LEFT, RATE_RIGHT),
                mark.colour,
                cell.speed() != "unresolved",
            )
            if cell.work is not None and cell.work.ratio > 0:
                work = cell.work
                _bar(
                    out,
                    line_y,
                    (work.ratio, work.low, work.high),
                    WAL_AXIS,
                    (WAL_LEFT, WAL_RIGHT),
                    mark.colour,
                    work.says() != "unresolved",
                )
        y += row_height
    for index, note in enumerate(notes):
        out.append(f"<text x='10' y='{_n(bottom + 32 + 14 * index)}' font-size='10'>{escape(note)}</text>")
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _caption(table: Table) -> list[str]:
    """What the figure does not draw, said: storage (one measurement each, no interval) and the keys whose
    rate the rule leaves unresolved everywhere."""
    sizes = [
        f"{strategy} {cell.ratio:.2f}{TIMES}"
        for condition in table.conditions
        for strategy, cell in table.cells[condition.key].items()
        if cell.kind == "size" and cell.ratio is not None and strategy != BASELINE
    ]
    notes = []
    if sizes:
        notes.append(f"Not drawn, storage over bigint's (one measurement each): {', '.join(sizes)}.")
    if left_out := undecided_keys(table):
        notes.append(
            f"Not drawn: {', '.join(left_out)}, whose rate no condition resolves (advice.md has their cells)."
        )
    return notes


# Where the figure is committed, and the folder of runs it is drawn from, both from the repository's root.
FIGURE = Path("pkbench/docs/which-key.svg")
RUNS = Path("pkbench/docs/reproductions")


def committed_figure(root: Path) -> str:
    """The figure the committed runs under ROOT give."""
    # resolved: a folder of runs reached through a link is read once, as the one it links to
    runs_dir = (root / RUNS).resolve()
    sources, conditions = committed(runs_dir)
    return svg(build(runs_dir, sources, conditions=conditions))
