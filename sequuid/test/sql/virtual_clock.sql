-- virtual_clock: sequuid.clock_rate and sequuid.clock_anchor.  Every time-based generator reads
-- anchor + rate * (now - anchor) (+ sequuid.clock_offset); the anchor defaults to the server's start time.
\set SHOW_CONTEXT never
SET search_path = public, regress_helpers;

-- loaded without a call: a value made now would hold this backend's ascending clock at the real time
LOAD 'sequuid';
SHOW sequuid.clock_rate;
SHOW sequuid.clock_anchor;

-- the virtual time of a real instant, in Unix ms, for a rate and an anchor (Unix seconds)
CREATE FUNCTION regress_helpers.virtual_ms(real_instant timestamptz, rate float8, anchor_s float8) RETURNS float8
    LANGUAGE sql IMMUTABLE
    AS $$ SELECT anchor_s * 1000 + rate * (extract(epoch FROM real_instant)::float8 * 1000 - anchor_s * 1000) $$;

-- the arithmetic with an explicit anchor one hour back: rate 2 runs an hour ahead, rate 0.5 half an hour behind,
-- for every generator that carries a time (the bounds are the virtual times of the clock read around each call)
SELECT extract(epoch FROM now() - interval '1 hour')::float8 AS anchor \gset
SET sequuid.clock_anchor = :anchor;
CREATE TEMP TABLE arithmetic (rate float8, before timestamptz, v7 uuid, v6 uuid, v1 uuid, ulid uuid, after timestamptz);
-- slower first: the values of a backend never go back, so after the hour ahead they would stay there
SET sequuid.clock_rate = 0.5;
INSERT INTO arithmetic SELECT 0.5, clock_timestamp(), uuid_generate_v7(), uuid_generate_v6(),
                              uuid_generate_v1_random_node(), uuid_generate_ulid(), clock_timestamp();
SET sequuid.clock_rate = 2;
INSERT INTO arithmetic SELECT 2, clock_timestamp(), uuid_generate_v7(), uuid_generate_v6(),
                              uuid_generate_v1_random_node(), uuid_generate_ulid(), clock_timestamp();
SELECT rate,
       unix_ms(v7) BETWEEN floor(virtual_ms(before, rate, :anchor)) - 1
                       AND ceil(virtual_ms(after, rate, :anchor)) + 1 AS v7_on_the_virtual_clock,
       v6_gregorian_100ns(v6) / 10000 - 12219292800000 BETWEEN floor(virtual_ms(before, rate, :anchor)) - 1
                       AND ceil(virtual_ms(after, rate, :anchor)) + 1 AS v6_on_the_virtual_clock,
       v6_gregorian_100ns(uuid_v1_to_v6(v1)) / 10000 - 12219292800000
           BETWEEN floor(virtual_ms(before, rate, :anchor)) - 1
               AND ceil(virtual_ms(after, rate, :anchor)) + 1 AS v1_on_the_virtual_clock,
       unix_ms(ulid) BETWEEN floor(virtual_ms(before, rate, :anchor)) - 1
                         AND ceil(virtual_ms(after, rate, :anchor)) + 1 AS ulid_on_the_virtual_clock,
       round((unix_ms(v7) - ms_of(before)) / 60000.0) AS minutes_from_the_real_clock
FROM arithmetic ORDER BY rate DESC;

-- uuid_time_nextval's block follows the virtual clock too: at rate 1000 with the anchor an hour back, the
-- virtual time is 999 hours ahead
SET sequuid.clock_rate = 1000;
SELECT get_byte(uuid_send(u), 0) * 256 + get_byte(uuid_send(u), 1)
           BETWEEN mod(floor(virtual_ms(before, 1000, :anchor) / 1000 / 3600)::bigint, 65536)
               AND mod(floor(virtual_ms(after, 1000, :anchor) / 1000 / 3600)::bigint, 65536)
           AS time_prefix_on_the_virtual_clock
FROM (SELECT clock_timestamp() AS before, uuid_time_nextval(3600, 65536) AS u) s,
     LATERAL (SELECT clock_timestamp() AS after) a;

-- the offset adds to the virtual time
SET sequuid.clock_offset = '-1h';
SELECT unix_ms(u) BETWEEN floor(virtual_ms(before, 1000, :anchor)) - 3600000 - 1
                      AND ceil(virtual_ms(after, 1000, :anchor)) - 3600000 + 1 AS offset_added
FROM (SELECT clock_timestamp() AS before, uuid_generate_ulid() AS u) s, LATERAL (SELECT clock_timestamp() AS after) a;
RESET sequuid.clock_offset;
RESET sequuid.clock_anchor;
RESET sequuid.clock_rate;

-- the default anchor is the server's start time, which every backend shares: set for the database (as whoever
-- sets the rate would, in postgresql.conf or by ALTER SYSTEM / ALTER DATABASE), two new backends read one timeline
SELECT current_database() AS db, extract(epoch FROM pg_postmaster_start_time())::float8 AS server_start \gset
ALTER DATABASE :"db" SET sequuid.clock_rate = 1000;
\c
SET search_path = public, regress_helpers;
CREATE TEMP TABLE backend_1 AS SELECT clock_timestamp() AS before, uuid_generate_v7() AS u, clock_timestamp() AS after;
SELECT current_setting('sequuid.clock_rate') AS rate_in_new_backend,
       unix_ms(u) BETWEEN floor(virtual_ms(before, 1000, :server_start)) - 1
                      AND ceil(virtual_ms(after, 1000, :server_start)) + 1 AS first_backend_on_the_timeline
