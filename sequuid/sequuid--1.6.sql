/* sequuid/sequuid--1.6.sql */

-- complain if script is sourced in psql, rather than via CREATE EXTENSION
\echo Use "CREATE EXTENSION sequuid" to load this file. \quit

-- Version 1.6 in one script: what sequuid--1.0.sql and the updates to 1.1, 1.2, 1.3, 1.4, 1.5 and 1.6 define, in
-- that order, so that a fresh install runs one script; where 1.6 replaces a function, its 1.6 definition stands in
-- the place of the one it replaces.  test/sql/upgrade.sql checks that a database updated from 1.0 has exactly the
-- catalog this script makes.  Later versions change it only through update scripts.

-- from sequuid--1.0.sql ----------------------------------------------------------------------------------------------

-- generators
-- All VOLATILE.  PARALLEL SAFE where a call only reads the clock and per-process random state: a parallel worker
-- is a backend of its own, ordered like any other backend (see README, "Ordering guarantees").
-- uuid_sequence_nextval calls nextval, which a parallel worker cannot, so it is PARALLEL UNSAFE like nextval.

CREATE FUNCTION uuid_generate_v7() RETURNS uuid
    AS 'MODULE_PATHNAME', 'uuid_generate_v7'
    LANGUAGE C VOLATILE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION uuid_generate_v7() IS
    'RFC 9562 UUIDv7 as PostgreSQL 18 builds it (ms + 12-bit sub-ms fraction), strictly increasing per backend, or cluster-wide when preloaded';

CREATE FUNCTION uuid_generate_v7(shift interval) RETURNS uuid
    AS 'MODULE_PATHNAME', 'uuid_generate_v7_shift'
    LANGUAGE C VOLATILE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION uuid_generate_v7(interval) IS
    'UUIDv7 of the current time moved by shift, like core uuidv7(interval)';

CREATE FUNCTION uuid_generate_v6() RETURNS uuid
    AS 'MODULE_PATHNAME', 'uuid_generate_v6'
    LANGUAGE C VOLATILE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION uuid_generate_v6() IS
    'RFC 9562 UUIDv6 (Gregorian 100-ns time, random clock_seq and multicast node), strictly increasing like uuid_generate_v7';

CREATE FUNCTION uuid_generate_ulid() RETURNS uuid
    AS 'MODULE_PATHNAME', 'uuid_generate_ulid'
    LANGUAGE C VOLATILE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION uuid_generate_ulid() IS
    'ULID (48-bit ms + 80 random bits) as uuid, monotonic per backend (same ms: previous + 1)';

CREATE FUNCTION uuid_sequence_nextval(seq regclass, block_size int DEFAULT 65536, block_count int DEFAULT 65536)
    RETURNS uuid
    AS 'MODULE_PATHNAME', 'uuid_sequence_nextval'
    LANGUAGE C VOLATILE STRICT PARALLEL UNSAFE;
COMMENT ON FUNCTION uuid_sequence_nextval(regclass, int, int) IS
    'version 8 UUID led by ((nextval(seq) - 1) / block_size) mod block_count in ceil(log2(block_count)) bits, rest random';

CREATE FUNCTION uuid_time_nextval(interval_length int DEFAULT 60, interval_count int DEFAULT 65536) RETURNS uuid
    AS 'MODULE_PATHNAME', 'uuid_time_nextval'
    LANGUAGE C VOLATILE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION uuid_time_nextval(int, int) IS
    'version 8 UUID led by (unix seconds / interval_length) mod interval_count in ceil(log2(interval_count)) bits, rest random';

-- utilities
-- Reading, converting and ordering UUIDs.  Every function here is deterministic: IMMUTABLE, STRICT and
-- PARALLEL SAFE (timestamptz is an absolute instant, so no time zone setting changes a result).
-- Names avoid core's (uuid_extract_timestamp, uuid_extract_version) so no PostgreSQL upgrade makes a call ambiguous.

CREATE FUNCTION uuid_timestamp(id uuid) RETURNS timestamptz
    AS 'MODULE_PATHNAME', 'sequuid_uuid_timestamp'
    LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION uuid_timestamp(uuid) IS
    'instant a v1, v6 or v7 UUID was made, to the microsecond (v7 sub-millisecond fraction included); NULL for other UUIDs';

