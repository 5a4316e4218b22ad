"""A table sharded by its key over embedded shards (the sharded scenario): where each strategy's inserts land
under hash and range routing, and nothing of the shards left behind however the run ends."""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path

import pytest
from conftest import (
    HOLDING_RATE,
    assert_nothing_left,
    cli_in_process,
    interrupted,
    run_cli,
    run_until_window,
    short_run,
)

from pkbench.report import shards
from pkbench.report.loading import load_run
from pkbench.report.palette import strategy_colors
from pkbench.results.files import load
from pkbench.summary import sharded

SHARDS = 3


def _arguments(
    out: Path, strategies: str = "uuid-v4,uuid-v7", duration: int = 3, rate: int | None = None
) -> tuple[str, ...]:
    return (
        "sharded",
        "--shards",
        str(SHARDS),
        *short_run(
            strategies=strategies, rows=600, duration=duration, clients=2, out=out, sample_every=1, rate=rate
        ),
        "--set",
        "key_sample=100",
    )


def test_range_routing_sends_a_time_ordered_keys_inserts_to_one_shard_and_hash_spreads_them(
    server_tmpdir: Path, tmp_path: Path
) -> None:
    out = tmp_path / "out"
    result = run_cli("run", *_arguments(out), tmpdir=server_tmpdir)
    assert result.returncode == 0, result.stderr
    found = {(s.strategy, s.table): s for s in sharded.splits(load(out))}
    assert set(found) == {(k, t) for k in ("uuid-v4", "uuid-v7") for t in ("records_hash", "records_range")}
    for split in found.values():
        assert len(split.inserted) == SHARDS and split.total > 100, split
    newest = found["uuid-v7", "records_range"]
    assert newest.hottest == SHARDS and newest.shares[SHARDS - 1] >= 0.9, newest
    assert sharded.verdict(newest).startswith("concentrated")
    # The other three spread: no shard far above 1/3, none starved.
    for key in (("uuid-v4", "records_range"), ("uuid-v4", "records_hash"), ("uuid-v7", "records_hash")):
        assert max(found[key].shares) < 0.5 and min(found[key].shares) > 0.2, found[key]
    # Only the hottest shard's index grows under range routing of a time-ordered key.
    assert newest.index_growth[: SHARDS - 1] == (0,) * (SHARDS - 1) and newest.index_growth[-1] > 0
    summary = (out / "summary.md").read_text()
    assert "## Sharded: where the inserts land" in summary and "concentrated: shard 3" in summary
    _assert_shares_over_time(out)
    assert_nothing_left(server_tmpdir)


def _assert_shares_over_time(out: Path) -> None:
    """The sampled shares tell the same story as the counts: the newest range's shard takes a time-ordered
    key's inserts from the start, and hash routing spreads both keys."""
    run = load_run(out)
    assert shards.workloads_sampled(run) == ["insert-hash", "insert-range"]
    newest = shards.shares_over_time(run.rows("shard_inserts", "uuid-v7", "insert-range"))
    # Shards' backends flush their counters about once a second: a 3 s window gives a sample or two.
    assert set(newest) == set(range(1, SHARDS + 1)) and newest[SHARDS], newest
    assert all(share >= 0.9 for _, share in newest[SHARDS]), newest
    spreading = (("uuid-v4", "insert-range"), ("uuid-v4", "insert-hash"), ("uuid-v7", "insert-hash"))
    for key, workload in spreading:
        spread = shards.shares_over_time(run.rows("shard_inserts", key, workload))
        assert all(0.15 < points[-1][1] < 0.55 for points in spread.values()), (key, workload, spread)
    colors = strategy_colors(s.name for s in run.measured_strategies)
    assert shards.shares_chart(run, "insert-range", colors, "chart").figure is not None


def _started(server_tmpdir: Path, out: Path):  # type: ignore[no-untyped-def]
    return run_until_window(
        server_tmpdir,
        list(_arguments(out, "uuid-v7", 60, HOLDING_RATE)),
        out / "pgbench" / "uuid-v7" / "insert-hash",
    )


