/*-------------------------------------------------------------------------
 *
 * sequential.c
 *	  uuid_sequence_nextval() and uuid_time_nextval(): the sequential-uuids
 *	  generators, as RFC 9562 version 8 (custom layout) UUIDs.
 *
 * A block number, (i / block_size) mod block_count, is stored big-endian
 * in the leading ceil(log2(block_count)) bits; everything else is random
 * except the version and variant bits.  For uuid_sequence_nextval,
 * i = nextval(seq) - 1; for uuid_time_nextval, i is the Unix time in
 * seconds and interval_length plays the part of block_size.  Because
 * block_count is an int4, the prefix is at most 31 bits wide and can never
 * reach the version nibble (bits 48-51).
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

static void check_positive(const char *argument, int32 value);
static pg_uuid_t *generate_prefixed(uint32 block, int32 block_count);
static int64 floor_div(int64 dividend, int64 divisor);
static int64 floor_mod(int64 dividend, int64 divisor);

static void
check_positive(const char *argument, int32 value)
{
	if (value < 1)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("argument \"%s\" must be at least 1, not %d", argument, value),
				 errhint("Pass a positive integer.")));
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
generate_prefixed(uint32 block, int32 block_count)
{
	pg_uuid_t  *uuid = palloc(UUID_LEN);

	sequuid_random_bytes(uuid->data, UUID_LEN);
	uuid_set_prefix(uuid->data, block, uuid_prefix_bits((uint32) block_count));
	uuid_set_version_variant(uuid->data, 8);
	return uuid;
}

Datum
uuid_sequence_nextval(PG_FUNCTION_ARGS)
{
	Oid			sequence = PG_GETARG_OID(0);
	int32		block_size = PG_GETARG_INT32(1);
	int32		block_count = PG_GETARG_INT32(2);
	int64		value;
	int64		block;

	check_positive("block_size", block_size);
	check_positive("block_count", block_count);

	/* the same privilege checks as nextval() */
	value = nextval_internal(sequence, true);

	/*
	 * (value - 1) / block_size mod block_count, computed without forming
	 * value - 1, which overflows for a sequence at its minimum: subtracting
	 * one crosses a block boundary exactly when value starts a block.
	 */
	block = floor_mod(floor_div(value, block_size), block_count);
	if (floor_mod(value, block_size) == 0)
		block = floor_mod(block - 1, block_count);

	PG_RETURN_UUID_P(generate_prefixed((uint32) block, block_count));
}

Datum
uuid_time_nextval(PG_FUNCTION_ARGS)
{
	int32		interval_length = PG_GETARG_INT32(0);
	int32		interval_count = PG_GETARG_INT32(1);
	int64		unix_s;
	int64		block;

	check_positive("interval_length", interval_length);
	check_positive("interval_count", interval_count);

	unix_s = floor_div(sequuid_clock_now_ns(), SEQUUID_NS_PER_S);
	block = floor_mod(floor_div(unix_s, interval_length), interval_count);

	PG_RETURN_UUID_P(generate_prefixed((uint32) block, interval_count));
}
