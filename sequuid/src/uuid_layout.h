/*-------------------------------------------------------------------------
 *
 * uuid_layout.h
 *	  Bit layouts of the UUID versions sequuid writes and reads.
 *
 * Every field position lives here exactly once, as a static inline helper,
 * so generators, extractors and converters cannot disagree about where a
 * bit goes.  All helpers work on the 16 bytes of a pg_uuid_t (network
 * byte order, RFC 9562 section 4); none of them allocates.
 *
 * Include after postgres.h.
 *
 * sequuid/src/uuid_layout.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef SEQUUID_UUID_LAYOUT_H
#define SEQUUID_UUID_LAYOUT_H

#include "port/pg_bitutils.h"
#include "utils/uuid.h"

#include "time_units.h"

/* RFC 9562 section 4.1: the variant of every UUID sequuid generates is 10 */
#define SEQUUID_VARIANT_RFC9562		0x2

/* the 60-bit v1/v6 timestamp and the 48-bit v7/ULID millisecond field */
#define SEQUUID_V6_TIMESTAMP_MAX	((UINT64CONST(1) << 60) - 1)
#define SEQUUID_UNIX_MS_MAX			((UINT64CONST(1) << 48) - 1)

/*
 * v7 rand_a holds a 12-bit fraction of the millisecond (RFC 9562 section
 * 6.2, method 3), computed exactly as PostgreSQL 18's uuidv7() does.
 * Successive timestamps at least SEQUUID_V7_MINIMAL_STEP_NS (time_units.h)
 * apart always differ in (ms, fraction).
 */
#define SEQUUID_V7_SUBMS_BITS		12

/* version nibble: high four bits of octet 6 */
static inline void
uuid_set_version_variant(unsigned char *data, int version)
{
	data[6] = (unsigned char) ((data[6] & 0x0f) | (version << 4));
	data[8] = (unsigned char) ((data[8] & 0x3f) | (SEQUUID_VARIANT_RFC9562 << 6));
}

static inline int
uuid_get_version(const unsigned char *data)
{
	return data[6] >> 4;
}

/* the two high bits of octet 8; 2 (binary 10) for RFC 9562 UUIDs */
static inline int
uuid_get_variant(const unsigned char *data)
{
	return data[8] >> 6;
}

/*
 * octets 0-5, 48 bits big-endian: the Unix milliseconds of v7 and ULID,
 * and the top 48 of v6's 60 time bits
 */
static inline void
uuid_set_unix_ms(unsigned char *data, uint64 unix_ms)
{
	data[0] = (unsigned char) (unix_ms >> 40);
	data[1] = (unsigned char) (unix_ms >> 32);
	data[2] = (unsigned char) (unix_ms >> 24);
	data[3] = (unsigned char) (unix_ms >> 16);
	data[4] = (unsigned char) (unix_ms >> 8);
	data[5] = (unsigned char) unix_ms;
}

static inline uint64
uuid_get_unix_ms(const unsigned char *data)
{
	return ((uint64) data[0] << 40) | ((uint64) data[1] << 32) |
		((uint64) data[2] << 24) | ((uint64) data[3] << 16) |
		((uint64) data[4] << 8) | (uint64) data[5];
}

/* nanoseconds within a millisecond (0..999999) -> 12-bit v7 fraction */
static inline uint32
uuid_v7_fraction_from_ns(uint32 sub_ms_ns)
{
	return (uint32) (((uint64) sub_ms_ns << SEQUUID_V7_SUBMS_BITS) / SEQUUID_NS_PER_MS);
}

/* 12-bit v7 fraction -> the first nanosecond within the millisecond it covers */
static inline uint32
uuid_v7_ns_from_fraction(uint32 fraction)
{
	return (uint32) (((uint64) fraction * SEQUUID_NS_PER_MS +
					  ((UINT64CONST(1) << SEQUUID_V7_SUBMS_BITS) - 1)) >> SEQUUID_V7_SUBMS_BITS);
}

/*
 * v7 and v6 share one shape (RFC 9562 sections 5.6 and 5.7): 48 bits in
 * octets 0-5, then 12 bits in the low nibble of octet 6 and in octet 7,
 * around the version nibble (left for uuid_set_version_variant()).
 */
static inline void
uuid_set_time_48_12(unsigned char *data, uint64 high48, uint32 low12)
{
	uuid_set_unix_ms(data, high48);
	data[6] = (unsigned char) ((data[6] & 0xf0) | ((low12 >> 8) & 0x0f));
	data[7] = (unsigned char) low12;
}

static inline uint32
uuid_get_time_low12(const unsigned char *data)
{
	return ((uint32) (data[6] & 0x0f) << 8) | data[7];
}

/* v7 time: the ms, then the 12-bit fraction of the millisecond */
static inline void
uuid_v7_set_time(unsigned char *data, uint64 unix_ms, uint32 fraction)
{
	uuid_set_time_48_12(data, unix_ms, fraction);
}

static inline uint32
uuid_v7_get_fraction(const unsigned char *data)
{
	return uuid_get_time_low12(data);
}

/* v6 time: the 60-bit Gregorian 100-ns timestamp, most significant bits first */
static inline void
uuid_v6_set_time(unsigned char *data, uint64 gregorian_100ns)
{
	uuid_set_time_48_12(data, gregorian_100ns >> 12, (uint32) (gregorian_100ns & 0xfff));
}

static inline uint64
uuid_v6_get_time(const unsigned char *data)
{
	return (uuid_get_unix_ms(data) << 12) | uuid_get_time_low12(data);
}

/*
 * v1 time (RFC 9562 section 5.1): the same 60-bit timestamp, least
 * significant part first: time_low (32 bits) in octets 0-3, time_mid in
 * octets 4-5, time_high (12 bits) below the version nibble in octets 6-7.
 */