CREATE FUNCTION ulid_timestamp(id uuid) RETURNS timestamptz
    AS 'MODULE_PATHNAME', 'sequuid_ulid_timestamp'
    LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION ulid_timestamp(uuid) IS 'the millisecond timestamp of a ULID stored as uuid';

CREATE FUNCTION uuid_version(id uuid) RETURNS integer
    AS 'MODULE_PATHNAME', 'sequuid_uuid_version'
    LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION uuid_version(uuid) IS 'version field of an RFC 9562 UUID; NULL for other variants';

CREATE FUNCTION uuid_variant(id uuid) RETURNS integer
    AS 'MODULE_PATHNAME', 'sequuid_uuid_variant'
    LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION uuid_variant(uuid) IS
    'variant field as RFC 9562 Table 1 reads it: 0 NCS, 2 RFC 9562, 6 Microsoft, 7 reserved';

CREATE FUNCTION uuid_v7_boundary(instant timestamptz) RETURNS uuid
    AS 'MODULE_PATHNAME', 'sequuid_uuid_v7_boundary'
    LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION uuid_v7_boundary(timestamptz) IS
    'smallest UUIDv7 made at or after the instant, for range conditions on v7 keys';

CREATE FUNCTION uuid_v1_to_v6(id uuid) RETURNS uuid
    AS 'MODULE_PATHNAME', 'sequuid_uuid_v1_to_v6'
    LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION uuid_v1_to_v6(uuid) IS 'the same UUID with its timestamp most significant first (lossless)';

CREATE FUNCTION uuid_v6_to_v1(id uuid) RETURNS uuid
    AS 'MODULE_PATHNAME', 'sequuid_uuid_v6_to_v1'
    LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION uuid_v6_to_v1(uuid) IS 'inverse of uuid_v1_to_v6 (lossless)';

CREATE FUNCTION uuid_to_ulid(id uuid) RETURNS text
    AS 'MODULE_PATHNAME', 'sequuid_uuid_to_ulid'
    LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION uuid_to_ulid(uuid) IS 'the 16 bytes as 26 characters of upper-case Crockford base32';

CREATE FUNCTION ulid_to_uuid(ulid text) RETURNS uuid
    AS 'MODULE_PATHNAME', 'sequuid_ulid_to_uuid'
    LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION ulid_to_uuid(text) IS 'ULID text (case-insensitive; I and L read as 1, O as 0) as uuid';

-- uuid_time_ops: v1 UUIDs by timestamp, then every other UUID by bytes (see README, "uuid_time_ops").
-- The operators take the shape of text_pattern_ops' ~<~ family: the same comparisons, another order.
CREATE FUNCTION uuid_time_cmp(a uuid, b uuid) RETURNS integer
    AS 'MODULE_PATHNAME', 'sequuid_uuid_time_cmp'
    LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION uuid_time_lt(a uuid, b uuid) RETURNS boolean
    AS 'MODULE_PATHNAME', 'sequuid_uuid_time_lt'
    LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION uuid_time_le(a uuid, b uuid) RETURNS boolean
    AS 'MODULE_PATHNAME', 'sequuid_uuid_time_le'
    LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION uuid_time_ge(a uuid, b uuid) RETURNS boolean
    AS 'MODULE_PATHNAME', 'sequuid_uuid_time_ge'
    LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION uuid_time_gt(a uuid, b uuid) RETURNS boolean
    AS 'MODULE_PATHNAME', 'sequuid_uuid_time_gt'
    LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION uuid_time_sortsupport(internal) RETURNS void
    AS 'MODULE_PATHNAME', 'sequuid_uuid_time_sortsupport'
    LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE OPERATOR ~<~ (
    LEFTARG = uuid, RIGHTARG = uuid, FUNCTION = uuid_time_lt,
    COMMUTATOR = ~>~, NEGATOR = ~>=~, RESTRICT = scalarltsel, JOIN = scalarltjoinsel
);
CREATE OPERATOR ~<=~ (
    LEFTARG = uuid, RIGHTARG = uuid, FUNCTION = uuid_time_le,
    COMMUTATOR = ~>=~, NEGATOR = ~>~, RESTRICT = scalarlesel, JOIN = scalarlejoinsel
);
CREATE OPERATOR ~>=~ (
    LEFTARG = uuid, RIGHTARG = uuid, FUNCTION = uuid_time_ge,
    COMMUTATOR = ~<=~, NEGATOR = ~<~, RESTRICT = scalargesel, JOIN = scalargejoinsel
);
CREATE OPERATOR ~>~ (
    LEFTARG = uuid, RIGHTARG = uuid, FUNCTION = uuid_time_gt,
    COMMUTATOR = ~<~, NEGATOR = ~<=~, RESTRICT = scalargtsel, JOIN = scalargtjoinsel
);

