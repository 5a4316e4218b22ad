"""The model of a key's cost (pkbench.model) as the documents show it: its fitted constants, its predictions
against committed runs it was not fitted to, and one figure of how a random key's WAL moves with the server's
checkpoint distance and the index's size.

The figure's x axis is what the model says a random key's WAL depends on: the inserts between two checkpoints
over the key index's leaf pages. Below 1 nearly every insert lands on a leaf not yet changed since the last
checkpoint and writes a full-page image; far above it most leaves have been written once already. Every
committed insert window of uuid-v4 beside bigint is a point on it, the curve is the model's with its interval.
"""

from __future__ import annotations

import math
import statistics
from dataclasses import dataclass
from html import escape
from pathlib import Path

from pkbench.model import calibration
from pkbench.model.calibration import Fit
from pkbench.model.observations import Observation, observations
from pkbench.model.prediction import QUOTABLE_FACTOR, Estimate, Server, predict
from pkbench.model.rate import pairs
from pkbench.results.files import load_json
from pkbench.text import binary_size

FIGURE = Path("pkbench/docs/model-check.svg")
RUNS = Path("pkbench/docs/reproductions")
RANDOM, BASELINE = "uuid-v4", calibration.BASELINE
TIMES = "\u00d7"


@dataclass(frozen=True)
class Check:
    """One key's window of a run, its rounds together: what was measured, what the model predicts."""

    run: str
    key: str
    window: str
    rounds: int
    measured: float
    predicted: float
    low: float
    high: float

    @property
    def held(self) -> bool:
        return self.low <= self.measured <= self.high


def checks(fit: Fit, windows: list[Observation]) -> list[Check]:
    """WAL per transaction, measured and predicted, for each run, key and window of WINDOWS."""
    groups: dict[tuple[str, str, str], list[Observation]] = {}
    for o in windows:
        groups.setdefault((o.run, o.strategy, o.window), []).append(o)
    found = []
    for (run, key, window), group in groups.items():
        measured = statistics.fmean(o.wal_per_transaction for o in group)
        predicted = statistics.fmean(calibration.predicted_wal_per_transaction(o, fit) for o in group)
        factor = fit.key(key).interval_factor()
        found.append(
            Check(run, key, window, len(group), measured, predicted, predicted / factor, predicted * factor)
        )
    return found


def _held_out(runs_dir: Path) -> list[Observation]:
    return calibration.windows_of(runs_dir, calibration.HELD_OUT_RUNS)


def calibration_lines(runs_dir: Path) -> list[str]:
    """The fitted constants, key by key, and the rate's costs."""
    fit = calibration.committed(runs_dir)
    lines = [
        "| Key | records per insert | full-page image | with wal_compression | windows | 95% interval |",
        "|---|---|---|---|---|---|",
    ]
    for key, constants in fit.keys.items():
        share = constants.compressed_image_share
        lines.append(
            f"| {key} | {constants.record_bytes:,.0f} B | {constants.image_bytes:,.0f} B | "
            f"{f'{share:.2f}{TIMES}' if share else 'not measured'} | {constants.windows} | "
            f"{TIMES}/\u00f7 {constants.interval_factor():.2f} |"
        )
    lines += [
        "",
        f"Fitted to {', '.join(fit.runs)}: {fit.images_per_writer:.2f} full-page images per writing client "
        f"per checkpoint cycle besides the key's leaves; the key index keeps {fit.buffer_share:.0%} of "
        "shared buffers against the heap's pages.",
    ]
    if fit.rate is not None:
        rate = fit.rate
        micro = "\u00b5s"
        lines.append(
            f"Rate, on this machine: {rate.buffer_miss_s * 1e6:,.0f} {micro} per leaf missed in shared "
            f"buffers, {rate.memory_miss_s * 1e6:,.0f} {micro} per leaf missed in memory, "
            f"{rate.image_s * 1e6:,.0f} {micro} per extra full-page image, against "
            f"{rate.bigint_insert_s * 1e6:,.0f} {micro} per bigint insert ({rate.pairs} paired windows); "
            f"its 95% interval is {TIMES}/\u00f7 {rate.interval_factor():.2f}."
        )
    return lines


def _table(found: list[Check], figure: str, shown: str) -> list[str]:
    """FOUND as a table: each run, key and window's FIGURE measured and predicted with its interval, each
    written by SHOWN (a format), and whether the interval held the measurement."""
    lines = [
        f"| Run | Key | Window | Rounds | {figure}, measured | predicted (95% interval) | held |",
        "|---|---|---|---|---|---|---|",
    ]
    for c in found:
        measured, predicted, low, high = (shown.format(v) for v in (c.measured, c.predicted, c.low, c.high))
        held = "yes" if c.held else "**no**"
        where = f"| {c.run} | {c.key} | {c.window} | {c.rounds} |"
        lines.append(f"{where} {measured} | {predicted} ({low}-{high}) | {held} |")
    return lines


