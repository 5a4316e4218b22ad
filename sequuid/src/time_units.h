/*-------------------------------------------------------------------------
 *
 * time_units.h
 *	  Every time unit and epoch difference sequuid computes with, in one
 *	  place.
 *
 * Include after postgres.h.
 *
 * sequuid/src/time_units.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef SEQUUID_TIME_UNITS_H
#define SEQUUID_TIME_UNITS_H

#include "datatype/timestamp.h"

#define SEQUUID_NS_PER_S			INT64CONST(1000000000)
#define SEQUUID_NS_PER_MS			INT64CONST(1000000)
#define SEQUUID_NS_PER_US			INT64CONST(1000)
#define SEQUUID_US_PER_MS			INT64CONST(1000)
#define SEQUUID_NS_PER_100NS		INT64CONST(100)
#define SEQUUID_100NS_PER_US		INT64CONST(10)

/*
 * The smallest step of the ascending clock: just over 1 ms / 4096 (the
 * unit of the v7 fraction) and over 100 ns (the v1/v6 unit), so successive
 * timestamps always differ in every layout.
 */
#define SEQUUID_V7_MINIMAL_STEP_NS	INT64CONST(245)

/*
 * 100-ns intervals between the Gregorian epoch of v1/v6 (1582-10-15
 * 00:00:00 UTC) and the Unix epoch (1970-01-01 00:00:00 UTC).
 */
#define SEQUUID_GREGORIAN_TO_UNIX_100NS	UINT64CONST(0x01B21DD213814000)

/* microseconds from the Unix epoch to the PostgreSQL epoch (2000-01-01) */
#define SEQUUID_UNIX_TO_POSTGRES_US \
	((int64) (POSTGRES_EPOCH_JDATE - UNIX_EPOCH_JDATE) * USECS_PER_DAY)

#endif							/* SEQUUID_TIME_UNITS_H */