FROM backend_1;
SELECT u AS first_backend_value FROM backend_1 \gset
\c
SET search_path = public, regress_helpers;
SELECT unix_ms(u) BETWEEN floor(virtual_ms(before, 1000, :server_start)) - 1
                      AND ceil(virtual_ms(after, 1000, :server_start)) + 1 AS second_backend_on_the_timeline,
       u > :'first_backend_value' AS above_the_first_backend
FROM (SELECT clock_timestamp() AS before, uuid_generate_v7() AS u) s, LATERAL (SELECT clock_timestamp() AS after) a;
ALTER DATABASE :"db" RESET sequuid.clock_rate;
\c
SET search_path = public, regress_helpers;

-- ordering holds at any rate: 100,000 calls per generator at rate 0.001 (a virtual microsecond per real
-- millisecond, far below the calls' pace) and at rate 10000
CREATE FUNCTION pg_temp.not_increasing(expression text, calls int) RETURNS bigint
    LANGUAGE plpgsql AS $$
DECLARE
    result bigint;
BEGIN
    EXECUTE format('SELECT count(*) FILTER (WHERE key <= previous) FROM (SELECT key, lag(key) OVER (ORDER BY call) AS previous
                    FROM (SELECT call, %s AS key FROM generate_series(1, %s) call) g) w', expression, calls) INTO result;
    RETURN result;
END
$$;
SET work_mem = '64MB';
SET sequuid.clock_rate = 0.001;
SELECT pg_temp.not_increasing('uuid_generate_v7()', 100000) AS v7, pg_temp.not_increasing('uuid_generate_v6()', 100000) AS v6,
       pg_temp.not_increasing('uuid_v1_to_v6(uuid_generate_v1_random_node())', 100000) AS v1_time,
       pg_temp.not_increasing('uuid_generate_ulid()', 100000) AS ulid,
       pg_temp.not_increasing('uuid_generate_v7(''-1 day'')', 100000) AS v7_shifted;
SET sequuid.clock_rate = 10000;
SELECT pg_temp.not_increasing('uuid_generate_v7()', 100000) AS v7, pg_temp.not_increasing('uuid_generate_v6()', 100000) AS v6,
       pg_temp.not_increasing('uuid_v1_to_v6(uuid_generate_v1_random_node())', 100000) AS v1_time,
       pg_temp.not_increasing('uuid_generate_ulid()', 100000) AS ulid,
       pg_temp.not_increasing('uuid_generate_v7(''-1 day'')', 100000) AS v7_shifted;
-- at rate 10000 the clock runs ahead: 100,000 calls span well over the real time they took.  The span is read
-- from the largest and smallest value only (a uuid's text sorts as its bytes under "C", and a v7 leads with its
-- millisecond): unix_ms() on every one of the 100,000 values would cost seconds of CPU.
SELECT (unix_ms(max(u::text COLLATE "C")::uuid) - unix_ms(min(u::text COLLATE "C")::uuid)) / 1000.0
       > 100 * extract(epoch FROM max(t) - min(t)) AS runs_fast
FROM (SELECT uuid_generate_v7() AS u, clock_timestamp() AS t FROM generate_series(1, 100000)) g;
RESET sequuid.clock_rate;

-- bad rates: 22023 naming the setting; a non-superuser may not set either setting (42501)
SET sequuid.clock_rate = 0;
\echo :LAST_ERROR_SQLSTATE
SET sequuid.clock_rate = -1;
\echo :LAST_ERROR_SQLSTATE
SET sequuid.clock_rate = 'NaN';
\echo :LAST_ERROR_SQLSTATE
SET sequuid.clock_rate = 'Infinity';
\echo :LAST_ERROR_SQLSTATE
SET sequuid.clock_rate = '-Infinity';
\echo :LAST_ERROR_SQLSTATE
SET sequuid.clock_anchor = -1;
\echo :LAST_ERROR_SQLSTATE
SET sequuid.clock_anchor = 'NaN';
\echo :LAST_ERROR_SQLSTATE
SHOW sequuid.clock_rate;
CREATE ROLE regress_virtual_clock_user;
SET ROLE regress_virtual_clock_user;
SET sequuid.clock_rate = 2;
\echo :LAST_ERROR_SQLSTATE
SET sequuid.clock_anchor = 1;
\echo :LAST_ERROR_SQLSTATE
RESET ROLE;
DROP ROLE regress_virtual_clock_user;

-- a rate and anchor that take the clock past what it can hold, or before 1970: an error, not a wrapped time
SET sequuid.clock_anchor = 1;
SET sequuid.clock_rate = 1000000;
SELECT uuid_generate_v7();
\echo :LAST_ERROR_SQLSTATE
SET sequuid.clock_anchor = 9000000000;
SET sequuid.clock_rate = 1000;
SELECT uuid_generate_ulid();
\echo :LAST_ERROR_SQLSTATE
RESET sequuid.clock_anchor;
RESET sequuid.clock_rate;
DROP FUNCTION regress_helpers.virtual_ms(timestamptz, float8, float8);
