"""How figures are written for people, the same in the summary, the CSV's neighbours, compare and the report:
byte counts in powers of 1024 (KiB, MiB, GiB), and read back from what people write (512MB, 20GB); the one
marker of a figure that was not measured, and the one builder of markdown tables."""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Sequence

from pkbench.errors import PkbenchError

KIB = 1024
MIB = 1024**2
GIB = 1024**3

# A figure that was not measured, in every table cell (results.json says why: a null and its reason).
MISSING = "\N{EN DASH}"


def binary_size(n_bytes: float) -> str:
    """'479 MiB', '1.2 GiB', '96.0 KiB': the largest unit that keeps the number at least 1."""
    for unit, scale in (("GiB", GIB), ("MiB", MIB), ("KiB", KIB)):
        if n_bytes >= scale:
            value = n_bytes / scale
            return f"{value:,.1f} {unit}" if value < 100 else f"{value:,.0f} {unit}"
    return f"{n_bytes:,.0f} B"


def figure_text(value: float | None, pattern: str) -> str:
    """VALUE formatted by PATTERN ('{:,.0f}'), or the missing marker for None and NaN."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return MISSING
    return pattern.format(value)


def markdown_table(header: Sequence[str], rows: Iterable[Sequence[str]], *, right: int = 0) -> list[str]:
    """A markdown table's lines; a '|' inside a cell is escaped. RIGHT: how many trailing columns are
    right-aligned (numbers against a swept value)."""

    def line(cells: Sequence[str]) -> str:
        return "| " + " | ".join(cell.replace("|", "\\|") for cell in cells) + " |"

    left = len(header) - right
    return [line(header), "|" + "---|" * left + "---:|" * right, *(line(row) for row in rows)]


def parse_bytes(text: str, option: str) -> int:
    """Bytes in a size such as 20GB, 512MB or 1.5T (powers of 1024)."""
    match = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*([kmgt]?)(?:i?b)?\s*", text, re.IGNORECASE)
    if match is None:
        raise PkbenchError(f"{option} {text[:20]!r}: expected a size such as 512MB or 20GB")
    number, unit = match.groups()
    size = int(float(number) * 1024 ** " kmgt".index(unit.lower() or " "))
    if size <= 0:
        raise PkbenchError(f"{option} {text[:20]!r}: must be a positive size")
    return size
