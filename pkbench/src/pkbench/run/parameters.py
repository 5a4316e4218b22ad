"""The parameters a run is given: the named options and `--set KEY=VALUE`, read and checked against what the
scenario declares and the harness reads, before anything starts."""

from __future__ import annotations

import math
import tomllib
from collections.abc import Mapping, Sequence
from typing import Any

from pkbench.errors import PkbenchError
from pkbench.schema import unknown_key
from pkbench.server import iolimit
from pkbench.steps import checkpoints

# PostgreSQL's bigint: the most rows, clients or seconds any parameter can mean.
BIGINT_MAX = 2**63 - 1

# The command-line option that sets a scenario parameter, to name it in a refusal.
OPTION_OF = {
    "rows": "--rows",
    "clients": "--clients",
    "jobs": "--jobs",
    "duration_s": "--duration",
    "sampling_interval_s": "--sample-every",
    "warmup_s": "--warmup",
    "clock_rate": "--clock-rate",
    "rate_tps": "--rate",
}
# Parameters the harness itself reads, whether or not a scenario declares them, and what each must be.
HARNESS_PARAMETERS: dict[str, type] = {
    "rows": int,
    "clients": int,
    "jobs": int,
    "duration_s": int,
    "rounds": int,
    "sampling_interval_s": float,
    # Seconds between samples of the wait events (probes.sampler: at most every sampling interval).
    "wait_sampling_interval_s": float,
    # The share of transactions pgbench logs for the latency percentiles (steps.pgbench: --sampling-rate).
    "log_sampling_rate": float,
    "warmup_s": float,
    "clock_rate": float,
    "rate_tps": float,
    "transactions": int,
    iolimit.PARAMETER: int,
    checkpoints.PARAMETER: float,
    # The memory cap as a size (a [scale] preset's --memory-limit); the option wins when both are given.
    "memory_limit": str,
}


def check_fraction(parameters: Mapping[str, object], name: str) -> None:
    """A share (pgbench's --sampling-rate): above 0 and at most 1, when given."""
    value = parameters.get(name)
    if value is not None and (
        isinstance(value, bool) or not isinstance(value, int | float) or not 0 < value <= 1
    ):
        raise PkbenchError(f"--set {name}: a share above 0 and at most 1 (got {value!r})")


def check_rate(value: object) -> None:
    """--rate: a positive number of transactions per second, when given."""
    if value is None:
        return
    if isinstance(value, bool) or not isinstance(value, int | float) or not value > 0:
        raise PkbenchError(f"--rate must be a positive number of transactions per second (got {value!r})")


def check_numbers(parameters: dict[str, int | float | str | None]) -> None:
    """Every number finite, not negative and within bigint: it reaches SQL and pgbench as written."""
    for name, value in parameters.items():
        if isinstance(value, bool) or not isinstance(value, int | float):
            continue
        option = OPTION_OF.get(name, f"parameter {name}")
        if isinstance(value, float) and not math.isfinite(value):
            raise PkbenchError(f"{option} must be a finite number (got {value})")
        if value < 0:
            raise PkbenchError(f"{option} must not be negative (got {value})")
        if value > BIGINT_MAX:
            raise PkbenchError(f"{option} must be at most {BIGINT_MAX:,} (got {value:,})")


def check_known(
    scenario: str,
    declared: Mapping[str, object],
    values: Mapping[str, int | float | str | None],
    from_set: bool,
) -> None:
    """Every parameter given is one the scenario declares or the harness reads, of the type its default has:
    a typo or a wrong type refused before anything starts, never recorded and ignored."""
    for name, value in values.items():
        default = declared.get(name)
        expected = HARNESS_PARAMETERS.get(name) or (type(default) if default is not None else None)
        option = f"--set {name}" if from_set else OPTION_OF.get(name, f"--set {name}")
        if expected is None:
            known = sorted({*declared, *HARNESS_PARAMETERS})
            raise PkbenchError(f"{option}: {unknown_key(name, known)}; a server setting is settings.NAME")
        if expected is float and isinstance(value, int | float):
            continue
        if not isinstance(value, expected) or isinstance(value, bool):
            words = {int: "a whole number", float: "a number", str: "text"}.get(expected, expected.__name__)
            raise PkbenchError(f"{option}: expected {words} for {scenario}'s {name} (got {value!r})")


def from_set(assignments: Sequence[str]) -> tuple[dict[str, int | float | str | None], dict[str, str]]:
    """--set KEY=VALUE as scenario parameters and server settings; VALUE is read as TOML, else as text."""
    parameters: dict[str, int | float | str | None] = {}
    settings: dict[str, str] = {}
    for assignment in assignments:
        key, sign, text = assignment.partition("=")
        key = key.strip()
        if not sign or not key:
            raise PkbenchError(
                f"--set {assignment!r}: expected KEY=VALUE, e.g. rows=100000 or settings.work_mem=64MB"
            )
        try:
            value: Any = tomllib.loads(f"value = {text}")["value"]
        except tomllib.TOMLDecodeError:
            value = text
        section, dot, name = key.rpartition(".")
        if section == "settings" and dot:
            settings[name] = str(value).lower() if isinstance(value, bool) else str(value)
        elif (
            section in ("", "parameters")
            and isinstance(value, int | float | str)
            and not isinstance(value, bool)
        ):
            parameters[name] = value if isinstance(value, int | float | str) else str(value)
        else:
            raise PkbenchError(
                f"--set {key}: give a parameter (rows=...) or a server setting (settings.NAME=...) "
                "with a number or text value"
            )
    return parameters, settings
