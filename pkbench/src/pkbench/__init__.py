"""pkbench: benchmark primary key strategies on PostgreSQL."""

from importlib.metadata import PackageNotFoundError, version

# The version is written once, in pyproject.toml; an installed pkbench (editable or not) reports it.
try:
    __version__ = version("pkbench")
except PackageNotFoundError:  # run from a source tree that was never installed
    __version__ = "0+unknown"
