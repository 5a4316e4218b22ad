/*-------------------------------------------------------------------------
 *
 * uuid_time.h
 *	  Conversions between the clocks UUIDs carry and timestamptz.
 *
 * A timestamptz counts microseconds from 2000-01-01 00:00:00 UTC; v7 and
 * ULID count milliseconds from the Unix epoch, v1 and v6 count 100 ns from
 * the Gregorian epoch.  Every value any of those fields can hold lies
 * inside the timestamptz range, so reading never overflows; writing
 * checks its bounds at the caller (time_layout.c).
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

/* v1/v6 60-bit Gregorian 100-ns count of Unix microseconds at or after 1582-10-15 */
static inline uint64
gregorian_100ns_from_unix_us(int64 unix_us)
{
	return (uint64) (unix_us * SEQUUID_100NS_PER_US + (int64) SEQUUID_GREGORIAN_TO_UNIX_100NS);
}

/*
 * The smallest UUID of each time-ordered layout that a key made at or
 * after an instant can have: the instant rounded down to the layout's
 * unit, the version and variant where the layout has them, every other
 * bit zero.  Range conditions and partition bounds on keys rest on these,
 * so each layout has exactly one.  unix_us must lie inside the layout's
 * range (time_layout.c checks it).
 */
static inline void
uuid_v7_lower_bound(pg_uuid_t *result, int64 unix_us)
{
	memset(result->data, 0, UUID_LEN);
	uuid_v7_set_time(result->data, (uint64) unix_us / SEQUUID_US_PER_MS,
					 uuid_v7_fraction_from_ns((uint32) (unix_us % SEQUUID_US_PER_MS) * SEQUUID_NS_PER_US));
	uuid_set_version_variant(result->data, 7);
}

/* a ULID has no version or variant bits */
static inline void
uuid_ulid_lower_bound(pg_uuid_t *result, int64 unix_us)
{
	memset(result->data, 0, UUID_LEN);
	uuid_set_unix_ms(result->data, (uint64) unix_us / SEQUUID_US_PER_MS);
}

static inline void
uuid_v6_lower_bound(pg_uuid_t *result, int64 unix_us)
{
	memset(result->data, 0, UUID_LEN);
	uuid_v6_set_time(result->data, gregorian_100ns_from_unix_us(unix_us));
	uuid_set_version_variant(result->data, 6);
}

#endif							/* SEQUUID_UUID_TIME_H */
