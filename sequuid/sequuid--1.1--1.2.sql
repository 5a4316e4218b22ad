/* sequuid/sequuid--1.1--1.2.sql */

-- complain if script is sourced in psql, rather than via ALTER EXTENSION
\echo Use "ALTER EXTENSION sequuid UPDATE TO '1.2'" to load this file. \quit

-- A fresh CREATE EXTENSION sequuid runs sequuid--1.0.sql, sequuid--1.0--1.1.sql and then this script (there is
-- no sequuid--1.1.sql or sequuid--1.2.sql), so every object 1.2 adds is defined here once.

-- Bounds for range partitions on time-ordered keys.  IMMUTABLE because step must be a fixed length of time: a
-- step of days or months would make the bounds depend on the session's TimeZone (STABLE at best), and bounds made
-- in two sessions with different time zones would overlap.  Deterministic and side-effect free: PARALLEL SAFE.
CREATE FUNCTION uuid_time_partitions(kind text, start timestamptz, step interval, count integer)
    RETURNS TABLE (range_start timestamptz, range_end timestamptz, lower uuid, upper uuid)
    AS 'MODULE_PATHNAME', 'sequuid_uuid_time_partitions'
    LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION uuid_time_partitions(text, timestamptz, interval, integer) IS
    'count consecutive time ranges of length step from start, with the uuid bounds [lower, upper) of the v7, ULID or v6 keys made in each';