CREATE OPERATOR CLASS uuid_time_ops FOR TYPE uuid USING btree AS
    OPERATOR 1 ~<~,
    OPERATOR 2 ~<=~,
    OPERATOR 3 =,
    OPERATOR 4 ~>=~,
    OPERATOR 5 ~>~,
    FUNCTION 1 uuid_time_cmp(uuid, uuid),
    FUNCTION 2 uuid_time_sortsupport(internal);

-- from sequuid--1.0--1.1.sql -----------------------------------------------------------------------------------------

-- pg_uuidv7's conversions, with its signatures, so SQL written for it keeps working (sequuid replaces pg_uuidv7:
-- the names are the same, so the two cannot share a schema).  Reading is deterministic: IMMUTABLE (pg_uuidv7
-- says STABLE).  Writing draws random bits unless zero is true, and a label covers every argument, so it is
-- VOLATILE; the IMMUTABLE boundary for index range conditions is uuid_v7_boundary() (see README).
-- timestamp and timestamptz share their representation (microseconds from 2000-01-01, UTC for timestamp), so
-- each pair shares its C function.

CREATE FUNCTION uuid_v7_to_timestamptz(uuid) RETURNS timestamptz
    AS 'MODULE_PATHNAME', 'sequuid_ulid_timestamp'
    LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION uuid_v7_to_timestamptz(uuid) IS
    'pg_uuidv7: the millisecond in the first 48 bits of a v7 UUID, as timestamptz';

CREATE FUNCTION uuid_v7_to_timestamp(uuid) RETURNS timestamp
    AS 'MODULE_PATHNAME', 'sequuid_ulid_timestamp'
    LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION uuid_v7_to_timestamp(uuid) IS
    'pg_uuidv7: the millisecond in the first 48 bits of a v7 UUID, as timestamp in UTC';

CREATE FUNCTION uuid_timestamptz_to_v7(timestamptz, zero boolean DEFAULT false) RETURNS uuid
    AS 'MODULE_PATHNAME', 'sequuid_uuid_timestamptz_to_v7'
    LANGUAGE C VOLATILE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION uuid_timestamptz_to_v7(timestamptz, boolean) IS
    'pg_uuidv7: a v7 UUID of the instant (12-bit sub-ms fraction, random bits); zero: the millisecond, all other bits zero';

CREATE FUNCTION uuid_timestamp_to_v7(timestamp, zero boolean DEFAULT false) RETURNS uuid
    AS 'MODULE_PATHNAME', 'sequuid_uuid_timestamptz_to_v7'
    LANGUAGE C VOLATILE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION uuid_timestamp_to_v7(timestamp, boolean) IS
    'pg_uuidv7: a v7 UUID of the UTC timestamp (12-bit sub-ms fraction, random bits); zero: the millisecond, all other bits zero';

-- RFC 9562 version 1 with a random node (multicast bit set), on the same ascending clock as v6.  Not named
-- uuid_generate_v1: that is uuid-ossp's name, and both extensions may share a schema.
CREATE FUNCTION uuid_generate_v1_random_node() RETURNS uuid
    AS 'MODULE_PATHNAME', 'uuid_generate_v1_random_node'
    LANGUAGE C VOLATILE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION uuid_generate_v1_random_node() IS
    'RFC 9562 UUIDv1 (Gregorian 100-ns time, low bits first; random clock_seq and multicast node), time strictly increasing like uuid_generate_v6';

-- from sequuid--1.1--1.2.sql -----------------------------------------------------------------------------------------

-- Bounds for range partitions on time-ordered keys.  IMMUTABLE because step must be a fixed length of time: a
-- step of days or months would make the bounds depend on the session's TimeZone (STABLE at best), and bounds made
-- in two sessions with different time zones would overlap.  Deterministic and side-effect free: PARALLEL SAFE.
CREATE FUNCTION uuid_time_partitions(kind text, start timestamptz, step interval, count integer)
    RETURNS TABLE (range_start timestamptz, range_end timestamptz, lower uuid, upper uuid)
    AS 'MODULE_PATHNAME', 'sequuid_uuid_time_partitions'
    LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION uuid_time_partitions(text, timestamptz, interval, integer) IS
    'count consecutive time ranges of length step from start, with the uuid bounds [lower, upper) of the v7, ULID or v6 keys made in each';