def left_out_checks(windows: list[Observation], runs: tuple[str, ...]) -> list[Check]:
    """Each calibration run's windows predicted by the model fitted to the other runs."""
    found = []
    for run in runs:
        others = calibration.fit([o for o in windows if o.run != run], tuple(r for r in runs if r != run))
        mine = [o for o in windows if o.run == run and o.strategy in others.keys]
        found += checks(
            others,
            [o for o in mine if not o.wal_compression or others.key(o.strategy).compressed_image_share],
        )
    return found


def check_lines(runs_dir: Path) -> list[str]:
    """The run kept out of the fit, window by window: WAL per transaction measured, predicted, and whether the
    interval held it; then each calibration run as the model fitted to the others predicts it; then the
    rate, on the runs its costs were not fitted to."""
    fit = calibration.committed(runs_dir)
    found = checks(fit, _held_out(runs_dir))
    held = sum(c.held for c in found)
    calibrated = calibration.windows_of(runs_dir, calibration.CALIBRATION_RUNS)
    left_out = left_out_checks(calibrated, calibration.CALIBRATION_RUNS)
    held_left = sum(c.held for c in left_out)
    untimed = [o for o in calibrated if o.run not in calibration.RATE_RUNS]
    return [
        *_table(found, "WAL/tx", "{:,.0f} B"),
        "",
        f"The interval held the measurement in {held} of {len(found)} windows of the run kept out of the "
        "fit.",
        "",
        *_table(left_out, "WAL/tx", "{:,.0f} B"),
        "",
        "Each calibration run predicted by the model fitted to the other runs: the interval held "
        f"{held_left} of {len(left_out)} windows.",
        *rate_lines(fit, [*_held_out(runs_dir), *untimed]),
    ]


def rate_checks(fit: Fit, windows: list[Observation]) -> list[Check]:
    """Each key's rate over bigint's in the same rounds, measured and as the model's costs give it from the
    run's own bigint time per insert, a run and window at a time."""
    if fit.rate is None:
        return []
    rate = fit.rate
    images = {o: calibration.predicted_images(o, fit.images_per_writer) / o.transactions for o in windows}
    groups: dict[tuple[str, str, str], list[tuple[float, float]]] = {}
    for p in pairs(windows, fit.buffer_share, images):
        predicted = rate.ratio(rate.added_s(p.buffer, p.memory, p.images), 1 / p.bigint.tps)
        measured = p.key.tps / p.bigint.tps
        groups.setdefault((p.key.run, p.key.strategy, p.key.window), []).append((measured, predicted))
    factor = rate.interval_factor()
    found = []
    for (run, key, window), values in groups.items():
        measured = statistics.fmean(m for m, _ in values)
        predicted = statistics.fmean(p for _, p in values)
        found.append(
            Check(run, key, window, len(values), measured, predicted, predicted / factor, predicted * factor)
        )
    return found


def rate_lines(fit: Fit, windows: list[Observation]) -> list[str]:
    found = rate_checks(fit, windows)
    if not found:
        return []
    lines = ["", *_table(found, "rate over bigint's", "{:.2f}" + TIMES)]
    same = [c for c in found if c.run in calibration.HELD_OUT_RUNS]
    other = [c for c in found if c.run not in calibration.HELD_OUT_RUNS]
    factor = fit.rate.interval_factor() if fit.rate else math.inf
    said = (
        f"an interval of {TIMES}/\u00f7 {factor:.2f}, narrow enough for `pkbench predict` to quote"
        if factor < QUOTABLE_FACTOR
        else f"an interval of {TIMES}/\u00f7 {factor:.2f}, past twice its estimate: `pkbench predict` says "
        "so in words instead of quoting a rate"
    )
    lines += [
        "",
        f"The rate's costs are this machine's, fitted to the grid's paired rounds ({said}). Its interval "
        f"held {sum(c.held for c in same)} of {len(same)} windows of the run made for the check on the same "
        f"storage, and {sum(c.held for c in other)} of {len(other)} of the older wal runs, made with other "
        "clients and disks (seed-004's throttled to 250 writes a second): a miss costs what the storage "
        "makes it cost, so the rate carries to a server only as far as its storage is like this one's.",
    ]
    return lines


# ---- the figure ----

WIDTH, HEIGHT = 760, 490
LEFT, RIGHT, TOP, BOTTOM = 70, 740, 40, 380
X_AXIS = (0.01, 1000.0)
Y_AXIS = (0.8, 60.0)
FONT = "font-family='Helvetica,Arial,sans-serif'"
COLOURS = {"calibration": "#0072B2", "held out": "#D55E00"}


