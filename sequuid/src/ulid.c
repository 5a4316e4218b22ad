/*-------------------------------------------------------------------------
 *
 * ulid.c
 *	  uuid_generate_ulid(): a ULID (48-bit Unix ms + 80 random bits) as the
 *	  16 bytes of a uuid, in the ULID spec's monotonic mode per backend.
 *
 * A call in the same millisecond as the previous one (or in an earlier
 * one, when the clock stepped back) returns the previous value plus one.
 * If the 80 random bits would overflow, the value moves on to the next
 * millisecond with fresh random bits instead of wrapping around, so the
 * sequence stays strictly increasing.
 *
 * sequuid/src/ulid.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "fmgr.h"
#include "miscadmin.h"
#include "utils/uuid.h"

#include "clock.h"
#include "random.h"
#include "time_units.h"
#include "uuid_layout.h"

PG_FUNCTION_INFO_V1(uuid_generate_ulid);

#define ULID_RANDOM_LEN		10

/* the previous value of this backend: octets 0-5 time, 6-15 random */
static pg_uuid_t previous_ulid;
static uint64 previous_ms = 0;
static int	previous_owner_pid = 0;

/* add one to the 80 random bits; false when they were all ones */
static bool
increment_random(unsigned char *random)
{
	for (int i = ULID_RANDOM_LEN - 1; i >= 0; i--)
	{
		if (++random[i] != 0)
			return true;
	}
	return false;
}

Datum
uuid_generate_ulid(PG_FUNCTION_ARGS)
{
	int64		now_ns = sequuid_clock_now_ns();
	uint64		now_ms = now_ns < 0 ? 0 : (uint64) (now_ns / SEQUUID_NS_PER_MS);
	unsigned char *random = &previous_ulid.data[6];
	pg_uuid_t  *uuid;

	if (previous_owner_pid != MyProcPid || now_ms > previous_ms)
	{
		previous_ms = now_ms;
		sequuid_random_bytes(random, ULID_RANDOM_LEN);
	}
	else if (!increment_random(random))
	{
		previous_ms++;
		sequuid_random_bytes(random, ULID_RANDOM_LEN);
	}
	previous_owner_pid = MyProcPid;

	if (previous_ms > SEQUUID_UNIX_MS_MAX)
		ereport(ERROR,
				(errcode(ERRCODE_DATETIME_FIELD_OVERFLOW),
				 errmsg("the clock is past the last millisecond a ULID can hold"),
				 errhint("Check the system clock and sequuid.clock_offset.")));

	uuid_set_unix_ms(previous_ulid.data, previous_ms);
	uuid = palloc(UUID_LEN);
	memcpy(uuid->data, previous_ulid.data, UUID_LEN);
	PG_RETURN_UUID_P(uuid);
}
