/*-------------------------------------------------------------------------
 *
 * v1_v6.c
 *	  uuid_generate_v6() and uuid_generate_v1_random_node(): RFC 9562
 *	  UUIDv6 and UUIDv1 with a random node.
 *
 * Both hold v1's 60-bit Gregorian timestamp in 100-ns units, then a random
 * clock_seq and a random node with the multicast bit set (RFC 9562
 * sections 5.1, 5.6 and 6.10); v6 stores the timestamp most significant
 * part first, v1 least significant part first.  The timestamp comes from
 * the same ascending clock as v7: its minimal step (245 ns) exceeds
 * 100 ns, so successive values always differ in the timestamp, which is
 * strictly increasing, per backend or across the cluster when preloaded.
 * (A v1 value's bytes are not ordered: its low time bits come first.)
 *
 * sequuid/src/v1_v6.c
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
PG_FUNCTION_INFO_V1(uuid_generate_v1_random_node);

static pg_uuid_t *
generate_gregorian(int version)
{
	int64		ns = sequuid_clock_ascending_ns();
	uint64		gregorian_100ns = (uint64) (ns / SEQUUID_NS_PER_100NS) + SEQUUID_GREGORIAN_TO_UNIX_100NS;
	pg_uuid_t  *uuid = palloc(UUID_LEN);

	if (version == 6)
		uuid_v6_set_time(uuid->data, gregorian_100ns);
	else
		uuid_v1_set_time(uuid->data, gregorian_100ns);
	/* clock_seq (with the variant) and node */
	sequuid_random_bytes(&uuid->data[8], UUID_LEN - 8);
	uuid_mark_random_node(uuid->data);
	uuid_set_version_variant(uuid->data, version);
	return uuid;
}

Datum
uuid_generate_v6(PG_FUNCTION_ARGS)
{
	PG_RETURN_UUID_P(generate_gregorian(6));
}

/*
 * Not uuid-ossp's uuid_generate_v1(): that name would clash when both
 * extensions share a schema, and its node is the host's MAC address.
 */
Datum
uuid_generate_v1_random_node(PG_FUNCTION_ARGS)
{
	PG_RETURN_UUID_P(generate_gregorian(1));
}
