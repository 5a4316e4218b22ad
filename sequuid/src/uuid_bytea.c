/*-------------------------------------------------------------------------
 *
 * uuid_bytea.c
 *	  A bytea of 16 bytes as a uuid: PostgreSQL 19's bytea to uuid cast.
 *
 * sequuid_pg19api casts bytea to uuid with this function on servers before
 * PostgreSQL 19, with 19's result and 19's error for any other length.  The
 * other direction needs no C: core's uuid_send() already returns the 16
 * bytes in order.
 *
 * sequuid/src/uuid_bytea.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "fmgr.h"
#include "utils/uuid.h"
#if PG_VERSION_NUM >= 160000
#include "varatt.h"				/* VARDATA_ANY: in postgres.h before 16 */
#endif

PG_FUNCTION_INFO_V1(sequuid_uuid_from_bytea);

Datum
sequuid_uuid_from_bytea(PG_FUNCTION_ARGS)
{
	bytea	   *bytes = PG_GETARG_BYTEA_PP(0);
	int			length = VARSIZE_ANY_EXHDR(bytes);
	pg_uuid_t  *result;

	if (length != UUID_LEN)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
				 errmsg("invalid input length for type %s", "uuid"),
				 errdetail("Expected %d bytes, got %d.", UUID_LEN, length)));
	result = palloc(sizeof(pg_uuid_t));
	memcpy(result->data, VARDATA_ANY(bytes), UUID_LEN);
	PG_RETURN_UUID_P(result);
}