def _n(value: float) -> str:
    return f"{value:.1f}"


def _x(value: float) -> float:
    low, high = (math.log(v) for v in X_AXIS)
    return LEFT + (math.log(min(max(value, X_AXIS[0]), X_AXIS[1])) - low) / (high - low) * (RIGHT - LEFT)


def _y(value: float) -> float:
    low, high = (math.log(v) for v in Y_AXIS)
    return BOTTOM - (math.log(min(max(value, Y_AXIS[0]), Y_AXIS[1])) - low) / (high - low) * (BOTTOM - TOP)


def inserts_per_leaf(o: Observation) -> float:
    """The window's inserts per checkpoint cycle over the key index's leaves when it began."""
    return o.transactions / o.cycles / calibration.leaf_pages_at_start(o)


def random_over_bigint(fit: Fit, per_leaf: float) -> float:
    """The model's uuid-v4 WAL per insert over bigint's at PER_LEAF inserts per leaf between checkpoints,
    for a cycle long enough that the heap's own images do not count."""
    random, base = fit.key(RANDOM), fit.key(BASELINE)
    images = -math.expm1(-per_leaf) / per_leaf
    return (random.record_bytes + images * random.image_bytes) / base.record_bytes


def points(fit: Fit, windows: list[Observation], kind: str) -> list[tuple[float, float, str]]:
    """Each uuid-v4 window with bigint's beside it in the same round: (inserts per leaf, WAL ratio, KIND)."""
    images = {o: 0.0 for o in windows}
    return [
        (inserts_per_leaf(p.key), p.key.wal_per_transaction / p.bigint.wal_per_transaction, kind)
        for p in pairs(windows, fit.buffer_share, images)
        if p.key.strategy == RANDOM
    ]


def svg(fit: Fit, calibrated: list[Observation], held_out: list[Observation]) -> str:
    factor = math.exp(math.hypot(*(math.log(fit.key(k).interval_factor()) for k in (RANDOM, BASELINE))))
    dots = points(fit, calibrated, "calibration") + points(fit, held_out, "held out")
    out = [
        f"<svg xmlns='http://www.w3.org/2000/svg' width='{WIDTH}' height='{HEIGHT}' "
        f"viewBox='0 0 {WIDTH} {HEIGHT}' {FONT}>",
        f"<rect width='{WIDTH}' height='{HEIGHT}' fill='white'/>",
        "<text x='10' y='22' font-size='14' font-weight='bold'>uuid-v4's WAL per insert over bigint's, by "
        "the inserts between checkpoints per leaf page</text>",
    ]
    curve, upper, lower = [], [], []
    steps = 120
    for index in range(steps + 1):
        x = X_AXIS[0] * (X_AXIS[1] / X_AXIS[0]) ** (index / steps)
        y = random_over_bigint(fit, x)
        curve.append(f"{_n(_x(x))},{_n(_y(y))}")
        upper.append(f"{_n(_x(x))},{_n(_y(y * factor))}")
        lower.append(f"{_n(_x(x))},{_n(_y(y / factor))}")
    out.append(f"<polygon points='{' '.join(upper + lower[::-1])}' fill='#e8e8e8'/>")
    out.append(f"<polyline points='{' '.join(curve)}' fill='none' stroke='#000000' stroke-width='1.5'/>")
    for tick in (0.01, 0.1, 1.0, 10.0, 100.0, 1000.0):
        x = _x(tick)
        out.append(f"<line x1='{_n(x)}' y1='{TOP}' x2='{_n(x)}' y2='{BOTTOM}' stroke='#dddddd'/>")
        out.append(f"<text x='{_n(x)}' y='{BOTTOM + 16}' font-size='11' text-anchor='middle'>{tick:g}</text>")
    for tick in (1.0, 2.0, 5.0, 10.0, 20.0, 50.0):
        y = _y(tick)
        out.append(f"<line x1='{LEFT}' y1='{_n(y)}' x2='{RIGHT}' y2='{_n(y)}' stroke='#dddddd'/>")
        out.append(
            f"<text x='{LEFT - 6}' y='{_n(y + 4)}' font-size='11' text-anchor='end'>{tick:g}{TIMES}</text>"
        )
    for x, y, kind in sorted(dots):
        fill = COLOURS[kind] if kind == "held out" else "white"
        out.append(
            f"<circle cx='{_n(_x(x))}' cy='{_n(_y(y))}' r='3.5' fill='{fill}' stroke='{COLOURS[kind]}'/>"
        )
    out.append(
        f"<text x='{(LEFT + RIGHT) // 2}' y='{BOTTOM + 36}' font-size='12' text-anchor='middle'>"
        "inserts between two checkpoints / leaf pages of the key index (log)</text>"
    )
    fitted = sum(d[2] == "calibration" for d in dots)
    notes = [
        "Line: the model (pkbench predict); shaded: its 95% interval. Fitted to:",
        ", ".join(fit.runs) + ".",
        f"Hollow: a calibration window ({fitted}); filled: a window of a run it was not fitted to "
        f"({len(dots) - fitted}), each beside bigint in the same round.",
    ]
    for index, note in enumerate(notes):
        out.append(f"<text x='10' y='{BOTTOM + 60 + 14 * index}' font-size='10'>{escape(note)}</text>")
    out.append("</svg>")
    return "\n".join(out) + "\n"


