"""Where every bit of every sequuid layout goes, as pure functions on 128-bit integers.

The C extension (sequuid/src/uuid_layout.h) works on the 16 bytes of a uuid; here the same bytes are one
big-endian integer, the value ``uuid.UUID.int`` holds, so byte 0 is bits 120-127 and byte 15 bits 0-7.
"""

from __future__ import annotations

from collections.abc import Callable

NS_PER_S = 1_000_000_000
NS_PER_MS = 1_000_000
NS_PER_US = 1_000
US_PER_MS = 1_000
US_PER_S = 1_000_000

# Just over 1 ms / 4096, the unit of the v7 fraction, and over 100 ns, the v1/v6 unit: successive
# timestamps of the ascending clock differ in every layout.
MINIMAL_STEP_NS = 245

SUBMS_BITS = 12
UNIX_MS_MAX = (1 << 48) - 1
UNIX_MS_LAST_US = UNIX_MS_MAX * US_PER_MS + US_PER_MS - 1
V6_TIMESTAMP_MAX = (1 << 60) - 1
# 100-ns intervals from the Gregorian epoch of v1/v6 (1582-10-15) to the Unix epoch
GREGORIAN_TO_UNIX_100NS = 0x01B21DD213814000
V6_FIRST_US = -(GREGORIAN_TO_UNIX_100NS // 10)
V6_LAST_US = (V6_TIMESTAMP_MAX - GREGORIAN_TO_UNIX_100NS) // 10

VARIANT_RFC9562 = 0x2
VARIANT_MASK = 0xC000_0000_0000_0000
VARIANT_BITS = 0x8000_0000_0000_0000
VERSION_SHIFT = 76
VERSION_MASK = 0xF << VERSION_SHIFT
LOW62 = (1 << 62) - 1
LOW64 = (1 << 64) - 1
# the least significant bit of the first node octet (octet 10): RFC 9562 section 6.10's random node
MULTICAST_BIT = 1 << 40

STRIPES_MAX = 256


def with_version(value: int, version: int) -> int:
    """Set the version nibble (bits 76-79) and the variant 10 (bits 62-63)."""
    return (value & ~VERSION_MASK & ~VARIANT_MASK) | (version << VERSION_SHIFT) | VARIANT_BITS


def fraction_from_ns(sub_ms_ns: int) -> int:
    """Nanoseconds within a millisecond to PostgreSQL 18's 12-bit fraction."""
    return (sub_ms_ns << SUBMS_BITS) // NS_PER_MS


def ns_from_fraction(fraction: int) -> int:
    """The first nanosecond within the millisecond that a 12-bit fraction covers."""
    return (fraction * NS_PER_MS + (1 << SUBMS_BITS) - 1) >> SUBMS_BITS


def time_48_12(high48: int, low12: int) -> int:
    """v7 and v6 share one shape: 48 bits in octets 0-5, 12 below the version nibble."""
    return (high48 << 80) | (low12 << 64)


def v7_time(unix_ms: int, fraction: int) -> int:
    return (unix_ms << 80) | (fraction << 64)


def v6_time(gregorian_100ns: int) -> int:
    return ((gregorian_100ns >> 12) << 80) | ((gregorian_100ns & 0xFFF) << 64)


def v1_time(gregorian_100ns: int) -> int:
    """time_low in octets 0-3, time_mid in 4-5, time_high below the version nibble."""
    time_low = gregorian_100ns & 0xFFFF_FFFF
    time_mid = (gregorian_100ns >> 32) & 0xFFFF
    time_high = (gregorian_100ns >> 48) & 0xFFF
    return (time_low << 96) | (time_mid << 80) | (time_high << 64)


def unix_ms_of(value: int) -> int:
    return value >> 80


def time_low12_of(value: int) -> int:
    return (value >> 64) & 0xFFF


def v6_time_of(value: int) -> int:
    return ((value >> 80) << 12) | time_low12_of(value)


def v1_time_of(value: int) -> int:
    time_low = (value >> 96) & 0xFFFF_FFFF
    time_mid = (value >> 80) & 0xFFFF
    return time_low | (time_mid << 32) | (time_low12_of(value) << 48)


def version_field_of(value: int) -> int:
    return (value >> VERSION_SHIFT) & 0xF


def variant_field_of(value: int) -> int:
    """RFC 9562 Table 1's variant: 0 (0xx, NCS), 2 (10x), 6 (110, Microsoft) or 7 (111, reserved)."""
    octet8 = (value >> 56) & 0xFF
    if not octet8 & 0x80:
        return 0
    if not octet8 & 0x40:
        return VARIANT_RFC9562
    return octet8 >> 5


def rfc_version_of(value: int) -> int | None:
    if (value >> 62) & 0x3 != VARIANT_RFC9562:
        return None
    return version_field_of(value)


def gregorian_100ns_from_unix_us(unix_us: int) -> int:
    return unix_us * 10 + GREGORIAN_TO_UNIX_100NS


def unix_us_from_gregorian_100ns(gregorian_100ns: int) -> int:
    """Truncated to the microsecond, as uuid_timestamp() reads v1 and v6."""
    return gregorian_100ns // 10 - GREGORIAN_TO_UNIX_100NS // 10


def v7_unix_us_of(value: int) -> int:
    """The last microsecond that starts inside the fraction's 244-ns range: exact for microsecond instants."""
    last_ns = ns_from_fraction(time_low12_of(value) + 1) - 1
    return unix_ms_of(value) * US_PER_MS + last_ns // NS_PER_US


def v7_lower_bound(unix_us: int) -> int:
    unix_ms, sub_ms_us = divmod(unix_us, US_PER_MS)
    return with_version(v7_time(unix_ms, fraction_from_ns(sub_ms_us * NS_PER_US)), 7)


def ulid_lower_bound(unix_us: int) -> int:
    return (unix_us // US_PER_MS) << 80


def v6_lower_bound(unix_us: int) -> int:
    return with_version(v6_time(gregorian_100ns_from_unix_us(unix_us)), 6)


def prefix_bits(count: int) -> int:
    """ceil(log2(count)): the width that holds 0 .. count - 1."""
    return (count - 1).bit_length()


def whole_byte_prefix_bits(block_count: int) -> int:
    """sequential-uuids 1.0.3: ceil(log2(block_count)), at least 1, rounded up to whole bytes."""
    return (prefix_bits(max(block_count, 2)) + 7) // 8 * 8


def rescaled_block_size(block_size: int, block_count: int, bits: int) -> int:
    return max(1, (block_size * block_count) >> bits)


def with_prefix(value: int, prefix: int, bits: int) -> int:
    """The block number, big-endian, in the leading bits; the rest of the value is kept."""
    shift = 128 - bits
    return (value & ((1 << shift) - 1)) | (prefix << shift)


def striped(stripe: int, stripe_bits: int, unix_ms: int, fraction: int, low_random: int) -> int:
    """Stripe, then v7's 60 time bits, flowing around the version nibble and the variant.

    The first 60 bits of stripe and time fill octets 0-5 and the 12 bits below the version nibble; the
    time's last stripe_bits bits lead the 62 bits after the variant; random bits fill the rest.  Version and
    variant are left for with_version().
    """
    time60 = (unix_ms << SUBMS_BITS) | fraction
    head = (stripe << (60 - stripe_bits)) | (time60 >> stripe_bits)
    spilled = time60 & ((1 << stripe_bits) - 1)
    tail = (spilled << (62 - stripe_bits)) | (low_random & ((1 << (62 - stripe_bits)) - 1))
    return time_48_12(head >> 12, head & 0xFFF) | tail


class TimeRange:
    """The instants a time-ordered layout holds, and its lower bound of an instant."""

    __slots__ = ("first_us", "kind", "last_us", "lower_bound", "name", "text")

    def __init__(
        self, kind: str, name: str, first_us: int, last_us: int, text: str, lower_bound: LowerBound
    ) -> None:
        self.kind = kind
        self.name = name
        self.first_us = first_us
        self.last_us = last_us
        self.text = text
        self.lower_bound = lower_bound


LowerBound = Callable[[int], int]

V7_RANGE = TimeRange(
    "v7", "UUIDv7", 0, UNIX_MS_LAST_US,
    "1970-01-01 00:00:00 UTC to 10889-08-02 05:31:50.655999 UTC", v7_lower_bound,
)  # fmt: skip
ULID_RANGE = TimeRange(
    "ulid", "ULID", 0, UNIX_MS_LAST_US,
    "1970-01-01 00:00:00 UTC to 10889-08-02 05:31:50.655999 UTC", ulid_lower_bound,
)  # fmt: skip
V6_RANGE = TimeRange(
    "v6", "UUIDv6", V6_FIRST_US, V6_LAST_US,
    "1582-10-15 00:00:00 UTC to 5236-03-31 21:21:00.684697 UTC", v6_lower_bound,
)  # fmt: skip
TIME_RANGES = {layout.kind: layout for layout in (V7_RANGE, ULID_RANGE, V6_RANGE)}
