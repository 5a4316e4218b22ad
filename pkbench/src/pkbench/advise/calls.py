"""The two calls the `pkbench advise` command hands its package: reading a `pkbench run`'s words into its
options, and running one. Every part is checked and run exactly as that command would."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, TypeVar

from pkbench.reporting import Reporter

if TYPE_CHECKING:
    from _typeshed import DataclassInstance

# A `pkbench run`'s options (run.options.Options), which the command hands over: the advise package reads
# none of their fields, so it does not import the run's whole planning to name their type.
RunOptions = TypeVar("RunOptions", bound="DataclassInstance")
# How `pkbench run WORDS` reads its words into options (cli.run.options_for), handed over by cli.main, which
# holds both commands: every part is checked and run exactly as that command would.
OptionsFor = Callable[[list[str]], RunOptions]
# run.runner.execute, handed over by the command as OPTIONS_FOR is: a part is run exactly as `pkbench run`.
Execute = Callable[[RunOptions, Reporter], object]
