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
 * The step is a fixed length of time: a day or a month lasts as long as
 * the session's TimeZone says, so steps of them would make the same call
 * return other bounds in another session, and bounds made by a
 * maintenance job in UTC would then overlap those made interactively.
 * With fixed steps the result depends on the arguments alone: IMMUTABLE.
 *
 * sequuid/src/partitions.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "common/int.h"
#include "fmgr.h"
#include "funcapi.h"
#include "utils/builtins.h"
#include "utils/timestamp.h"
#include "utils/uuid.h"

#include "time_layout.h"
#include "uuid_time.h"

PG_FUNCTION_INFO_V1(sequuid_uuid_time_partitions);

/*
 * More ranges than any partitioned table can use well, and a bound on the
 * memory and time one call takes; further ranges start at the last
 * range_end of a call.
 */
#define MAX_RANGES	100000

#define FUNCTION_NAME	"uuid_time_partitions"

typedef struct Ranges
{
	const SequuidTimeLayout *layout;
	int64		start_unix_us;
	int64		step_us;
} Ranges;

static const SequuidTimeLayout *check_kind(const char *kind);
static void check_count(int32 count);
static int64 check_step(const Interval *step);
static void check_last_end(const Ranges *ranges, int32 count);
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
				 errhint("Count in hours: '24 hours' for a day.")));
	if (step->time <= 0)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("argument \"step\" must be positive"),
				 errhint("Pass a fixed length of time such as '24 hours'.")));
	return step->time;
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
		ereport(ERROR,
				(errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE),
				 errmsg("arguments \"step\" and \"count\" of " FUNCTION_NAME " take the last range past the %s range",
						ranges->layout->name),
				 errdetail("%s holds instants from %s.", ranges->layout->name, ranges->layout->range_text)));
}

/* check_last_end() has made sure that no bound here overflows or leaves the layout's range */
static HeapTuple
range_tuple(const Ranges *ranges, int64 index, TupleDesc tuple_desc)
{
	int64		range_start = ranges->start_unix_us + index * ranges->step_us;
	int64		range_end = range_start + ranges->step_us;
	pg_uuid_t  *lower = palloc(sizeof(pg_uuid_t));
	pg_uuid_t  *upper = palloc(sizeof(pg_uuid_t));
	Datum		values[4];
	bool		nulls[4] = {false, false, false, false};

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
 * count int): every argument is checked before the first row, so a call
 * returns all its ranges or none.
 */
Datum
sequuid_uuid_time_partitions(PG_FUNCTION_ARGS)
{
	FuncCallContext *funcctx;

	if (SRF_IS_FIRSTCALL())
	{
		MemoryContext oldcontext;
		TupleDesc	tuple_desc;
		Ranges	   *ranges;
		int32		count = PG_GETARG_INT32(3);

		funcctx = SRF_FIRSTCALL_INIT();
		oldcontext = MemoryContextSwitchTo(funcctx->multi_call_memory_ctx);

		ranges = palloc(sizeof(Ranges));
		ranges->layout = check_kind(text_to_cstring(PG_GETARG_TEXT_PP(0)));
		check_count(count);
		ranges->step_us = check_step(PG_GETARG_INTERVAL_P(2));
		ranges->start_unix_us = sequuid_time_layout_unix_us(ranges->layout, PG_GETARG_TIMESTAMPTZ(1),
															"\"start\"", FUNCTION_NAME);
		check_last_end(ranges, count);

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
