/* sequuid/test/peers/pg_uuidv7--1.6.sql: a stand-in with pg_uuidv7 1.6's names, signatures and labels */
\echo Use "CREATE EXTENSION pg_uuidv7" to load this file. \quit

-- a version 4 value: after the switch, a key of version 7 shows that sequuid made it
CREATE FUNCTION uuid_generate_v7() RETURNS uuid
    AS 'SELECT gen_random_uuid()'
    VOLATILE STRICT LANGUAGE sql PARALLEL SAFE;

CREATE FUNCTION uuid_v7_to_timestamptz(uuid) RETURNS timestamptz
    AS $$SELECT 'epoch'::timestamptz + ('x' || substr(replace($1::text, '-', ''), 1, 12))::bit(48)::bigint * interval '1 ms'$$
    STABLE STRICT LANGUAGE sql PARALLEL SAFE;

CREATE FUNCTION uuid_timestamptz_to_v7(timestamptz, zero bool = false) RETURNS uuid
    AS 'SELECT gen_random_uuid()'
    STABLE STRICT LANGUAGE sql PARALLEL SAFE;

CREATE FUNCTION uuid_v7_to_timestamp(uuid) RETURNS timestamp
    AS $$SELECT uuid_v7_to_timestamptz($1) AT TIME ZONE 'UTC'$$
    STABLE STRICT LANGUAGE sql PARALLEL SAFE;

CREATE FUNCTION uuid_timestamp_to_v7(timestamp, zero bool = false) RETURNS uuid
    AS 'SELECT gen_random_uuid()'
    STABLE STRICT LANGUAGE sql PARALLEL SAFE;
