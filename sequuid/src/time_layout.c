/*-------------------------------------------------------------------------
 *
 * time_layout.c
 *	  The time-ordered key layouts (v7, ULID, v6) by name: the range of
 *	  instants each can hold, and its lower bound of an instant.
 *
 * A key of these layouts leads with its time, most significant bits
 * first, so uuid order (memcmp) is time order and a range of instants is
 * a range of keys.  The lower bounds themselves are in uuid_time.h, one
 * per layout; this table adds what callers check before using them.
 *
 * sequuid/src/time_layout.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "utils/uuid.h"

#include "time_layout.h"
#include "time_units.h"
#include "uuid_layout.h"
#include "uuid_time.h"

/* v7 and ULID: the 48-bit Unix millisecond; the last one ends at .655999 */
#define UNIX_MS_LAST_US		((int64) SEQUUID_UNIX_MS_MAX * SEQUUID_US_PER_MS + SEQUUID_US_PER_MS - 1)

const SequuidTimeLayout sequuid_time_layout_v7 = {
	"v7", "UUIDv7", 0, UNIX_MS_LAST_US,
	"1970-01-01 00:00:00 UTC to 10889-08-02 05:31:50.655999 UTC",
	uuid_v7_lower_bound
};

static const SequuidTimeLayout layout_ulid = {
	"ulid", "ULID", 0, UNIX_MS_LAST_US,
	"1970-01-01 00:00:00 UTC to 10889-08-02 05:31:50.655999 UTC",
	uuid_ulid_lower_bound
};

/*
 * v6: 60 bits of 100 ns from 1582-10-15; the last whole microsecond of
 * them is the range's end, as uuid_timestamp() reads v6 to the microsecond
 */
static const SequuidTimeLayout layout_v6 = {
	"v6", "UUIDv6",
	-(int64) (SEQUUID_GREGORIAN_TO_UNIX_100NS / SEQUUID_100NS_PER_US),
	(int64) ((SEQUUID_V6_TIMESTAMP_MAX - SEQUUID_GREGORIAN_TO_UNIX_100NS) / SEQUUID_100NS_PER_US),
	"1582-10-15 00:00:00 UTC to 5236-03-31 21:21:00.684697 UTC",
	uuid_v6_lower_bound
};

static const SequuidTimeLayout *const layouts[] = {&sequuid_time_layout_v7, &layout_ulid, &layout_v6};

/* NULL when no layout has that name; case does not matter */
const SequuidTimeLayout *
sequuid_time_layout_by_kind(const char *kind)
{
	for (size_t i = 0; i < lengthof(layouts); i++)
	{
		if (pg_strcasecmp(kind, layouts[i]->kind) == 0)
			return layouts[i];
	}
	return NULL;
}

/*
 * Unix microseconds of an instant inside the layout's range, or an error
 * naming the argument and the function called; infinities are checked
 * first, because their offset from the Unix epoch would overflow.
 */
int64
sequuid_time_layout_unix_us(const SequuidTimeLayout *layout, TimestampTz instant,
							const char *argument, const char *function_name)
{
	int64		unix_us = TIMESTAMP_NOT_FINITE(instant) ? PG_INT64_MIN : unix_us_from_timestamptz(instant);

	if (unix_us < layout->min_unix_us || unix_us > layout->max_unix_us)
		ereport(ERROR,
				(errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE),
				 errmsg("argument %s of %s is out of the %s range", argument, function_name, layout->name),
				 errdetail("%s holds instants from %s.", layout->name, layout->range_text)));
	return unix_us;
}
