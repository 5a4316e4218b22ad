/*-------------------------------------------------------------------------
 *
 * sequuid.h
 *	  Services the sequuid generators share: randomness, the clock and the
 *	  checks of their arguments.
 *
 * Include after postgres.h.
 *
 * sequuid/src/sequuid.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef SEQUUID_H
#define SEQUUID_H

#include "datatype/timestamp.h"

/* largest single draw from the per-backend random chunk */
#define SEQUUID_RANDOM_MAX_DRAW		16

/* random.c */
extern void sequuid_random_bytes(unsigned char *dst, size_t len);

/* clock.c */
extern int	sequuid_clock_offset_ms;
extern void sequuid_clock_define_guc(void);
extern Size sequuid_clock_shmem_size(void);
extern void sequuid_clock_shmem_init(void);
extern bool sequuid_clock_is_shared(void);
extern int64 sequuid_clock_now_ns(void);
extern int64 sequuid_clock_ascending_ns(void);

/* sequential.c */
extern void sequuid_check_positive(const char *argument, int32 value);

#endif							/* SEQUUID_H */
