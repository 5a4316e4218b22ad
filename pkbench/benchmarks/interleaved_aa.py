"""A/A calibration of the two designs on this machine: bigint against an identical copy of itself, measured
paired (each strategy's window alone, in rotating order) and interleaved (both scripts in one window).

    .venv/bin/python pkbench/benchmarks/interleaved_aa.py [--runs N] [--rounds R] [--seconds S] [--rows ROWS]

Each table is the war scenario's, small: records(id, foreign_table_id, data) with an index on data,
prefilled with ROWS rows, and its script inserts a row and looks one up by data. Every A/A verdict that
resolves a difference is a false positive; the median half-width of the intervals is the smallest effect the
design resolves here. It also prints uuid-v4 against bigint under both designs. It measures, it asserts
nothing; the figures are the machine's of the moment, so nothing here goes into the docs by hand.
"""

from __future__ import annotations

import argparse
import tempfile
from collections.abc import Sequence
from pathlib import Path

import psycopg

from pkbench.analysis.verdict import RatioVerdict
from pkbench.run import interleaved
from pkbench.run.paired import rotation
from pkbench.server.builds import find_pgbench, find_server_bindir
from pkbench.server.embedded import EmbeddedCluster

KEYS = {
    "bigint": ("bigint GENERATED ALWAYS AS IDENTITY", "bigint"),
    "bigint-copy": ("bigint GENERATED ALWAYS AS IDENTITY", "bigint"),
    "uuid-v4": ("uuid DEFAULT gen_random_uuid()", "uuid"),
}
SCRIPT = """\\set search_data random(1, 10000000)
INSERT INTO records (foreign_table_id, data) VALUES ({foreign}, :search_data);
SELECT * FROM records WHERE data = :search_data;"""
FOREIGN = {"bigint": "(random() * 1e9)::bigint", "uuid": "gen_random_uuid()"}


def schema(strategy: str) -> str:
    return "aa_" + strategy.replace("-", "_")


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=4)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seconds", type=int, default=2)
    parser.add_argument("--rows", type=int, default=200_000)
    args = parser.parse_args(argv)
    pgbench = find_pgbench(None)
    cluster = EmbeddedCluster(find_server_bindir(None), pgbench, {"shared_buffers": "128MB"})
    with (
        cluster,
        psycopg.connect(cluster.connection.conninfo(), autocommit=True) as conn,
        tempfile.TemporaryDirectory() as work,
    ):
        scripts: dict[str, str] = {}
        for strategy, (key, kind) in KEYS.items():
            name = schema(strategy)
            conn.execute(f"CREATE SCHEMA {name}")  # type: ignore[arg-type]
            conn.execute(
                f"CREATE TABLE {name}.records (id {key} PRIMARY KEY, foreign_table_id {kind}, data bigint)"  # type: ignore[arg-type]
            )
            conn.execute(f"CREATE INDEX ON {name}.records (data)")  # type: ignore[arg-type]
            conn.execute(
                f"INSERT INTO {name}.records (foreign_table_id, data) SELECT {FOREIGN[kind]}, "  # type: ignore[arg-type]
                f"(random() * 1e7)::bigint FROM generate_series(1, {args.rows})"
            )
            scripts[strategy] = interleaved.scoped(SCRIPT.format(foreign=FOREIGN[kind]), f"{name},public")
        conn.execute("VACUUM ANALYZE")
        conn.execute("CHECKPOINT")
        counter = iter(range(1_000_000))

        def window(names: list[str]) -> dict[str, interleaved.StrategyWindow]:
            return interleaved.measure_rounds(
                pgbench,
                cluster.connection.pgbench_database(),
                cluster.connection.environment(),
                {n: scripts[n] for n in names},
                rounds=1,
                clients=4,
                jobs=2,
                duration_s=args.seconds,
                workdir=Path(work) / str(next(counter)),
                check_alive=cluster.check_alive,
            )[0]

        def paired_rounds(names: list[str]) -> list[dict[str, interleaved.StrategyWindow]]:
            rounds = []
            for number in range(1, args.rounds + 1):
                found: dict[str, interleaved.StrategyWindow] = {}
                for name in rotation(names, number):
                    found.update(window([name]))
                rounds.append({n: found[n] for n in names})
            return rounds

        def interleaved_rounds(names: list[str]) -> list[dict[str, interleaved.StrategyWindow]]:
            return [window(names) for _ in range(args.rounds)]

        designs = {"paired": paired_rounds, "interleaved": interleaved_rounds}
        aa: dict[str, list[RatioVerdict]] = {design: [] for design in designs}
        for run in range(1, args.runs + 1):
            for design, measure in designs.items():
                verdict = interleaved.verdicts(measure(["bigint", "bigint-copy"]), "bigint", seed=run)
                aa[design].append(verdict["bigint-copy"])
                print(f"A/A run {run} {design}: {verdict['bigint-copy'].words}", flush=True)
        for design, verdicts in aa.items():
            print(interleaved.calibration(design, verdicts).words())
        for design, measure in designs.items():
            ab = interleaved.verdicts(measure(["bigint", "uuid-v4"]), "bigint", seed=0)["uuid-v4"]
            width = ab.half_width()
            print(
                f"uuid-v4 against bigint, {design}: {ab.words} (half-width {width:.1%})"
                if width
                else ab.words
            )


if __name__ == "__main__":
    main()
