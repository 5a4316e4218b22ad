-- time_nextval: uuid_time_nextval(interval_length, interval_count): prefix layout and bad input.
\set SHOW_CONTEXT never
SET search_path = public, regress_helpers;

-- the block (Unix seconds / interval_length) mod interval_count sits in the leading ceil(log2(interval_count))
-- bits rounded up to whole bytes, the interval length rescaled to max(1, interval_length * interval_count / 2^bits)
-- (sequential-uuids 1.0.3's layout): compare with the clock read around each call
CREATE TEMP TABLE time_sample AS SELECT * FROM sample_calls('uuid_time_nextval()', 200);
-- (1, 3): one byte, intervals of max(1, 3 / 256) = 1 s, prefixes (Unix seconds mod 256); (1, 256), 1.0.3's own
-- case: one byte, 1-second intervals.  Five calls of each, a sleep to just past the next whole second, five more:
-- the 1-second blocks move on between the two, and no more than a second is spent waiting for it.
CREATE TEMP TABLE time_small_sample AS SELECT * FROM sample_calls('uuid_time_nextval(1, 3)', 5);
CREATE TEMP TABLE time_byte_sample AS SELECT * FROM sample_calls('uuid_time_nextval(1, 256)', 5);
SELECT FROM pg_sleep(1.01 - extract(epoch FROM clock_timestamp()) % 1);
INSERT INTO time_small_sample SELECT * FROM sample_calls('uuid_time_nextval(1, 3)', 5);
INSERT INTO time_byte_sample SELECT * FROM sample_calls('uuid_time_nextval(1, 256)', 5);
-- (600, 100): one byte, intervals of 60000 / 256 = 234 s
CREATE TEMP TABLE time_rescaled_sample AS SELECT * FROM sample_calls('uuid_time_nextval(600, 100)', 20);
SELECT count(*) AS calls,
       count(*) FILTER (WHERE octets(u, 0, 1) NOT IN (block(before, 60, 65536), block(after, 60, 65536)))
           AS prefix_off_the_clock,
       bool_and(version(u) = 8) AS version_8, bool_and(variant(u) = 2) AS variant_10,
       count(DISTINCT u) AS distinct_values
FROM time_sample;
SELECT count(*) AS calls,
       count(*) FILTER (WHERE get_byte(uuid_send(u), 0) NOT IN (block(before, 1, 256), block(after, 1, 256)))
           AS prefix_off_the_clock,
       count(DISTINCT get_byte(uuid_send(u), 0)) > 1 AS prefix_moves,
       bool_and(version(u) = 8) AS version_8, bool_and(variant(u) = 2) AS variant_10,
       count(DISTINCT u) AS distinct_values
FROM time_small_sample;
SELECT count(*) AS calls,
       count(*) FILTER (WHERE get_byte(uuid_send(u), 0) NOT IN (block(before, 1, 256), block(after, 1, 256)))
           AS prefix_off_the_clock,
       count(DISTINCT get_byte(uuid_send(u), 0)) > 1 AS prefix_moves
FROM time_byte_sample;
SELECT count(*) AS calls,
       count(*) FILTER (WHERE get_byte(uuid_send(u), 0) NOT IN (block(before, 234, 256), block(after, 234, 256)))
           AS prefix_off_the_clock
FROM time_rescaled_sample;

-- bad arguments: 22023 with sequential-uuids 1.0.3's messages
SELECT uuid_time_nextval(0);
\echo :LAST_ERROR_SQLSTATE
SELECT uuid_time_nextval(60, 0);
\echo :LAST_ERROR_SQLSTATE
SELECT uuid_time_nextval(-60, 10);
\echo :LAST_ERROR_SQLSTATE

-- STRICT: NULL in, NULL out
SELECT uuid_time_nextval(NULL) IS NULL AS null_length, uuid_time_nextval(60, NULL) IS NULL AS null_count;
