/*-------------------------------------------------------------------------
 *
 * random.c
 *	  Chunked, fork-safe strong randomness for the generators.
 *
 * pg_strong_random() costs most of a UUID when called once per value, so
 * each backend draws a large chunk at a time and hands out fresh bytes
 * from it; no byte is ever handed out twice.  The chunk remembers the
 * process that filled it: a process that inherited it through fork()
 * throws it away before use, so two backends never share random state.
 * It is never filled in the postmaster (where _PG_init runs when the
 * library is preloaded), only on first use in a backend.
 *
 * sequuid/src/random.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "miscadmin.h"

#include "random.h"

#define RANDOM_CHUNK_SIZE	8192

static unsigned char random_chunk[RANDOM_CHUNK_SIZE];
static size_t random_used = RANDOM_CHUNK_SIZE;
static int	random_owner_pid = 0;

static void
refill_random_chunk(void)
{
	if (IsPostmasterEnvironment && !IsUnderPostmaster)
		elog(ERROR, "sequuid must not draw random bytes in the postmaster");

	if (!pg_strong_random(random_chunk, RANDOM_CHUNK_SIZE))
		ereport(ERROR,
				(errcode(ERRCODE_INTERNAL_ERROR),
				 errmsg("could not generate random values")));
	random_used = 0;
	random_owner_pid = MyProcPid;
}

/*
 * Copy len (at most SEQUUID_RANDOM_MAX_DRAW) fresh random bytes to dst.
 */
void
sequuid_random_bytes(unsigned char *dst, size_t len)
{
	Assert(len <= SEQUUID_RANDOM_MAX_DRAW);

	if (unlikely(random_owner_pid != MyProcPid ||
				 random_used + len > RANDOM_CHUNK_SIZE))
		refill_random_chunk();

	memcpy(dst, random_chunk + random_used, len);
	random_used += len;
}
