"""The command line: thin commands over the library, and the one place errors become a line on stderr.

The commands live by job: `run` in run.py; list, report, reproductions and compare (over the catalog and
results directories) in results.py; docs in docs.py; inspect (a read-only survey of a server's keys) in
inspect.py; predict (the model of a key's cost on a server) in predict.py; the exit codes and the one way
to fail in exit.py.
"""

from __future__ import annotations

import gc
import signal

import click
import psycopg

from pkbench import __version__
from pkbench.cli import advise
from pkbench.cli.docs import docs
from pkbench.cli.exit import EXIT_INTERRUPTED, fail
from pkbench.cli.inspect import inspect
from pkbench.cli.predict import predict_command
from pkbench.cli.results import compare, list_, report, reproductions_
from pkbench.cli.run import options_for, run
from pkbench.errors import PkbenchError, first_line


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="pkbench")
def cli() -> None:
    """Benchmark primary key strategies (bigint, UUID v4/v7, sequential UUIDs, ULID) on PostgreSQL.

    Example: pkbench run
    """


for command in (
    run,
    list_,
    report,
    reproductions_,
    compare,
    docs,
    advise.command(options_for),
    inspect,
    predict_command,
):
    cli.add_command(command)


# Runs are read back as many small objects: at the default thresholds the cycle collector walked them every
# 700 allocations, a sixth of a `pkbench compare`'s CPU. Cycles are still collected, less often.
COLLECTOR_THRESHOLDS = (100_000, 50, 100)


def main() -> None:
    """Entry point: the single error boundary."""
    gc.set_threshold(*COLLECTOR_THRESHOLDS)
    # A SIGTERM gets the same orderly teardown as Ctrl-C.
    signal.signal(signal.SIGTERM, signal.default_int_handler)
    try:
        cli.main(standalone_mode=False)
    except PkbenchError as e:
        fail(str(e))
    except click.exceptions.Abort:
        fail("interrupted", EXIT_INTERRUPTED)
    except KeyboardInterrupt:
        fail("interrupted; stopped every process it started", EXIT_INTERRUPTED)
    except click.ClickException as e:
        fail(e.format_message(), e.exit_code)
    except psycopg.Error as e:
        fail(f"PostgreSQL: {first_line(e)}")
    except OSError as e:
        fail(f"{e.filename + ': ' if e.filename else ''}{e.strerror or e}")
