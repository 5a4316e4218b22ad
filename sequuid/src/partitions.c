/*-------------------------------------------------------------------------
 *
 * partitions.c
 *	  uuid_time_partitions(): the uuid bounds of consecutive time ranges,
 *	  for range partitions of a table keyed by v7, ULID or v6 keys.
 *
 * Each row holds a range [range_start, range_end) and its keys' bounds
 * [lower, upper): lower is the smallest key any generator can make at
 * range_start or later, upper is the lower bound of range_end, so the
 * next row's lower; partitions made FROM (lower) TO (upper) tile the keys
 * without gaps or overlap, and a key lands in the partition of the range
 * its time lies in (exactly when the bounds are whole milliseconds; a
 * finer bound is rounded down to the key's unit, as any key is).
 *
 * Without a time zone argument the step is a fixed length of time: a day
 * or a month lasts as long as the session's TimeZone says, so steps of
 * them would make the same call return other bounds in another session,
 * and bounds made by a maintenance job in UTC would then overlap those
 * made interactively.  With a time zone named as an argument, days and
 * months are calendar days and months of that zone: range i starts at
 * start + i * step, computed on the zone's local time (so month ends
 * clamp from start, not from the previous range, and a day across a DST
 * change lasts 23 or 25 hours).  Either way the result depends on the
 * arguments alone: IMMUTABLE, like core's timezone(text, timestamptz).
 *
 * sequuid/src/partitions.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "common/int.h"
#include "datatype/timestamp.h"
#include "fmgr.h"
#include "funcapi.h"
#include "utils/builtins.h"
#include "utils/timestamp.h"
#include "utils/uuid.h"

#include "time_layout.h"
#include "uuid_time.h"

PG_FUNCTION_INFO_V1(sequuid_uuid_time_partitions);
PG_FUNCTION_INFO_V1(sequuid_uuid_time_partitions_zoned);

/*
 * More ranges than any partitioned table can use well, and a bound on the
 * memory and time one call takes; further ranges start at the last
 * range_end of a call.
 */
#define MAX_RANGES	100000

#define FUNCTION_NAME	"uuid_time_partitions"

/*
 * The most months and days a zoned call may step over in all: beyond the
 * years 1582 to 10889 the layouts hold, so their products with count stay
 * far inside int32 and every estimate below inside int64.
 */
#define MAX_TOTAL_MONTHS	(12 * 10000)
#define MAX_TOTAL_DAYS		(366 * 10000)

typedef struct Ranges
{
	const SequuidTimeLayout *layout;
	int64		start_unix_us;
	int64		step_us;		/* fixed steps */
	Interval	step;			/* calendar steps in time_zone */
	text	   *time_zone;		/* NULL for fixed steps */
	Timestamp	local_start;	/* start on time_zone's clock */
} Ranges;

static const SequuidTimeLayout *check_kind(const char *kind);
static void check_count(int32 count);
static int64 check_step(const Interval *step);
static void check_calendar_step(const Interval *step);
static void check_last_end(const Ranges *ranges, int32 count);
static void report_last_end_out_of_range(const Ranges *ranges);
static int64 zoned_boundary(const Ranges *ranges, int64 index);
static void check_zoned_last_end(const Ranges *ranges, int32 count);
static int64 range_boundary(const Ranges *ranges, int64 index);
static Datum time_partitions(FunctionCallInfo fcinfo, text *time_zone);
static HeapTuple range_tuple(const Ranges *ranges, int64 index, TupleDesc tuple_desc);

static const SequuidTimeLayout *
check_kind(const char *kind)
{
	const SequuidTimeLayout *layout = sequuid_time_layout_by_kind(kind);

	if (layout == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("argument \"kind\" must name a time-ordered key layout, not \"%s\"", kind),
				 errhint("Pass " SEQUUID_TIME_LAYOUT_KINDS "; v1 keys are not in time order, their v6 form is.")));
	return layout;
}

static void
check_count(int32 count)
{
	if (count < 1 || count > MAX_RANGES)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("argument \"count\" must be between 1 and %d, not %d", MAX_RANGES, count),
				 errhint("For more ranges, call " FUNCTION_NAME " again from the last range_end.")));
}

/* the step in microseconds */
static int64
check_step(const Interval *step)
{
#ifdef INTERVAL_NOT_FINITE
	if (INTERVAL_NOT_FINITE(step))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("argument \"step\" must be a finite interval"),
				 errhint("Pass a fixed length of time such as '24 hours'.")));
