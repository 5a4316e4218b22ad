/*-------------------------------------------------------------------------
 *
 * v7.c
 *	  uuid_generate_v7(): RFC 9562 UUIDv7, bit-compatible with PostgreSQL
 *	  18's uuidv7().
 *
 * 48-bit Unix milliseconds, version 7, a 12-bit sub-millisecond fraction
 * in rand_a (RFC 9562 section 6.2, method 3), variant 10, 62 random bits.
 * The time comes from the ascending clock (clock.c), so values are
 * strictly increasing per backend, or across the cluster when preloaded.
 *
 * sequuid_pg18api's uuidv7(shift interval) is here too: the same value,
 * with PostgreSQL 18's range checks and errors in place of sequuid's.
 *
 * sequuid/src/v7.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "fmgr.h"
#include "utils/fmgrprotos.h"
#include "utils/timestamp.h"
#include "utils/uuid.h"

#include "clock.h"
#include "random.h"
#include "time_units.h"
#include "uuid_layout.h"
#include "uuid_time.h"

PG_FUNCTION_INFO_V1(uuid_generate_v7);
PG_FUNCTION_INFO_V1(uuid_generate_v7_shift);
PG_FUNCTION_INFO_V1(sequuid_pg18_uuidv7_interval);

/*
 * A shift beyond this many years leaves the 48-bit range whatever "now"
 * is; rejecting it first keeps timestamptz arithmetic from overflowing
 * with an error that would not name the argument.
 */
#define SHIFT_LIMIT_YEARS	20000

/*
 * The estimate of a shifted time below is off by less than this: a month
 * counts as its Gregorian average, and calendar months, month-end clamping
 * and time zone offsets move the exact result by days, never by a year.
 */
#define SHIFT_ESTIMATE_MARGIN_US	(366 * USECS_PER_DAY)

/* the earliest timestamptz, 4714-11-24 00:00:00 UTC, in Unix microseconds */
#define TIMESTAMPTZ_MIN_UNIX_US \
	((int64) (DATETIME_MIN_JULIAN - UNIX_EPOCH_JDATE) * USECS_PER_DAY)

static pg_uuid_t *generate_v7(uint64 unix_ms, uint32 sub_ms_ns);
static pg_uuid_t *generate_v7_shifted(int64 ns, int64 shifted_unix_us);
static void report_shift_out_of_range(void);
static void check_shift_estimate(int64 unix_us, const Interval *shift);

static pg_uuid_t *
generate_v7(uint64 unix_ms, uint32 sub_ms_ns)
{
	pg_uuid_t  *uuid = palloc(UUID_LEN);

	uuid_v7_set_time(uuid->data, unix_ms, uuid_v7_fraction_from_ns(sub_ms_ns));
	sequuid_random_bytes(&uuid->data[8], UUID_LEN - 8);
	uuid_set_version_variant(uuid->data, 7);
	return uuid;
}

/*
 * The v7 value of a shifted time: the shifted microsecond, and the
 * nanoseconds below the microsecond of the unshifted ascending time.
 */
static pg_uuid_t *
generate_v7_shifted(int64 ns, int64 shifted_unix_us)
{
	return generate_v7(shifted_unix_us / SEQUUID_US_PER_MS,
					   (shifted_unix_us % SEQUUID_US_PER_MS) * SEQUUID_NS_PER_US + ns % SEQUUID_NS_PER_US);
}

static void
report_shift_out_of_range(void)
{
	ereport(ERROR,
			(errcode(ERRCODE_DATETIME_FIELD_OVERFLOW),
			 errmsg("argument \"shift\" moves the timestamp outside the range of a UUIDv7"),
			 errhint("The shifted time must lie between 1970-01-01 00:00:00 UTC and 10889-08-02 05:31:50.655 UTC.")));
}

/*
 * Reject, with the message that names the argument, a shift whose result
 * (or the month or day step core's timestamptz_pl_interval() takes on the
 * way, in that order) is surely out of range: the estimate is within
 * SHIFT_ESTIMATE_MARGIN_US of the exact value, so whatever passes keeps
 * every step of the exact arithmetic inside the timestamptz range, and the
 * exact result is checked against the UUIDv7 range afterwards.  The shift
 * is already bounded by SHIFT_LIMIT_YEARS, so no sum here overflows.
 */
static void
check_shift_estimate(int64 unix_us, const Interval *shift)
{
	int64		average_month_us = (int64) (DAYS_PER_YEAR * USECS_PER_DAY) / MONTHS_PER_YEAR;
	int64		after_months = unix_us + shift->month * average_month_us;
	int64		after_days = after_months + shift->day * USECS_PER_DAY;
	int64		after_time = after_days + shift->time;
	int64		lowest_step = TIMESTAMPTZ_MIN_UNIX_US + SHIFT_ESTIMATE_MARGIN_US;

	if (after_months < lowest_step || after_days < lowest_step ||
		after_time < -SHIFT_ESTIMATE_MARGIN_US ||
		after_time > (int64) SEQUUID_UNIX_MS_MAX * SEQUUID_US_PER_MS + SHIFT_ESTIMATE_MARGIN_US)
		report_shift_out_of_range();
}

