/* sequuid/sequuid--1.2--1.3.sql */

-- complain if script is sourced in psql, rather than via ALTER EXTENSION
\echo Use "ALTER EXTENSION sequuid UPDATE TO '1.3'" to load this file. \quit

-- A fresh CREATE EXTENSION sequuid runs sequuid--1.0.sql and every upgrade script up to this one, so every object
-- 1.3 adds is defined here once.

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
