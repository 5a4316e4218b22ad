"""Public ids without a server: SipHash-2-4 against its published tags, the round trip, the arguments, and
façades of consecutive ids that rise no more often than chance.

The mappings' cases (UUIDv47's published ones and the layouts') are in the shared vectors (test_vectors.py).
"""

from __future__ import annotations

import itertools
import random
from uuid import UUID

import pytest

import sequuid
from sequuid._public_id import siphash24

# SipHash-2-4's reference tags (its paper's appendix and vectors.h) for the messages 00, 00 01, ... of length
# 0-12 under the key 00 01 .. 0f, as UUIDv47's tests.c checks them: the 8 bytes of each tag, little-endian
SIPHASH_KEY = bytes(range(16))
SIPHASH_TAGS = [
    "310e0edd47db6f72",
    "fd67dc93c539f874",
    "5a4fa9d909806c0d",
    "2d7efbd796666785",
    "b7877127e09427cf",
    "8da699cd64557618",
    "cee3fe586e46c9cb",
    "37d1018bf50002ab",
    "6224939a79f5f593",
    "b0e4a90bdf82009e",
    "f3b9dd94c5bb5d7a",
    "a7ad6b22462fb3f4",
    "fbe50e86bc8f1e75",
]
KEY = bytes.fromhex("efcdab89674523011032547698badcfe")


@pytest.mark.parametrize("length", range(len(SIPHASH_TAGS)))
def test_siphash_published_tags(length: int) -> None:
    tag = siphash24(bytes(range(length)), SIPHASH_KEY)
    assert tag.to_bytes(8, "little").hex() == SIPHASH_TAGS[length]


RAND_B = (1 << 62) - 1
RAND_A_AND_B = ((1 << 76) - 1) & ~(0b11 << 62)


def test_round_trip_keeps_random_bits_and_hides_time() -> None:
    rng = random.Random(7)
    for _ in range(500):
        v7 = sequuid.uuid7_at(rng.randrange(0, 1 << 48) * 1000 + rng.randrange(1000))
        public = sequuid.v7_to_public(v7, KEY)
        assert public.version == 4 and public.variant == "specified in RFC 4122"
        assert public.int & RAND_B == v7.int & RAND_B
        assert sequuid.public_to_v7(public, KEY) == v7
        uuidv47 = sequuid.v7_to_uuidv47(v7, KEY)
        assert uuidv47.version == 4 and uuidv47.int & RAND_A_AND_B == v7.int & RAND_A_AND_B
        assert sequuid.uuidv47_to_v7(uuidv47, KEY) == v7


def test_wrong_key_gives_another_v7_without_error() -> None:
    v7 = UUID("018f2d9f-9a2a-7def-8c3f-7b1a2c4d5e6f")
    public = sequuid.v7_to_public(v7, KEY)
    other = sequuid.public_to_v7(public, bytes(16))
    assert other != v7 and other.version == 7 and other.int & RAND_B == v7.int & RAND_B


def _rises_per_group(ids: list[UUID]) -> list[int]:
    """For each 16-bit group of the uuids, in how many consecutive pairs the later one is larger."""
    groups = [[(u.int >> (112 - 16 * g)) & 0xFFFF for u in ids] for g in range(8)]
    return [sum(b > a for a, b in itertools.pairwise(values)) for values in groups]


def test_facades_of_consecutive_ids_rise_no_more_often_than_chance() -> None:
    """1000 consecutive ``uuid7()`` ids, whose rand_a rises within a millisecond: every 16-bit group of
    their public ids rises in 999 pairs about as often as random values do, within five binomial standard
    deviations of 499.5 (a random v4 misses that once in millions; a rising field never meets it).  UUIDv47's
    façades keep the rising fraction and miss it, as the raw v7s do: the count can fail."""
    ids = [sequuid.uuid7() for _ in range(1000)]
    pairs = len(ids) - 1
    bound = 5 * pairs**0.5 / 2

    def within_chance(rises: list[int]) -> list[bool]:
        return [abs(r - pairs / 2) <= bound for r in rises]

    assert all(within_chance(_rises_per_group([sequuid.v7_to_public(u, KEY) for u in ids])))
    assert not all(within_chance(_rises_per_group(ids)))
    # the fraction of ids made within one millisecond rises with them: UUIDv47's fourth group shows it
    same_ms = [sequuid.uuid7_at(1_733_000_000_000_000 + us) for us in range(0, 1000, 5)]
    rises = _rises_per_group([sequuid.v7_to_uuidv47(u, KEY) for u in same_ms])
    assert rises[3] == len(same_ms) - 1
    rises = _rises_per_group([sequuid.v7_to_public(u, KEY) for u in same_ms])
    assert abs(rises[3] - (len(same_ms) - 1) / 2) <= 5 * (len(same_ms) - 1) ** 0.5 / 2


def test_a_facade_changed_in_one_bit_decodes_to_an_unrelated_time() -> None:
    """A keyed permutation, not an XOR: flipping a façade's bit does not flip the decoded time's same bit."""
    v7 = UUID("018f2d9f-9a2a-7def-8c3f-7b1a2c4d5e6f")
    public = sequuid.v7_to_public(v7, KEY)
    changed = [
        (sequuid.public_to_v7(UUID(int=public.int ^ (1 << bit)), KEY).int ^ v7.int) >> 64
        for bit in range(80, 128)
    ]
    assert all(bin(difference).count("1") > 4 for difference in changed)
    uuidv47 = sequuid.v7_to_uuidv47(v7, KEY)
    flipped = sequuid.uuidv47_to_v7(UUID(int=uuidv47.int ^ (1 << 100)), KEY)
    assert flipped.int ^ v7.int == 1 << 100


def test_arguments_of_the_wrong_type() -> None:
    with pytest.raises(TypeError, match='"key"'):
        sequuid.v7_to_public(UUID("018f2d9f-9a2a-7def-8c3f-7b1a2c4d5e6f"), KEY.hex())  # type: ignore[arg-type]
    with pytest.raises(TypeError, match='"id"'):
        sequuid.public_to_v7("2463c780-7fca-4def-8c3f-7b1a2c4d5e6f", KEY)  # type: ignore[arg-type]


def test_key_length_and_direction_errors() -> None:
    with pytest.raises(ValueError, match='"key" must be 16 bytes, not 15'):
        sequuid.v7_to_public(UUID("018f2d9f-9a2a-7def-8c3f-7b1a2c4d5e6f"), KEY[:15])
    with pytest.raises(ValueError, match="version 7 uuid, not a public id"):
        sequuid.public_to_v7(UUID("018f2d9f-9a2a-7def-8c3f-7b1a2c4d5e6f"), KEY)
    with pytest.raises(ValueError, match="of uuidv47_to_v7 is a version 7 uuid"):
        sequuid.uuidv47_to_v7(UUID("018f2d9f-9a2a-7def-8c3f-7b1a2c4d5e6f"), KEY)
