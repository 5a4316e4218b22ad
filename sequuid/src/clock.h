/*-------------------------------------------------------------------------
 *
 * clock.h
 *	  The clock of the time-based generators (clock.c): the virtual clock,
 *	  its settings, and the strictly ascending timestamp, shared by the
 *	  cluster when the library is preloaded.
 *
 * Include after postgres.h.
 *
 * sequuid/src/clock.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef SEQUUID_CLOCK_H
#define SEQUUID_CLOCK_H

extern void sequuid_clock_define_gucs(void);
extern Size sequuid_clock_shmem_size(void);
extern void sequuid_clock_shmem_init(void);
extern int64 sequuid_clock_now_ns(void);
extern int64 sequuid_clock_ascending_ns(void);

#endif							/* SEQUUID_CLOCK_H */
