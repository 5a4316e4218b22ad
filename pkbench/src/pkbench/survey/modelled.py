"""Each surveyed table given the model's answer (pkbench.model) for its own key index and this server's
checkpoint settings: its key's WAL per insert against bigint's and against uuid-v7's, where the committed
table can only give the nearest condition it measured."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pkbench.model.btree import LAYOUTS, rows_in
from pkbench.model.calibration import BASELINE, Fit
from pkbench.model.prediction import Estimate, Server, predict
from pkbench.survey.checkpoint_settings import CheckpointSettings
from pkbench.survey.facts import ServerFacts
from pkbench.survey.placement import UUID_ALTERNATIVE, Entry


def insert_rate(
    watched: float | None, inserted_total: int | None, server: ServerFacts
) -> tuple[float | None, str]:
    """A table's inserts per second and where the figure comes from: the rate WATCHED where inspect watched
    it, else the rows inserted since the statistics began over the time since."""
    if watched:
        return watched, "the insert rate watched"
    if inserted_total and server.stats_reset is not None:
        seconds = (server.read_at - server.stats_reset).total_seconds()
        if seconds > 0:
            return inserted_total / seconds, "rows inserted since the statistics began"
    return None, ""


def _ratio(estimate: Estimate) -> str:
    return f"{estimate.value:.2f}x bigint's ({estimate.low:.2f}-{estimate.high:.2f})"


def answer(
    entry: Entry, server: ServerFacts, memory: int | None, settings: CheckpointSettings, fit: Fit
) -> dict[str, Any] | None:
    """The model's answer for ENTRY's key, or None where the model does not know the key or the index's size
    is not known."""
    strategy = entry.strategy
    if strategy not in LAYOUTS or entry.index_bytes is None or entry.status == "unknown":
        return None
    rate, rate_from = insert_rate(entry.inserts_per_s, entry.inserted_total, server)
    if not rate:
        return {"key": strategy, "words": "needs an insert rate (--watch 60s): none is known"}
    shape = Server(
        rows=rows_in(entry.index_bytes, LAYOUTS[strategy]),
        insert_rate=rate,
        shared_buffers_bytes=server.shared_buffers,
        memory_bytes=memory,
        checkpoint_timeout_s=settings.checkpoint_timeout_s,
        max_wal_size_bytes=settings.max_wal_size_bytes,
        checkpoint_completion_target=settings.checkpoint_completion_target,
        wal_compression=settings.wal_compression,
        checkpoint_every_s=settings.measured_every_s,
    )
    costs = {c.key: c for c in predict(shape, fit, (strategy, UUID_ALTERNATIVE))}
    mine = costs[strategy]
    if strategy == BASELINE:
        words = f"bigint's WAL per insert {mine.wal_per_insert.value:,.0f} B; uuid-v7's " + _ratio(
            costs[UUID_ALTERNATIVE].wal_against_bigint
        )
    else:
        words = f"WAL per insert {_ratio(mine.wal_against_bigint)}"
        if strategy != UUID_ALTERNATIVE:
            v7 = costs[UUID_ALTERNATIVE].wal_per_insert.value
            words += f", {mine.wal_per_insert.value / v7:.1f}x uuid-v7's"
    words += f", a checkpoint every {mine.cycle_s:,.0f} s ({mine.cycle_ended_by})"
    words += f", {rate:,.1f} inserts/s ({rate_from})"
    return {
        "key": strategy,
        "words": words,
        "wal_against_bigint": [
            mine.wal_against_bigint.value,
            mine.wal_against_bigint.low,
            mine.wal_against_bigint.high,
        ],
        "checkpoint_every_s": mine.cycle_s,
        "checkpoint_ended_by": mine.cycle_ended_by,
        "insert_rate": rate,
        "insert_rate_from": rate_from,
    }


def attach(
    entries: Sequence[Entry], server: ServerFacts, memory: int | None, settings: CheckpointSettings, fit: Fit
) -> None:
    for entry in entries:
        entry.model = answer(entry, server, memory, settings, fit)
