"""Seed 000's waits and buffer usage, scored: a study that states only which way a strategy differs (its
results are charts) is compared on direction, from figures read out of the run's sampled time series. Pure
functions, no server."""

from __future__ import annotations

import math

import pytest

from pkbench.errors import PkbenchError
from pkbench.results import StrategyResult
from pkbench.scenario import builtin, published
from pkbench.scenario import file as scenario
from pkbench.scenario.agreement import NOT_MEASURED, NOT_REPRODUCED, REPRODUCED, direction_agreement
from pkbench.summary import reproductions


@pytest.mark.parametrize(
    ("claim", "ratio", "word"),
    [
        ("larger", 3.0, REPRODUCED),
        ("larger", 1.04, NOT_REPRODUCED),  # inside the 5% band: no difference
        ("larger", 0.5, NOT_REPRODUCED),
        ("smaller", 0.5, REPRODUCED),
        ("same", 1.04, REPRODUCED),
        ("same", 1.2, NOT_REPRODUCED),
        ("larger", math.inf, REPRODUCED),  # a share above a baseline of zero
        ("larger", 0.0, NOT_REPRODUCED),
        ("larger", None, NOT_MEASURED),
    ],
)
def test_a_direction_is_reproduced_when_ours_points_the_same_way(
    claim: str, ratio: float | None, word: str
) -> None:
    assert direction_agreement(claim, ratio) == word


# Rows as the sampler writes them: strategy, workload, repeat, elapsed_s, then the figures.
WAITS = [
    ("bigint", "w", 1, 1.0, "CPU", "", 9),
    ("bigint", "w", 1, 2.0, "IO", "DataFileRead", 1),
    ("uuid-v4", "w", 1, 1.0, "IO", "DataFileRead", 6),
    ("uuid-v4", "w", 1, 1.0, "IO", "WALSync", 2),
    ("uuid-v4", "w", 1, 2.0, "CPU", "", 2),
]
USAGE = [
    ("bigint", "w", 1, 5.0, 0, 10),
    ("bigint", "w", 1, 5.0, 5, 90),
    ("uuid-v4", "w", 1, 5.0, 1, 60),
    ("uuid-v4", "w", 1, 5.0, 5, 40),
]


def test_the_sampled_figures_are_shares_of_the_windows_samples() -> None:
    sampled = reproductions.sampled_of({"wait_events": WAITS, "usagecount": USAGE})
    assert sampled["bigint"]["w"] == {published.WAIT_DATAFILEREAD: 10.0, published.LOW_USAGE_BUFFERS: 10.0}
    assert sampled["uuid-v4"]["w"] == {published.WAIT_DATAFILEREAD: 60.0, published.LOW_USAGE_BUFFERS: 60.0}
    assert reproductions.sampled_of({}) == {}


def strategy(name: str) -> StrategyResult:
    return StrategyResult(name, "", "uuid", None)


def test_direction_rows_compare_the_sampled_shares_with_the_baseline() -> None:
    item = published.PublishedFigure(
        "waits", published.WAIT_DATAFILEREAD, "%", {}, "bigint", workload="w", direction={"uuid-v4": "larger"}
    )
    strategies = {name: strategy(name) for name in ("bigint", "uuid-v4")}
    sampled = reproductions.sampled_of({"wait_events": WAITS, "usagecount": USAGE})
    base, v4 = published.compare(item, strategies, sampled)
    assert (base.strategy, base.word, base.ours.value) == ("bigint", None, 10.0)
    assert (v4.claim, v4.ours_ratio, v4.word) == ("larger", 6.0, REPRODUCED)
    # Without the time series (a run that kept only results.json) the row is not measured.
    (_, unsampled) = published.compare(item, strategies)
    assert unsampled.word == NOT_MEASURED and not unsampled.ours.available
    row = reproductions.figure_rows(published.of_builtin("war")[0], item, strategies, sampled)[1]
    assert row[2:] == ["larger (bigint = 1)", "60 %", "(a direction)", "6.00\u00d7", REPRODUCED]


def test_the_war_study_states_directions_for_waits_and_buffers() -> None:
    (study,) = [p for p in published.of_builtin("war") if p.study == "000"]
    rows = {f.metric: f for f in study.figures if f.direction}
    assert set(rows) == {published.WAIT_DATAFILEREAD, published.LOW_USAGE_BUFFERS}
    for row in rows.values():
        assert row.relative_to == "bigint" and not row.values
        assert dict(row.direction) == {"uuid-v4-text": "larger", "uuid-v4": "larger"}


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ('direction = { uuid-v4-text = "larger", uuid-v4 = "larger" }', "give values, or a direction"),
        ('direction = { uuid-v4-text = "larger", bigint = "larger" }', "'bigint' is not a strategy other"),
        ('direction = { uuid-v4-text = "bigger", uuid-v4 = "larger" }', "'smaller' or 'same'"),
    ],
)
def test_a_malformed_direction_is_one_line(change: str, message: str) -> None:
    text = builtin.text("war")
    first = 'direction = { uuid-v4-text = "larger", uuid-v4 = "larger" }'
    replaced = text.replace(first, "" if "give values" in message else change, 1)
    with pytest.raises(PkbenchError, match=message):
        scenario.parse(replaced, "test.toml")


def test_a_direction_takes_no_values() -> None:
    text = builtin.text("war").replace(
        'direction = { uuid-v4-text = "larger", uuid-v4 = "larger" }',
        'direction = { uuid-v4 = "larger" }\nvalues = { bigint = 1 }',
        1,
    )
    with pytest.raises(PkbenchError, match="takes neither values nor share"):
        scenario.parse(text, "test.toml")


def test_the_tenth_preset_divides_each_of_the_studys_sizes_by_ten() -> None:
    study, tenth = (scenario.load("war").at_scale(s) for s in ("study", "study-tenth"))
    mib = {"MB": 1, "GB": 1024}
    size = {k: int(v[:-2]) * mib[v[-2:]] for k, v in (("sb", tenth.settings["shared_buffers"]),)}
    assert study.int_parameter("rows") == 10 * tenth.int_parameter("rows") == 20_000_000
    assert study.int_parameter("transactions") == 10 * tenth.int_parameter("transactions")
    assert study.int_parameter("clients") == tenth.int_parameter("clients")
    assert study.settings["shared_buffers"] == "1GB" and 10 * size["sb"] == 1000
    # The c7a.medium's 2 GB of RAM (the published table's hardware), a tenth of it as the memory cap.
    (war,) = published.of_builtin("war")
    assert "2 GB RAM" in war.hardware and tenth.parameters["memory_limit"] == "200MB"
    assert tenth.isolate and "insert-one-million" in [s.name for s in tenth.steps]
