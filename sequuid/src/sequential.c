/*-------------------------------------------------------------------------
 *
 * sequential.c
 *	  uuid_sequence_nextval() and uuid_time_nextval(): the sequential-uuids
 *	  generators, as RFC 9562 version 8 (custom layout) UUIDs.
 *
 * The layout is sequential-uuids 1.0.3's.  The prefix is ceil(log2(
 * block_count)) bits (at least one) rounded up to whole bytes, and the
 * block size is rescaled so that one wrap around the prefixes still spans
 * about block_size * block_count values: max(1, block_size * block_count /
 * 2^prefix_bits).  The prefix, (i / rescaled size) mod 2^prefix_bits, is
 * stored big-endian in the leading prefix_bits bits; everything else is
 * random except the version and variant bits.  For uuid_sequence_nextval,
 * i = nextval(seq) - 1; for uuid_time_nextval, i is the Unix time in
 * seconds and interval_length plays the part of block_size.  Because
 * block_count is an int4, the prefix is at most 32 bits wide and can never
 * reach the version nibble (bits 48-51).  Division rounds down, so values
 * at or below zero get blocks of the same size as the others (1.0.3
 * truncates toward zero there).
 *
 * sequuid/src/sequential.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "commands/sequence.h"
#include "fmgr.h"
#include "utils/uuid.h"

#include "clock.h"
#include "random.h"
#include "time_units.h"
#include "uuid_layout.h"

PG_FUNCTION_INFO_V1(uuid_sequence_nextval);
PG_FUNCTION_INFO_V1(uuid_time_nextval);

static void check_positive(int32 value, const char *message);
static int	whole_byte_prefix_bits(int32 block_count);
static int64 rescaled_block_size(int32 block_size, int32 block_count, int prefix_bits);
static pg_uuid_t *generate_prefixed(uint32 block, int prefix_bits);
static int64 floor_div(int64 dividend, int64 divisor);
static int64 floor_mod(int64 dividend, int64 divisor);

/* sequential-uuids 1.0.3's messages, which name the argument in words */
static void
check_positive(int32 value, const char *message)
{
	if (value < 1)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg_internal("%s", message)));
}

/* ceil(log2(block_count)), at least 1, rounded up to whole bytes: 8 to 32 */
static int
whole_byte_prefix_bits(int32 block_count)
{
	int			bits = uuid_prefix_bits((uint32) Max(block_count, 2));

	return (bits + 7) / 8 * 8;
}

/* the block size that makes 2^prefix_bits blocks span block_size * block_count values */
static int64
rescaled_block_size(int32 block_size, int32 block_count, int prefix_bits)
{
	int64		wrap = (int64) block_size * block_count;

	return Max(1, wrap >> prefix_bits);
}

/* floor division and non-negative remainder, for divisor > 0 */
static int64
floor_div(int64 dividend, int64 divisor)
{
	int64		quotient = dividend / divisor;

	if (dividend % divisor < 0)
		quotient--;
	return quotient;
}

static int64
floor_mod(int64 dividend, int64 divisor)
{
	int64		remainder = dividend % divisor;

	return remainder < 0 ? remainder + divisor : remainder;
}

static pg_uuid_t *
generate_prefixed(uint32 block, int prefix_bits)
{
	pg_uuid_t  *uuid = palloc(UUID_LEN);

	sequuid_random_bytes(uuid->data, UUID_LEN);
	uuid_set_prefix(uuid->data, block, prefix_bits);
	uuid_set_version_variant(uuid->data, 8);
	return uuid;
}

Datum
uuid_sequence_nextval(PG_FUNCTION_ARGS)
{
	Oid			sequence = PG_GETARG_OID(0);
	int32		block_size = PG_GETARG_INT32(1);
	int32		block_count = PG_GETARG_INT32(2);
	int			prefix_bits;
	int64		size;
	int64		blocks;
	int64		value;
	int64		block;

	check_positive(block_size, "block size must be a positive integer");
	check_positive(block_count, "number of blocks must be a positive integer");
	prefix_bits = whole_byte_prefix_bits(block_count);
	size = rescaled_block_size(block_size, block_count, prefix_bits);
	blocks = INT64CONST(1) << prefix_bits;

	/* the same privilege checks as nextval() */
	value = nextval_internal(sequence, true);

	/*
	 * (value - 1) / size mod blocks, computed without forming value - 1,
	 * which overflows for a sequence at its minimum: subtracting one
	 * crosses a block boundary exactly when value starts a block.
	 */
	block = floor_mod(floor_div(value, size), blocks);
	if (floor_mod(value, size) == 0)
		block = floor_mod(block - 1, blocks);

	PG_RETURN_UUID_P(generate_prefixed((uint32) block, prefix_bits));
}

Datum
uuid_time_nextval(PG_FUNCTION_ARGS)
{
	int32		interval_length = PG_GETARG_INT32(0);
	int32		interval_count = PG_GETARG_INT32(1);
	int			prefix_bits;
	int64		unix_s;
	int64		block;

	check_positive(interval_length, "length of interval must be a positive integer");
	check_positive(interval_count, "number of intervals must be a positive integer");
	prefix_bits = whole_byte_prefix_bits(interval_count);

	unix_s = floor_div(sequuid_clock_now_ns(), SEQUUID_NS_PER_S);
	block = floor_mod(floor_div(unix_s, rescaled_block_size(interval_length, interval_count, prefix_bits)),
					  INT64CONST(1) << prefix_bits);

	PG_RETURN_UUID_P(generate_prefixed((uint32) block, prefix_bits));
}
