/*-------------------------------------------------------------------------
 *
 * public_id.c
 *	  Keyed, reversible mappings between a v7 and a v4-looking public id.
 *
 * The stored key stays a time-ordered v7; what leaves the database is its
 * façade, with the version nibble set to 4.  Two mappings share the key,
 * its setting and the checks:
 *
 * - uuid_v7_to_public / uuid_public_to_v7 (1.6): the 60 bits of time and
 *   sub-millisecond fraction (unix_ts_ms, rand_a) go through a four-round
 *   Feistel network whose round function is SipHash-2-4 under the key of
 *   the id's 62 random bits (rand_b), the round number and the half.
 *   rand_b stays as it is, so decoding reads the same tweak from the
 *   façade and runs the rounds backwards.  The v7s of PostgreSQL 18 and
 *   sequuid carry a rising fraction in rand_a: masking it as well keeps the
 *   façades of consecutive ids from sorting in creation order; and as a
 *   keyed permutation (not an XOR), a façade changed in chosen bits decodes
 *   to an unrelated time, so no probe learns the hidden time bit by bit.
 *
 * - uuid_v7_to_uuidv47 / uuid_uuidv47_to_v7: UUIDv47's construction, bit
 *   for bit: the 48-bit time XORed with the low 48 bits of SipHash-2-4 of
 *   the 74 bits of rand_a and rand_b, rand_a kept.  It hides the time only
 *   where rand_a is random, which is not so for PostgreSQL 18's or
 *   sequuid's v7 (docs/public-ids.md).  1.5's SQL names bind these too.
 *
 * The key is 16 bytes, read as SipHash's reference reads its key: k0 from
 * bytes 0-7 and k1 from bytes 8-15, both little-endian.  UUIDv47 takes
 * (k0, k1) as two integers; the bytes of one are those of the other.
 *
 * Decoding checks what the key cannot change: version 4 and variant 10.
 * It deliberately does not judge whether the decoded time is plausible:
 * that judgement, answered differently for chosen inputs, would be an
 * oracle (docs/public-ids.md, "What decoding detects").
 *
 * The key can also come from the setting sequuid.public_id_key (32 hex
 * digits), which only a superuser or a role granted SET on it can set,
 * which SHOW ALL and pg_settings leave out, and whose value SHOW,
 * current_setting() and set_config() print as "(hidden)", to everyone.  It
 * is not GUC_SUPERUSER_ONLY: that would make set_config(), which reads the
 * new value back, fail for the granted application role, whose safest way
 * to set the key is set_config() with the key a bind parameter (never in a
 * statement's text).  Its value is validated when it is used, not when it
 * is set: PostgreSQL's message for a rejected setting quotes the value, and
 * a mistyped key is most of the key.  RESET ALL and DISCARD ALL clear it, as
 * a connection pool expects when it hands the connection to another client.
 *
 * sequuid/src/public_id.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "fmgr.h"
#include "utils/builtins.h"
#include "utils/guc.h"
#include "utils/uuid.h"
#if PG_VERSION_NUM >= 160000
#include "varatt.h"				/* VARDATA_ANY: in postgres.h before 16 */
#endif

#include "public_id.h"

/* 1.5's uuid_v7_to_public and uuid_public_to_v7: UUIDv47's mapping */
PG_FUNCTION_INFO_V1(sequuid_uuid_v7_to_public);
PG_FUNCTION_INFO_V1(sequuid_uuid_public_to_v7);
PG_FUNCTION_INFO_V1(sequuid_uuid_v7_to_public_setting);
PG_FUNCTION_INFO_V1(sequuid_uuid_public_to_v7_setting);
/* 1.6 on: the Feistel mapping under the public names, UUIDv47's under its own */
PG_FUNCTION_INFO_V1(sequuid_public_id_encode);
PG_FUNCTION_INFO_V1(sequuid_public_id_decode);
PG_FUNCTION_INFO_V1(sequuid_public_id_encode_setting);
PG_FUNCTION_INFO_V1(sequuid_public_id_decode_setting);
PG_FUNCTION_INFO_V1(sequuid_uuidv47_encode);
PG_FUNCTION_INFO_V1(sequuid_uuidv47_decode);
PG_FUNCTION_INFO_V1(sequuid_uuidv47_encode_setting);
PG_FUNCTION_INFO_V1(sequuid_uuidv47_decode_setting);

