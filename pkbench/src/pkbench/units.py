"""Byte counts for people: powers of 1024, named KiB, MiB and GiB, in the summary and the report alike."""

from __future__ import annotations

KIB = 1024
MIB = 1024**2
GIB = 1024**3


def binary_size(n_bytes: float) -> str:
    """'479 MiB', '1.2 GiB', '96.0 KiB': the largest unit that keeps the number at least 1."""
    for unit, scale in (("GiB", GIB), ("MiB", MIB), ("KiB", KIB)):
        if n_bytes >= scale:
            value = n_bytes / scale
            return f"{value:,.1f} {unit}" if value < 100 else f"{value:,.0f} {unit}"
    return f"{n_bytes:,.0f} B"
