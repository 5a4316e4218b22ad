"""A scenario's numbers counted in the cores of the machine pkbench runs on: a parameter written "cores" or
"N*cores", and the sweep a scenario makes when the command line asks for none."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from pkbench.errors import PkbenchError
from pkbench.probes import machine

Value = int | float | str

_CORES = re.compile(r"^\s*(?:(\d+)\s*\*\s*)?cores\s*$")


def in_cores(value: Value, cores: int) -> Value:
    """VALUE, or the number of cores it names ("cores", "4*cores") on a machine of CORES cores (pure)."""
    if not isinstance(value, str):
        return value
    match = _CORES.match(value)
    if match is None:
        return value
    return int(match.group(1) or 1) * cores


def resolved(parameters: Mapping[str, Value]) -> dict[str, Value]:
    """PARAMETERS with every count of cores made a number, on this machine."""
    return {name: in_cores(value, machine.cores()) for name, value in parameters.items()}


def default_sweep(
    where: str, sweep: Mapping[str, Sequence[int | str]], parameters: Mapping[str, Value]
) -> tuple[str, tuple[int, ...]] | None:
    """A scenario file's `sweep` table, counted on this machine: (parameter, values), or None when empty."""
    if len(sweep) > 1:
        raise PkbenchError(f"{where}: sweep: one parameter at a time (got {', '.join(sweep)})")
    for parameter, listed in sweep.items():
        values = [in_cores(value, machine.cores()) for value in listed]
        # 0 is a value of some parameters (fleet's skew_ms: clocks in step); run.sweep refuses it for clients.
        if parameter not in parameters or not all(isinstance(v, int) and v >= 0 for v in values):
            raise PkbenchError(
                f"{where}: sweep: {parameter} must be a parameter of the scenario, and its values whole "
                "numbers of at least 0 or counts of cores ('cores', '4*cores')"
            )
        return parameter, tuple(int(v) for v in values)
    return None
