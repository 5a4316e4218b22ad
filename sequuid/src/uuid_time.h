/*-------------------------------------------------------------------------
 *
 * uuid_time.h
 *	  Conversions between the clocks UUIDs carry and timestamptz.
 *
 * A timestamptz counts microseconds from 2000-01-01 00:00:00 UTC; v7 and
 * ULID count milliseconds from the Unix epoch, v1 and v6 count 100 ns from
 * the Gregorian epoch.  Every value any of those fields can hold lies
 * inside the timestamptz range, so reading never overflows; writing
 * checks its bounds at the caller.
 *
 * Include after postgres.h.
 *
 * sequuid/src/uuid_time.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef SEQUUID_UUID_TIME_H
#define SEQUUID_UUID_TIME_H

#include "datatype/timestamp.h"

#include "time_units.h"
#include "uuid_layout.h"

static inline TimestampTz
timestamptz_from_unix_us(int64 unix_us)
{
	return (TimestampTz) (unix_us - SEQUUID_UNIX_TO_POSTGRES_US);
}

static inline int64
unix_us_from_timestamptz(TimestampTz ts)
{
	return (int64) ts + SEQUUID_UNIX_TO_POSTGRES_US;
}

/* v1/v6 60-bit Gregorian 100-ns count, truncated to the microsecond */
static inline TimestampTz
timestamptz_from_gregorian_100ns(uint64 gregorian_100ns)
{
	return timestamptz_from_unix_us((int64) (gregorian_100ns / SEQUUID_100NS_PER_US) -
									(int64) (SEQUUID_GREGORIAN_TO_UNIX_100NS / SEQUUID_100NS_PER_US));
}

#endif							/* SEQUUID_UUID_TIME_H */