#endif
	if (step->month != 0 || step->day != 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("argument \"step\" must be a fixed length of time, without days or months"),
				 errdetail("How long a day or a month lasts depends on the TimeZone setting, and bounds must not."),
				 errhint("Count in hours ('24 hours' for a day), or name the time zone of the days and months as argument \"time_zone\".")));
	if (step->time <= 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("argument \"step\" must be positive"),
				 errhint("Pass a fixed length of time such as '24 hours'.")));
	return step->time;
}

/* with a time zone: months, days and time, none negative, not all zero */
static void
check_calendar_step(const Interval *step)
{
#ifdef INTERVAL_NOT_FINITE
	if (INTERVAL_NOT_FINITE(step))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("argument \"step\" must be a finite interval"),
				 errhint("Pass a length of time such as '1 day' or '1 month'.")));
#endif
	if (step->month < 0 || step->day < 0 || step->time < 0 ||
		(step->month == 0 && step->day == 0 && step->time == 0))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("argument \"step\" must be positive, with no negative part"),
				 errhint("Pass a length of time such as '1 day' or '1 month'.")));
}

static void
report_last_end_out_of_range(const Ranges *ranges)
{
	ereport(ERROR,
			(errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE),
			 errmsg("arguments \"step\" and \"count\" of " FUNCTION_NAME " take the last range past the %s range",
					ranges->layout->name),
			 errdetail("%s holds instants from %s.", ranges->layout->name, ranges->layout->range_text)));
}

/*
 * Unix microseconds of start + index * step on time_zone's clock; the
 * caller has made sure (check_zoned_last_end) that no step overflows.
 */
static int64
zoned_boundary(const Ranges *ranges, int64 index)
{
	Interval   *offset = palloc(sizeof(Interval));
	Timestamp	local;
	TimestampTz instant;

	offset->month = (int32) (ranges->step.month * index);
	offset->day = (int32) (ranges->step.day * index);
	offset->time = ranges->step.time * index;
	local = DatumGetTimestamp(DirectFunctionCall2(timestamp_pl_interval,
												  TimestampGetDatum(ranges->local_start),
												  IntervalPGetDatum(offset)));
	instant = DatumGetTimestampTz(DirectFunctionCall2(timestamp_zone,
													  PointerGetDatum(ranges->time_zone),
													  TimestampGetDatum(local)));
	pfree(offset);
	return unix_us_from_timestamptz(instant);
}

/*
 * The last range_end of calendar steps inside the layout's range: a month
 * lasts 28 to 31 days and a zone moves a day by hours, so an estimate with
 * 28-day months and two days to spare rules out what surely lies past the
 * range before the exact arithmetic could overflow; the exact end, and
 * that every range is longer than zero (an hour step can land twice on
 * one instant where clocks jump), are checked after it.
 */
static void
check_zoned_last_end(const Ranges *ranges, int32 count)
{
	int64		months = (int64) ranges->step.month * count;
	int64		days = (int64) ranges->step.day * count;
	int64		time_us;
	int64		lowest_end;

	if (months > MAX_TOTAL_MONTHS || days > MAX_TOTAL_DAYS ||
		pg_mul_s64_overflow(ranges->step.time, count, &time_us) ||
		time_us > (int64) MAX_TOTAL_DAYS * USECS_PER_DAY)
		report_last_end_out_of_range(ranges);
	lowest_end = ranges->start_unix_us + (months * 28 + days - 2) * USECS_PER_DAY + time_us;
	if (lowest_end > ranges->layout->max_unix_us ||
		zoned_boundary(ranges, count) > ranges->layout->max_unix_us)
		report_last_end_out_of_range(ranges);
}

/* Unix microseconds where range index starts (and range index - 1 ends) */
static int64
range_boundary(const Ranges *ranges, int64 index)
{
	if (ranges->time_zone == NULL)
		return ranges->start_unix_us + index * ranges->step_us;
	return zoned_boundary(ranges, index);
}

/* the last range_end must have a lower bound too: it is the last upper */
static void
check_last_end(const Ranges *ranges, int32 count)
{
	int64		length;
	int64		last_end;

	if (pg_mul_s64_overflow(ranges->step_us, count, &length) ||
		pg_add_s64_overflow(ranges->start_unix_us, length, &last_end) ||
		last_end > ranges->layout->max_unix_us)
		report_last_end_out_of_range(ranges);
}

