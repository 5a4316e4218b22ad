"""Running a `pkbench advise` plan: each part an ordinary `pkbench run` with its share of what is left of the
budget (resumed where it was interrupted), and the server the memory tiers are sized from and the model
places them for."""

from __future__ import annotations

import dataclasses
import shutil
import time
from pathlib import Path

from pkbench.advise import plan as planner
from pkbench.advise import windows
from pkbench.advise.calls import Execute, OptionsFor, RunOptions
from pkbench.errors import PkbenchError, first_line
from pkbench.reporting import Reporter
from pkbench.scenario import file as scenario_file
from pkbench.server import connection, sizing
from pkbench.survey import checkpoint_settings, placement
from pkbench.text import parse_bytes


def wal_shared_buffers() -> int:
    """The shared_buffers the wal scenario sets on the embedded cluster."""
    setting = scenario_file.load("wal").settings.get("shared_buffers", "128MB")
    return parse_bytes(str(setting), "the wal scenario's shared_buffers")


def server(dsn: str | None, server_memory: str | None) -> sizing.Server:
    """What the memory tiers are sized from: with --dsn the server's shared_buffers and --server-memory,
    else the embedded cluster's shared_buffers (the wal scenario's) and this machine's memory, which it may
    cap when run as root."""
    if dsn is not None:
        memory = parse_bytes(server_memory, "--server-memory") if server_memory is not None else None
        return sizing.Server(sizing.read_shared_buffers(connection.resolve(dsn)), memory, can_cap=False)
    return sizing.Server(wal_shared_buffers(), sizing.machine_memory_bytes(), can_cap=sizing.can_cap_memory())


def model(dsn: str | None) -> windows.Model:
    """The model's fit, and the checkpoint settings of the server the advice is for: with --dsn the server's
    own (one read-only statement), else PostgreSQL's defaults."""
    fit = windows.committed_fit(placement.RUNS_DIR)
    if dsn is None:
        return windows.Model(fit)
    read = checkpoint_settings.read(connection.resolve(dsn))
    return windows.Model(
        fit,
        windows.Checkpoints(
            read.checkpoint_timeout_s,
            read.max_wal_size_bytes,
            read.checkpoint_completion_target,
            read.wal_compression,
            "the server's own checkpoint settings",
        ),
    )


def run_parts(
    options_for: OptionsFor[RunOptions],
    execute: Execute[RunOptions],
    reporter: Reporter,
    plan: planner.Plan,
    out: Path,
    dsn: str | None,
) -> None:
    """Every part of PLAN in turn, each with its share of what the parts before it left of the budget."""
    spent = 0.0
    for number, part in enumerate(plan.parts, 1):
        started = time.monotonic()
        measured = run_part(options_for, execute, reporter, plan, part, out, dsn, number, spent)
        # A part measured before --resume took its planned share, as far as this budget knows.
        spent += time.monotonic() - started if measured else plan.share_s(part)


def run_part(
    options_for: OptionsFor[RunOptions],
    execute: Execute[RunOptions],
    reporter: Reporter,
    plan: planner.Plan,
    part: planner.Part,
    out: Path,
    dsn: str | None,
    number: int,
    spent_s: float,
) -> bool:
    """Run PART with its share of what the parts before it left of the budget (SPENT_S taken); False where
    it was measured already."""
    state = planner.state(out, part)
    heading = f"advise {number}/{len(plan.parts)}: {part.name}"
    if state == "done":
        reporter.info(f"{heading}: measured already")
        return False
    options = options_for([*plan.arguments(part, out, spent_s), *(["--dsn", dsn] if dsn else [])])
    planner.check_disk(plan, part)
    directory = out / part.name
    if state == "interrupted":
        reporter.info(f"{heading}: resuming the interrupted run")
        options = dataclasses.replace(options, resume=directory, out=directory)
    else:
        reporter.info(f"{heading}: starting")
        if directory.exists():
            # A run stopped before it wrote any results: its folder (made here) holds nothing to keep.
            shutil.rmtree(directory)
    try:
        execute(options, reporter)
    except PkbenchError as e:
        reporter.warning(f"{part.name} did not finish ({first_line(str(e))}); its rows stay not measured")
    return True
