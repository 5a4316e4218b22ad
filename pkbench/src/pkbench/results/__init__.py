"""The results model (model.py) and the results directory it is written to and read from (files.py).

`results.load(dir)` is the one way to read a run: every summary, report, export and comparison reads the
objects it returns.
"""

from pkbench.results.files import (
    ResultsNotFoundError,
    is_shared,
    load,
    read_series,
    shared_loads,
    typed,
    write,
)
from pkbench.results.model import (
    COMMON_COLUMNS,
    PREFILL_SNAPSHOT,
    SCHEMA_VERSION,
    TIMESERIES_COLUMNS,
    Completion,
    MachineWindow,
    Prefill,
    RepeatedStrategy,
    ReplicationWindow,
    Resumption,
    RoundsRecord,
    RunResult,
    Sizes,
    StatementResult,
    StrategyResult,
    Unavailable,
    Verdict,
    WorkloadResult,
    WorkPerTransaction,
)

__all__ = [
    "COMMON_COLUMNS",
    "PREFILL_SNAPSHOT",
    "SCHEMA_VERSION",
    "TIMESERIES_COLUMNS",
    "Completion",
    "MachineWindow",
    "Prefill",
    "RepeatedStrategy",
    "ReplicationWindow",
    "ResultsNotFoundError",
    "Resumption",
    "RoundsRecord",
    "RunResult",
    "Sizes",
    "StatementResult",
    "StrategyResult",
    "Unavailable",
    "Verdict",
    "WorkPerTransaction",
    "WorkloadResult",
    "is_shared",
    "load",
    "read_series",
    "shared_loads",
    "typed",
    "write",
]