/* the last-end checks have made sure that no bound here overflows or leaves the layout's range */
static HeapTuple
range_tuple(const Ranges *ranges, int64 index, TupleDesc tuple_desc)
{
	int64		range_start = range_boundary(ranges, index);
	int64		range_end = range_boundary(ranges, index + 1);
	pg_uuid_t  *lower = palloc(sizeof(pg_uuid_t));
	pg_uuid_t  *upper = palloc(sizeof(pg_uuid_t));
	Datum		values[4];
	bool		nulls[4] = {false, false, false, false};

	if (range_end <= range_start)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("argument \"step\" of " FUNCTION_NAME " makes an empty range in time zone \"%s\"",
						text_to_cstring(ranges->time_zone)),
				 errdetail("Range %lld starts and ends at the same instant, where the zone's clocks jump.",
						   (long long) index + 1),
				 errhint("Step by whole days or months, or by a fixed length of time without the time zone.")));
	ranges->layout->lower_bound(lower, range_start);
	ranges->layout->lower_bound(upper, range_end);
	values[0] = TimestampTzGetDatum(timestamptz_from_unix_us(range_start));
	values[1] = TimestampTzGetDatum(timestamptz_from_unix_us(range_end));
	values[2] = UUIDPGetDatum(lower);
	values[3] = UUIDPGetDatum(upper);
	return heap_form_tuple(tuple_desc, values, nulls);
}

/*
 * uuid_time_partitions(kind text, start timestamptz, step interval,
 * count int [, time_zone text]): every argument is checked before the
 * first row, so a call returns all its ranges or none.
 */
static Datum
time_partitions(FunctionCallInfo fcinfo, text *time_zone)
{
	FuncCallContext *funcctx;

	if (SRF_IS_FIRSTCALL())
	{
		MemoryContext oldcontext;
		TupleDesc	tuple_desc;
		Ranges	   *ranges;
		int32		count = PG_GETARG_INT32(3);
		Interval   *step = PG_GETARG_INTERVAL_P(2);

		funcctx = SRF_FIRSTCALL_INIT();
		oldcontext = MemoryContextSwitchTo(funcctx->multi_call_memory_ctx);

		ranges = palloc0(sizeof(Ranges));
		ranges->layout = check_kind(text_to_cstring(PG_GETARG_TEXT_PP(0)));
		check_count(count);
		if (time_zone == NULL)
			ranges->step_us = check_step(step);
		else
		{
			check_calendar_step(step);
			ranges->step = *step;
		}
		ranges->start_unix_us = sequuid_time_layout_unix_us(ranges->layout, PG_GETARG_TIMESTAMPTZ(1),
															"\"start\"", FUNCTION_NAME);
		if (time_zone == NULL)
			check_last_end(ranges, count);
		else
		{
			/* core's error for a zone it does not know names the zone */
			ranges->time_zone = DatumGetTextPCopy(PointerGetDatum(time_zone));
			ranges->local_start = DatumGetTimestamp(DirectFunctionCall2(timestamptz_zone,
																		PointerGetDatum(ranges->time_zone),
																		PG_GETARG_DATUM(1)));
			check_zoned_last_end(ranges, count);
		}

		if (get_call_result_type(fcinfo, NULL, &tuple_desc) != TYPEFUNC_COMPOSITE)
			elog(ERROR, "return type must be a row type");
		funcctx->tuple_desc = BlessTupleDesc(tuple_desc);
		funcctx->max_calls = count;
		funcctx->user_fctx = ranges;
		MemoryContextSwitchTo(oldcontext);
	}

	funcctx = SRF_PERCALL_SETUP();
	if (funcctx->call_cntr < funcctx->max_calls)
	{
		HeapTuple	tuple = range_tuple(funcctx->user_fctx, (int64) funcctx->call_cntr, funcctx->tuple_desc);

		SRF_RETURN_NEXT(funcctx, HeapTupleGetDatum(tuple));
	}
	SRF_RETURN_DONE(funcctx);
}

Datum
sequuid_uuid_time_partitions(PG_FUNCTION_ARGS)
{
	return time_partitions(fcinfo, NULL);
}

Datum
sequuid_uuid_time_partitions_zoned(PG_FUNCTION_ARGS)
{
	return time_partitions(fcinfo, PG_GETARG_TEXT_PP(4));
}
