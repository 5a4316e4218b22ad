/*-------------------------------------------------------------------------
 *
 * time_ops.c
 *	  The uuid_time_ops btree operator class: v1 UUIDs in time order.
 *
 * A v1 UUID stores its timestamp least significant part first, so the
 * default byte order scatters consecutive v1 keys over the whole index.
 * This order reads the 60-bit timestamp instead:
 *
 *	1. every RFC 9562 version 1 UUID sorts before every other UUID;
 *	2. two v1 UUIDs compare by timestamp, then by octets 8-15 (clock_seq
 *	   and node), which is byte order of their v6 form;
 *	3. two other UUIDs compare by their bytes, like the default order.
 *
 * Every octet takes part, so two UUIDs compare equal exactly when their
 * bytes are equal, which keeps the ordinary uuid = as the equality.
 *
 * sequuid/src/time_ops.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "fmgr.h"
#include "utils/sortsupport.h"
#include "utils/uuid.h"

#include "uuid_layout.h"

PG_FUNCTION_INFO_V1(sequuid_uuid_time_cmp);
PG_FUNCTION_INFO_V1(sequuid_uuid_time_lt);
PG_FUNCTION_INFO_V1(sequuid_uuid_time_le);
PG_FUNCTION_INFO_V1(sequuid_uuid_time_ge);
PG_FUNCTION_INFO_V1(sequuid_uuid_time_gt);
PG_FUNCTION_INFO_V1(sequuid_uuid_time_sortsupport);

static inline bool
is_v1(const pg_uuid_t *id)
{
	return uuid_get_rfc_version(id->data) == 1;
}

/* memcmp() promises only the sign; the btree comparison function returns -1, 0 or 1 */
static inline int
sign_of(int comparison)
{
	return (comparison > 0) - (comparison < 0);
}

static int
uuid_time_compare(const pg_uuid_t *a, const pg_uuid_t *b)
{
	bool		a_is_v1 = is_v1(a);
	bool		b_is_v1 = is_v1(b);

	if (a_is_v1 != b_is_v1)
		return a_is_v1 ? -1 : 1;
	if (a_is_v1)
	{
		uint64		a_time = uuid_v1_get_time(a->data);
		uint64		b_time = uuid_v1_get_time(b->data);

		if (a_time != b_time)
			return a_time < b_time ? -1 : 1;
		return sign_of(memcmp(a->data + 8, b->data + 8, 8));
	}
	return sign_of(memcmp(a->data, b->data, sizeof(a->data)));
}

Datum
sequuid_uuid_time_cmp(PG_FUNCTION_ARGS)
{
	PG_RETURN_INT32(uuid_time_compare(PG_GETARG_UUID_P(0), PG_GETARG_UUID_P(1)));
}

Datum
sequuid_uuid_time_lt(PG_FUNCTION_ARGS)
{
	PG_RETURN_BOOL(uuid_time_compare(PG_GETARG_UUID_P(0), PG_GETARG_UUID_P(1)) < 0);
}

Datum
sequuid_uuid_time_le(PG_FUNCTION_ARGS)
{
	PG_RETURN_BOOL(uuid_time_compare(PG_GETARG_UUID_P(0), PG_GETARG_UUID_P(1)) <= 0);
}

Datum
sequuid_uuid_time_ge(PG_FUNCTION_ARGS)
{
	PG_RETURN_BOOL(uuid_time_compare(PG_GETARG_UUID_P(0), PG_GETARG_UUID_P(1)) >= 0);
}

Datum
sequuid_uuid_time_gt(PG_FUNCTION_ARGS)
{
	PG_RETURN_BOOL(uuid_time_compare(PG_GETARG_UUID_P(0), PG_GETARG_UUID_P(1)) > 0);
}

static int
uuid_time_fast_compare(Datum a, Datum b, SortSupport ssup pg_attribute_unused())
{
	return uuid_time_compare(DatumGetUUIDP(a), DatumGetUUIDP(b));
}

#if SIZEOF_DATUM >= 8

/*
 * Abbreviated key: the leading 64 bits of the order.  A v1 UUID gives a
 * 0 bit and its 60-bit timestamp, any other UUID a 1 bit and its first 63
 * bits, so comparing keys as unsigned numbers never contradicts the full
 * comparison; equal keys fall back to it.
 */
static Datum
uuid_time_abbrev_convert(Datum original, SortSupport ssup pg_attribute_unused())
{
	pg_uuid_t  *id = DatumGetUUIDP(original);
	uint64		key;

	if (is_v1(id))
		key = uuid_v1_get_time(id->data) << 3;
	else
	{
		uint64		leading = 0;

		for (int i = 0; i < 8; i++)
			leading = (leading << 8) | id->data[i];
		key = (UINT64CONST(1) << 63) | (leading >> 1);
	}
	return UInt64GetDatum(key);
}

static int
uuid_time_abbrev_compare(Datum a, Datum b, SortSupport ssup pg_attribute_unused())
{
	uint64		a_key = DatumGetUInt64(a);
	uint64		b_key = DatumGetUInt64(b);

	if (a_key == b_key)
		return 0;
	return a_key < b_key ? -1 : 1;
}

/*
 * Time-ordered keys are distinct by construction, so abbreviation pays off
 * on exactly the data this order is for; it is never abandoned.
 */
static bool
uuid_time_abbrev_abort(int memtupcount pg_attribute_unused(),
					   SortSupport ssup pg_attribute_unused())
{
	return false;
}
#endif

Datum
sequuid_uuid_time_sortsupport(PG_FUNCTION_ARGS)
{
	SortSupport ssup = (SortSupport) PG_GETARG_POINTER(0);

	ssup->comparator = uuid_time_fast_compare;
#if SIZEOF_DATUM >= 8
	if (ssup->abbreviate)
	{
		ssup->abbrev_converter = uuid_time_abbrev_convert;
		ssup->abbrev_abort = uuid_time_abbrev_abort;
		ssup->abbrev_full_comparator = uuid_time_fast_compare;
		ssup->comparator = uuid_time_abbrev_compare;
	}
#endif
	PG_RETURN_VOID();
}
