"""`pkbench advise --like`'s two scenario files, written beside its runs: the replica's (replica.toml: the
table's shape loaded, then a row and its children inserted at a time, as the application does) and the
switch's (switch.toml: the migrate scenario's steps on the same replica, each between two readings of the
WAL and the disk)."""

from __future__ import annotations

import json
from collections.abc import Sequence

from pkbench.advise.replica import (
    BATCH_ROWS,
    CLIENTS,
    JOBS,
    SETTINGS,
    SWITCH_STRATEGY,
    V7,
    WINDOW,
    Replica,
    Scaling,
)
from pkbench.survey.shape import TableShape


def _toml(value: object) -> str:
    """VALUE as TOML: a string as a basic string (JSON's escapes are TOML's), a list, an inline table."""
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{key} = {_toml(item)}" for key, item in value.items()) + " }"
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_toml(item) for item in value) + "]"
    return json.dumps(value)


def _steps(replica_: Replica, cascade: bool) -> list[str]:
    tables = ", ".join(replica_.tables())
    return [
        _step("sql", "schema", statements=replica_.schema(cascade)),
        _step("fill", "fill", rows="rows", statement=replica_.insert("{batch}")),
        _step("sql", "maintenance", statements=[f"VACUUM ANALYZE {tables}"], if_permitted=["CHECKPOINT"]),
        _step("snapshot", "sizes_after_prefill"),
    ]


def _step(kind: str, name: str, **fields: object) -> str:
    lines = ["[[steps]]", f"kind = {_toml(kind)}", f"name = {_toml(name)}"]
    lines += [f"{key} = {_toml(value)}" for key, value in fields.items()]
    return "\n".join(lines)


def _header(
    shape: TableShape,
    scaling: Scaling,
    name: str,
    description: str,
    strategies: Sequence[str],
    window_s: int,
) -> list[str]:
    settings = {**SETTINGS, "shared_buffers": f"{scaling.shared_buffers_bytes // 1024}kB"}
    return [
        f"# Written by `pkbench advise --like {shape.table}`: {description}.",
        f"name = {_toml(name)}",
        f"description = {_toml(description)}",
        'table = "records"',
        f"strategies = {_toml(list(strategies))}",
        *(['baseline = "bigint"'] if "bigint" in strategies else []),
        "",
        "[parameters]",
        f"rows = {scaling.rows}",
        f"clients = {CLIENTS}",
        f"jobs = {JOBS}",
        f"duration_s = {window_s}",
        f"batch_rows = {BATCH_ROWS}",
        "progress_interval_s = 5",
        "sampling_interval_s = 5",
        "",
        "[settings]",
        *(f"{key} = {_toml(value)}" for key, value in settings.items()),
        "",
        "[summary]",
        'insert = "fill"',
        "",
    ]


def replica_toml(
    shape: TableShape, scaling: Scaling, replica_: Replica, strategies: Sequence[str], window_s: int
) -> str:
    """The scenario that measures each key on the replica: its load, then a row and its children inserted
    at a time."""
    description = f"each key on a replica of {shape.table}'s shape, scaled by {scaling.factor:.4g}"
    script = replica_.insert("1") + ";"
    return (
        "\n\n".join(
            [
                "\n".join(_header(shape, scaling, "like", description, strategies, window_s)),
                *_steps(replica_, cascade=False),
                _step(
                    "pgbench",
                    WINDOW,
                    description="inserts of a row and its children, as the application makes them",
                    wal_inspect=["records_pkey"],
                    scripts=[{"name": "insert", "weight": 1, "sql": script}],
                ),
            ]
        )
        + "\n"
    )


def figures_sql(tables: Sequence[str]) -> str:
    """The switch's figures: the WAL position and the disk of the replica's TABLES (their indexes and TOAST
    with them), read before and after each change; a query step's transaction is rolled back and writes no
    WAL of its own."""
    names = ", ".join(f"'{name}'" for name in tables)
    return (
        "SELECT pg_current_wal_lsn() - '0/0'::pg_lsn AS wal_bytes, "
        f"(SELECT sum(pg_total_relation_size(t)) FROM unnest(ARRAY[{names}]::regclass[]) t) AS disk_bytes"
    )


def switch_toml(shape: TableShape, scaling: Scaling, replica_: Replica) -> str:
    """The migrate scenario's steps on the replica: (a) the default switched to v7, (b) the existing keys
    rewritten to v7, the children's foreign keys following them; each between two readings of the WAL
    position and the disk."""
    key = replica_.key
    description = f"the cost of switching {shape.table}'s key to v7, on its replica"
    steps = [
        *_steps(replica_, cascade=True),
        _step("density", "before-switch", indexes=["records_pkey"]),
        _figures("before-switch-default", replica_),
        _step(
            "sql", "switch-default", statements=[f"ALTER TABLE records ALTER COLUMN {key} SET DEFAULT {V7}"]
        ),
        _figures("after-switch-default", replica_),
        _step("sql", "checkpoint-before-rewrite", statements=["CHECKPOINT"]),
        _figures("before-rewrite-keys", replica_),
        _step("sql", "rewrite-keys", statements=[f"UPDATE records SET {key} = {V7}"]),
        _figures("after-rewrite-keys", replica_),
        _step("density", "after-rewrite", indexes=["records_pkey"]),
    ]
    return (
        "\n\n".join(
            ["\n".join(_header(shape, scaling, "like-switch", description, [SWITCH_STRATEGY], 1)), *steps]
        )
        + "\n"
    )


def _figures(name: str, replica_: Replica) -> str:
    return _step("query", name, queries=[{"name": "figures", "sql": figures_sql(replica_.tables())}])
