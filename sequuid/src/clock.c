/*-------------------------------------------------------------------------
 *
 * clock.c
 *	  The clock of the time-based generators: one read per call, a
 *	  superuser-only debug offset, and a strictly ascending timestamp that
 *	  is per backend, or shared by the whole cluster when the library is in
 *	  shared_preload_libraries.
 *
 * The ascending timestamp is PostgreSQL 18's rule for uuidv7(): the next
 * value is the current time, or the previous value plus the minimal step
 * when the clock has not moved far enough (calls faster than it ticks, or
 * a clock that stepped back).  The shared variant keeps the previous value
 * in one atomic 64-bit word advanced by compare-and-swap, so it takes no
 * lock and every value it hands out, in any backend, is larger than every
 * value handed out before it.
 *
 * sequuid/src/clock.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <time.h>

#include "port/atomics.h"
#include "storage/lwlock.h"
#include "storage/shmem.h"
#include "utils/guc.h"

#include "clock.h"
#include "time_units.h"

typedef struct SequuidSharedClock
{
	pg_atomic_uint64 previous_ns;	/* last value handed out, Unix ns */
} SequuidSharedClock;

static int	clock_offset_ms = 0;

/* set in every backend of a cluster that preloads the library */
static SequuidSharedClock *shared_clock = NULL;

/* used when the library is not preloaded */
static int64 backend_previous_ns = 0;

void
sequuid_clock_define_gucs(void)
{
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

/* Unix time in ns, including the debug offset */
int64
sequuid_clock_now_ns(void)
{
	struct timespec now;

	clock_gettime(CLOCK_REALTIME, &now);
	return (int64) now.tv_sec * SEQUUID_NS_PER_S + now.tv_nsec +
		(int64) clock_offset_ms * SEQUUID_NS_PER_MS;
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

		/* a failed exchange reloads previous_ns; recompute and retry */
		do
		{
			next_ns = Max(now_ns, (int64) previous_ns + SEQUUID_V7_MINIMAL_STEP_NS);
		} while (!pg_atomic_compare_exchange_u64(&shared_clock->previous_ns,
												 &previous_ns, (uint64) next_ns));
		return next_ns;
	}

	next_ns = Max(now_ns, backend_previous_ns + SEQUUID_V7_MINIMAL_STEP_NS);
	backend_previous_ns = next_ns;
	return next_ns;
}
