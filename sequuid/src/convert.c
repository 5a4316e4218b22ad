/*-------------------------------------------------------------------------
 *
 * convert.c
 *	  Lossless v1 <-> v6 reordering, and v7 UUIDs of an instant: the
 *	  boundary for range conditions and pg_uuidv7's conversions.
 *
 * sequuid/src/convert.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "fmgr.h"
#include "utils/lsyscache.h"
#include "utils/timestamp.h"
#include "utils/uuid.h"

#include "random.h"
#include "time_layout.h"
#include "time_units.h"
#include "uuid_layout.h"
#include "uuid_time.h"

PG_FUNCTION_INFO_V1(sequuid_uuid_v1_to_v6);
PG_FUNCTION_INFO_V1(sequuid_uuid_v6_to_v1);
PG_FUNCTION_INFO_V1(sequuid_uuid_v7_boundary);
PG_FUNCTION_INFO_V1(sequuid_uuid_timestamptz_to_v7);

static void
require_version(const pg_uuid_t *id, int expected, const char *function_name)
{
	int			version = uuid_get_rfc_version(id->data);

	if (version == expected)
		return;
	if (version < 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("argument \"id\" of %s must be a version %d UUID, found variant %d",
						function_name, expected, uuid_get_variant_field(id->data)),
				 errhint("Only RFC 9562 UUIDs (variant 2) have a version.")));
	ereport(ERROR,
			(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
			 errmsg("argument \"id\" of %s must be a version %d UUID, found version %d",
					function_name, expected, version)));
}

/*
 * Only the 60 timestamp bits move: clock_seq, node, variant and every
 * other bit stay where they are, so the conversion loses nothing.
 */
static pg_uuid_t *
move_timestamp(const pg_uuid_t *id, int from_version, int to_version)
{
	pg_uuid_t  *result = palloc(sizeof(pg_uuid_t));
	uint64		gregorian_100ns;

	memcpy(result, id, sizeof(pg_uuid_t));
	if (from_version == 1)
	{
		gregorian_100ns = uuid_v1_get_time(id->data);
		uuid_v6_set_time(result->data, gregorian_100ns);
	}
	else
	{
		gregorian_100ns = uuid_v6_get_time(id->data);
		uuid_v1_set_time(result->data, gregorian_100ns);
	}
	uuid_set_version_variant(result->data, to_version);
	return result;
}

Datum
sequuid_uuid_v1_to_v6(PG_FUNCTION_ARGS)
{
	pg_uuid_t  *id = PG_GETARG_UUID_P(0);

	require_version(id, 1, "uuid_v1_to_v6");
	PG_RETURN_UUID_P(move_timestamp(id, 1, 6));
}

Datum
sequuid_uuid_v6_to_v1(PG_FUNCTION_ARGS)
{
	pg_uuid_t  *id = PG_GETARG_UUID_P(0);

	require_version(id, 6, "uuid_v6_to_v1");
	PG_RETURN_UUID_P(move_timestamp(id, 6, 1));
}

/* Unix microseconds of an instant inside the UUIDv7 range, or an error naming the argument and the function */
static int64
v7_unix_us(TimestampTz instant, const char *argument, FunctionCallInfo fcinfo)
{
	return sequuid_time_layout_unix_us(&sequuid_time_layout_v7, instant, argument,
									   get_func_name(fcinfo->flinfo->fn_oid));
}

/*
 * The smallest v7 UUID a generator can produce at or after the instant:
 * its millisecond, the floor of its fraction, every random bit zero.
 */
Datum
sequuid_uuid_v7_boundary(PG_FUNCTION_ARGS)
{
	int64		unix_us = v7_unix_us(PG_GETARG_TIMESTAMPTZ(0), "\"instant\"", fcinfo);
	pg_uuid_t  *result = palloc(sizeof(pg_uuid_t));

	uuid_v7_lower_bound(result, unix_us);
	PG_RETURN_UUID_P(result);
}

/*
 * pg_uuidv7's uuid_timestamptz_to_v7(timestamptz, zero) and
 * uuid_timestamp_to_v7(timestamp, zero); a timestamp is read as UTC, and
 * both types hold microseconds from 2000-01-01 00:00:00 UTC, so one
 * function serves both.  With zero, pg_uuidv7's boundary: the millisecond
 * and every other bit zero (rand_a too, so keys pg_uuidv7 made with a
 * random rand_a in that millisecond sort above it).  Without, a v7 as the
 * generator makes it: the 12-bit fraction of the millisecond in rand_a
 * and 62 random bits.
 */
Datum
sequuid_uuid_timestamptz_to_v7(PG_FUNCTION_ARGS)
{
	int64		unix_us = v7_unix_us(PG_GETARG_TIMESTAMPTZ(0), "1", fcinfo);
	bool		zero = PG_GETARG_BOOL(1);
	pg_uuid_t  *result = palloc(sizeof(pg_uuid_t));

	if (zero)
	{
		uuid_v7_lower_bound(result, unix_us - unix_us % SEQUUID_US_PER_MS);
		PG_RETURN_UUID_P(result);
	}
	uuid_v7_lower_bound(result, unix_us);
	sequuid_random_bytes(&result->data[8], UUID_LEN - 8);
	uuid_set_version_variant(result->data, 7);
	PG_RETURN_UUID_P(result);
}
