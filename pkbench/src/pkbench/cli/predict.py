"""`pkbench predict`: each key's WAL per insert against bigint's on a server described by its settings (or
read from it), from the model fitted to the committed runs."""

from __future__ import annotations

import json
from dataclasses import asdict

import click

from pkbench.cli.arguments import duration
from pkbench.errors import PkbenchError
from pkbench.model import calibration
from pkbench.model.btree import LAYOUTS, rows_in
from pkbench.model.prediction import QUOTABLE_FACTOR, KeyCost, Server, predict
from pkbench.server import connection
from pkbench.survey import catalog, checkpoint_settings, facts, modelled, names, placement
from pkbench.survey.checkpoint_settings import CheckpointSettings
from pkbench.text import binary_size, parse_bytes

# PostgreSQL's own defaults, for a setting neither given nor read.
DEFAULTS = CheckpointSettings(
    shared_buffers_bytes=128 * 1024**2,
    checkpoint_timeout_s=300.0,
    max_wal_size_bytes=1024**3,
    checkpoint_completion_target=0.9,
    wal_compression=False,
    measured_every_s=None,
    checkpoints=0,
)


def _count(text: str, option: str) -> float:
    try:
        value = float(text.strip().removesuffix("/s").replace("_", ""))
    except ValueError as e:
        raise PkbenchError(f"{option} {text[:20]!r}: expected a number such as 1000") from e
    if not 0 < value < float("inf"):
        raise PkbenchError(f"{option} {text[:20]!r}: must be a positive number")
    return value


def _keys(given: tuple[str, ...]) -> tuple[str, ...]:
    for key in given:
        if key not in LAYOUTS:
            raise PkbenchError(f"--key {key}: the model knows {', '.join(LAYOUTS)}")
    return given or tuple(k for k in LAYOUTS if k != calibration.BASELINE)


def _table(info: connection.ConnectionInfo, table: str) -> tuple[float | None, float | None, str]:
    """The table's rows, its insert rate and where the rate comes from, read by inspect's survey."""
    schema, name = names.split_qualified(table, "--table")
    options = facts.Options(schema=schema, table=name, extension_figures=False)
    server, tables = catalog.survey(info, options)
    found = tables[0]
    watched = (
        found.inserts / found.inserts_over_s if found.inserts is not None and found.inserts_over_s else None
    )
    rate, rate_from = modelled.insert_rate(watched, found.inserted_total, server)
    return found.rows, rate, rate_from


def _rows(rows: str | None, index_size: str | None, keys: tuple[str, ...], read: float | None) -> float:
    if rows is not None and index_size is not None:
        raise PkbenchError("give --rows or --index-size, not both")
    if rows is not None:
        return _count(rows, "--rows")
    if index_size is not None:
        return rows_in(parse_bytes(index_size, "--index-size"), LAYOUTS[keys[0]])
    if read:
        return read
    raise PkbenchError("give --rows or --index-size (or --dsn with --table)")


def _line(cost: KeyCost) -> str:
    wal, against = cost.wal_per_insert, cost.wal_against_bigint
    text = f"{cost.key:8} WAL per insert {wal.value:,.0f} B ({wal.low:,.0f}-{wal.high:,.0f})"
    if cost.key != calibration.BASELINE:
        text += f", {against.value:.2f}x bigint's ({against.low:.2f}-{against.high:.2f})"
    text += f"; a checkpoint every {cost.cycle_s:,.0f} s ({cost.cycle_ended_by})"
    text += f"; full-page images {cost.images_per_insert:.3f} per insert"
    text += f"; key-index leaf misses per insert {cost.buffer_misses_per_insert:.2f} of shared buffers"
    if cost.memory_misses_per_insert is not None:
        text += f", {cost.memory_misses_per_insert:.2f} of memory"
    rate = cost.rate_against_bigint
    if cost.key != calibration.BASELINE and rate is not None:
        if rate.high / rate.value < QUOTABLE_FACTOR:
            text += f"; rate {rate.value:.2f}x bigint's ({rate.low:.2f}-{rate.high:.2f})"
            text += " at the calibration machine's costs"
        else:
            text += "; rate: the model's interval is too wide to quote"
    return text


