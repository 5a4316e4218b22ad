/* sequuid/sequuid--1.0--1.1.sql */

-- complain if script is sourced in psql, rather than via ALTER EXTENSION
\echo Use "ALTER EXTENSION sequuid UPDATE TO '1.1'" to load this file. \quit

-- A fresh CREATE EXTENSION sequuid runs sequuid--1.0.sql and then this script (there is no sequuid--1.1.sql), so
-- every object 1.1 adds is defined here once; test/sql/upgrade.sql checks that 1.0 + UPDATE equals a fresh install.

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
