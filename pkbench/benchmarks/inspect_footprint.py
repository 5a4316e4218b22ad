"""inspect's footprint on a database of thousands of tables: the most locks it holds at once, its longest
transaction, the statements it sends and its time, measured on a throwaway cluster.

    .venv/bin/python pkbench/benchmarks/inspect_footprint.py [--tables 5000] [--partitioned 250]

The cluster holds TABLES tables: PARTITIONED of them partitioned (4 partitions each), the rest plain, half
with a gen_random_uuid() key and half a bigserial, each with a few rows, analyzed. `pkbench inspect` (the
command, in a process of its own) surveys it while another session samples pg_locks and pg_stat_activity
for its backend every few milliseconds; the server logs every statement (log_statement = all), and the
lines of inspect's (application_name pkbench) are counted. With --observe the survey runs once more in this
process with an observer that counts the locks at the end of each read transaction, when all of its locks
are held: the exact most, where the sampler may miss a short peak. Locks and statements do not depend on the
machine's load; the times do.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path

import psycopg

from pkbench.server.builds import find_pgbench, find_server_bindir
from pkbench.server.embedded import EmbeddedCluster
from pkbench.survey import catalog
from pkbench.survey.facts import Options

PARTITIONS = 4
TABLES_A_BATCH = 100


def build(conn: psycopg.Connection[tuple[object, ...]], tables: int, partitioned: int) -> None:
    """TABLES tables in batches of their own transactions (one holding them all would need a lock each)."""
    plain = tables - partitioned
    for start in range(0, plain, TABLES_A_BATCH):
        conn.execute(
            f"""
            DO $$ BEGIN FOR i IN {start}..{min(start + TABLES_A_BATCH, plain) - 1} LOOP
              IF i % 2 = 0 THEN
                EXECUTE format('CREATE TABLE t_%s (id uuid PRIMARY KEY DEFAULT gen_random_uuid(), v text)',
                               i);
              ELSE
                EXECUTE format('CREATE TABLE t_%s (id bigserial PRIMARY KEY, v text)', i);
              END IF;
              EXECUTE format('INSERT INTO t_%s (v) SELECT ''x'' FROM generate_series(1, 20)', i);
            END LOOP; END $$"""
        )
    for start in range(0, partitioned, TABLES_A_BATCH // PARTITIONS):
        conn.execute(
            f"""
            DO $$ BEGIN FOR i IN {start}..{min(start + TABLES_A_BATCH // PARTITIONS, partitioned) - 1} LOOP
              EXECUTE format('CREATE TABLE p_%s (id bigint GENERATED ALWAYS AS IDENTITY, at int NOT NULL, '
                             'PRIMARY KEY (id, at)) PARTITION BY RANGE (at)', i);
              FOR j IN 0..{PARTITIONS - 1} LOOP
                EXECUTE format('CREATE TABLE p_%s_%s PARTITION OF p_%s FOR VALUES FROM (%s) TO (%s)',
                               i, j, i, j * 10, j * 10 + 10);
              END LOOP;
              EXECUTE format('INSERT INTO p_%s (at) SELECT g %% {PARTITIONS * 10} '
                             'FROM generate_series(1, 40) g', i);
            END LOOP; END $$"""
        )
    conn.execute("ANALYZE")


@dataclass
class Sampled:
    most_locks: int = 0
    longest_s: float = 0.0
    samples: int = 0


def sample(dsn: str, stop: threading.Event, found: Sampled) -> None:
    """pg_locks and pg_stat_activity of inspect's backend, from another session, until STOP."""
    with psycopg.connect(dsn, autocommit=True) as conn:
        while not stop.is_set():
            row = conn.execute(
                "SELECT (SELECT count(*) FROM pg_locks l JOIN pg_stat_activity a USING (pid) "
                "        WHERE a.application_name = 'pkbench'), "
                "(SELECT extract(epoch FROM max(clock_timestamp() - xact_start)) FROM pg_stat_activity "
                "  WHERE application_name = 'pkbench')"
            ).fetchone()
            assert row is not None
            found.most_locks = max(found.most_locks, int(row[0]))
            found.longest_s = max(found.longest_s, float(row[1] or 0.0))
            found.samples += 1
            time.sleep(0.02)


def statements_logged(cluster: EmbeddedCluster, start: int) -> int:
    log = cluster.log_path.read_bytes()[start:].decode(errors="replace")
    return sum(
        1
        for line in log.splitlines()
        if line.startswith("pkbench|") and ("statement: " in line or "execute <unnamed>" in line)
    )


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--tables", type=int, default=5000)
    parser.add_argument("--partitioned", type=int, default=250)
    parser.add_argument(
        "--observe",
        action="store_true",
        help="Survey once more in this process, counting the locks at the end of every read transaction.",
    )
    parser.add_argument(
        "--out",
        type=Path,
        help="Also write the figures, after the command that made them, to this file (docs/inspect.md's "
        "footprint block is generated from the committed one).",
    )
    args = parser.parse_args()
    lines: list[str] = []

    def say(line: str) -> None:
        print(line)
        lines.append(line)

    settings = {
        "shared_buffers": "128MB",
        "log_statement": "all",
        "log_line_prefix": "%a|",
        "max_locks_per_transaction": "256",
    }
    with EmbeddedCluster(find_server_bindir(None), find_pgbench(None), settings) as cluster:
        dsn = cluster.connection.conninfo()
        started = time.monotonic()
        with psycopg.connect(dsn, autocommit=True) as conn:
            build(conn, args.tables, args.partitioned)
            (relations,) = conn.execute(
                "SELECT count(*) FROM pg_class WHERE relkind = 'r' AND relnamespace = 'public'::regnamespace"
            ).fetchone() or (0,)
        say(
            f"built {args.tables:,} tables ({args.partitioned:,} of them partitioned, {PARTITIONS} "
            "partitions "
            f"each; {relations:,} heaps) in {time.monotonic() - started:.0f} s"
        )

        stop, sampled = threading.Event(), Sampled()
        sampler = threading.Thread(target=sample, args=(dsn, stop, sampled))
        log_start = cluster.log_path.stat().st_size
        sampler.start()
        started = time.monotonic()
        command = [sys.executable, "-m", "pkbench", "inspect", "--dsn", dsn, "--format", "json"]
        done = subprocess.run(command, capture_output=True, text=True, env={**os.environ, "NO_COLOR": "1"})
        wall = time.monotonic() - started
        stop.set()
        sampler.join()
        if done.returncode != 0:
            print(done.stderr, file=sys.stderr)
            return 1
        statements = statements_logged(cluster, log_start)

        observed = {"most": 0, "transactions": 0, "oldest_s": 0.0}
        with psycopg.connect(dsn, autocommit=True) as watcher:

            def observe(pid: int, what: str) -> None:
                row = watcher.execute(
                    "SELECT (SELECT count(*) FROM pg_locks WHERE pid = %s), (SELECT extract(epoch FROM "
                    "clock_timestamp() - xact_start) FROM pg_stat_activity WHERE pid = %s)",
                    (pid, pid),
                ).fetchone()
                assert row is not None
                observed["most"] = max(observed["most"], int(row[0]))
                observed["oldest_s"] = max(observed["oldest_s"], float(row[1]))
                observed["transactions"] += 1

            if args.observe:
                catalog.survey(cluster.connection, Options(observe=observe))

    say(
        f"pkbench inspect --format json on {args.tables:,} tables: {wall:.1f} s wall "
        f"(load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs)"
    )
    say(
        f"  most locks held at once, sampled from another session ({sampled.samples:,} samples): "
        f"{sampled.most_locks}"
    )
    say(f"  the longest transaction, sampled: {sampled.longest_s:.2f} s")
    if args.observe:
        say(f"  most locks held at once, counted at the end of each read transaction: {observed['most']}")
        say(
            f"  read transactions: {observed['transactions']:,}, the longest {observed['oldest_s']:.2f} s "
            "at its end"
        )
    say(f"  statements sent: {statements:,} ({statements / args.tables:.1f} a table)")
    if args.out is not None:
        made = ["$ .venv/bin/python pkbench/benchmarks/inspect_footprint.py", *sys.argv[1:]]
        args.out.write_text("\n".join([" ".join(made), *lines]) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