@click.command("predict")
@click.option("--key", "keys", multiple=True, help=f"A key to predict ({', '.join(LAYOUTS)}); repeatable.")
@click.option("--rows", help="Rows in the table.")
@click.option(
    "--index-size",
    metavar="SIZE",
    help="Instead of --rows: the key index's size, as the first --key lays it out.",
)
@click.option("--shared-buffers", metavar="SIZE", help="shared_buffers (default: the server's, else 128MB).")
@click.option("--memory", metavar="SIZE", help="The memory the server's page cache may use (64GB).")
@click.option(
    "--checkpoint-timeout", metavar="DURATION", help="checkpoint_timeout (default: the server's, else 5m)."
)
@click.option("--max-wal-size", metavar="SIZE", help="max_wal_size (default: the server's, else 1GB).")
@click.option("--checkpoint-completion-target", type=float, help="(default: the server's, else 0.9).")
@click.option(
    "--wal-compression/--no-wal-compression",
    default=None,
    help="wal_compression (default: the server's, else off).",
)
@click.option("--insert-rate", metavar="N", help="Rows inserted into the table per second.")
@click.option(
    "--dsn", help="Read the settings, and how often the server checkpoints, from this server (read-only)."
)
@click.option(
    "--table", help="With --dsn: the table whose rows and insert rate to read (NAME or SCHEMA.NAME)."
)
@click.option("--format", "output", type=click.Choice(["text", "json"]), default="text", show_default=True)
def predict_command(
    keys: tuple[str, ...],
    rows: str | None,
    index_size: str | None,
    shared_buffers: str | None,
    memory: str | None,
    checkpoint_timeout: str | None,
    max_wal_size: str | None,
    checkpoint_completion_target: float | None,
    wal_compression: bool | None,
    insert_rate: str | None,
    dsn: str | None,
    table: str | None,
    output: str,
) -> None:
    """Each key's WAL per insert against bigint's on one server, from its settings, the table's rows and its
    insert rate: the b-tree's and the checkpointer's arithmetic, fitted to committed runs (docs/predict.md).

    Example: pkbench predict --rows 100000000 --insert-rate 1000 --shared-buffers 8GB --memory 64GB
    --checkpoint-timeout 15min --max-wal-size 16GB
    """
    chosen = _keys(keys)
    settings, table_rows, rate, rate_source = DEFAULTS, None, None, "given"
    if table is not None and dsn is None:
        raise PkbenchError("--table needs --dsn: the table is read from the server")
    if dsn is not None:
        info = connection.resolve(dsn)
        settings = checkpoint_settings.read(info)
        if table is not None:
            table_rows, rate, rate_source = _table(info, table)
    if insert_rate is not None:
        rate, rate_source = _count(insert_rate, "--insert-rate"), "given"
    if rate is None:
        raise PkbenchError(
            "give --insert-rate (rows inserted per second): the server has no count to take it from"
        )
    timeout = duration(checkpoint_timeout, "--checkpoint-timeout") if checkpoint_timeout else None
    server = Server(
        rows=_rows(rows, index_size, chosen, table_rows),
        insert_rate=rate,
        shared_buffers_bytes=parse_bytes(shared_buffers, "--shared-buffers")
        if shared_buffers
        else settings.shared_buffers_bytes,
        memory_bytes=parse_bytes(memory, "--memory") if memory else None,
        checkpoint_timeout_s=timeout or settings.checkpoint_timeout_s,
        max_wal_size_bytes=parse_bytes(max_wal_size, "--max-wal-size")
        if max_wal_size
        else settings.max_wal_size_bytes,
        checkpoint_completion_target=checkpoint_completion_target
        if checkpoint_completion_target is not None
        else settings.checkpoint_completion_target,
        wal_compression=settings.wal_compression if wal_compression is None else wal_compression,
        checkpoint_every_s=None if (checkpoint_timeout or max_wal_size) else settings.measured_every_s,
    )
    if not 0 <= server.checkpoint_completion_target <= 1:
        raise PkbenchError("--checkpoint-completion-target: must be between 0 and 1")
    fit = calibration.committed(placement.RUNS_DIR)
    costs = predict(server, fit, chosen)
    if output == "json":
        click.echo(
            json.dumps(
                {"server": asdict(server), "rate_source": rate_source, "keys": [asdict(c) for c in costs]},
                indent=2,
            )
        )
        return
    click.echo(
        f"{server.rows:,.0f} rows, {server.insert_rate:,.0f} inserts/s ({rate_source}); shared_buffers "
        f"{binary_size(server.shared_buffers_bytes)}"
    )
    for cost in costs:
        click.echo(_line(cost))
    click.echo(
        f"95% intervals from the model's spread over {sum(k.windows for k in fit.keys.values())} windows of "
        f"{len(fit.runs)} committed runs; docs/predict.md shows it against runs it was not fitted to."
    )