-- from sequuid--1.2--1.3.sql -----------------------------------------------------------------------------------------

-- Time-ordered keys with several insertion points: labelled like uuid_generate_v7(interval).
CREATE FUNCTION uuid_generate_striped(stripes integer) RETURNS uuid
    AS 'MODULE_PATHNAME', 'uuid_generate_striped'
    LANGUAGE C VOLATILE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION uuid_generate_striped(integer) IS
    'version 8 UUID led by the backend''s number mod stripes in ceil(log2(stripes)) bits, then v7''s time (ms + 12-bit fraction) and random bits; strictly increasing per backend';

-- The key ranges of a time range, one per stripe: deterministic, so IMMUTABLE, STRICT and PARALLEL SAFE.
CREATE FUNCTION uuid_striped_ranges(stripes integer, from_time timestamptz, to_time timestamptz)
    RETURNS TABLE (stripe integer, lower uuid, upper uuid)
    AS 'MODULE_PATHNAME', 'uuid_striped_ranges'
    LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE
    ROWS 16;
COMMENT ON FUNCTION uuid_striped_ranges(integer, timestamptz, timestamptz) IS
    'for each stripe, the uuid range [lower, upper) of the uuid_generate_striped(stripes) keys made in [from_time, to_time)';

-- uuid_sequence_nextval and uuid_time_nextval keep their definitions; the library lays their prefix out as
-- sequential-uuids 1.0.3 does (whole bytes, rescaled block size) since 1.3, which their comments now say.  A 1.0
-- to 1.2 database served by this library gets the new layout before it updates.
COMMENT ON FUNCTION uuid_sequence_nextval(regclass, integer, integer) IS
    'version 8 UUID led by the block of nextval(seq) - 1 in whole bytes, laid out as sequential-uuids 1.0.3 does, rest random';
COMMENT ON FUNCTION uuid_time_nextval(integer, integer) IS
    'version 8 UUID led by the block of the Unix time in seconds in whole bytes, laid out as sequential-uuids 1.0.3 does, rest random';

-- Calendar partitions: with a time zone named as an argument, days and months of step are that zone's calendar
-- days and months.  The result depends on the arguments alone, as core's timezone(text, timestamptz) does:
-- IMMUTABLE STRICT PARALLEL SAFE like the four-argument form.
CREATE FUNCTION uuid_time_partitions(kind text, start timestamptz, step interval, count integer, time_zone text)
    RETURNS TABLE (range_start timestamptz, range_end timestamptz, lower uuid, upper uuid)
    AS 'MODULE_PATHNAME', 'sequuid_uuid_time_partitions_zoned'
    LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION uuid_time_partitions(text, timestamptz, interval, integer, text) IS
    'count consecutive ranges from start, each step long in the calendar of time_zone, with the uuid bounds [lower, upper) of the v7, ULID or v6 keys made in each';

-- from sequuid--1.3--1.4.sql -----------------------------------------------------------------------------------------

-- Sort-preserving text of a uuid: base32hex (RFC 4648 section 7) orders its digits as their values, so the text of
-- two uuids compares byte-wise (COLLATE "C") as the uuids do; 26 characters where the hyphenated form has 36.  The
-- same text as PostgreSQL 19's rtrim(encode(id::bytea, 'base32hex'), '='), on any server.  Deterministic:
-- IMMUTABLE STRICT PARALLEL SAFE, like uuid_to_ulid() and ulid_to_uuid().
CREATE FUNCTION uuid_to_base32hex(id uuid) RETURNS text
    AS 'MODULE_PATHNAME', 'sequuid_uuid_to_base32hex'
    LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION uuid_to_base32hex(uuid) IS
    'the uuid as 26 base32hex digits (RFC 4648 section 7, no padding), which sort byte-wise as the uuid does';

CREATE FUNCTION uuid_from_base32hex(base32hex text) RETURNS uuid
    AS 'MODULE_PATHNAME', 'sequuid_uuid_from_base32hex_canonical'
    LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION uuid_from_base32hex(text) IS
    'the uuid of its canonical base32hex text (26 digits 0-9 and A-V, upper case, no padding), as uuid_to_base32hex() writes it';

