"""The layouts, bit by bit, against RFC 9562's vectors and the extension's documented examples."""

from __future__ import annotations

import itertools
import random
import uuid
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any
from uuid import UUID
from zoneinfo import ZoneInfo

import pytest

import sequuid
from sequuid import _read

RFC_V1 = UUID("C232AB00-9414-11EC-B3C8-9F6BDECED846")
RFC_V6 = UUID("1EC9414C-232A-6B00-B3C8-9F6BDECED846")
RFC_V7 = UUID("017F22E2-79B0-7CC3-98C4-DC0C0C07398F")
RFC_INSTANT = datetime(2022, 2, 22, 19, 22, 22, tzinfo=UTC)


def test_rfc_vectors_read_as_postgresql_reads_them() -> None:
    assert sequuid.timestamp(RFC_V1) == RFC_INSTANT
    assert sequuid.timestamp(RFC_V6) == RFC_INSTANT
    # the extension reads the fraction too: 0xCC3 of 4096 of a millisecond, to the microsecond
    assert sequuid.timestamp(RFC_V7) == RFC_INSTANT + timedelta(microseconds=797)
    assert sequuid.ulid_timestamp(RFC_V7) == RFC_INSTANT
    assert [sequuid.version(u) for u in (RFC_V1, RFC_V6, RFC_V7)] == [1, 6, 7]
    assert sequuid.variant(RFC_V7) == 2


def test_v1_v6_move_only_the_time() -> None:
    assert sequuid.v1_to_v6(RFC_V1) == RFC_V6
    assert sequuid.v6_to_v1(RFC_V6) == RFC_V1
    for _ in range(2000):
        v1 = sequuid.uuid1_random_node()
        assert sequuid.v6_to_v1(sequuid.v1_to_v6(v1)) == v1
        assert sequuid.timestamp(sequuid.v1_to_v6(v1)) == sequuid.timestamp(v1)


def test_generated_layouts_carry_version_variant_and_the_time() -> None:
    before = datetime.now(UTC) - timedelta(milliseconds=1)
    made = {
        7: sequuid.uuid7(),
        6: sequuid.uuid6(),
        1: sequuid.uuid1_random_node(),
    }
    after = datetime.now(UTC) + timedelta(milliseconds=1)
    for expected_version, made_id in made.items():
        assert sequuid.version(made_id) == expected_version
        assert sequuid.variant(made_id) == 2
        made_at = sequuid.timestamp(made_id)
        assert made_at is not None and before <= made_at <= after
    # the random node carries the multicast bit (RFC 9562 section 6.10)
    assert made[6].bytes[10] & 1 and made[1].bytes[10] & 1
    ulid = sequuid.ulid()
    assert before <= sequuid.ulid_timestamp(ulid) <= after
    for stripes in (1, 16, 256):
        key = sequuid.striped(stripes, 3)
        assert sequuid.version(key) == 8 and sequuid.variant(key) == 2


def test_uuid7_at_inverts_timestamp_for_every_microsecond() -> None:
    rng = random.Random(7)
    for _ in range(5000):
        unix_us = rng.randrange(0, (1 << 48) * 1000)
        made = sequuid.uuid7_at(unix_us)
        assert sequuid.timestamp_us(made) == unix_us
        assert sequuid.v7_boundary(unix_us) <= made
        assert made.int >> 80 == unix_us // 1000
    zero = sequuid.uuid7_at(datetime(2023, 1, 2, 4, 26, 40, 637000, tzinfo=UTC), zero=True)
    assert zero == UUID("018570bb-4a7d-7000-8000-000000000000")
    # the same instant in another zone is the same key
    assert (
        sequuid.uuid7_at(datetime(2023, 1, 2, 5, 26, 40, 637000, tzinfo=ZoneInfo("Europe/Paris")), zero=True)
        == zero
    )


