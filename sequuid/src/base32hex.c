/*-------------------------------------------------------------------------
 *
 * base32hex.c
 *	  Sort-preserving text of a uuid: RFC 4648 base32hex, and back.
 *
 * base32hex (RFC 4648 section 7) writes 0-9 before A-V, so its digits
 * sort in the order of their values, in ASCII and in the C collation: the
 * text of two uuids compares byte-wise as the uuids do.  The 128 bits are
 * read as one big-endian number of 130 bits (two zero bits appended) and
 * written as 26 digits, most significant first, without the "=" padding
 * RFC 4648 adds; that is PostgreSQL 19's
 * rtrim(encode(id::bytea, 'base32hex'), '=').
 *
 * Decoding (1.6 on) accepts the canonical text alone, the one
 * uuid_to_base32hex() writes: 26 digits, upper case, no padding, no
 * whitespace, and the two bits past the 128th zero.  One uuid thus has one
 * spelling, so a public id in a URL, a cache key or a log line matches
 * itself byte for byte; anything else is invalid text (22P02).
 *
 * 1.5's uuid_from_base32hex binds the lenient decoder kept below: what
 * PostgreSQL 19's decode(text, 'base32hex') followed by the cast to uuid
 * accepts (either case, whitespace anywhere, trailing "=" padding, 26
 * digits; the two bits past the 128th dropped).
 *
 * sequuid/src/base32hex.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "fmgr.h"
#include "mb/pg_wchar.h"
#include "utils/builtins.h"
#include "utils/uuid.h"
#if PG_VERSION_NUM >= 160000
#include "varatt.h"				/* VARDATA_ANY: in postgres.h before 16 */
#endif

PG_FUNCTION_INFO_V1(sequuid_uuid_to_base32hex);
PG_FUNCTION_INFO_V1(sequuid_uuid_from_base32hex);
PG_FUNCTION_INFO_V1(sequuid_uuid_from_base32hex_canonical);

#define BASE32HEX_DIGITS	26
#define BASE32HEX_BITS		5
#define CANONICAL_HINT		"The canonical text is what uuid_to_base32hex() writes: 26 digits 0-9 and A-V, upper case, without padding or whitespace."

static const char base32hex_digits[] = "0123456789ABCDEFGHIJKLMNOPQRSTUV";

/* the 5 bits at bit position 'first' of the 16 bytes, zero past the end */
static int
digit_at(const unsigned char *data, int first)
{
	int			byte = first / 8;
	int			window = data[byte] << 8;

	if (byte + 1 < UUID_LEN)
		window |= data[byte + 1];
	return (window >> (16 - BASE32HEX_BITS - first % 8)) & 31;
}

/* digit value of an ASCII character, or -1 outside the alphabet */
static int
base32hex_value(unsigned char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'A' && c <= 'V')
		return c - 'A' + 10;
	if (c >= 'a' && c <= 'v')
		return c - 'a' + 10;
	return -1;
}