#define PUBLIC_ID_KEY_BYTES		16
#define PUBLIC_ID_KEY_SETTING	"sequuid.public_id_key"
#define TIMESTAMP_BYTES			6
#define TIMESTAMP_MASK			UINT64CONST(0x0000FFFFFFFFFFFF)
#define SIP_INPUT_BYTES			10
#define FEISTEL_ROUNDS			4
#define FEISTEL_HALF_BITS		30
#define FEISTEL_HALF_MASK		((UINT64CONST(1) << FEISTEL_HALF_BITS) - 1)
#define FEISTEL_MESSAGE_BYTES	12

typedef struct SipKey
{
	uint64		k0;
	uint64		k1;
} SipKey;

typedef enum PublicIdMapping
{
	MAPPING_FEISTEL,			/* time and rand_a permuted, keyed by rand_b */
	MAPPING_UUIDV47				/* time XORed, keyed by rand_a and rand_b */
} PublicIdMapping;

/* a mapping's SQL names, for messages */
typedef struct MappingNames
{
	const char *encoder;
	const char *decoder;
} MappingNames;

static const MappingNames feistel_names = {"uuid_v7_to_public", "uuid_public_to_v7"};
static const MappingNames uuidv47_names = {"uuid_v7_to_uuidv47", "uuid_uuidv47_to_v7"};
static const MappingNames uuidv47_names_1_5 = {"uuid_v7_to_public", "uuid_public_to_v7"};

/* what the setting's check hook parsed; the hook never rejects a value */
typedef enum KeySettingState
{
	KEY_SETTING_EMPTY,
	KEY_SETTING_MALFORMED,
	KEY_SETTING_VALID
} KeySettingState;

typedef struct KeySetting
{
	KeySettingState state;
	SipKey		key;
} KeySetting;

static char *public_id_key_text = NULL;
static KeySetting *public_id_key = NULL;

static uint64
read_le64(const uint8 *bytes)
{
	uint64		value = 0;

	for (int i = 7; i >= 0; i--)
		value = (value << 8) | bytes[i];
	return value;
}

static inline uint64
rotate_left(uint64 value, int bits)
{
	return (value << bits) | (value >> (64 - bits));
}

#define SIP_ROUND(v0, v1, v2, v3) \
	do { \
		v0 += v1; v1 = rotate_left(v1, 13); v1 ^= v0; v0 = rotate_left(v0, 32); \
		v2 += v3; v3 = rotate_left(v3, 16); v3 ^= v2; \
		v0 += v3; v3 = rotate_left(v3, 21); v3 ^= v0; \
		v2 += v1; v1 = rotate_left(v1, 17); v1 ^= v2; v2 = rotate_left(v2, 32); \
	} while (0)

/* SipHash-2-4's state, set up from the key */
typedef struct SipState
{
	uint64		v0;
	uint64		v1;
	uint64		v2;
	uint64		v3;
} SipState;

static inline SipState
sip_init(uint64 k0, uint64 k1)
{
	SipState	state;

	state.v0 = UINT64CONST(0x736f6d6570736575) ^ k0;
	state.v1 = UINT64CONST(0x646f72616e646f6d) ^ k1;
	state.v2 = UINT64CONST(0x6c7967656e657261) ^ k0;
	state.v3 = UINT64CONST(0x7465646279746573) ^ k1;
	return state;
}

/* one 8-byte block, as a little-endian word: two compression rounds */
static inline void
sip_absorb(SipState *state, uint64 word)
{
	state->v3 ^= word;
	SIP_ROUND(state->v0, state->v1, state->v2, state->v3);
	SIP_ROUND(state->v0, state->v1, state->v2, state->v3);
	state->v0 ^= word;
}

/* the four finalization rounds and the tag */
static inline uint64
sip_finish(SipState *state)
{
	state->v2 ^= 0xff;
	for (int i = 0; i < 4; i++)
		SIP_ROUND(state->v0, state->v1, state->v2, state->v3);
	return state->v0 ^ state->v1 ^ state->v2 ^ state->v3;
}

