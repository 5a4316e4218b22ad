"""One colour per strategy, the same in every chart of every report and comparison.

A built-in strategy owns the palette slot of its position in the catalog (strategies.builtin.BUILTIN), so
uuid-v4 has the same colour in a run report, in a comparison and in next month's run. A user-defined
strategy hashes its name into the slots after the catalog's; only when two of them drawn together collide
does the later name in sorted order move to the next free slot.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable

from pkbench.strategies.builtin import BUILTIN

# Distinct on white: Okabe-Ito's colour-blind-safe set first, then other hues, spread so that the catalog's
# strategies (the first slots, in catalog order) that are often drawn together differ in hue.
PALETTE = (
    "#0072B2",
    "#D55E00",
    "#009E73",
    "#CC79A7",
    "#E69F00",
    "#56B4E9",
    "#7F3C8D",
    "#4D4D4D",
    "#B8860B",
    "#E7298A",
    "#66A61E",
    "#8C564B",
    "#17BECF",
    "#9E0142",
    "#386CB0",
    "#BF5B17",
    "#1B9E77",
    "#A6761D",
    "#6A3D9A",
    "#B15928",
    "#D62728",
    "#9467BD",
    "#BCBD22",
    "#7570B3",
    "#E6AB02",
    "#4575B4",
    "#F46D43",
    "#00441B",
    "#74ADD1",
    "#F781BF",
)
BUILTIN_SLOTS = {strategy.name: index % len(PALETTE) for index, strategy in enumerate(BUILTIN)}
FREE_SLOTS = tuple(range(len(BUILTIN_SLOTS), len(PALETTE))) or tuple(range(len(PALETTE)))


def preferred_slot(name: str) -> int:
    if name in BUILTIN_SLOTS:
        return BUILTIN_SLOTS[name]
    digest = hashlib.sha256(name.encode("utf-8")).digest()
    return FREE_SLOTS[int.from_bytes(digest[:4], "big") % len(FREE_SLOTS)]


def strategy_colors(names: Iterable[str]) -> dict[str, str]:
    """Colour of every strategy in NAMES, distinct as long as there are at most len(PALETTE) of them."""
    unique = set(names)
    ordered = sorted(unique & BUILTIN_SLOTS.keys(), key=BUILTIN_SLOTS.__getitem__) + sorted(
        unique - BUILTIN_SLOTS.keys()
    )
    taken: set[int] = set()
    colors: dict[str, str] = {}
    for name in ordered:
        slot = preferred_slot(name)
        for step in range(len(PALETTE)):
            if (slot + step) % len(PALETTE) not in taken:
                slot = (slot + step) % len(PALETTE)
                break
        taken.add(slot)
        colors[name] = PALETTE[slot]
    return colors


def shades(color: str, count: int) -> list[str]:
    """COUNT tones of COLOR, from a darker shade to a light tint, for the parts of one strategy's stack."""
    red, green, blue = (int(color[i : i + 2], 16) for i in (1, 3, 5))
    tones = []
    for i in range(count):
        # -0.35 mixes 35% black in, 0.75 mixes 75% white in; the strategy's own colour sits in between.
        mix = 0.0 if count == 1 else -0.35 + 1.1 * i / (count - 1)
        target = 255 if mix > 0 else 0
        mixed = (round(c + (target - c) * abs(mix)) for c in (red, green, blue))
        tones.append("#{:02X}{:02X}{:02X}".format(*mixed))
    return tones
