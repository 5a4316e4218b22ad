/*-------------------------------------------------------------------------
 *
 * v6.c
 *	  uuid_generate_v6(): RFC 9562 UUIDv6.
 *
 * v1's 60-bit Gregorian timestamp in 100-ns units, most significant part
 * first, version 6, then a random clock_seq and a random node with the
 * multicast bit set (RFC 9562 sections 5.6 and 6.10).  The timestamp comes
 * from the same ascending clock as v7: its minimal step (245 ns) exceeds
 * 100 ns, so successive values always differ in the timestamp and are
 * strictly increasing, per backend or across the cluster when preloaded.
 *
 * sequuid/src/v6.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "fmgr.h"
#include "utils/uuid.h"

#include "clock.h"
#include "random.h"
#include "time_units.h"
#include "uuid_layout.h"

PG_FUNCTION_INFO_V1(uuid_generate_v6);

Datum
uuid_generate_v6(PG_FUNCTION_ARGS)
{
	int64		ns = sequuid_clock_ascending_ns();
	uint64		gregorian_100ns = (uint64) (ns / SEQUUID_NS_PER_100NS) + SEQUUID_GREGORIAN_TO_UNIX_100NS;
	pg_uuid_t  *uuid = palloc(UUID_LEN);

	uuid_v6_set_time(uuid->data, gregorian_100ns);
	/* clock_seq (with the variant) and node */
	sequuid_random_bytes(&uuid->data[8], UUID_LEN - 8);
	uuid_v6_mark_random_node(uuid->data);
	uuid_set_version_variant(uuid->data, 6);
	PG_RETURN_UUID_P(uuid);
}
