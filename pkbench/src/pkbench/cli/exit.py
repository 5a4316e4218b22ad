"""How the command line ends: its exit codes (pkbench/README.md lists every one) and the one way to fail."""

from __future__ import annotations

import sys
from typing import NoReturn

import click

# A run that did not run every requested strategy.
EXIT_STRATEGY_FAILED = 3
EXIT_STRATEGY_SKIPPED = 4
# pkbench compare --fail-on-regression: a resolved change for the worse beyond the percentage given.
EXIT_REGRESSION = 5
# pkbench inspect --fail-on: the survey ran, and a table failed the check asked for.
EXIT_FINDINGS = 6
# Ctrl-C or SIGTERM.
EXIT_INTERRUPTED = 130


def fail(message: str, code: int = 1) -> NoReturn:
    """MESSAGE as one line on stderr, then exit with CODE."""
    click.echo(f"pkbench: error: {' '.join(message.split())}", err=True)
    sys.exit(code)