-- from sequuid--1.4--1.5.sql ------------------------------------------------------------------------------------------

-- Public ids (1.5; the mapping of 1.6): a keyed, reversible mapping between a stored v7 and a v4-looking façade.
-- The 60 bits of time and rand_a go through a four-round Feistel network keyed by the 16-byte key and the id's 62
-- random bits (rand_b), which stay as they are.  With the key as an argument the result depends on the arguments
-- alone: IMMUTABLE, so that WHERE id = uuid_public_to_v7($1, key) is an index condition on the primary key.  STRICT
-- PARALLEL SAFE like every utility.  The forms with the key of the setting sequuid.public_id_key are STABLE, since
-- a setting can change between statements but not within one, which still lets the planner use the index.
CREATE FUNCTION uuid_v7_to_public(id uuid, key bytea) RETURNS uuid
    AS 'MODULE_PATHNAME', 'sequuid_public_id_encode'
    LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION uuid_v7_to_public(uuid, bytea) IS
    'the v4-looking public id of a v7 under a 16-byte key: its time and sub-millisecond bits permuted under the key and its random bits';

CREATE FUNCTION uuid_public_to_v7(id uuid, key bytea) RETURNS uuid
    AS 'MODULE_PATHNAME', 'sequuid_public_id_decode'
    LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION uuid_public_to_v7(uuid, bytea) IS
    'the v7 a public id was made from by uuid_v7_to_public() under the same 16-byte key';

CREATE FUNCTION uuid_v7_to_public(id uuid) RETURNS uuid
    AS 'MODULE_PATHNAME', 'sequuid_public_id_encode_setting'
    LANGUAGE C STABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION uuid_v7_to_public(uuid) IS
    'the v4-looking public id of a v7 under the key of the setting sequuid.public_id_key';

CREATE FUNCTION uuid_public_to_v7(id uuid) RETURNS uuid
    AS 'MODULE_PATHNAME', 'sequuid_public_id_decode_setting'
    LANGUAGE C STABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION uuid_public_to_v7(uuid) IS
    'the v7 a public id was made from under the key of the setting sequuid.public_id_key';

-- UUIDv47's façade, bit for bit, under a name of its own (1.5's uuid_v7_to_public): the 48-bit time XORed with
-- SipHash-2-4 of the 74 bits of rand_a and rand_b, rand_a kept.  It hides the time only where rand_a is random, not
-- in the v7s of PostgreSQL 18 or sequuid, whose rand_a is a rising fraction of the millisecond.  For exchanging
-- façades with other UUIDv47 implementations, and for decoding façades handed out under 1.5.
CREATE FUNCTION uuid_v7_to_uuidv47(id uuid, key bytea) RETURNS uuid
    AS 'MODULE_PATHNAME', 'sequuid_uuidv47_encode'
    LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION uuid_v7_to_uuidv47(uuid, bytea) IS
    'UUIDv47''s façade of a v7 under a 16-byte key: the time XORed with SipHash-2-4 of rand_a and rand_b (hides the time only where rand_a is random)';

CREATE FUNCTION uuid_uuidv47_to_v7(id uuid, key bytea) RETURNS uuid
    AS 'MODULE_PATHNAME', 'sequuid_uuidv47_decode'
    LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION uuid_uuidv47_to_v7(uuid, bytea) IS
    'the v7 of a UUIDv47 façade under the same 16-byte key (UUIDv47''s decode; 1.5''s uuid_public_to_v7)';

CREATE FUNCTION uuid_v7_to_uuidv47(id uuid) RETURNS uuid
    AS 'MODULE_PATHNAME', 'sequuid_uuidv47_encode_setting'
    LANGUAGE C STABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION uuid_v7_to_uuidv47(uuid) IS
    'UUIDv47''s façade of a v7 under the key of the setting sequuid.public_id_key';

CREATE FUNCTION uuid_uuidv47_to_v7(id uuid) RETURNS uuid
    AS 'MODULE_PATHNAME', 'sequuid_uuidv47_decode_setting'
    LANGUAGE C STABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION uuid_uuidv47_to_v7(uuid) IS
    'the v7 of a UUIDv47 façade under the key of the setting sequuid.public_id_key';
