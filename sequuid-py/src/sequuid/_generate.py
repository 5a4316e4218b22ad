"""The generators: one ascending clock per process, random bits from os.urandom in chunks, fork-safe.

Fork-safe whatever forks: every call compares os.getpid() with the process that owns the state, as the C
extension compares its owner's pid, so a child forked without Python's at-fork hooks (fork() called from C:
uWSGI without py-call-osafterfork, an embedding application) never hands out its parent's random words or
goes on from its parent's ULID.  The hooks, where the platform has fork, also keep the lock consistent.
"""

from __future__ import annotations

import os
import struct
import threading
import time
import uuid
from datetime import timedelta
from uuid import UUID
from zoneinfo import ZoneInfo

from sequuid import _calendar as calendar
from sequuid import _layout as layout
from sequuid._args import Instant, check_int, check_stripes, instant_unix_us, interval_of, unix_us_of
from sequuid._calendar import Interval

_time_ns = time.time_ns
_urandom = os.urandom
_getpid = os.getpid

# One urandom() call per 1,024 values instead of one per value: the system call costs more than the rest of
# a v7.  Every value is handed out once; a forked child throws the rest away (_adopt_forked_state).
_RANDOM_WORDS = 1024
_unpack_words = struct.Struct(f">{_RANDOM_WORDS}Q").unpack
_random_words: list[int] = []
_pop_random = _random_words.pop

_lock = threading.Lock()
_previous_ns = 0
_previous_ulid_ms = -1
_previous_ulid_random = 0
_ulid_forked = False
_owner_pid = _getpid()

_new_uuid = object.__new__
_set_field = object.__setattr__
_SAFE_UNKNOWN = uuid.SafeUUID.unknown


def _uuid_of(value: int) -> UUID:
    # UUID(int=...) checks the range and builds a keyword dict on every call; these values are in range.
    result = _new_uuid(UUID)
    _set_field(result, "int", value)
    _set_field(result, "is_safe", _SAFE_UNKNOWN)
    return result


def _refill_random() -> None:
    _random_words.extend(_unpack_words(_urandom(8 * _RANDOM_WORDS)))


def _adopt_forked_state() -> None:
    """The first call in a forked child, the caller holding _lock.

    The child keeps the clock and the last ULID (its values stay above everything the parent made before
    the fork) but never the parent's random words, which the parent goes on handing out, and its next ULID
    leaps away from the parent's (ulid()).
    """
    global _owner_pid, _ulid_forked
    _owner_pid = _getpid()
    _random_words.clear()
    _ulid_forked = True


def _check_owner() -> None:
    """The caller holds _lock; a process that did not make the state adopts it first."""
    if _getpid() != _owner_pid:
        _adopt_forked_state()


def _random64() -> int:
    """64 fresh random bits; the caller holds _lock."""
    try:
        return _pop_random()
    except IndexError:
        _refill_random()
        return _pop_random()


def _random80() -> int:
    return ((_random64() << 16) | (_random64() & 0xFFFF)) & ((1 << 80) - 1)


def _ascending_ns() -> int:
    """Unix ns, at least 245 ns above the previous result in this process (PostgreSQL 18's rule).

    The caller holds _lock.
    """
    global _previous_ns
    now_ns = _time_ns()
    floor_ns = _previous_ns + layout.MINIMAL_STEP_NS
    if now_ns < floor_ns:
        now_ns = floor_ns
    _previous_ns = now_ns
    return now_ns


