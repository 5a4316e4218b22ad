"""Public ids: keyed, reversible mappings between a v7 and a v4-looking façade.

The same mappings as the extension's, bit for bit, so that a façade made here is what the database decodes:

- ``v7_to_public`` / ``public_to_v7`` (``uuid_v7_to_public(id, key)``, 1.6): the 60 bits of time and
  sub-millisecond fraction (unix_ts_ms, rand_a) go through a four-round Feistel network whose round function
  is SipHash-2-4 under the 16-byte key of the id's 62 random bits (rand_b), the round and the half; rand_b
  stays.
  It hides the time and the order of consecutive ids, whose rand_a rises within a millisecond.
- ``v7_to_uuidv47`` / ``uuidv47_to_v7`` (``uuid_v7_to_uuidv47(id, key)``): UUIDv47's façade, the 48-bit time
  XORed with the low 48 bits of SipHash-2-4 of the 74 bits of rand_a and rand_b.  It hides the time only where
  rand_a is random.

SipHash-2-4 is written out here because the standard library keeps its SipHash unkeyed and internal, and the
keyed packages on PyPI are unmaintained; it is checked against SipHash's published tags.
"""

from __future__ import annotations

from uuid import UUID

from sequuid._args import check_uuid

KEY_BYTES = 16
_WORD = (1 << 64) - 1
_TIME_SHIFT = 80
_TIME_MASK = (1 << 48) - 1
_VERSION_SHIFT = 76
_VARIANT_SHIFT = 62
_RAND_B_MASK = (1 << 62) - 1
_FEISTEL_ROUNDS = 4
_HALF_BITS = 30
_HALF_MASK = (1 << _HALF_BITS) - 1
_RAND_A_SHIFT = 64


def _rotate(value: int, bits: int) -> int:
    return ((value << bits) | (value >> (64 - bits))) & _WORD


def _sip_round(v0: int, v1: int, v2: int, v3: int) -> tuple[int, int, int, int]:
    v0 = (v0 + v1) & _WORD
    v1 = _rotate(v1, 13) ^ v0
    v0 = _rotate(v0, 32)
    v2 = (v2 + v3) & _WORD
    v3 = _rotate(v3, 16) ^ v2
    v0 = (v0 + v3) & _WORD
    v3 = _rotate(v3, 21) ^ v0
    v2 = (v2 + v1) & _WORD
    v1 = _rotate(v1, 17) ^ v2
    v2 = _rotate(v2, 32)
    return v0, v1, v2, v3


def siphash24(message: bytes, key: bytes) -> int:
    """SipHash-2-4 (Aumasson and Bernstein, 2012) of ``message`` under a 16-byte ``key``, as an integer.

    The key is read as the reference reads it: k0 from bytes 0-7, k1 from bytes 8-15, each little-endian.
    """
    key = _check_key(key)
    k0 = int.from_bytes(key[:8], "little")
    k1 = int.from_bytes(key[8:], "little")
    v0 = 0x736F6D6570736575 ^ k0
    v1 = 0x646F72616E646F6D ^ k1
    v2 = 0x6C7967656E657261 ^ k0
    v3 = 0x7465646279746573 ^ k1
    whole = len(message) - len(message) % 8
    for offset in range(0, whole, 8):
        word = int.from_bytes(message[offset : offset + 8], "little")
        v3 ^= word
        v0, v1, v2, v3 = _sip_round(*_sip_round(v0, v1, v2, v3))
        v0 ^= word
    last = (len(message) & 0xFF) << 56 | int.from_bytes(message[whole:], "little")
    v3 ^= last
    v0, v1, v2, v3 = _sip_round(*_sip_round(v0, v1, v2, v3))
    v0 ^= last
    v2 ^= 0xFF
    for _ in range(4):
        v0, v1, v2, v3 = _sip_round(v0, v1, v2, v3)
    return v0 ^ v1 ^ v2 ^ v3


def _check_key(key: object) -> bytes:
    if not isinstance(key, bytes | bytearray | memoryview):
        raise TypeError(f'argument "key" must be bytes, not {type(key).__name__}')
    key = bytes(key)
    if len(key) != KEY_BYTES:
        raise ValueError(f'argument "key" must be {KEY_BYTES} bytes, not {len(key)}')
    return key


def _check_input(function: str, value: int, version: int, what: str) -> None:
    found = (value >> _VERSION_SHIFT) & 0xF
    if found != version:
        raise ValueError(
            f'argument "id" of {function} is a version {found} uuid, not {what} (version {version})'
        )
    if (value >> _VARIANT_SHIFT) & 0b11 != 0b10:
        raise ValueError(
            f'argument "id" of {function} does not have RFC 9562\'s variant (10), so it is not {what}'
        )


