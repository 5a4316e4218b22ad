/*-------------------------------------------------------------------------
 *
 * clock.c
 *	  The clock of the time-based generators: one read per call, a virtual
 *	  clock that runs at a settable rate, a superuser-only debug offset, and
 *	  a strictly ascending timestamp that is per backend, or shared by the
 *	  whole cluster when the library is in shared_preload_libraries.
 *
 * The virtual clock reads anchor + rate * (now - anchor).  The anchor is
 * sequuid.clock_anchor, or by default the server's start time, which every
 * backend of a cluster inherits from the postmaster, so all of them live
 * on one virtual timeline without any further setting.  At rate 1 the
 * anchor cancels out and the clock is the system clock, without any
 * arithmetic.
 *
 * The ascending timestamp is PostgreSQL 18's rule for uuidv7(): the next
 * value is the current time, or the previous value plus the minimal step
 * when the clock has not moved far enough (calls faster than it ticks, or
 * a clock that stepped back).  The shared variant keeps the previous value
 * in one atomic 64-bit word, advanced by fetch-and-add when calls outrun
 * the clock and by compare-and-swap when the clock has moved past it, so
 * it takes no lock and every value it hands out, in any backend, is larger
 * than every value handed out before it.
 *
 * sequuid/src/clock.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <time.h>

#include "common/int.h"

#include "port/atomics.h"
#include "storage/lwlock.h"
#include "storage/shmem.h"
#include "utils/guc.h"
#include "utils/timestamp.h"

#include "clock.h"
#include "time_units.h"

typedef struct SequuidSharedClock
{
	pg_atomic_uint64 previous_ns;	/* last value handed out, Unix ns */
} SequuidSharedClock;

/*
 * The rate's bounds: 10^6 runs a real second as 11.6 days, 10^-6 a day
 * as 86 ms; 0, negative, NaN and infinite rates are rejected when set.
 */
#define CLOCK_RATE_MIN	1e-6
#define CLOCK_RATE_MAX	1e6

/*
 * The virtual clock stays at or after the Unix epoch (the layouts hold no
 * earlier time) and this far below the last nanosecond an int64 holds
 * (2262-04-11), so that the offset and the ascending steps added to it
 * never overflow: it ends in 2261.
 */
#define CLOCK_HEADROOM_NS	(INT64CONST(1) << 55)
#define CLOCK_ANCHOR_MAX_S	9188000000.0

static int	clock_offset_ms = 0;
static double clock_rate = 1.0;
static double clock_anchor_s = 0.0;

/* set in every backend of a cluster that preloads the library */
static SequuidSharedClock *shared_clock = NULL;

/* used when the library is not preloaded */
static int64 backend_previous_ns = 0;

void
sequuid_clock_define_gucs(void)
{
	DefineCustomRealVariable("sequuid.clock_rate",
							 "Rate of the virtual clock of the sequuid generators.",
							 "The generators read clock_anchor + clock_rate * (now - clock_anchor), plus clock_offset.",
							 &clock_rate,
							 1.0, CLOCK_RATE_MIN, CLOCK_RATE_MAX,
							 PGC_SUSET,
							 GUC_NOT_IN_SAMPLE,
							 NULL, NULL, NULL);
	DefineCustomRealVariable("sequuid.clock_anchor",
							 "Unix time in seconds at which the virtual clock of the sequuid generators meets the real one.",
							 "0 (the default) anchors it at the server's start time, which every backend shares.",
							 &clock_anchor_s,
							 0.0, 0.0, CLOCK_ANCHOR_MAX_S,
							 PGC_SUSET,
							 GUC_NOT_IN_SAMPLE,
							 NULL, NULL, NULL);
	DefineCustomIntVariable("sequuid.clock_offset",
							"Shifts the clock of the sequuid generators (for tests).",
							"Lets a test step the clock back or forward without waiting.",
							&clock_offset_ms,
							0, INT_MIN, INT_MAX,
							PGC_SUSET,
							GUC_UNIT_MS | GUC_NOT_IN_SAMPLE,
							NULL, NULL, NULL);
}

