/* sequuid/sequuid--1.0.sql */

-- complain if script is sourced in psql, rather than via CREATE EXTENSION
\echo Use "CREATE EXTENSION sequuid" to load this file. \quit

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