def _with_version(value: int, version: int) -> UUID:
    value = (value & ~(0xF << _VERSION_SHIFT)) | (version << _VERSION_SHIFT)
    value = (value & ~(0b11 << _VARIANT_SHIFT)) | (0b10 << _VARIANT_SHIFT)
    return UUID(int=value)


def _remap_uuidv47(value: int, key: bytes, version: int) -> UUID:
    """The time XORed with the mask of rand_a and rand_b, which both forms share, and the other version."""
    raw = value.to_bytes(16, "big")
    sip_input = bytes([raw[6] & 0x0F, raw[7], raw[8] & 0x3F]) + raw[9:]
    mask = siphash24(sip_input, key) & _TIME_MASK
    return _with_version(value ^ (mask << _TIME_SHIFT), version)


def _feistel_round(rand_b: int, round: int, half: int, key: bytes) -> int:
    """The low 30 bits of SipHash-2-4 of rand_b (8 bytes) and round << 30 | half (4 bytes), little-endian."""
    message = rand_b.to_bytes(8, "little") + ((round << _HALF_BITS) | half).to_bytes(4, "little")
    return siphash24(message, key) & _HALF_MASK


def _remap_feistel(value: int, key: bytes, version: int) -> UUID:
    """The 60 bits of time and rand_a through four Feistel rounds keyed by rand_b: forwards to encode (4)."""
    rand_b = value & _RAND_B_MASK
    time = value >> _TIME_SHIFT
    rand_a = (value >> _RAND_A_SHIFT) & 0xFFF
    bits = (time << 12) | rand_a
    left, right = bits >> _HALF_BITS, bits & _HALF_MASK
    if version == 4:
        for round in range(_FEISTEL_ROUNDS):
            left, right = right, left ^ _feistel_round(rand_b, round, right, key)
    else:
        for round in reversed(range(_FEISTEL_ROUNDS)):
            left, right = right ^ _feistel_round(rand_b, round, left, key), left
    bits = (left << _HALF_BITS) | right
    value &= (1 << _RAND_A_SHIFT) - 1
    value |= (bits >> 12) << _TIME_SHIFT | (bits & 0xFFF) << _RAND_A_SHIFT
    return _with_version(value, version)


def v7_to_public(id: UUID, key: bytes) -> UUID:
    """``uuid_v7_to_public(id, key)``: the v4-looking public id of a v7 under a 16-byte key.

    Its time and sub-millisecond bits are permuted under the key and its own random bits, so façades of
    consecutive ids neither show their time nor sort in their order.  ValueError for a uuid other than a v7
    with RFC 9562's variant, and for a key other than 16 bytes.
    """
    value = check_uuid("id", id)
    checked_key = _check_key(key)
    _check_input("v7_to_public", value, 7, "a v7")
    return _remap_feistel(value, checked_key, 4)


def public_to_v7(id: UUID, key: bytes) -> UUID:
    """``uuid_public_to_v7(id, key)``: the v7 a façade was made from by ``v7_to_public`` under the same key.

    ValueError for a uuid other than a version-4 id with RFC 9562's variant, and for a key of another length.
    A façade made under another key, or any random v4, decodes to a v7 whose time is noise, without an error:
    a check of that time would tell a caller, for chosen inputs, something of the hidden time (see the
    extension's docs/public-ids.md).
    """
    value = check_uuid("id", id)
    checked_key = _check_key(key)
    _check_input("public_to_v7", value, 4, "a public id")
    return _remap_feistel(value, checked_key, 7)


def v7_to_uuidv47(id: UUID, key: bytes) -> UUID:
    """``uuid_v7_to_uuidv47(id, key)``: UUIDv47's façade of a v7 under a 16-byte key, bit for bit.

    It hides the time only where rand_a is random; the v7s of PostgreSQL 18, sequuid and this library carry a
    rising fraction of the millisecond there, which the façade keeps.  ValueError as for ``v7_to_public``.
    """
    value = check_uuid("id", id)
    checked_key = _check_key(key)
    _check_input("v7_to_uuidv47", value, 7, "a v7")
    return _remap_uuidv47(value, checked_key, 4)


def uuidv47_to_v7(id: UUID, key: bytes) -> UUID:
    """``uuid_uuidv47_to_v7(id, key)``: the v7 of a UUIDv47 façade under the same key (UUIDv47's decode)."""
    value = check_uuid("id", id)
    checked_key = _check_key(key)
    _check_input("uuidv47_to_v7", value, 4, "a public id")
    return _remap_uuidv47(value, checked_key, 7)