def test_a_naive_datetime_is_refused_naming_the_argument() -> None:
    naive = datetime(2023, 1, 2, 4, 26, 40)
    aware = naive.replace(tzinfo=UTC)
    calls: list[tuple[str, Callable[[], object]]] = [
        ("instant", lambda: sequuid.uuid7_at(naive)),
        ("instant", lambda: sequuid.v7_boundary(naive)),
        ("instant", lambda: sequuid.lower_bound("ulid", naive)),
        ("from_time", lambda: sequuid.time_range("v7", naive, aware)),
        ("to_time", lambda: sequuid.time_range("v7", aware, naive)),
        ("from_time", lambda: sequuid.striped_ranges(4, naive, aware)),
        ("start", lambda: sequuid.time_partitions("v7", naive, timedelta(days=1), 2)),
        ("at", lambda: sequuid.time_prefixed(at=naive)),
    ]
    for name, call in calls:
        with pytest.raises(ValueError, match=f'argument "{name}" is a naive datetime'):
            call()


def test_shift_moves_the_time() -> None:
    shifted = sequuid.uuid7(timedelta(days=-1))
    made_at = sequuid.timestamp(shifted)
    assert made_at is not None
    assert abs(made_at - (datetime.now(UTC) - timedelta(days=1))) < timedelta(seconds=5)
    with pytest.raises(ValueError, match='argument "shift"'):
        sequuid.uuid7(timedelta(days=-30000))
    with pytest.raises(TypeError, match='argument "shift"'):
        sequuid.uuid7(5)  # type: ignore[arg-type]


def test_range_ends() -> None:
    last = sequuid.uuid7_at((1 << 48) * 1000 - 1)
    assert sequuid.timestamp_us(last) == (1 << 48) * 1000 - 1
    with pytest.raises(ValueError, match="past year 9999"):
        sequuid.timestamp(last)
    with pytest.raises(ValueError, match='argument "instant" is out of the UUIDv7 range'):
        sequuid.uuid7_at((1 << 48) * 1000)
    with pytest.raises(ValueError, match='argument "instant" is out of the UUIDv7 range'):
        sequuid.uuid7_at(-1)
    assert sequuid.lower_bound("v6", datetime(1582, 10, 15, tzinfo=UTC)) == UUID(
        "00000000-0000-6000-8000-000000000000"
    )
    with pytest.raises(ValueError, match="out of the UUIDv6 range"):
        sequuid.lower_bound("v6", datetime(1582, 10, 14, 23, 59, 59, 999999, tzinfo=UTC))


def test_time_range_bounds_hold_the_keys_of_the_range() -> None:
    start = datetime.now(UTC)
    made = [sequuid.uuid7() for _ in range(100)], [sequuid.ulid() for _ in range(100)]
    made_v6 = [sequuid.uuid6() for _ in range(100)]
    end = datetime.now(UTC) + timedelta(milliseconds=1)
    for kind, keys in (("v7", made[0]), ("ulid", made[1]), ("v6", made_v6)):
        lower, upper = sequuid.time_range(kind, start - timedelta(milliseconds=1), end)
        assert all(lower <= key < upper for key in keys), kind
    with pytest.raises(ValueError, match='argument "kind" must name a time-ordered key layout, not "v1"'):
        sequuid.time_range("v1", start, end)
    with pytest.raises(ValueError, match='"from_time" of time_range must not be later'):
        sequuid.time_range("v7", end, start)


def test_partitions_tile_the_keys() -> None:
    start = datetime(2025, 1, 1, tzinfo=UTC)
    ranges = sequuid.time_partitions("v7", start, timedelta(hours=24), 3)
    assert [r.range_start for r in ranges] == [1735689600000000 + i * 86400000000 for i in range(3)]
    assert all(a.upper == b.lower for a, b in itertools.pairwise(ranges))
    assert ranges[0].lower == sequuid.v7_boundary(start)
    with pytest.raises(ValueError, match='argument "count" must be between 1 and 100000, not 0'):
        sequuid.time_partitions("v7", start, timedelta(hours=1), 0)
    with pytest.raises(ValueError, match='argument "step" must be positive'):
        sequuid.time_partitions("v7", start, timedelta(0), 1)


