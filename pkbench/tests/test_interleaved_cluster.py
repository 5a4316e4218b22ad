"""The interleaved design end to end on a small throwaway cluster: two strategies' insert scripts in one
pgbench window, each on a table of the same name in its own schema, two rounds of two seconds (an A/A
calibration runs end to end in test_calibrate)."""

from __future__ import annotations

import tempfile
from pathlib import Path

import psycopg
from test_interleaved import latency_verdicts

from pkbench.run import interleaved
from pkbench.server.builds import find_pgbench, find_server_bindir
from pkbench.server.embedded import EmbeddedCluster

KEYS = {
    "bigint": "id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY",
    "bigint-copy": "id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY",
    "uuid-v4": "id uuid DEFAULT gen_random_uuid() PRIMARY KEY",
}


def schema(strategy: str) -> str:
    return "interleaved_" + strategy.replace("-", "_")


def test_interleaved_rounds_on_a_real_cluster(server_tmpdir: Path) -> None:
    pgbench = find_pgbench(None)
    cluster = EmbeddedCluster(find_server_bindir(None), pgbench, {"shared_buffers": "32MB"})
    with cluster, psycopg.connect(cluster.connection.conninfo(), autocommit=True) as conn:
        for strategy, key in KEYS.items():
            conn.execute(f"CREATE SCHEMA {schema(strategy)}")  # type: ignore[arg-type]
            conn.execute(f"CREATE TABLE {schema(strategy)}.records ({key}, data bigint)")  # type: ignore[arg-type]

        def measure(strategies: list[str], workdir: Path) -> list[dict[str, interleaved.StrategyWindow]]:
            insert = "INSERT INTO records (data) VALUES (random() * 1000);"
            return interleaved.measure_rounds(
                pgbench,
                cluster.connection.pgbench_database(),
                cluster.connection.environment(),
                {s: interleaved.scoped(insert, f"{schema(s)},public") for s in strategies},
                rounds=2,
                clients=2,
                jobs=1,
                duration_s=2,
                workdir=workdir,
                check_alive=cluster.check_alive,
            )

        with tempfile.TemporaryDirectory() as work:
            rounds = measure(["bigint", "uuid-v4"], Path(work) / "ab")
            assert len(rounds) == 2
            for window in rounds:
                assert set(window) == {"bigint", "uuid-v4"}
                assert all(w.transactions > 0 and w.latency_ms_mean > 0 for w in window.values())
            for strategy in ("bigint", "uuid-v4"):
                counted = conn.execute(f"SELECT count(*) FROM {schema(strategy)}.records").fetchone()  # type: ignore[arg-type]
                # Every transaction pgbench attributed to a strategy's script inserted into its own schema.
                assert counted is not None and counted[0] == sum(w[strategy].transactions for w in rounds)
            judged = latency_verdicts(rounds)
            assert set(judged) == {"uuid-v4"} and judged["uuid-v4"].rounds == 2
