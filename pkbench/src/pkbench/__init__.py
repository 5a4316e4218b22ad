"""pkbench: benchmark primary key strategies on PostgreSQL."""

__version__ = "0.1.0"