def test_sequence_prefix_is_sequential_uuids_1_0_3s() -> None:
    # block_size 100, block_count 100: a one-byte prefix, 10,000 // 256 = 39 values per block
    prefixes = [sequuid.sequence_prefixed(value, 100, 100).bytes[0] for value in range(1, 80)]
    assert prefixes == [0] * 39 + [1] * 39 + [2]
    # the defaults: a 16-bit prefix, 65,536 values per block, wrapping after 2**32 values
    assert sequuid.sequence_prefixed(1).bytes[:2] == b"\x00\x00"
    assert sequuid.sequence_prefixed(65537).bytes[:2] == b"\x00\x01"
    assert sequuid.sequence_prefixed(2**32 + 1).bytes[:2] == b"\x00\x00"
    # rounded down at and below zero, so every block is as long
    assert sequuid.sequence_prefixed(0, 100, 100).bytes[0] == 255
    assert sequuid.sequence_prefixed(-(1 << 63), 1, 256).bytes[0] == 255
    made = sequuid.sequence_prefixed(5)
    assert sequuid.version(made) == 8 and sequuid.variant(made) == 2
    with pytest.raises(ValueError, match=r'argument "block_size".*block size must be a positive integer'):
        sequuid.sequence_prefixed(1, 0)
    with pytest.raises(ValueError, match="number of blocks must be a positive integer"):
        sequuid.sequence_prefixed(1, 1, 0)
    with pytest.raises(TypeError, match='argument "value" must be an int'):
        sequuid.sequence_prefixed("1")  # type: ignore[arg-type]