def uuid7(shift: timedelta | Interval | None = None, *, time_zone: str = "UTC") -> UUID:
    """A UUIDv7 as PostgreSQL 18 makes it, strictly increasing within the process.

    48-bit Unix milliseconds, version 7, the 12-bit fraction of the millisecond, variant 10, 62 random bits.
    The time is the clock, or the previous value's plus 245 ns when the clock has not moved past it (calls
    faster than its ticks, a clock stepped back), across threads and in a forked child alike.  With
    ``shift``, that time moved like ``uuid_generate_v7(shift)`` moves it: an ``Interval``'s months and days
    on the calendar of ``time_zone`` (the extension: the session's TimeZone), a timedelta as exact time.
    """
    if shift is not None:
        return _uuid7_shifted(shift, time_zone)
    global _previous_ns
    with _lock:
        # _check_owner(), _ascending_ns() and _random64() inlined: a call costs as much as the rest of a v7
        if _getpid() != _owner_pid:
            _adopt_forked_state()
        now_ns = _time_ns()
        floor_ns = _previous_ns + 245
        if now_ns < floor_ns:
            now_ns = floor_ns
        _previous_ns = now_ns
        try:
            random_bits = _pop_random()
        except IndexError:
            _refill_random()
            random_bits = _pop_random()
    unix_ms, sub_ms_ns = divmod(now_ns, 1_000_000)
    return _uuid_of(
        (unix_ms << 80)
        | 0x7000_0000_0000_0000_0000
        | (((sub_ms_ns << 12) // 1_000_000) << 64)
        | 0x8000_0000_0000_0000
        | (random_bits & 0x3FFF_FFFF_FFFF_FFFF)
    )


def _uuid7_shifted(shift: timedelta | Interval, time_zone: str) -> UUID:
    interval = interval_of(shift, "shift")
    zone = calendar.zone_of(time_zone, "time_zone")
    with _lock:
        _check_owner()
        now_ns = _ascending_ns()
        random_bits = _random64()
    shifted_us = _shifted_unix_us(now_ns // layout.NS_PER_US, interval, zone)
    # the shifted microsecond, and the clock's nanoseconds below it, as the extension keeps them
    unix_ms, sub_ms_us = divmod(shifted_us, layout.US_PER_MS)
    sub_ms_ns = sub_ms_us * layout.NS_PER_US + now_ns % layout.NS_PER_US
    time_bits = layout.v7_time(unix_ms, layout.fraction_from_ns(sub_ms_ns))
    return _uuid_of(layout.with_version(time_bits | random_bits, 7))


def _shifted_unix_us(unix_us: int, interval: Interval, zone: ZoneInfo) -> int:
    try:
        shifted_us = calendar.add_interval(unix_us, interval, zone)
    except (OverflowError, ValueError):
        shifted_us = -1
    if not 0 <= shifted_us <= layout.UNIX_MS_LAST_US:
        raise ValueError(
            'argument "shift" moves the timestamp outside the range of a UUIDv7 '
            "(1970-01-01 00:00:00 UTC to 10889-08-02 05:31:50.655999 UTC)"
        )
    return shifted_us


def uuid7_at(
    instant: Instant,
    *,
    zero: bool = False,
    shift: timedelta | Interval | None = None,
    time_zone: str = "UTC",
) -> UUID:
    """A UUIDv7 of an instant, like ``uuid_timestamptz_to_v7(instant, zero)``.

    The instant's microsecond as the millisecond and 12-bit fraction, and 62 random bits; with ``zero``,
    pg_uuidv7's boundary: the millisecond with every other bit zero.  With ``shift``, the instant moved
    first, as uuid7(shift) moves the clock.  An instant is an aware datetime (a naive one is refused), or an
    int of Unix microseconds (which reaches the v7 range's end in year 10889).  This form reads no clock and
    takes no part in uuid7()'s ascending order.
    """
    unix_us = instant_unix_us(instant, "instant", layout.V7_RANGE)
    if shift is not None:
        unix_us = _shifted_unix_us(
            unix_us, interval_of(shift, "shift"), calendar.zone_of(time_zone, "time_zone")
        )
    if zero:
        return _uuid_of(layout.v7_lower_bound(unix_us - unix_us % layout.US_PER_MS))
    with _lock:
        _check_owner()
        random_bits = _random64()
    return _uuid_of(layout.v7_lower_bound(unix_us) | (random_bits & layout.LOW62))


def _gregorian(version: int) -> UUID:
    with _lock:
        _check_owner()
        now_ns = _ascending_ns()
        random_bits = _random64()
    gregorian_100ns = now_ns // 100 + layout.GREGORIAN_TO_UNIX_100NS
    time_bits = layout.v6_time(gregorian_100ns) if version == 6 else layout.v1_time(gregorian_100ns)
    return _uuid_of(layout.with_version(time_bits | random_bits | layout.MULTICAST_BIT, version))


def uuid6() -> UUID:
    """RFC 9562 UUIDv6 like ``uuid_generate_v6()``: the 60-bit Gregorian 100-ns time, most significant first.

    Random clock_seq and a random node with the multicast bit set; the time comes from uuid7()'s ascending
    clock, so it strictly increases within the process.
    """
    return _gregorian(6)


def uuid1_random_node() -> UUID:
    """RFC 9562 UUIDv1 like ``uuid_generate_v1_random_node()``.

    uuid6()'s fields, its time least significant part first.
    """
    return _gregorian(1)


def ulid() -> UUID:
    """A ULID as the 16 bytes of a uuid, in the ULID spec's monotonic mode per process.

    A call in the same millisecond as the previous one (or an earlier one, after the clock stepped back)
    returns the previous value plus one; when the 80 random bits would overflow, the next millisecond with
    fresh random bits.  A forked child goes on from its parent's last value, by a random leap.
    ``uuid_to_ulid()`` writes it as text.
    """
    global _previous_ulid_ms, _previous_ulid_random, _ulid_forked
    with _lock:
        _check_owner()
        now_ms = max(_time_ns(), 0) // layout.NS_PER_MS
        if now_ms > _previous_ulid_ms:
            _previous_ulid_ms = now_ms
            _previous_ulid_random = _random80()
        else:
            # Plus one, as the spec says; the first value of a forked child instead leaps by up to 2**64, so
            # that it stays above what its parent made before the fork and never meets what the parent, going
            # on by ones from the same value, makes after it.
            step = 1 + _random64() if _ulid_forked else 1
            _previous_ulid_random += step
            if _previous_ulid_random >= 1 << 80:
                _previous_ulid_ms += 1
                _previous_ulid_random = _random80()
        _ulid_forked = False
        if _previous_ulid_ms > layout.UNIX_MS_MAX:
            raise OverflowError("the clock is past the last millisecond a ULID can hold")
        return _uuid_of((_previous_ulid_ms << 80) | _previous_ulid_random)


def _random128() -> int:
    with _lock:
        _check_owner()
        return (_random64() << 64) | _random64()


def sequence_prefixed(value: int, block_size: int = 65536, block_count: int = 65536) -> UUID:
    """``uuid_sequence_nextval(seq, block_size, block_count)`` for a sequence value the application holds.

    ``value`` is what ``nextval()`` returned.  sequential-uuids 1.0.3's layout: the block number
    ``(value - 1) // size mod 2**bits`` in the leading ``bits`` bits, version 8, the rest random.
    """
    check_int("value", value, -(1 << 63), (1 << 63) - 1)
    check_int("block_size", block_size, 1, (1 << 31) - 1, "block size must be a positive integer")
    check_int("block_count", block_count, 1, (1 << 31) - 1, "number of blocks must be a positive integer")
    bits = layout.whole_byte_prefix_bits(block_count)
    size = layout.rescaled_block_size(block_size, block_count, bits)
    block = ((value - 1) // size) % (1 << bits)
    return _uuid_of(layout.with_version(layout.with_prefix(_random128(), block, bits), 8))


def time_prefixed(
    interval_length: int = 60, interval_count: int = 65536, *, at: Instant | None = None
) -> UUID:
    """``uuid_time_nextval(interval_length, interval_count)``: the block number taken from the clock.

    The Unix second (of ``at``, or now) takes the place of the sequence value, ``interval_length`` that of
    the block size.
    """
    check_int(
        "interval_length", interval_length, 1, (1 << 31) - 1, "length of interval must be a positive integer"
    )
    check_int(
        "interval_count", interval_count, 1, (1 << 31) - 1, "number of intervals must be a positive integer"
    )
    unix_us = _time_ns() // layout.NS_PER_US if at is None else unix_us_of(at, "at")
    unix_s = unix_us // layout.US_PER_S
    bits = layout.whole_byte_prefix_bits(interval_count)
    block = (unix_s // layout.rescaled_block_size(interval_length, interval_count, bits)) % (1 << bits)
    return _uuid_of(layout.with_version(layout.with_prefix(_random128(), block, bits), 8))


def striped(stripes: int, stripe: int | None = None) -> UUID:
    """``uuid_generate_striped(stripes)``: a v8 key led by its stripe, then v7's time, then random bits.

    The extension takes the backend's number modulo ``stripes``; here ``stripe`` is the caller's worker
    number (its remainder modulo ``stripes`` is used), by default the process id.  Within a stripe, keys
    strictly increase in the process (uuid7()'s clock).
    """
    stripe_bits = check_stripes(stripes)
    if stripe is None:
        stripe = os.getpid()
    else:
        check_int("stripe", stripe, 0, None)
    with _lock:
        _check_owner()
        now_ns = _ascending_ns()
        random_bits = _random64()
    unix_ms, sub_ms_ns = divmod(now_ns, layout.NS_PER_MS)
    value = layout.striped(
        stripe % stripes, stripe_bits, unix_ms, layout.fraction_from_ns(sub_ms_ns), random_bits
    )
    return _uuid_of(layout.with_version(value, 8))


def _before_fork() -> None:
    _lock.acquire()


def _after_fork_in_parent() -> None:
    _lock.release()


def _after_fork_in_child() -> None:
    # A fresh lock: the parent's is held (by _before_fork) in the child's copy.  The state is adopted here
    # too, not only by the next call's pid check, for a child whose pid is its parent's in another namespace.
    global _lock
    _lock = threading.Lock()
    _adopt_forked_state()


# os.register_at_fork exists only where os.fork does (not on Windows or WASI): there the pid check alone.
if hasattr(os, "register_at_fork"):
    os.register_at_fork(
        before=_before_fork, after_in_parent=_after_fork_in_parent, after_in_child=_after_fork_in_child
    )