static inline void
uuid_v1_set_time(unsigned char *data, uint64 gregorian_100ns)
{
	data[0] = (unsigned char) (gregorian_100ns >> 24);
	data[1] = (unsigned char) (gregorian_100ns >> 16);
	data[2] = (unsigned char) (gregorian_100ns >> 8);
	data[3] = (unsigned char) gregorian_100ns;
	data[4] = (unsigned char) (gregorian_100ns >> 40);
	data[5] = (unsigned char) (gregorian_100ns >> 32);
	data[6] = (unsigned char) ((data[6] & 0xf0) | ((gregorian_100ns >> 56) & 0x0f));
	data[7] = (unsigned char) (gregorian_100ns >> 48);
}

static inline uint64
uuid_v1_get_time(const unsigned char *data)
{
	return ((uint64) data[0] << 24) | ((uint64) data[1] << 16) |
		((uint64) data[2] << 8) | (uint64) data[3] |
		((uint64) data[4] << 40) | ((uint64) data[5] << 32) |
		((uint64) (data[6] & 0x0f) << 56) | ((uint64) data[7] << 48);
}

/*
 * v1/v6 node: octets 10-15; the multicast bit (least significant bit of
 * the first node octet) marks a random node per RFC 9562 section 6.10.
 */
#define SEQUUID_NODE_MULTICAST_BIT	0x01

static inline void
uuid_mark_random_node(unsigned char *data)
{
	data[10] |= SEQUUID_NODE_MULTICAST_BIT;
}

/*
 * Sequential-uuids prefix: the block number stored big-endian in the
 * leading prefix_bits bits (at most 32, so it never reaches the version
 * nibble in octet 6); the bits after it keep their random value.
 */
static inline void
uuid_set_prefix(unsigned char *data, uint32 prefix, int prefix_bits)
{
	uint64		field;
	uint64		mask;

	if (prefix_bits <= 0)
		return;
	Assert(prefix_bits <= 32);
	field = (uint64) prefix << (64 - prefix_bits);
	mask = ~UINT64CONST(0) << (64 - prefix_bits);
	for (int i = 0; i < 4; i++)
	{
		int			shift = 56 - 8 * i;
		unsigned char byte_mask = (unsigned char) (mask >> shift);

		data[i] = (unsigned char) ((data[i] & ~byte_mask) | ((field >> shift) & byte_mask));
	}
}

static inline uint32
uuid_get_prefix(const unsigned char *data, int prefix_bits)
{
	uint32		leading;

	if (prefix_bits <= 0)
		return 0;
	Assert(prefix_bits <= 32);
	leading = ((uint32) data[0] << 24) | ((uint32) data[1] << 16) |
		((uint32) data[2] << 8) | (uint32) data[3];
	return (uint32) ((uint64) leading >> (32 - prefix_bits));
}

/* ceil(log2(count)): the prefix width that holds 0 .. count - 1 */
static inline int
uuid_prefix_bits(uint32 count)
{
	return (int) pg_ceil_log2_32(count);
}

/*
 * Striped layout (version 8): the stripe in the leading stripe_bits bits
 * (0 to 8), then v7's 48-bit millisecond and 12-bit fraction, then random
 * bits.  The version nibble (bits 48-51) and the variant (bits 64-65) stay
 * where RFC 9562 puts them and the fields flow around them: the first 60
 * bits of stripe and time fill octets 0-5 and the 12 bits around the
 * version nibble, the time's last stripe_bits bits lead the 62 bits after
 * the variant, and random bits fill the rest.  Within one stripe, key
 * order is time order.  low_random supplies the random bits (only its low
 * 62 - stripe_bits are used; zero gives the stripe's lower bound of the
 * instant); uuid_set_version_variant() completes the key.
 */
#define SEQUUID_STRIPES_MAX		256

static inline void
uuid_striped_set(unsigned char *data, uint32 stripe, int stripe_bits,
				 uint64 unix_ms, uint32 fraction, uint64 low_random)
{
	uint64		time60 = (unix_ms << SEQUUID_V7_SUBMS_BITS) | fraction;
	uint64		head = ((uint64) stripe << (60 - stripe_bits)) | (time60 >> stripe_bits);
	uint64		spilled = time60 & ((UINT64CONST(1) << stripe_bits) - 1);
	uint64		tail_random_mask = (UINT64CONST(1) << (62 - stripe_bits)) - 1;
	uint64		tail = (spilled << (62 - stripe_bits)) | (low_random & tail_random_mask);

	Assert(stripe_bits >= 0 && stripe_bits <= 8);
	uuid_set_time_48_12(data, head >> 12, (uint32) (head & 0xfff));
	for (int i = 0; i < 8; i++)
		data[8 + i] = (unsigned char) (tail >> (56 - 8 * i));
}

/*
 * The variant field as RFC 9562 Table 1 reads it: its length varies, so
 * the value is that of the leading 1, 2 or 3 bits of octet 8: 0 (0xx,
 * NCS), 2 (10x, RFC 9562), 6 (110, Microsoft) or 7 (111, reserved).
 */
static inline int
uuid_get_variant_field(const unsigned char *data)
{
	if ((data[8] & 0x80) == 0)
		return 0;
	if ((data[8] & 0x40) == 0)
		return SEQUUID_VARIANT_RFC9562;
	return data[8] >> 5;
}

/* the version of an RFC 9562 UUID, or -1 when the variant is another */
static inline int
uuid_get_rfc_version(const unsigned char *data)
{
	if (uuid_get_variant(data) != SEQUUID_VARIANT_RFC9562)
		return -1;
	return uuid_get_version(data);
}

#endif							/* SEQUUID_UUID_LAYOUT_H */