/* SipHash-2-4 (Aumasson and Bernstein, 2012) of a message of any length */
uint64
sequuid_siphash24(const uint8 *message, size_t length, uint64 k0, uint64 k1)
{
	SipState	state = sip_init(k0, k1);
	size_t		whole = length - length % 8;
	uint64		last = (uint64) length << 56;

	for (size_t offset = 0; offset < whole; offset += 8)
		sip_absorb(&state, read_le64(message + offset));
	for (size_t i = whole; i < length; i++)
		last |= (uint64) message[i] << (8 * (i - whole));
	sip_absorb(&state, last);
	return sip_finish(&state);
}

/*
 * UUIDv47: the façade and the v7 share every bit but the timestamp, the
 * version and the variant: XOR the timestamp with the mask of the 74 bits of
 * rand_a and rand_b and write the other version.  The same step encodes and
 * decodes.
 */
static void
remap_uuidv47(uint8 *data, const SipKey *key)
{
	uint8		sip_input[SIP_INPUT_BYTES];
	uint64		mask;

	sip_input[0] = data[6] & 0x0F;
	sip_input[1] = data[7];
	sip_input[2] = data[8] & 0x3F;
	memcpy(sip_input + 3, data + 9, 7);
	mask = sequuid_siphash24(sip_input, SIP_INPUT_BYTES, key->k0, key->k1) & TIMESTAMP_MASK;
	for (int i = 0; i < TIMESTAMP_BYTES; i++)
		data[i] ^= (uint8) (mask >> (8 * (TIMESTAMP_BYTES - 1 - i)));
}

/*
 * The Feistel round function: the low 30 bits of SipHash-2-4 of the 12 bytes
 * rand_b (as a little-endian 64-bit word) and (round << 30 | half) (as a
 * little-endian 32-bit word).  Every round's message begins with rand_b, so
 * the state after that first block is computed once, in *after_rand_b.
 */
static uint64
feistel_round(const SipState *after_rand_b, int round, uint64 half)
{
	SipState	state = *after_rand_b;
	uint64		last = ((uint64) FEISTEL_MESSAGE_BYTES << 56) | ((uint64) round << FEISTEL_HALF_BITS) | half;

	sip_absorb(&state, last);
	return sip_finish(&state) & FEISTEL_HALF_MASK;
}

/*
 * The 60 bits of time and rand_a, as two 30-bit halves, through four rounds
 * keyed by rand_b, forwards to encode and backwards to decode.
 */
static void
remap_feistel(uint8 *data, const SipKey *key, bool encoding)
{
	uint64		rand_b = (uint64) (data[8] & 0x3F);
	uint64		bits = 0;
	uint64		left;
	uint64		right;
	SipState	after_rand_b;

	for (int i = 9; i < UUID_LEN; i++)
		rand_b = (rand_b << 8) | data[i];
	after_rand_b = sip_init(key->k0, key->k1);
	sip_absorb(&after_rand_b, rand_b);
	for (int i = 0; i < TIMESTAMP_BYTES; i++)
		bits = (bits << 8) | data[i];
	bits = (bits << 12) | ((uint64) (data[6] & 0x0F) << 8) | data[7];
	left = bits >> FEISTEL_HALF_BITS;
	right = bits & FEISTEL_HALF_MASK;
	if (encoding)
	{
		for (int round = 0; round < FEISTEL_ROUNDS; round++)
		{
			uint64		next = left ^ feistel_round(&after_rand_b, round, right);

			left = right;
			right = next;
		}
	}
	else
	{
		for (int round = FEISTEL_ROUNDS - 1; round >= 0; round--)
		{
			uint64		previous = right ^ feistel_round(&after_rand_b, round, left);

			right = left;
			left = previous;
		}
	}
	bits = (left << FEISTEL_HALF_BITS) | right;
	for (int i = 0; i < TIMESTAMP_BYTES; i++)
		data[i] = (uint8) (bits >> (12 + 8 * (TIMESTAMP_BYTES - 1 - i)));
	data[6] = (uint8) ((data[6] & 0xF0) | ((bits >> 8) & 0x0F));
	data[7] = (uint8) bits;
}

