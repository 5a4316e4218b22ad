"""Key generators written in SQL, created in the run's schema by a strategy's prelude (no extension needed).

Each function is created once per strategy pass, after the schema is emptied, so a strategy's results say
"SQL functions in the run's schema" as its generator source. Text keys are ordered by their bytes: the
embedded cluster is initialised with the C locale, where text compares the same way.
"""

from __future__ import annotations

# Snowflake: bit 63 (the sign) 0 | 41 bits of milliseconds since SNOWFLAKE_EPOCH | 10-bit node | 12-bit
# sequence. One server is one node, so every key of a run carries SNOWFLAKE_NODE. The sequence is a shared
# PostgreSQL sequence taken modulo 4096 (Instagram's scheme): keys are unique while a node makes fewer than
# 4096 of them in one millisecond, ordered across milliseconds, and within one millisecond they are ordered
# except where the sequence wraps from 4095 to 0.
SNOWFLAKE_EPOCH = "2020-01-01 00:00:00+00"
SNOWFLAKE_EPOCH_MS = 1577836800000
SNOWFLAKE_NODE = 1
SNOWFLAKE_LAYOUT = (
    "41-bit ms since 2020-01-01 UTC | 10-bit node (1: the one server of the run) | "
    "12-bit sequence (nextval mod 4096)"
)
SNOWFLAKE_SEQUENCE = "CREATE SEQUENCE pkbench_snowflake_seq"
SNOWFLAKE = f"""
CREATE FUNCTION pkbench_snowflake() RETURNS bigint LANGUAGE sql VOLATILE PARALLEL UNSAFE AS $$
    SELECT ((floor(extract(epoch FROM clock_timestamp()) * 1000)::bigint - {SNOWFLAKE_EPOCH_MS}) << 22)
           | ({SNOWFLAKE_NODE}::bigint << 12)
           | (nextval('pkbench_snowflake_seq') % 4096)
$$
"""

# KSUID (segmentio): a 4-byte big-endian count of seconds since 2014-05-13 16:53:20 UTC (1400000000), then
# 16 random bytes; as text, the 160-bit number in 27 base62 digits (0-9A-Za-z, so the text sorts like the
# bytes). The random bytes are the whole random bytes of three v4 uuids (past the ones carrying version and
# variant): one expression without FROM, which PostgreSQL inlines into the calling query.
KSUID_EPOCH_S = 1400000000
KSUID_BYTES = f"""
CREATE FUNCTION pkbench_ksuid_bytes() RETURNS bytea LANGUAGE sql VOLATILE PARALLEL SAFE AS $$
    SELECT int4send((floor(extract(epoch FROM clock_timestamp()))::bigint - {KSUID_EPOCH_S})::int4)
           || substring(uuid_send(gen_random_uuid()) FROM 1 FOR 6)
           || substring(uuid_send(gen_random_uuid()) FROM 10 FOR 7)
           || substring(uuid_send(gen_random_uuid()) FROM 1 FOR 3)
$$
"""
BASE62 = """
CREATE FUNCTION pkbench_base62(bytes bytea, width int) RETURNS text
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS $$
DECLARE
    digits constant text := '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
    n numeric := 0;
    encoded text := '';
BEGIN
    FOR i IN 0 .. length(bytes) - 1 LOOP
        n := n * 256 + get_byte(bytes, i);
    END LOOP;
    FOR i IN 1 .. width LOOP
        encoded := substr(digits, mod(n, 62)::int + 1, 1) || encoded;
        n := div(n, 62);
    END LOOP;
    RETURN encoded;
END
$$
"""
KSUID_TEXT = """
CREATE FUNCTION pkbench_ksuid() RETURNS text LANGUAGE sql VOLATILE PARALLEL SAFE AS $$
    SELECT pkbench_base62(pkbench_ksuid_bytes(), 27)
$$
"""

# TypeID (jetify): a type prefix, '_', and a uuid v7 as 26 characters of lower-case Crockford base32: the
# 128 bits with two zero bits in front, five bits a character, so the first character is at most '7'.
TYPEID_PREFIX = "rec"
TYPEID_SUFFIX = """
CREATE FUNCTION pkbench_typeid(prefix text, id uuid) RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
    SELECT prefix || '_' || string_agg(
        substr('0123456789abcdefghjkmnpqrstvwxyz',
               substring(bits FROM i * 5 + 1 FOR 5)::int + 1, 1), '' ORDER BY i)
    FROM (SELECT B'00' || ('x' || encode(uuid_send(id), 'hex'))::bit(128) AS bits) AS b,
         generate_series(0, 25) AS i
$$
"""

# nanoid: 21 characters of the 64-character URL-safe alphabet, each six random bits: the base64 text of 19
# whole random bytes of three v4 uuids, with base64's '+' and '/' made '-' and '_' (the URL-safe alphabet),
# cut to 21 characters. One expression without FROM, inlined into the calling query.
NANOID = """
CREATE FUNCTION pkbench_nanoid() RETURNS text LANGUAGE sql VOLATILE PARALLEL SAFE AS $$
    SELECT left(translate(encode(substring(uuid_send(gen_random_uuid()) FROM 1 FOR 6)
                                 || substring(uuid_send(gen_random_uuid()) FROM 10 FOR 7)
                                 || substring(uuid_send(gen_random_uuid()) FROM 1 FOR 6), 'base64'),
                          '+/', '-_'), 21)
$$
"""
