-- time_nextval: uuid_time_nextval(interval_length, interval_count): prefix layout and bad input.
\set SHOW_CONTEXT never
SET search_path = public, regress_helpers;

-- the block (Unix seconds / interval_length) mod interval_count sits in the leading ceil(log2(interval_count))
-- bits: compare with the clock read around each call
CREATE TEMP TABLE time_sample AS SELECT * FROM sample_calls('uuid_time_nextval()', 200);
-- 1.5 s of calls, so the 1-second blocks move on at least once
CREATE TEMP TABLE time_small_sample AS SELECT * FROM sample_calls('uuid_time_nextval(1, 3)', 15, 0.1);
SELECT count(*) AS calls,
       count(*) FILTER (WHERE octets(u, 0, 1) NOT IN (block(before, 60, 65536), block(after, 60, 65536)))
           AS prefix_off_the_clock,
       bool_and(version(u) = 8) AS version_8, bool_and(variant(u) = 2) AS variant_10,
       count(DISTINCT u) AS distinct_values
FROM time_sample;
SELECT count(*) AS calls,
       count(*) FILTER (WHERE get_byte(uuid_send(u), 0) >> 6 NOT IN (block(before, 1, 3), block(after, 1, 3)))
           AS prefix_off_the_clock,
       count(DISTINCT get_byte(uuid_send(u), 0) >> 6) > 1 AS prefix_moves,
       bool_and(version(u) = 8) AS version_8, bool_and(variant(u) = 2) AS variant_10,
       count(DISTINCT u) AS distinct_values
FROM time_small_sample;

-- bad arguments: 22023 naming the argument
SELECT uuid_time_nextval(0);
\echo :LAST_ERROR_SQLSTATE
SELECT uuid_time_nextval(60, 0);
\echo :LAST_ERROR_SQLSTATE
SELECT uuid_time_nextval(-60, 10);
\echo :LAST_ERROR_SQLSTATE

-- STRICT: NULL in, NULL out
SELECT uuid_time_nextval(NULL) IS NULL AS null_length, uuid_time_nextval(60, NULL) IS NULL AS null_count;
