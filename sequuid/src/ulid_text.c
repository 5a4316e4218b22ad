/*-------------------------------------------------------------------------
 *
 * ulid_text.c
 *	  ULID text (26 characters of Crockford base32) to and from uuid.
 *
 * The 128 bits are read as one big-endian number and written in 26
 * base-32 digits, most significant first; 26 digits hold 130 bits, so the
 * first digit is at most 7.  Decoding is case-insensitive and follows
 * Crockford's aliases: I and L read as 1, O reads as 0.  U stays invalid.
 *
 * sequuid/src/ulid_text.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "fmgr.h"
#include "mb/pg_wchar.h"
#include "utils/builtins.h"
#include "utils/uuid.h"
#if PG_VERSION_NUM >= 160000
#include "varatt.h"			/* VARDATA_ANY: in postgres.h before 16 */
#endif

PG_FUNCTION_INFO_V1(sequuid_uuid_to_ulid);
PG_FUNCTION_INFO_V1(sequuid_ulid_to_uuid);

#define ULID_TEXT_LENGTH	26
#define ULID_BITS_PER_DIGIT	5

static const char crockford_digits[] = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

/* digit value of an ASCII character, or -1 outside the alphabet */
static int
crockford_value(unsigned char c)
{
	if (c >= 'a' && c <= 'z')
		c = (unsigned char) (c - 'a' + 'A');
	switch (c)
	{
		case 'I':
		case 'L':
			return 1;
		case 'O':
			return 0;
	}
	for (int value = 0; value < 32; value++)
	{
		if (crockford_digits[value] == c)
			return value;
	}
	return -1;
}

Datum
sequuid_uuid_to_ulid(PG_FUNCTION_ARGS)
{
	pg_uuid_t  *id = PG_GETARG_UUID_P(0);
	char		text[ULID_TEXT_LENGTH];
	uint64		high = 0;
	uint64		low = 0;

	for (int i = 0; i < 8; i++)
	{
		high = (high << 8) | id->data[i];
		low = (low << 8) | id->data[8 + i];
	}
	for (int i = ULID_TEXT_LENGTH - 1; i >= 0; i--)
	{
		text[i] = crockford_digits[low & 31];
		low = (low >> ULID_BITS_PER_DIGIT) | (high << (64 - ULID_BITS_PER_DIGIT));
		high >>= ULID_BITS_PER_DIGIT;
	}
	PG_RETURN_TEXT_P(cstring_to_text_with_len(text, ULID_TEXT_LENGTH));
}

static void
report_invalid_ulid(const char *input, const char *detail)
{
	ereport(ERROR,
			(errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
			 errmsg("invalid input syntax for a ULID: \"%s\"", input),
			 errdetail("%s", detail)));
}

Datum
sequuid_ulid_to_uuid(PG_FUNCTION_ARGS)
{
	text	   *ulid = PG_GETARG_TEXT_PP(0);
	const unsigned char *chars = (const unsigned char *) VARDATA_ANY(ulid);
	pg_uuid_t  *result;
	uint64		high = 0;
	uint64		low = 0;

	/* in characters, so that a non-ASCII character reads as out of the alphabet */
	if (pg_mbstrlen_with_len(VARDATA_ANY(ulid), VARSIZE_ANY_EXHDR(ulid)) != ULID_TEXT_LENGTH)
		report_invalid_ulid(text_to_cstring(ulid), "A ULID is exactly 26 characters long.");
	for (int i = 0; i < ULID_TEXT_LENGTH; i++)
	{
		int			value = crockford_value(chars[i]);

		if (value < 0)
			report_invalid_ulid(text_to_cstring(ulid),
								"A ULID consists of Crockford base32 characters (0-9 and A-Z except U).");
		if (i == 0 && value > 7)
			report_invalid_ulid(text_to_cstring(ulid),
								"The largest ULID is 7ZZZZZZZZZZZZZZZZZZZZZZZZZ.");
		high = (high << ULID_BITS_PER_DIGIT) | (low >> (64 - ULID_BITS_PER_DIGIT));
		low = (low << ULID_BITS_PER_DIGIT) | (uint64) value;
	}
	result = palloc(sizeof(pg_uuid_t));
	for (int i = 0; i < 8; i++)
	{
		result->data[i] = (unsigned char) (high >> (56 - 8 * i));
		result->data[8 + i] = (unsigned char) (low >> (56 - 8 * i));
	}
	PG_RETURN_UUID_P(result);
}
