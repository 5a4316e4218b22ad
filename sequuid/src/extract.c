/*-------------------------------------------------------------------------
 *
 * extract.c
 *	  Read the time, version and variant out of a UUID.
 *
 * uuid_timestamp() keeps what PostgreSQL's uuid_extract_timestamp() drops:
 * the v7 sub-millisecond fraction, and it reads v6 too.  Names differ from
 * core's on purpose, so that upgrading PostgreSQL never makes a call
 * ambiguous.
 *
 * sequuid_pg18api's uuid_extract_version() and uuid_extract_timestamp()
 * are core's, for the servers before PostgreSQL 17: the version as
 * smallint, and the time of v1 (to the microsecond) and v7 (to the
 * millisecond) only.
 *
 * sequuid/src/extract.c
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

PG_FUNCTION_INFO_V1(sequuid_uuid_timestamp);
PG_FUNCTION_INFO_V1(sequuid_ulid_timestamp);
PG_FUNCTION_INFO_V1(sequuid_uuid_version);
PG_FUNCTION_INFO_V1(sequuid_uuid_variant);
PG_FUNCTION_INFO_V1(sequuid_pg18_uuid_extract_version);
PG_FUNCTION_INFO_V1(sequuid_pg18_uuid_extract_timestamp);

/* the 48-bit Unix millisecond of v7 and ULID */
static TimestampTz
unix_ms_timestamp(const unsigned char *data)
{
	return timestamptz_from_unix_us((int64) uuid_get_unix_ms(data) * SEQUUID_US_PER_MS);
}

/*
 * The v7 instant to the microsecond: the last microsecond that starts
 * inside the fraction's range of nanoseconds.  A range is 244 ns wide and
 * holds at most one whole microsecond, so this inverts the generator
 * exactly for every instant given in microseconds, is never more than
 * 1 us off a nanosecond instant, and never spills into the next millisecond.
 */
static TimestampTz
v7_timestamp(const unsigned char *data)
{
	uint32		fraction = uuid_v7_get_fraction(data);
	uint32		last_ns = uuid_v7_ns_from_fraction(fraction + 1) - 1;

	return timestamptz_from_unix_us((int64) uuid_get_unix_ms(data) * SEQUUID_US_PER_MS +
									last_ns / SEQUUID_NS_PER_US);
}

Datum
sequuid_uuid_timestamp(PG_FUNCTION_ARGS)
{
	pg_uuid_t  *id = PG_GETARG_UUID_P(0);

	switch (uuid_get_rfc_version(id->data))
	{
		case 1:
			PG_RETURN_TIMESTAMPTZ(timestamptz_from_gregorian_100ns(uuid_v1_get_time(id->data)));
		case 6:
			PG_RETURN_TIMESTAMPTZ(timestamptz_from_gregorian_100ns(uuid_v6_get_time(id->data)));
		case 7:
			PG_RETURN_TIMESTAMPTZ(v7_timestamp(id->data));
		default:
			PG_RETURN_NULL();
	}
}

/* a ULID has no version or variant bits: any 16 bytes are one */
Datum
sequuid_ulid_timestamp(PG_FUNCTION_ARGS)
{
	pg_uuid_t  *id = PG_GETARG_UUID_P(0);

	PG_RETURN_TIMESTAMPTZ(unix_ms_timestamp(id->data));
}

Datum
sequuid_uuid_version(PG_FUNCTION_ARGS)
{
	pg_uuid_t  *id = PG_GETARG_UUID_P(0);
	int			version = uuid_get_rfc_version(id->data);

	if (version < 0)
		PG_RETURN_NULL();
	PG_RETURN_INT32(version);
}

Datum
sequuid_uuid_variant(PG_FUNCTION_ARGS)
{
	pg_uuid_t  *id = PG_GETARG_UUID_P(0);

	PG_RETURN_INT32(uuid_get_variant_field(id->data));
}

Datum
sequuid_pg18_uuid_extract_version(PG_FUNCTION_ARGS)
{
	pg_uuid_t  *id = PG_GETARG_UUID_P(0);
	int			version = uuid_get_rfc_version(id->data);

	if (version < 0)
		PG_RETURN_NULL();
	PG_RETURN_INT16((int16) version);
}

Datum
sequuid_pg18_uuid_extract_timestamp(PG_FUNCTION_ARGS)
{
	pg_uuid_t  *id = PG_GETARG_UUID_P(0);

	switch (uuid_get_rfc_version(id->data))
	{
		case 1:
			PG_RETURN_TIMESTAMPTZ(timestamptz_from_gregorian_100ns(uuid_v1_get_time(id->data)));
		case 7:
			PG_RETURN_TIMESTAMPTZ(unix_ms_timestamp(id->data));
		default:
			PG_RETURN_NULL();
	}
}
