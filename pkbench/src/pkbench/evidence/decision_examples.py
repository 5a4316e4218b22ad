"""The which-key rule (evidence.decision) worked through committed cells, for statistics.md: each cell's
rate, whether its difference holds among every figure its run recorded and among the figures the table cites,
its WAL, and what the rule makes of them."""

from __future__ import annotations

from pathlib import Path

from pkbench.evidence.advice import build, cited_figures, holding, load
from pkbench.evidence.advice_rows import committed
from pkbench.evidence.cell import TIMES
from pkbench.evidence.decision import answer
from pkbench.text import markdown_table

# The committed cells statistics.md works the rule through: a cost in both figures, one in WAL alone, a wide
# interval that holds its direction, one that holds only in the cited family, a rate left unresolved, a key
# faster for more WAL, a held difference within the margin, and a rate whose WAL has no test (sharded-3's
# router writes none) held among the figures that have one.
EXAMPLES = (
    ("beyond-ram", "uuid-v4"),
    ("few-cores", "uuid-v4"),
    ("sharded-range", "uuid-v4"),
    ("one-writer", "uuid-v4"),
    ("sync-standby", "uuid-v4"),
    ("sync-standby", "uuid-v7"),
    ("page-cache", "uuid-v7"),
    ("many-cores", "uuid-v4"),
)

_SAYS = {
    (True, False): "avoid it here",
    (True, True): "a trade: faster, for more WAL",
    (False, True): "choose it here",
    (False, False): "no cost",
}


def lines(runs_dir: Path, link_from: Path) -> list[str]:
    """The decision rule worked through committed cells (EXAMPLES): each cell's rate, whether its difference
    holds among every figure its run recorded and among the figures the table cites, its WAL, and what
    evidence.decision makes of them."""
    sources, conditions = committed(runs_dir)
    table = build(runs_dir, sources, conditions=conditions)
    rows = []
    for key, strategy in EXAMPLES:
        condition = next(c for c in table.conditions if key in c.keys)
        cell = table.cells[condition.key][strategy]
        found = answer(condition, strategy, cell)
        run = load(runs_dir / str(cell.run))
        if found is None or run is None:
            continue
        recorded = next(
            v
            for v in run.verdicts
            if v.strategy == strategy and v.metric == "tps" and v.workload == cell.window
        )
        everything = sum(1 for v in run.verdicts if v.strategy == strategy)
        cited = len(holding(run, strategy, cited_figures(sources).get(str(cell.run), frozenset())))
        rows.append(
            [
                f"{condition.label}, {strategy} {table.link(str(cell.run), link_from)}",
                f"{cell.ratio:.2f}{TIMES} ({cell.low:.2f}\u2013{cell.high:.2f})",
                f"{'yes' if recorded.familywise else 'no'} (of {everything})",
                f"{'yes' if cell.holds else 'no'} (of {cited})",
                cell.work.figures().removeprefix("WAL ") if cell.work is not None else "not measured",
                found.speed,
                found.work,
                "no decision: its rate unresolved"
                if not found.costs and not found.gains and not found.answers
                else _SAYS[(found.costs, found.gains)],
            ]
        )
    header = [
        "cell",
        "rate",
        "holds among all its run's figures",
        "holds among the cited",
        "WAL per transaction",
        "rate says",
        "WAL says",
        "the rule",
    ]
    return markdown_table(header, rows)