/* the whitespace PostgreSQL's decoders skip */
static bool
is_skipped_space(unsigned char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

Datum
sequuid_uuid_to_base32hex(PG_FUNCTION_ARGS)
{
	pg_uuid_t  *id = PG_GETARG_UUID_P(0);
	char		text[BASE32HEX_DIGITS];

	for (int i = 0; i < BASE32HEX_DIGITS; i++)
		text[i] = base32hex_digits[digit_at(id->data, i * BASE32HEX_BITS)];
	PG_RETURN_TEXT_P(cstring_to_text_with_len(text, BASE32HEX_DIGITS));
}

static void
report_invalid_symbol(const char *symbol)
{
	ereport(ERROR,
			(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
			 errmsg("argument \"base32hex\" of uuid_from_base32hex contains \"%.*s\", which is not a base32hex digit",
					pg_mblen(symbol), symbol),
			 errhint("base32hex digits are 0-9 and A-V, in either case, followed by \"=\" padding or not; whitespace is skipped.")));
}

Datum
sequuid_uuid_from_base32hex(PG_FUNCTION_ARGS)
{
	text	   *encoded = PG_GETARG_TEXT_PP(0);
	const char *chars = VARDATA_ANY(encoded);
	int			length = VARSIZE_ANY_EXHDR(encoded);
	pg_uuid_t  *result = palloc0(sizeof(pg_uuid_t));
	int			digits = 0;
	bool		padding = false;

	for (int i = 0; i < length; i += pg_mblen(chars + i))
	{
		unsigned char c = (unsigned char) chars[i];
		int			value;

		if (is_skipped_space(c))
			continue;
		if (c == '=')
		{
			padding = true;
			continue;
		}
		value = base32hex_value(c);
		if (value < 0)
			report_invalid_symbol(chars + i);
		if (padding)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("argument \"base32hex\" of uuid_from_base32hex has the digit \"%c\" after its \"=\" padding",
							c),
					 errhint("Padding may only end the text.")));
		/* the digit's bits go to bit position 5 * digits; past bit 128 they are dropped */
		if (digits < BASE32HEX_DIGITS)
		{
			int			first = digits * BASE32HEX_BITS;
			int			byte = first / 8;
			int			shift = 16 - BASE32HEX_BITS - first % 8;

			result->data[byte] |= (unsigned char) ((value << shift) >> 8);
			if (byte + 1 < UUID_LEN)
				result->data[byte + 1] |= (unsigned char) (value << shift);
		}
		digits++;
	}
	if (digits != BASE32HEX_DIGITS)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
				 errmsg("argument \"base32hex\" of uuid_from_base32hex has %d base32hex digits, not %d",
						digits, BASE32HEX_DIGITS),
				 errdetail("The 16 bytes of a uuid are 26 digits, which RFC 4648 pads with \"======\" to 32 characters.")));
	PG_RETURN_UUID_P(result);
}

/* the digit value of a canonical (upper-case) digit, or -1 */
static int
canonical_value(unsigned char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'A' && c <= 'V')
		return c - 'A' + 10;
	return -1;
}

Datum
sequuid_uuid_from_base32hex_canonical(PG_FUNCTION_ARGS)
{
	text	   *encoded = PG_GETARG_TEXT_PP(0);
	const char *chars = VARDATA_ANY(encoded);
	int			length = VARSIZE_ANY_EXHDR(encoded);
	pg_uuid_t  *result = palloc0(sizeof(pg_uuid_t));
	int			digits = 0;

	for (int i = 0; i < length; i += pg_mblen(chars + i))
	{
		int			value = canonical_value((unsigned char) chars[i]);

		if (value < 0)
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
					 errmsg("argument \"base32hex\" of uuid_from_base32hex contains \"%.*s\", which is not a digit of canonical base32hex",
							pg_mblen(chars + i), chars + i),
					 errhint(CANONICAL_HINT)));
		if (digits < BASE32HEX_DIGITS)
		{
			int			first = digits * BASE32HEX_BITS;
			int			byte = first / 8;
			int			shift = 16 - BASE32HEX_BITS - first % 8;

			result->data[byte] |= (unsigned char) ((value << shift) >> 8);
			if (byte + 1 < UUID_LEN)
				result->data[byte + 1] |= (unsigned char) (value << shift);
		}
		digits++;
	}
	if (digits != BASE32HEX_DIGITS)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
				 errmsg("argument \"base32hex\" of uuid_from_base32hex has %d digits, not %d",
						digits, BASE32HEX_DIGITS),
				 errhint(CANONICAL_HINT)));
	/* the last digit holds the uuid's last 3 bits and two bits that must be zero */
	if (canonical_value((unsigned char) chars[length - 1]) & 3)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
				 errmsg("argument \"base32hex\" of uuid_from_base32hex ends in \"%c\", whose two bits past the 128th are not zero",
						chars[length - 1]),
				 errhint("The last digit of a uuid's text is one of 0 4 8 C G K O S.")));
	PG_RETURN_UUID_P(result);
}
