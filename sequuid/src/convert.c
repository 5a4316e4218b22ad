/*-------------------------------------------------------------------------
 *
 * convert.c
 *	  Lossless v1 <-> v6 reordering and the v7 boundary of an instant.
 *
 * sequuid/src/convert.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "fmgr.h"
#include "utils/timestamp.h"
#include "utils/uuid.h"

#include "time_units.h"
#include "uuid_layout.h"
#include "uuid_time.h"

PG_FUNCTION_INFO_V1(sequuid_uuid_v1_to_v6);
PG_FUNCTION_INFO_V1(sequuid_uuid_v6_to_v1);
PG_FUNCTION_INFO_V1(sequuid_uuid_v7_boundary);

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

/*
 * The smallest v7 UUID a generator can produce at or after the instant:
 * its millisecond, the floor of its fraction, every random bit zero.
 */
Datum
sequuid_uuid_v7_boundary(PG_FUNCTION_ARGS)
{
	TimestampTz instant = PG_GETARG_TIMESTAMPTZ(0);
	pg_uuid_t  *result;
	int64		unix_us;
	uint64		unix_ms;

	/* infinities first: their offset from the Unix epoch would overflow */
	unix_us = TIMESTAMP_NOT_FINITE(instant) ? -1 : unix_us_from_timestamptz(instant);
	if (unix_us < 0 || (uint64) unix_us / SEQUUID_US_PER_MS > SEQUUID_UNIX_MS_MAX)
		ereport(ERROR,
				(errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE),
				 errmsg("argument \"instant\" of uuid_v7_boundary is out of the UUIDv7 range"),
				 errdetail("UUIDv7 holds instants from 1970-01-01 00:00:00 UTC to 10889-08-02 05:31:50.655999 UTC.")));
	unix_ms = (uint64) unix_us / SEQUUID_US_PER_MS;
	result = palloc0(sizeof(pg_uuid_t));
	uuid_v7_set_time(result->data, unix_ms,
					 uuid_v7_fraction_from_ns((uint32) (unix_us % SEQUUID_US_PER_MS) * SEQUUID_NS_PER_US));
	uuid_set_version_variant(result->data, 7);
	PG_RETURN_UUID_P(result);
}