static pg_uuid_t *
remap(const pg_uuid_t *id, const SipKey *key, PublicIdMapping mapping, int version)
{
	pg_uuid_t  *result = palloc(sizeof(pg_uuid_t));

	memcpy(result->data, id->data, UUID_LEN);
	if (mapping == MAPPING_UUIDV47)
		remap_uuidv47(result->data, key);
	else
		remap_feistel(result->data, key, version == 4);
	result->data[6] = (uint8) ((result->data[6] & 0x0F) | (version << 4));
	result->data[8] = (uint8) ((result->data[8] & 0x3F) | 0x80);
	return result;
}

/* an input of the version the direction reads, with RFC 9562's variant 10 */
static void
check_input(const pg_uuid_t *id, int version, const MappingNames *names, const char *function,
			const char *what)
{
	int			found = id->data[6] >> 4;

	if (found != version)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("argument \"id\" of %s is a version %d uuid, not %s (version %d)",
						function, found, what, version),
				 version == 7
				 ? errhint("A public id (version 4) decodes with %s(); only a v7 encodes.", names->decoder)
				 : errhint("A stored v7 encodes with %s(); only a public id (version 4) decodes.", names->encoder)));
	if ((id->data[8] & 0xC0) != 0x80)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("argument \"id\" of %s does not have RFC 9562's variant (10), so it is not %s",
						function, what)));
}

static SipKey
key_of_argument(const bytea *argument, const char *function)
{
	SipKey		key;
	const uint8 *bytes = (const uint8 *) VARDATA_ANY(argument);
	int			length = VARSIZE_ANY_EXHDR(argument);

	if (length != PUBLIC_ID_KEY_BYTES)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("argument \"key\" of %s must be %d bytes, not %d",
						function, PUBLIC_ID_KEY_BYTES, length),
				 errhint("Make a key with gen_random_bytes(16) (pgcrypto) or from 16 bytes of a key derivation.")));
	key.k0 = read_le64(bytes);
	key.k1 = read_le64(bytes + 8);
	return key;
}

static SipKey
key_of_setting(const char *function)
{
	if (public_id_key == NULL || public_id_key->state == KEY_SETTING_EMPTY)
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("%s needs the setting %s, which is not set", function, PUBLIC_ID_KEY_SETTING),
				 errhint("Pass the key as the second argument, or set %s (a superuser, or a role granted SET on it).",
						 PUBLIC_ID_KEY_SETTING)));
	if (public_id_key->state == KEY_SETTING_MALFORMED)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("the setting %s is not a key: it must be 32 hexadecimal digits (16 bytes)",
						PUBLIC_ID_KEY_SETTING)));
	return public_id_key->key;
}

/*
 * Both directions of a mapping, the key from the second argument or from the
 * setting: to_version 4 encodes a v7, 7 decodes a public id.
 */
static Datum
map_public_id(FunctionCallInfo fcinfo, PublicIdMapping mapping, const MappingNames *names,
			  int to_version, bool key_argument)
{
	pg_uuid_t  *id = PG_GETARG_UUID_P(0);
	bool		encoding = to_version == 4;
	const char *function = encoding ? names->encoder : names->decoder;
	SipKey		key = key_argument
		? key_of_argument(PG_GETARG_BYTEA_PP(1), function)
		: key_of_setting(function);

	check_input(id, encoding ? 7 : 4, names, function, encoding ? "a v7" : "a public id");
	PG_RETURN_UUID_P(remap(id, &key, mapping, to_version));
}

Datum
sequuid_public_id_encode(PG_FUNCTION_ARGS)
{
	return map_public_id(fcinfo, MAPPING_FEISTEL, &feistel_names, 4, true);
}

Datum
sequuid_public_id_decode(PG_FUNCTION_ARGS)
{
	return map_public_id(fcinfo, MAPPING_FEISTEL, &feistel_names, 7, true);
}

Datum
sequuid_public_id_encode_setting(PG_FUNCTION_ARGS)
{
	return map_public_id(fcinfo, MAPPING_FEISTEL, &feistel_names, 4, false);
}

Datum
sequuid_public_id_decode_setting(PG_FUNCTION_ARGS)
{
	return map_public_id(fcinfo, MAPPING_FEISTEL, &feistel_names, 7, false);
}

Datum
sequuid_uuidv47_encode(PG_FUNCTION_ARGS)
{
	return map_public_id(fcinfo, MAPPING_UUIDV47, &uuidv47_names, 4, true);
}

