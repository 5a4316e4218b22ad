"""The waits and buffer-usage section: shares computed from the sampler's rows, without a server."""

from __future__ import annotations

import pytest

from pkbench.summary import waits

WAITS = [
    ("uuid-v4", "w", 1, 1.0, "IO", "DataFileRead", 3),
    ("uuid-v4", "w", 1, 1.0, "CPU", "CPU", 1),
    ("uuid-v4", "w", 1, 2.0, "IO", "DataFileRead", 2),
    ("uuid-v4", "w", 1, 2.0, "LWLock", "WALWrite", 2),
    ("bigint", "w", 1, 1.0, "CPU", "CPU", 4),
]
# Two samples of uuid-v4's buffers: 3 of 4 and 1 of 4 at usage count 1 or less; one of bigint's: none.
USAGE = [
    ("uuid-v4", "w", 1, 0.0, 0, 1),
    ("uuid-v4", "w", 1, 0.0, 1, 2),
    ("uuid-v4", "w", 1, 0.0, 5, 1),
    ("uuid-v4", "w", 1, 5.0, 1, 1),
    ("uuid-v4", "w", 1, 5.0, 3, 3),
    ("bigint", "w", 1, 0.0, 5, 8),
]


def test_shares_of_waits_and_of_low_usage_buffers() -> None:
    found = waits.by_window(WAITS, USAGE)
    random = found[("uuid-v4", "w")]
    assert random.events == {"IO:DataFileRead": 5, "CPU": 1, "LWLock:WALWrite": 2}
    assert random.share("IO:") == pytest.approx(5 / 8)
    assert random.low_usage_share == pytest.approx((3 / 4 + 1 / 4) / 2)
    assert found[("bigint", "w")].low_usage_share == 0.0
    assert found[("bigint", "w")].share("IO:") == 0.0


def test_the_table_names_the_commonest_waits_first() -> None:
    lines = waits.section({"wait_events": WAITS, "usagecount": USAGE})
    row = next(line for line in lines if line.startswith("| uuid-v4 "))
    assert row == "| uuid-v4 | w | IO:DataFileRead 62%, LWLock:WALWrite 25%, CPU 12% | 62% | 50% |"
    assert waits.section({}) == []
    alone = waits.by_window([], [("x", "w", 1, 0.0, 0, 0)])
    assert alone == {} and waits.table(alone) == waits.table({})