Size
sequuid_clock_shmem_size(void)
{
	return MAXALIGN(sizeof(SequuidSharedClock));
}

/* shmem_startup_hook part: create or attach to the shared clock */
void
sequuid_clock_shmem_init(void)
{
	bool		found;

	LWLockAcquire(AddinShmemInitLock, LW_EXCLUSIVE);
	shared_clock = ShmemInitStruct("sequuid shared clock",
								   sizeof(SequuidSharedClock), &found);
	if (!found)
		pg_atomic_init_u64(&shared_clock->previous_ns, 0);
	LWLockRelease(AddinShmemInitLock);
}

static void
report_virtual_clock_out_of_range(void)
{
	ereport(ERROR,
			(errcode(ERRCODE_DATETIME_VALUE_OUT_OF_RANGE),
			 errmsg("the virtual clock of sequuid is outside the years 1970 to 2261, the range it can hold"),
			 errhint("Lower sequuid.clock_rate or move sequuid.clock_anchor closer to the current time.")));
}

/* anchor + rate * (now - anchor), in Unix ns */
static int64
virtual_ns(int64 real_ns)
{
	int64		anchor_ns;
	double		elapsed_ns;
	int64		result;

	if (clock_anchor_s > 0)
		anchor_ns = (int64) (clock_anchor_s * SEQUUID_NS_PER_S);
	else
		anchor_ns = (PgStartTime + SEQUUID_UNIX_TO_POSTGRES_US) * SEQUUID_NS_PER_US;
	elapsed_ns = clock_rate * (double) (real_ns - anchor_ns);
	if (!(elapsed_ns > (double) PG_INT64_MIN && elapsed_ns < (double) PG_INT64_MAX) ||
		pg_add_s64_overflow(anchor_ns, (int64) elapsed_ns, &result) ||
		result > PG_INT64_MAX - CLOCK_HEADROOM_NS || result < 0)
		report_virtual_clock_out_of_range();
	return result;
}

/* Unix time in ns on the virtual clock, including the debug offset */
int64
sequuid_clock_now_ns(void)
{
	struct timespec now;
	int64		now_ns;

	clock_gettime(CLOCK_REALTIME, &now);
	now_ns = (int64) now.tv_sec * SEQUUID_NS_PER_S + now.tv_nsec;
	if (unlikely(clock_rate != 1.0))
		now_ns = virtual_ns(now_ns);
	return now_ns + (int64) clock_offset_ms * SEQUUID_NS_PER_MS;
}

/*
 * Unix time in ns, at least SEQUUID_V7_MINIMAL_STEP_NS above the previous
 * result (of this backend, or of the cluster when preloaded).
 */
int64
sequuid_clock_ascending_ns(void)
{
	int64		now_ns = sequuid_clock_now_ns();
	int64		next_ns;

	if (shared_clock != NULL)
	{
		uint64		previous_ns = pg_atomic_read_u64(&shared_clock->previous_ns);

		for (;;)
		{
			/*
			 * When the clock has not passed the last value plus the step
			 * (calls from many backends outrun its ticks), the next value
			 * is the last one plus the step, whatever the last one is by
			 * now: one fetch-and-add claims it and cannot fail, where a
			 * compare-and-swap would retry whenever another backend got
			 * there first.  Its result is at least the value read plus
			 * the step, so at least now_ns.
			 */
			if (now_ns <= (int64) previous_ns + SEQUUID_V7_MINIMAL_STEP_NS)
				return (int64) pg_atomic_fetch_add_u64(&shared_clock->previous_ns,
													   SEQUUID_V7_MINIMAL_STEP_NS) +
					SEQUUID_V7_MINIMAL_STEP_NS;
			/* the clock has moved on: set it, unless another backend moved the value meanwhile */
			if (pg_atomic_compare_exchange_u64(&shared_clock->previous_ns, &previous_ns, (uint64) now_ns))
				return now_ns;
			/* the failed exchange reloaded previous_ns */
		}
	}

	next_ns = Max(now_ns, backend_previous_ns + SEQUUID_V7_MINIMAL_STEP_NS);
	backend_previous_ns = next_ns;
	return next_ns;
}
