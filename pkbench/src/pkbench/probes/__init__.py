"""Metric probes, one module per source, each aware of the PostgreSQL versions (15 to 18) that name it
differently.

A probe that cannot measure on this server (no privilege, missing extension) says why instead of failing.
"""

from __future__ import annotations

import psycopg

Connection = psycopg.Connection[tuple[object, ...]]
