"""What an insert does to a key's b-tree, from the page layout alone.

A leaf holds (8192 - 24 - 16) bytes of items: the page header and the b-tree's special space come off. Each
item is its index tuple (an 8-byte header and the key, padded to 8) and a 4-byte line pointer. Keys that
arrive in order fill each leaf to the b-tree's fillfactor (90%) before the rightmost leaf splits; keys that
arrive in random order leave leaves about ln 2 (69%) full on average, each split halving a full leaf.

A random key's insert lands on a leaf with probability proportional to the key range it holds: over n inserts
after a checkpoint, L leaves see L(1 - exp(-n/L)) distinct first changes, and each first change writes a
full-page image to the WAL. A leaf made by a split after the checkpoint is written whole in the split's own
record, so only the leaves that stood at the checkpoint count. An ordered key changes the rightmost leaf and
the pages a new row goes to, a handful per checkpoint whatever the index's size.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

PAGE_BYTES = 8192
LEAF_SPACE = PAGE_BYTES - 24 - 16
LINE_POINTER = 4
TUPLE_HEADER = 8
ORDERED_FILL = 0.90
RANDOM_FILL = math.log(2)


@dataclass(frozen=True)
class KeyLayout:
    """How a key sits in its b-tree: the key's width in bytes and whether its values arrive in order."""

    width: int
    ordered: bool

    @property
    def item_bytes(self) -> int:
        padded = -(-self.width // 8) * 8
        return TUPLE_HEADER + padded + LINE_POINTER

    @property
    def rows_per_leaf(self) -> float:
        """Rows per leaf page once the index has grown to its steady shape."""
        fill = ORDERED_FILL if self.ordered else RANDOM_FILL
        return LEAF_SPACE // self.item_bytes * fill


# The keys the model knows: those the calibration runs measured, each with its layout.
LAYOUTS = {
    "bigint": KeyLayout(width=8, ordered=True),
    "uuid-v7": KeyLayout(width=16, ordered=True),
    "uuid-v4": KeyLayout(width=16, ordered=False),
}


def leaves(rows: float, layout: KeyLayout) -> float:
    """Leaf pages of an index of ROWS keys laid out as LAYOUT (at least one)."""
    return max(1.0, rows / layout.rows_per_leaf)


def rows_in(index_bytes: float, layout: KeyLayout) -> float:
    """Rows an index of INDEX_BYTES holds when laid out as LAYOUT (internal pages are about 1 in 300)."""
    return index_bytes / PAGE_BYTES * layout.rows_per_leaf


def first_changes(inserts: float, leaf_pages: float) -> float:
    """Distinct leaves of LEAF_PAGES that INSERTS random keys change: L(1 - exp(-n/L))."""
    if inserts <= 0 or leaf_pages <= 0:
        return 0.0
    return leaf_pages * -math.expm1(-inserts / leaf_pages)


def leaf_images(inserts: float, leaf_pages: float, layout: KeyLayout) -> float:
    """Full-page images of the key index's leaves over one checkpoint cycle of INSERTS, for an index of
    LEAF_PAGES at the cycle's start; an ordered key's few pages are counted with the heap's
    (calibration.Fit.images_per_writer)."""
    return 0.0 if layout.ordered else first_changes(inserts, leaf_pages)
