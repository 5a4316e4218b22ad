"""The pgbench driver (driver.py: one run of pgbench, its output kept) and the pure parsers of that output
(output.py)."""
