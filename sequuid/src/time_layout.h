/*-------------------------------------------------------------------------
 *
 * time_layout.h
 *	  The time-ordered key layouts (v7, ULID, v6) by name: the range of
 *	  instants each can hold, and its lower bound of an instant
 *	  (time_layout.c).
 *
 * Include after postgres.h.
 *
 * sequuid/src/time_layout.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef SEQUUID_TIME_LAYOUT_H
#define SEQUUID_TIME_LAYOUT_H

#include "datatype/timestamp.h"
#include "utils/uuid.h"

typedef struct SequuidTimeLayout
{
	const char *kind;			/* as the kind argument spells it */
	const char *name;			/* in messages: "the UUIDv7 range" */
	int64		min_unix_us;	/* first and last instant a key can hold */
	int64		max_unix_us;
	const char *range_text;		/* the same two instants, for errdetail */
	void		(*lower_bound) (pg_uuid_t *result, int64 unix_us);
} SequuidTimeLayout;

/* the kinds as a hint lists them */
#define SEQUUID_TIME_LAYOUT_KINDS	"'v7', 'ulid' or 'v6'"

extern const SequuidTimeLayout sequuid_time_layout_v7;

extern const SequuidTimeLayout *sequuid_time_layout_by_kind(const char *kind);
extern int64 sequuid_time_layout_unix_us(const SequuidTimeLayout *layout, TimestampTz instant,
										 const char *argument, const char *function_name);

#endif							/* SEQUUID_TIME_LAYOUT_H */
