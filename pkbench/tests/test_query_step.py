"""The query step's reading of a plan, on EXPLAIN output captured from PostgreSQL 15."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pkbench.errors import PkbenchError
from pkbench.steps import query

DATA = Path(__file__).parent / "data"


def test_rows_come_from_the_input_below_the_aggregate_not_from_its_init_plans() -> None:
    # A count(*) over a range whose bounds are two scalar subqueries: the subqueries are InitPlans of the
    # Aggregate and come first in its Plans; the rows of interest are those of the Bitmap Heap Scan.
    figures = query.plan_figures(json.loads((DATA / "explain-brin-time-range.json").read_text()))
    assert figures["row_node"] == "Bitmap Heap Scan"
    assert figures["rows"] == 0 and figures["blocks_per_row"] is None
    assert (figures["shared_blocks_hit"], figures["shared_blocks_read"], figures["shared_blocks"]) == (
        8,
        0,
        8,
    )
    assert figures["indexes"] == ["records_created_at_brin"]
    assert figures["nodes"][:3] == ["Aggregate", "Seq Scan", "Seq Scan"]
    assert figures["execution_ms"] == 154.522


@pytest.mark.parametrize(
    ("table", "expected"),
    [
        ({"kind": "query", "name": "q", "queries": []}, "'queries' must be a non-empty list"),
        (
            {"kind": "query", "name": "q", "queries": [{"name": "a", "sql": "SELECT 1", "explian": True}]},
            "unknown key 'explian' (did you mean 'explain'?",
        ),
        (
            {"kind": "query", "name": "q", "queries": [{"name": "a", "sql": "SELECT 1"}] * 2},
            "query names must differ",
        ),
    ],
)
def test_bad_query_steps_are_one_line(table: dict[str, object], expected: str) -> None:
    with pytest.raises(PkbenchError, match=expected.replace("(", r"\(").replace(")", r"\)")):
        query.parse("scenario x, step #1", table)
