"""Public ids without a server: SipHash-2-4 against its published tags, the round trip, the arguments.

The mapping's published cases (UUIDv47's and the layouts') are in the shared vectors (test_vectors.py).
"""

from __future__ import annotations

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


def test_round_trip_keeps_random_bits_and_hides_time() -> None:
    rng = random.Random(7)
    for _ in range(500):
        v7 = sequuid.uuid7_at(rng.randrange(0, 1 << 48) * 1000)
        public = sequuid.v7_to_public(v7, KEY)
        assert public.version == 4 and public.variant == "specified in RFC 4122"
        assert public.int & ((1 << 76) - 1) & ~(0b11 << 62) == v7.int & ((1 << 76) - 1) & ~(0b11 << 62)
        assert sequuid.public_to_v7(public, KEY) == v7


def test_wrong_key_gives_another_v7_without_error() -> None:
    v7 = UUID("018f2d9f-9a2a-7def-8c3f-7b1a2c4d5e6f")
    public = sequuid.v7_to_public(v7, KEY)
    other = sequuid.public_to_v7(public, bytes(16))
    assert other != v7 and other.version == 7 and other.int & ((1 << 80) - 1) == v7.int & ((1 << 80) - 1)


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
