/* sequuid/sequuid--1.0.sql */

-- complain if script is sourced in psql, rather than via CREATE EXTENSION
\echo Use "CREATE EXTENSION sequuid" to load this file. \quit

-- generators (issue 2)
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

-- utilities (issue 3)
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