Datum
sequuid_uuidv47_decode(PG_FUNCTION_ARGS)
{
	return map_public_id(fcinfo, MAPPING_UUIDV47, &uuidv47_names, 7, true);
}

Datum
sequuid_uuidv47_encode_setting(PG_FUNCTION_ARGS)
{
	return map_public_id(fcinfo, MAPPING_UUIDV47, &uuidv47_names, 4, false);
}

Datum
sequuid_uuidv47_decode_setting(PG_FUNCTION_ARGS)
{
	return map_public_id(fcinfo, MAPPING_UUIDV47, &uuidv47_names, 7, false);
}

Datum
sequuid_uuid_v7_to_public(PG_FUNCTION_ARGS)
{
	return map_public_id(fcinfo, MAPPING_UUIDV47, &uuidv47_names_1_5, 4, true);
}

Datum
sequuid_uuid_public_to_v7(PG_FUNCTION_ARGS)
{
	return map_public_id(fcinfo, MAPPING_UUIDV47, &uuidv47_names_1_5, 7, true);
}

Datum
sequuid_uuid_v7_to_public_setting(PG_FUNCTION_ARGS)
{
	return map_public_id(fcinfo, MAPPING_UUIDV47, &uuidv47_names_1_5, 4, false);
}

Datum
sequuid_uuid_public_to_v7_setting(PG_FUNCTION_ARGS)
{
	return map_public_id(fcinfo, MAPPING_UUIDV47, &uuidv47_names_1_5, 7, false);
}

static int
hex_value(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/*
 * Parses the setting into *extra and accepts every value: a rejection would
 * make PostgreSQL quote the value in its error message and in the log.
 * 32 hex digits, optionally after bytea's "\x".
 */
static bool
check_public_id_key(char **newval, void **extra, GucSource source)
{
#if PG_VERSION_NUM >= 160000
	KeySetting *parsed = guc_malloc(LOG, sizeof(KeySetting));
#else
	KeySetting *parsed = malloc(sizeof(KeySetting));	/* what guc.c frees with free() */
#endif
	const char *text = *newval;

	if (parsed == NULL)
		return false;
	memset(parsed, 0, sizeof(KeySetting));
	if (text == NULL || text[0] == '\0')
		parsed->state = KEY_SETTING_EMPTY;
	else
	{
		uint8		bytes[PUBLIC_ID_KEY_BYTES];
		bool		valid;

		if (text[0] == '\\' && text[1] == 'x')
			text += 2;
		valid = strlen(text) == 2 * PUBLIC_ID_KEY_BYTES;
		for (int i = 0; valid && i < PUBLIC_ID_KEY_BYTES; i++)
		{
			int			high = hex_value(text[2 * i]);
			int			low = hex_value(text[2 * i + 1]);

			valid = high >= 0 && low >= 0;
			bytes[i] = (uint8) ((high << 4) | low);
		}
		parsed->state = valid ? KEY_SETTING_VALID : KEY_SETTING_MALFORMED;
		if (valid)
		{
			parsed->key.k0 = read_le64(bytes);
			parsed->key.k1 = read_le64(bytes + 8);
		}
		explicit_bzero(bytes, sizeof(bytes));
	}
	*extra = parsed;
	return true;
}

static void
assign_public_id_key(const char *newval, void *extra)
{
	public_id_key = (KeySetting *) extra;
}

/* SHOW and current_setting() say whether a key is there, never what it is */
static const char *
show_public_id_key(void)
{
	if (public_id_key == NULL || public_id_key->state == KEY_SETTING_EMPTY)
		return "";
	if (public_id_key->state == KEY_SETTING_MALFORMED)
		return "(hidden; not 32 hexadecimal digits)";
	return "(hidden)";
}

void
sequuid_public_id_define_gucs(void)
{
	DefineCustomStringVariable(PUBLIC_ID_KEY_SETTING,
							   "Secret key of the key-less public-id functions (uuid_v7_to_public(id) and the others): 32 hexadecimal digits.",
							   "Only a superuser or a role granted SET on it sets it; SHOW prints \"(hidden)\" in its place.",
							   &public_id_key_text,
							   "",
							   PGC_SUSET,
							   GUC_NO_SHOW_ALL | GUC_NOT_IN_SAMPLE,
							   check_public_id_key, assign_public_id_key, show_public_id_key);
}