def test_ctrl_c_stops_the_coordinator_and_every_shard(server_tmpdir: Path, tmp_path: Path) -> None:
    with _started(server_tmpdir, tmp_path / "out") as process:
        assert len(list(server_tmpdir.glob("pkbench-*/data/postmaster.pid"))) == SHARDS + 1
        time.sleep(1)
        interrupted(process)
    assert_nothing_left(server_tmpdir)


def test_a_shard_killed_mid_window_ends_the_run_in_one_line(server_tmpdir: Path, tmp_path: Path) -> None:
    with _started(server_tmpdir, tmp_path / "out") as process:
        time.sleep(1)
        pids = sorted(
            (path.stat().st_mtime, int(path.read_text().split()[0]))
            for path in server_tmpdir.glob("pkbench-*/data/postmaster.pid")
        )
        # The coordinator started first; the last one started is a shard.
        os.kill(pids[-1][1], signal.SIGKILL)
        _, stderr = process.communicate(timeout=120)
    assert process.returncode != 0, stderr
    assert "Traceback" not in stderr
    assert "shard" in stderr, stderr
    assert_nothing_left(server_tmpdir)


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (("--shards", "2", "--dsn", "host=/nonexistent"), "--shards starts shards beside"),
        (("--shards", "40"), "shards 40: must be from 0 to 16"),
    ],
)
def test_shards_that_cannot_be_are_refused_in_one_line(arguments: tuple[str, ...], message: str) -> None:
    result = cli_in_process("run", "sharded", *arguments)
    assert result.returncode != 0
    assert message in result.stderr and len(result.stderr.strip().splitlines()) == 1, result.stderr


def _split(*inserted: int) -> sharded.Split:
    return sharded.Split("k", "t", inserted, (0,) * len(inserted), (0,) * len(inserted))


def test_the_verdict_tells_concentrated_from_even_from_uneven() -> None:
    assert sharded.verdict(_split(0, 3, 4000)).startswith("concentrated: shard 3")
    assert sharded.verdict(_split(1010, 990, 1000)).startswith("spread evenly")
    assert sharded.verdict(_split(1500, 700, 800)).startswith("uneven: shard 1")
    # A lean a hash shows over many inserts, resolved but within the band: still even.
    assert sharded.verdict(_split(6016, 6245, 5923)).startswith("spread evenly")
    assert sharded.verdict(_split(0, 0, 0)) == "no inserts were counted"
    assert sharded.verdict(_split(10, 12, 8)).startswith("too few inserts to tell")
    # Too few inserts to call anything concentrated, though all landed on one shard.
    assert sharded.verdict(_split(0, 0, 5)).startswith("uneven")


def test_the_wilson_interval_holds_the_share_and_narrows_with_more_inserts() -> None:
    low, high = sharded.wilson(50, 100)
    assert low < 0.5 < high
    narrow_low, narrow_high = sharded.wilson(5000, 10000)
    assert high - low > narrow_high - narrow_low > 0
    assert sharded.wilson(0, 0) == (0.0, 1.0)


def test_shares_over_time_are_each_shards_part_of_the_inserts_so_far() -> None:
    def row(elapsed: float, shard: int, inserted: int, repeat: str = "1") -> dict[str, str]:
        return {"repeat": repeat, "elapsed_s": str(elapsed), "shard": str(shard), "inserted": str(inserted)}

    rows = [row(0, 1, 0), row(0, 2, 0), row(1, 1, 10), row(1, 2, 30), row(2, 1, 10), row(2, 2, 90)]
    # A second repeat is not mixed into the first one's shares.
    rows += [row(1, 1, 500, "2"), row(1, 2, 0, "2")]
    # No inserts yet at 0 s: no share to draw there.
    assert shards.shares_over_time(rows) == {1: [(1.0, 0.25), (2.0, 0.1)], 2: [(1.0, 0.75), (2.0, 0.9)]}
    assert shards.shares_over_time([]) == {}