/*
 * The clock's instant NS moved by SHIFT with timestamptz arithmetic (months
 * and days in the session time zone), in Unix microseconds.
 * timestamptz_pl_interval() raises its own error when the sum leaves the
 * timestamptz range.
 */
static int64
shifted_unix_us(int64 ns, Interval *shift)
{
	TimestampTz shifted;

	shifted = DatumGetTimestampTz(DirectFunctionCall2(timestamptz_pl_interval,
													  TimestampTzGetDatum(timestamptz_from_unix_us(ns / SEQUUID_NS_PER_US)),
													  IntervalPGetDatum(shift)));
	return unix_us_from_timestamptz(shifted);
}

Datum
uuid_generate_v7(PG_FUNCTION_ARGS)
{
	int64		ns = sequuid_clock_ascending_ns();

	PG_RETURN_UUID_P(generate_v7(ns / SEQUUID_NS_PER_MS, ns % SEQUUID_NS_PER_MS));
}

/*
 * How a shifted generator checks its shift and the result: the error for
 * an infinite shift, the checks made before the exact arithmetic (NULL for
 * none), the last Unix microsecond it accepts, and the error past it.
 */
typedef struct ShiftRules
{
	void		(*report_infinite) (void);
	void		(*check_before) (int64 unix_us, const Interval *shift);
	int64		last_unix_us;
	void		(*report_out_of_range) (void);
} ShiftRules;

static void
report_infinite_shift(void)
{
	ereport(ERROR,
			(errcode(ERRCODE_DATETIME_FIELD_OVERFLOW),
			 errmsg("argument \"shift\" must be a finite interval"),
			 errhint("Pass a finite interval such as '-1 hour'.")));
}

/* spelled out: the Abs() macro is gone from PostgreSQL 16's c.h */
static void
check_shift_bounds(int64 unix_us, const Interval *shift)
{
	if (shift->month > 12 * SHIFT_LIMIT_YEARS ||
		shift->month < -12 * SHIFT_LIMIT_YEARS ||
		shift->day > 366 * SHIFT_LIMIT_YEARS ||
		shift->day < -366 * SHIFT_LIMIT_YEARS ||
		shift->time > 366 * SHIFT_LIMIT_YEARS * USECS_PER_DAY ||
		shift->time < -366 * SHIFT_LIMIT_YEARS * USECS_PER_DAY)
		report_shift_out_of_range();
	check_shift_estimate(unix_us, shift);
}

static void
report_pg18_infinite(void)
{
	ereport(ERROR,
			(errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE),
			 errmsg("interval out of range for UUID version 7"),
			 errdetail("UUID version 7 does not support infinite intervals.")));
}

static void
report_pg18_out_of_range(void)
{
	ereport(ERROR,
			(errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE),
			 errmsg("timestamp out of range for UUID version 7"),
			 errdetail("UUID version 7 supports timestamps from 1970-01-01 to approximately year 10889.")));
}

/*
 * sequuid's rules name the argument and accept the whole of the 48-bit
 * field's last millisecond.
 */
static const ShiftRules sequuid_shift_rules = {
	report_infinite_shift,
	check_shift_bounds,
	(int64) SEQUUID_UNIX_MS_MAX * SEQUUID_US_PER_MS + SEQUUID_US_PER_MS - 1,
	report_shift_out_of_range
};

/*
 * PostgreSQL 18's rules, messages and SQLSTATE: timestamptz_pl_interval()
 * raises its own "timestamp out of range" when the sum leaves the
 * timestamptz range, and a sum after the first microsecond of the 48-bit
 * field's last millisecond (10889-08-02 05:31:50.655) is refused, where 18
 * draws the line.
 */
static const ShiftRules pg18_shift_rules = {
	report_pg18_infinite,
	NULL,
	(int64) SEQUUID_UNIX_MS_MAX * SEQUUID_US_PER_MS,
	report_pg18_out_of_range
};

/*
 * The v7 value of the ascending clock moved by SHIFT with calendar
 * arithmetic (months and days in the session time zone), at microsecond
 * precision, the nanoseconds below it kept; checked by RULES.
 */
static pg_uuid_t *
generate_v7_shift(Interval *shift, const ShiftRules *rules)
{
	int64		ns = sequuid_clock_ascending_ns();
	int64		unix_us;

#ifdef INTERVAL_NOT_FINITE
	if (INTERVAL_NOT_FINITE(shift))
		rules->report_infinite();
#endif
	if (rules->check_before != NULL)
		rules->check_before(ns / SEQUUID_NS_PER_US, shift);
	unix_us = shifted_unix_us(ns, shift);
	if (unix_us < 0 || unix_us > rules->last_unix_us)
		rules->report_out_of_range();
	return generate_v7_shifted(ns, unix_us);
}

/* like core's uuidv7(interval), with sequuid's checks and errors */
Datum
uuid_generate_v7_shift(PG_FUNCTION_ARGS)
{
	PG_RETURN_UUID_P(generate_v7_shift(PG_GETARG_INTERVAL_P(0), &sequuid_shift_rules));
}

/* PostgreSQL 18's uuidv7(shift interval), for the servers before it */
Datum
sequuid_pg18_uuidv7_interval(PG_FUNCTION_ARGS)
{
	PG_RETURN_UUID_P(generate_v7_shift(PG_GETARG_INTERVAL_P(0), &pg18_shift_rules));
}
