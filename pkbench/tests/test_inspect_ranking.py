"""How `pkbench inspect` ranks a database's tables, without a server: by what each costs now (the insert rate,
else the rows inserted since the statistics began, a random key's children's inserts counted with its own),
integer keys by how soon they run out, a key whose only cost is WAL by that WAL, and a cell whose interval is
too wide to quote deciding nothing."""

from __future__ import annotations

import dataclasses
from datetime import UTC, datetime

import pytest

from pkbench.model import calibration
from pkbench.survey import modelled, placement, ranking, report
from pkbench.survey.checkpoint_settings import CheckpointSettings
from pkbench.survey.facts import Check, Child, ServerFacts, TableFacts

MIB = 1024**2
MEMORY = 8 * 1024 * MIB
# Statistics never reset, as on most production servers: no insert rate is known.
SERVER = ServerFacts(
    150000, "15.9", "app", 128 * MIB, False, None, datetime(2026, 1, 1, tzinfo=UTC), True, (), {}
)


def _facts(name: str, types: tuple[str, ...], default: str | None, index: int) -> TableFacts:
    facts = TableFacts(1, "public", name, None, 0, index, 1000.0, total_bytes=index * 2)
    facts.key_source, facts.key_index, facts.index_bytes = "primary key", f"{name}_pkey", index
    facts.key_columns = tuple(f"c{i}" for i in range(len(types)))
    facts.key_types, facts.default = types, default
    return facts


def _v4(name: str, inserted: int | None, index: int = 600 * MIB) -> TableFacts:
    facts = _facts(name, ("uuid",), "gen_random_uuid()", index)
    facts.inserted_total = facts.inserts = inserted
    facts.needs["insert rate"] = "--watch 60s: no statistics reset time recorded"
    return facts


def _int4(name: str, used: float, days_left: float | None = None) -> TableFacts:
    facts = _facts(name, ("integer",), "nextval('s'::regclass)", MIB)
    facts.largest = int(used * (2**31 - 1))
    facts.days_left = days_left
    return facts


def _entries(*tables: TableFacts) -> list[placement.Entry]:
    return ranking.ranked([placement.entry(t, SERVER, MEMORY, placement.RUNS_DIR) for t in tables])


def test_without_a_rate_the_rows_inserted_since_the_statistics_began_rank_not_the_name() -> None:
    shown = _entries(_v4("aaa_empty", 0, 8192), _v4("fees", 2_000_000), _v4("invoices", 50_000))
    assert [e.table for e in shown] == ["public.fees", "public.invoices", "public.aaa_empty"]
    fees = shown[0]
    assert fees.status == "costs" and fees.saving is None, "no rate, so no saving a second"
    assert fees.rank_by.startswith("2,000,000 rows inserted \u00d7 ")
    assert "more time an insert than bigint" in fees.rank_by
    said = report.basis_words(shown, None)
    assert "rows inserted since the statistics began (never reset, so no rate is known)" in said


def test_a_random_key_ranks_by_its_childrens_foreign_key_inserts_too() -> None:
    parent = _v4("parent", 1_000)
    parent.children = [
        dataclasses.replace(_child(f"child_{n}"), inserted_total=100_000, indexed=True) for n in range(117)
    ]
    parent.children.append(dataclasses.replace(_child("unindexed"), inserted_total=10**9, indexed=False))
    busier_alone = _v4("busier_alone", 1_000_000)
    shown = _entries(busier_alone, parent)
    assert [e.table for e in shown] == ["public.parent", "public.busier_alone"]
    assert shown[0].children_inserted == 117 * 100_000, "a child without an index on its key takes none"
    assert "(with 11,700,000 into its children's foreign-key indexes)" in shown[0].rank_by


def _child(name: str) -> Child:
    return Child(name, ("parent_id",), MIB, True)


def test_integer_keys_rank_by_days_left_then_range_used_not_alphabetically() -> None:
    shown = _entries(
        _int4("aaa_sixty", 0.60), _int4("mmm_soon", 0.55, days_left=3.0), _int4("zzz_ninety_seven", 0.97)
    )
    assert [e.table for e in shown] == ["public.mmm_soon", "public.zzz_ninety_seven", "public.aaa_sixty"]
    assert all(e.status == "flagged" for e in shown)
    assert shown[0].rank_by == "3 days left at the current rate, 55% of its range used"
    assert shown[1].rank_by == "97% of its range used"


def test_a_key_nearing_its_end_comes_before_a_key_that_costs() -> None:
    shown = _entries(_v4("busy_v4", 10**9), _int4("counters", 0.71))
    assert [(e.table, e.status) for e in shown] == [
        ("public.counters", "flagged"),
        ("public.busy_v4", "costs"),
    ]


def test_an_urgent_check_flags_a_table_and_ranks_it() -> None:
    sequence = _facts("narrow_sequence", ("bigint",), "nextval('s'::regclass)", MIB)
    sequence.checks = [Check("sequence-max-below-type", "its sequence stops at 2,147,483,647", 0.9)]
    tidy = _facts("tidy", ("bigint",), "nextval('t'::regclass)", MIB)
    tidy.checks = [Check("sequence-not-owned", "its sequence is owned by no column", 0.1)]
    shown = _entries(tidy, sequence)
    assert [(e.table, e.status) for e in shown] == [
        ("public.narrow_sequence", "flagged"),
        ("public.tidy", "fine"),
    ]
    assert shown[0].findings == ["its sequence stops at 2,147,483,647"]
    assert shown[0].checks == [
        {"kind": "sequence-max-below-type", "words": "its sequence stops at 2,147,483,647", "urgency": 0.9}
    ]


