/*-------------------------------------------------------------------------
 *
 * striped.c
 *	  uuid_generate_striped() and uuid_striped_ranges(): time-ordered keys
 *	  with several insertion points, and the key ranges of a time range.
 *
 * A v7 key always goes to the rightmost leaf of its index, and on many
 * cores that one page's lock caps the insert rate.  A striped key leads
 * with a stripe, the backend's number modulo the number of stripes, so
 * concurrent backends insert at up to that many places, each of them
 * still in time order (layout: uuid_striped_set() in uuid_layout.h).  The
 * price: a time range is one key range per stripe, which
 * uuid_striped_ranges() lists.
 *
 * sequuid/src/striped.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "fmgr.h"
#include "funcapi.h"
#include "miscadmin.h"
#if PG_VERSION_NUM >= 170000
#include "storage/procnumber.h"
#else
#include "storage/backendid.h"
#endif
#include "utils/timestamp.h"
#include "utils/uuid.h"

#include "clock.h"
#include "random.h"
#include "time_layout.h"
#include "time_units.h"
#include "uuid_layout.h"

PG_FUNCTION_INFO_V1(uuid_generate_striped);
PG_FUNCTION_INFO_V1(uuid_striped_ranges);

#define RANGES_FUNCTION_NAME	"uuid_striped_ranges"

static int	check_stripes(int32 stripes);
static uint32 backend_stripe(int32 stripes);
static void striped_bound(pg_uuid_t *result, uint32 stripe, int stripe_bits, int64 unix_us);

/* the width of the stripe field */
static int
check_stripes(int32 stripes)
{
	if (stripes < 1 || stripes > SEQUUID_STRIPES_MAX)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("argument \"stripes\" must be between 1 and %d, not %d", SEQUUID_STRIPES_MAX, stripes),
				 errhint("Pass about as many stripes as backends insert at once.")));
	return uuid_prefix_bits((uint32) stripes);
}

/*
 * Backend numbers are dense slots reused as backends come and go, so the
 * backends connected at once spread over the stripes.
 */
static uint32
backend_stripe(int32 stripes)
{
#if PG_VERSION_NUM >= 170000
	int			number = MyProcNumber;
#else
	int			number = MyBackendId;
#endif

	return (uint32) (number < 0 ? 0 : number % stripes);
}

/* the smallest key of the stripe made at or after the instant */
static void
striped_bound(pg_uuid_t *result, uint32 stripe, int stripe_bits, int64 unix_us)
{
	uuid_striped_set(result->data, stripe, stripe_bits, (uint64) unix_us / SEQUUID_US_PER_MS,
					 uuid_v7_fraction_from_ns((uint32) (unix_us % SEQUUID_US_PER_MS) * SEQUUID_NS_PER_US), 0);
	uuid_set_version_variant(result->data, 8);
}

Datum
uuid_generate_striped(PG_FUNCTION_ARGS)
{
	int32		stripes = PG_GETARG_INT32(0);
	int			stripe_bits = check_stripes(stripes);
	int64		ns = sequuid_clock_ascending_ns();
	pg_uuid_t  *uuid = palloc(UUID_LEN);
	unsigned char random_bytes[8];
	uint64		low_random = 0;

	sequuid_random_bytes(random_bytes, sizeof(random_bytes));
	for (int i = 0; i < 8; i++)
		low_random = (low_random << 8) | random_bytes[i];
	uuid_striped_set(uuid->data, backend_stripe(stripes), stripe_bits, ns / SEQUUID_NS_PER_MS,
					 uuid_v7_fraction_from_ns(ns % SEQUUID_NS_PER_MS), low_random);
	uuid_set_version_variant(uuid->data, 8);
	PG_RETURN_UUID_P(uuid);
}

/*
 * uuid_striped_ranges(stripes integer, from_time timestamptz, to_time
 * timestamptz): one row per stripe, the keys [lower, upper) made in
 * [from_time, to_time); every argument is checked before the first row.
 */
Datum
uuid_striped_ranges(PG_FUNCTION_ARGS)
{
	int32		stripes = PG_GETARG_INT32(0);
	int			stripe_bits = check_stripes(stripes);
	int64		from_us = sequuid_time_layout_unix_us(&sequuid_time_layout_v7, PG_GETARG_TIMESTAMPTZ(1),
													  "\"from_time\"", RANGES_FUNCTION_NAME);
	int64		to_us = sequuid_time_layout_unix_us(&sequuid_time_layout_v7, PG_GETARG_TIMESTAMPTZ(2),
													"\"to_time\"", RANGES_FUNCTION_NAME);
	ReturnSetInfo *rsinfo = (ReturnSetInfo *) fcinfo->resultinfo;

	if (from_us > to_us)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("argument \"from_time\" of " RANGES_FUNCTION_NAME " must not be later than argument \"to_time\""),
				 errhint("Swap the two instants.")));

	InitMaterializedSRF(fcinfo, 0);
	for (int32 stripe = 0; stripe < stripes; stripe++)
	{
		pg_uuid_t  *lower = palloc(sizeof(pg_uuid_t));
		pg_uuid_t  *upper = palloc(sizeof(pg_uuid_t));
		Datum		values[3];
		bool		nulls[3] = {false, false, false};

		striped_bound(lower, (uint32) stripe, stripe_bits, from_us);
		striped_bound(upper, (uint32) stripe, stripe_bits, to_us);
		values[0] = Int32GetDatum(stripe);
		values[1] = UUIDPGetDatum(lower);
		values[2] = UUIDPGetDatum(upper);
		tuplestore_putvalues(rsinfo->setResult, rsinfo->setDesc, values, nulls);
	}
	return (Datum) 0;
}