def committed_figure(root: Path) -> str:
    """The figure the committed runs under ROOT give."""
    runs_dir = (root / RUNS).resolve()
    fit = calibration.committed(runs_dir)
    calibrated = calibration.windows_of(runs_dir, calibration.CALIBRATION_RUNS)
    return svg(fit, calibrated, _held_out(runs_dir))


# Servers the documents put the model's answer for, beside a run's own conditions: a table of a hundred
# million rows taking a thousand inserts a second, under PostgreSQL's default checkpoint settings and under
# the settings a DBA gives a write-heavy server.
EXAMPLE_ROWS = 100_000_000
EXAMPLE_RATE = 1000.0
EXAMPLES = (
    ("checkpoint_timeout 5min, max_wal_size 1GB (the defaults)", 300.0, 1024**3),
    ("checkpoint_timeout 15min, max_wal_size 16GB", 900.0, 16 * 1024**3),
)


def example_costs(fit: Fit) -> list[tuple[str, Estimate]]:
    """uuid-v4's WAL per insert over bigint's on each of EXAMPLES."""
    found = []
    for words, timeout, wal_size in EXAMPLES:
        server = Server(
            rows=EXAMPLE_ROWS,
            insert_rate=EXAMPLE_RATE,
            shared_buffers_bytes=8 * 1024**3,
            memory_bytes=None,
            checkpoint_timeout_s=timeout,
            max_wal_size_bytes=wal_size,
        )
        costs = {c.key: c for c in predict(server, fit, (RANDOM,))}
        found.append((words, costs[RANDOM].wal_against_bigint))
    return found


def conditions_lines(run_dir: Path) -> list[str]:
    """The conditions of the run the headline quotes (RUN_DIR), where its random key's largest index sits on
    the model's axis, what it measured and what the model says there, and the model for the example
    servers."""
    fit = calibration.committed(run_dir.parent)
    data = load_json(run_dir)
    settings, parameters = data["server"]["settings"], data["scenario"]["parameters"]
    windows = list(observations(run_dir))
    random = [
        p for p in pairs(windows, fit.buffer_share, {o: 0.0 for o in windows}) if p.key.strategy == RANDOM
    ]
    largest = max(p.key.index_bytes_at_end for p in random)
    window = next(p.key.window for p in random if p.key.index_bytes_at_end == largest)
    same = [p for p in random if p.key.window == window]
    per_leaf = statistics.fmean(inserts_per_leaf(p.key) for p in same)
    measured = statistics.fmean(p.key.wal_per_transaction / p.bigint.wal_per_transaction for p in same)
    modelled = statistics.fmean(
        calibration.predicted_wal_per_transaction(p.key, fit)
        / calibration.predicted_wal_per_transaction(p.bigint, fit)
        for p in same
    )
    cap = data["machine"].get("memory_limit_bytes")
    every = parameters.get("checkpoint_every_s")
    conditions = ", ".join(
        [
            f"shared_buffers {settings['shared_buffers']}",
            f"memory capped at {binary_size(cap)}" if cap else "no memory cap",
            f"a checkpoint every {every:g} s"
            if every
            else f"checkpoint_timeout {settings['checkpoint_timeout']}",
            f"{parameters['clients']} clients on {data['machine']['cores']} cores",
        ]
    )
    examples = "; ".join(
        f"{words}: {e.value:.0f}{TIMES} ({e.low:.0f}-{e.high:.0f}{TIMES})" for words, e in example_costs(fit)
    )
    link = f"[{run_dir.name}](pkbench/docs/reproductions/{run_dir.name})"
    return [
        f"Those ratios hold under their runs' conditions, not under every server's. {link}: {conditions}; "
        f"its {window} windows saw {per_leaf:.2g} inserts between two checkpoints per leaf page of uuid-v4's "
        f"index, and {measured:.0f}{TIMES} bigint's WAL ({modelled:.0f}{TIMES} by the model). That one ratio "
        f"is what moves a random key's WAL (the figure). For a table of {EXAMPLE_ROWS / 1e6:,.0f} million "
        f"rows taking {EXAMPLE_RATE:,.0f} inserts a second, the model says {examples}. `pkbench predict` "
        "gives yours ([predict.md](pkbench/docs/predict.md)).",
    ]