def test_time_prefix_counts_intervals_of_the_unix_second() -> None:
    at = datetime(2025, 1, 1, tzinfo=UTC)
    unix_s = int(at.timestamp())
    assert sequuid.time_prefixed(at=at).bytes[:2] == ((unix_s // 60) % 65536).to_bytes(2, "big")
    with pytest.raises(ValueError, match="length of interval must be a positive integer"):
        sequuid.time_prefixed(0)
    with pytest.raises(ValueError, match="number of intervals must be a positive integer"):
        sequuid.time_prefixed(60, -1)


def test_striped_keys_sort_by_stripe_then_time() -> None:
    start = datetime.now(UTC)
    keys = {stripe: [sequuid.striped(16, stripe) for _ in range(50)] for stripe in range(16)}
    end = datetime.now(UTC) + timedelta(milliseconds=1)
    for stripe, lower, upper in sequuid.striped_ranges(16, start - timedelta(milliseconds=1), end):
        assert keys[stripe] == sorted(keys[stripe])
        assert all(lower <= key < upper for key in keys[stripe])
        assert keys[stripe][0].bytes[0] >> 4 == stripe
    # one stripe is v7's layout under version 8
    before = datetime.now(UTC) - timedelta(milliseconds=1)
    one_stripe = sequuid.striped(1, 0)
    after = datetime.now(UTC) + timedelta(milliseconds=1)
    as_v7 = UUID(int=one_stripe.int & ~(0xF << 76) | (7 << 76))
    made_at = sequuid.timestamp(as_v7)
    assert made_at is not None and before <= made_at <= after
    with pytest.raises(ValueError, match='argument "stripes" must be between 1 and 256, not 0'):
        sequuid.striped(0)
    with pytest.raises(ValueError, match='argument "stripe" must be at least 0'):
        sequuid.striped(4, -1)


def test_ulid_text() -> None:
    assert sequuid.uuid_to_ulid(UUID("018570bb-4a7d-7c7e-8df4-6d47afd8c8fc")) == "01GNRBPJKXFHZ8VX3D8YQXHJ7W"
    assert sequuid.ulid_to_uuid("01gnrbpjkxfhz8vx3d8yqxhj7w") == UUID("018570bb-4a7d-7c7e-8df4-6d47afd8c8fc")
    assert sequuid.ulid_to_uuid("7" + "Z" * 25) == UUID(int=(1 << 128) - 1)
    assert sequuid.ulid_to_uuid("0I" + "0" * 24) == sequuid.ulid_to_uuid("0L" + "O" * 24)
    for bad, reason in (
        ("0" * 25, "26 characters"),
        ("U" + "0" * 25, "except U"),
        ("8" + "0" * 25, "largest"),
    ):
        with pytest.raises(ValueError, match=reason):
            sequuid.ulid_to_uuid(bad)
    made = [sequuid.ulid() for _ in range(1000)]
    assert sorted(made) == made
    assert sorted(map(sequuid.uuid_to_ulid, made)) == list(map(sequuid.uuid_to_ulid, made))


def test_base32hex_text() -> None:
    example = UUID("019535d9-3df7-79fb-b466-fa907fa17f9e")
    assert sequuid.uuid_to_base32hex(example) == "06AJBM9TUTSVND36VA87V8BVJO"
    assert sequuid.uuid_from_base32hex("06AJBM9TUTSVND36VA87V8BVJO") == example
    # one spelling per uuid: case, padding, whitespace and bits past the 128th other than zero are refused
    for other_spelling in (
        "06ajbm9tutsvnd36va87v8bvjo",
        "06AJBM9TUTSVND36VA87V8BVJo",
        "06AJBM9TUTSVND36VA87V8BVJO======",
        " 06AJBM9TUTSVND36VA87V8BVJO",
        "06AJBM9T\tUTSVND36VA87V8BVJ",
    ):
        with pytest.raises(ValueError, match="invalid base32hex text"):
            sequuid.uuid_from_base32hex(other_spelling)
    for trailing_bits in ("06AJBM9TUTSVND36VA87V8BVJR", "06AJBM9TUTSVND36VA87V8BVJP", "V" * 26):
        with pytest.raises(ValueError, match="past the 128th are not zero"):
            sequuid.uuid_from_base32hex(trailing_bits)
    for bad in ("06AJBM9TUTSVND36VA87V8BVJ", "06AJBM9TUTSVND36VA87V8BVJW", "06AJBM9TUTSVND36VA87V8BV==JO"):
        with pytest.raises(ValueError, match="invalid base32hex text"):
            sequuid.uuid_from_base32hex(bad)
    # byte-wise order of the text is uuid order
    rng = random.Random(32)
    ids = [UUID(int=rng.getrandbits(128)) for _ in range(2000)] + [sequuid.uuid7() for _ in range(2000)]
    assert sorted(ids, key=sequuid.uuid_to_base32hex) == sorted(ids)
    for made_id in ids[:200]:
        assert sequuid.uuid_from_base32hex(sequuid.uuid_to_base32hex(made_id)) == made_id


def test_a_long_bad_base32hex_text_is_refused_at_once_with_a_short_message(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    looked_up: list[str] = []

    class CountingDigits(dict[str, int]):
        def get(self, key: str, default: Any = None) -> Any:
            looked_up.append(key)
            return super().get(key, default)

    monkeypatch.setattr(_read, "_CANONICAL_VALUES", CountingDigits(_read._CANONICAL_VALUES))
    for huge in ("0" * 1_000_000, "-" * 1_000_000, "06AJBM9TUTSVND36VA87V8BVJO" + "=" * 10 + "x" * 1_000_000):
        with pytest.raises(ValueError, match="invalid base32hex text of a uuid") as refused:
            sequuid.uuid_from_base32hex(huge)
        # refused on its length before a digit is decoded, quoting a few characters, not a megabyte
        assert not looked_up
        assert len(str(refused.value)) < 200
        assert "1,000,0" in str(refused.value)
    # characters outside the alphabet that some collations upper-case into digits are refused as they are
    for char in ("\u0131", "\u017f", "\u00df"):
        with pytest.raises(ValueError, match="the character"):
            sequuid.uuid_from_base32hex("06AJBM9TUTSVND36VA87V8BVJ" + char)


@pytest.mark.parametrize(
    "call",
    [
        lambda: sequuid.timestamp("not a uuid"),  # type: ignore[arg-type]
        lambda: sequuid.version(b"0" * 16),  # type: ignore[arg-type]
        lambda: sequuid.uuid_to_ulid(123),  # type: ignore[arg-type]
        lambda: sequuid.ulid_to_uuid(123),  # type: ignore[arg-type]
        lambda: sequuid.uuid7_at(1.5),  # type: ignore[arg-type]
        lambda: sequuid.striped("4"),  # type: ignore[arg-type]
        lambda: sequuid.time_range(7, 0, 1),  # type: ignore[arg-type]
    ],
)
def test_wrong_types_raise_type_error_naming_the_argument(call: object) -> None:
    assert callable(call)
    with pytest.raises(TypeError, match='argument "'):
        call()


def test_conversions_name_the_found_version() -> None:
    with pytest.raises(ValueError, match="must be a version 1 UUID, found version 4"):
        sequuid.v1_to_v6(uuid.uuid4())
    with pytest.raises(ValueError, match="found variant 0"):
        sequuid.v6_to_v1(UUID(int=0))
