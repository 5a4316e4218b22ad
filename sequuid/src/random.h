/*-------------------------------------------------------------------------
 *
 * random.h
 *	  Chunked, fork-safe strong randomness for the generators (random.c).
 *
 * Include after postgres.h.
 *
 * sequuid/src/random.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef SEQUUID_RANDOM_H
#define SEQUUID_RANDOM_H

/* largest single draw from the per-backend random chunk */
#define SEQUUID_RANDOM_MAX_DRAW		16

extern void sequuid_random_bytes(unsigned char *dst, size_t len);

#endif							/* SEQUUID_RANDOM_H */