def test_a_key_whose_only_cost_is_wal_ranks_by_that_wal_and_saves_no_time() -> None:
    entries = [
        placement.entry(t, SERVER, MEMORY, placement.RUNS_DIR) for t in (_v4("a", 100), _v4("b", 1000))
    ]
    wal_only = entries[1]
    wal_only.placements[0] = dataclasses.replace(
        wal_only.placements[0], speed="level", penalty=0.0, wal_ratio=3.0, costs=True
    )
    wal_only.saving = None
    shown = ranking.ranked(entries)
    assert ranking.extra_per_insert(wal_only) == (2.0, "3.00\u00d7 bigint's WAL an insert")
    assert wal_only.rank_by == "1,000 rows inserted \u00d7 3.00\u00d7 bigint's WAL an insert"
    # 1,000 inserts x 2.0 more WAL outranks 100 x the time penalty of the committed page-cache cell (2.0).
    assert shown[0] is wal_only


def test_a_cell_whose_interval_is_too_wide_to_quote_decides_nothing() -> None:
    """Within shared buffers v4's rate is level and its WAL interval reaches past the estimate itself: the
    committed table says 'too wide to quote', so the table does not cost on it."""
    small = _v4("small", 1000, 64 * 1024)
    found = placement.entry(small, SERVER, MEMORY, placement.RUNS_DIR)
    first = found.placements[0]
    assert first.condition == "shared-buffers"
    answer = placement.committed_answer(placement.RUNS_DIR, "shared-buffers", "uuid-v4")
    assert answer is not None and answer.work == "heavier", "the rule alone reads it heavier"
    assert "too wide to quote" in answer.decided()
    assert (first.work, first.costs, found.status) == ("unresolved", False, "not resolved")


@pytest.mark.parametrize(
    ("ratio", "low", "high", "quoted"),
    [(1.0, 0.9, 1.1, True), (5.0, 2.3, 11.1, False), (2.0, 1.0, 3.99, True), (2.0, None, None, False)],
)
def test_quotable_is_an_interval_within_its_own_estimate(
    ratio: float, low: float | None, high: float | None, quoted: bool
) -> None:
    assert placement.quotable(ratio, low, high) is quoted


def test_a_table_whose_answer_is_not_known_says_why_and_is_never_fine() -> None:
    hidden = _facts("hidden", ("integer",), "nextval('s'::regclass)", MIB)
    hidden.cause = "row-level security hides the rows from this role (0 of ~2,000)"
    near_end = _int4("edit", 0.85)
    near_end.cause = "SELECT on public.edit (id)"
    shown = _entries(hidden, near_end)
    by_name = {e.table: e for e in shown}
    assert by_name["public.hidden"].status == "unknown"
    assert by_name["public.hidden"].summary.endswith("not known: " + hidden.cause)
    assert by_name["public.edit"].status == "flagged", "a key near its end is flagged whatever else is known"
    assert (
        "integer key at 85% of its type's range: plan the move to bigint" in by_name["public.edit"].findings
    )
    assert report.counts(shown) == {"flagged": 1, "unknown": 1}


def test_only_a_tie_in_every_figure_is_broken_by_the_name() -> None:
    shown = _entries(_v4("b", 500), _v4("a", 500), _v4("c", 501))
    assert [e.table for e in shown] == ["public.c", "public.a", "public.b"]
    # No inserts counted (a standby's counters count no replayed rows): the larger key index first.
    shown = _entries(_v4("a_small", 0, 300 * MIB), _v4("b_large", 0, 900 * MIB))
    assert [e.table for e in shown] == ["public.b_large", "public.a_small"]


def test_a_random_key_gets_the_models_wal_for_its_own_index_and_this_servers_checkpoints() -> None:
    # statistics begun a day before the survey: 86.4M rows inserted since is 1,000 a second
    server = dataclasses.replace(SERVER, stats_reset=datetime(2025, 12, 31, tzinfo=UTC))
    (entry,) = ranking.ranked(
        [placement.entry(_v4("events", 86_400_000), server, MEMORY, placement.RUNS_DIR)]
    )
    settings = CheckpointSettings(128 * MIB, 300.0, 1024 * MIB, 0.9, False, None, 0)
    fit = calibration.committed(placement.RUNS_DIR)
    found = modelled.answer(entry, server, MEMORY, settings, fit)
    assert found is not None and found["key"] == "uuid-v4"
    assert found["insert_rate"] == pytest.approx(1000)
    assert found["insert_rate_from"] == "rows inserted since the statistics began"
    ratio, low, high = found["wal_against_bigint"]
    assert low < ratio < high and ratio > 5
    apart = dataclasses.replace(settings, checkpoint_timeout_s=3600.0, max_wal_size_bytes=64 * 1024 * MIB)
    further = modelled.answer(entry, server, MEMORY, apart, fit)
    assert further is not None and further["wal_against_bigint"][0] < ratio
    assert "x bigint's" in found["words"] and "rows inserted since the statistics began" in found["words"]
