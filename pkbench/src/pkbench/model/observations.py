"""The committed runs' insert windows, one observation per strategy, window and round, read as the model
needs them: what the server was (shared buffers, memory, WAL compression), what the window did (inserts,
checkpoints, the key index's size), and what it measured (WAL, full-page images, rate).

A window counts only where its one script inserts rows by the key's default into a table with one index (the
wal and insert-scaling scenarios' windows): other statements or other indexes would put WAL and misses in it
that the key did not cause.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pkbench.model.btree import LAYOUTS
from pkbench.results.files import load_json
from pkbench.text import parse_bytes

INSERT_SCRIPT = "INSERT INTO records DEFAULT VALUES;"


@dataclass(frozen=True)
class Observation:
    """One strategy's insert window in one round of a committed run."""

    run: str
    strategy: str
    window: str
    round: int
    clients: int
    shared_buffers_bytes: int
    memory_limit_bytes: int | None
    wal_compression: bool
    transactions: int
    duration_s: float
    checkpoints: int
    checkpoint_every_s: float | None
    index_bytes_at_end: int
    wal_bytes: float
    full_page_images: float
    full_page_image_bytes: float | None
    tps: float
    shared_blocks_read_per_transaction: float | None

    @property
    def cycles(self) -> float:
        """Checkpoint cycles the window spans: it starts right after one and each later one starts another,
        the last cut short by the window's end (one asked for as the window ends starts none)."""
        counted = 1.0 + self.checkpoints
        if self.checkpoint_every_s is None:
            return counted
        return max(1.0, min(counted, self.duration_s / self.checkpoint_every_s))

    @property
    def wal_per_transaction(self) -> float:
        return self.wal_bytes / self.transactions

    @property
    def image_bytes(self) -> float | None:
        """The mean size of the window's full-page images, where pg_walinspect measured them."""
        if not self.full_page_image_bytes or not self.full_page_images:
            return None
        return self.full_page_image_bytes / self.full_page_images

    @property
    def record_bytes_per_transaction(self) -> float | None:
        """WAL per transaction less its full-page images: the records themselves."""
        if self.full_page_image_bytes is None:
            return None
        return (self.wal_bytes - self.full_page_image_bytes) / self.transactions


def _inserts_only(window: Mapping[str, Any]) -> bool:
    statements = window.get("statements") or []
    indexes = (window.get("sizes_at_end") or {}).get("indexes") or {}
    return bool(statements) and all(s.get("sql") == INSERT_SCRIPT for s in statements) and len(indexes) == 1


def _observation(
    run: str, data: Mapping[str, Any], strategy: str, index: int, w: Mapping[str, Any]
) -> Observation:
    settings = data["server"]["settings"]
    parameters = data["scenario"]["parameters"]
    checkpoints = w.get("checkpoints") or {}
    work = w.get("work_per_transaction") or {}
    return Observation(
        run=run,
        strategy=strategy,
        window=w["name"],
        round=index,
        clients=int(parameters["clients"]),
        shared_buffers_bytes=parse_bytes(settings["shared_buffers"], "shared_buffers"),
        memory_limit_bytes=data["machine"].get("memory_limit_bytes"),
        wal_compression=settings.get("wal_compression", "off") not in ("off", "false", "0"),
        transactions=int(w["transactions"]),
        duration_s=float(w["duration_s"]),
        checkpoints=int(checkpoints.get("timed", 0)) + int(checkpoints.get("requested", 0)),
        checkpoint_every_s=float(every) if (every := parameters.get("checkpoint_every_s")) else None,
        index_bytes_at_end=sum(w["sizes_at_end"]["indexes"].values()),
        wal_bytes=float(w["wal_bytes"]),
        full_page_images=float(w["wal_fpi"]),
        full_page_image_bytes=w.get("wal_fpi_bytes"),
        tps=float(w["tps"]),
        shared_blocks_read_per_transaction=work.get("shared_blocks_read"),
    )


def observations(run_dir: Path) -> Iterator[Observation]:
    """RUN_DIR's insert windows of the keys the model knows, a round at a time where the run kept rounds."""
    data = load_json(run_dir)
    for strategy in data["strategies"]:
        if strategy["name"] not in LAYOUTS or strategy.get("status") != "ok":
            continue
        for window in strategy.get("workloads") or []:
            if not _inserts_only(window) or window.get("wal_fpi") is None or not window.get("transactions"):
                continue
            rounds = [r for r in window.get("rounds") or [] if r.get("transactions")] or [window]
            for index, measured in enumerate(rounds):
                if measured.get("wal_fpi") is None or not measured.get("sizes_at_end"):
                    continue
                yield _observation(
                    run_dir.name,
                    data,
                    strategy["name"],
                    index,
                    {**measured, "statements": window["statements"]},
                )
