-- clock: the superuser-only debug offset sequuid.clock_offset; a clock that steps back; the time prefix.
\set SHOW_CONTEXT never
SET search_path = public, regress_helpers;

-- only a superuser may move the clock
CREATE ROLE regress_clock_user;
SELECT uuid_generate_v7() IS NOT NULL AS library_loaded;
SET ROLE regress_clock_user;
SET sequuid.clock_offset = '1h';
\echo :LAST_ERROR_SQLSTATE
RESET ROLE;
-- also when the library is not loaded yet: the value a non-superuser gave the placeholder is dropped on loading
\c
SET ROLE regress_clock_user;
SET sequuid.clock_offset = '1h';
SELECT uuid_generate_v7() IS NOT NULL AS library_loaded;
SHOW sequuid.clock_offset;
RESET ROLE;
DROP ROLE regress_clock_user;
SET search_path = public, regress_helpers;

-- one hour ahead: every generator follows the offset clock
SET sequuid.clock_offset = '1h';
SHOW sequuid.clock_offset;
CREATE TABLE stepped AS
    SELECT 1 AS step, uuid_generate_v7() AS v7, uuid_generate_v6() AS v6, uuid_generate_ulid() AS ulid,
           clock_timestamp() + interval '1 hour' AS expected;
SELECT abs(unix_ms(v7) - ms_of(expected)) < 1000 AS v7_ahead,
       abs(v6_gregorian_100ns(v6) / 10000 - 12219292800000 - ms_of(expected)) < 1000 AS v6_ahead,
       abs(unix_ms(ulid) - ms_of(expected)) < 1000 AS ulid_ahead
FROM stepped;

-- the clock steps back one hour, then one more day: values keep increasing, and the time in them runs ahead of
-- the clock by the minimal step instead of following it back
RESET sequuid.clock_offset;
INSERT INTO stepped SELECT 2, uuid_generate_v7(), uuid_generate_v6(), uuid_generate_ulid(), NULL;
SET sequuid.clock_offset = '-1d';
INSERT INTO stepped SELECT 3, uuid_generate_v7(), uuid_generate_v6(), uuid_generate_ulid(), NULL;
SELECT step, v7 > previous_v7 AS v7_increases, v6 > previous_v6 AS v6_increases,
       ulid > previous_ulid AS ulid_increases,
       unix_ms(v7) - unix_ms(previous_v7) <= 1 AS v7_stays_at_the_time_reached,
       unix_ms(ulid) = unix_ms(previous_ulid) AS ulid_stays_in_the_millisecond,
       octets(ulid, 6, 15) - octets(previous_ulid, 6, 15) AS ulid_random_step
FROM (SELECT step, v7, v6, ulid, lag(v7) OVER w AS previous_v7, lag(v6) OVER w AS previous_v6,
             lag(ulid) OVER w AS previous_ulid
      FROM stepped WINDOW w AS (ORDER BY step)) s
WHERE step > 1 ORDER BY step;

-- the time prefix of uuid_time_nextval follows the offset clock: 20 days ahead and behind, one-day blocks
-- (480 hours, not '20 days': the session time zone may cross a daylight saving change in between)
SET sequuid.clock_offset = '20d';
SELECT get_byte(uuid_send(u), 0) * 256 + get_byte(uuid_send(u), 1)
           IN (block(before + interval '480 hours', 86400, 65536), block(after + interval '480 hours', 86400, 65536))
           AS prefix_20_days_ahead
FROM (SELECT clock_timestamp() AS before, uuid_time_nextval(86400, 65536) AS u) s, LATERAL (SELECT clock_timestamp() AS after) a;
SET sequuid.clock_offset = '-20d';
SELECT get_byte(uuid_send(u), 0) * 256 + get_byte(uuid_send(u), 1)
           IN (block(before - interval '480 hours', 86400, 65536), block(after - interval '480 hours', 86400, 65536))
           AS prefix_20_days_behind
FROM (SELECT clock_timestamp() AS before, uuid_time_nextval(86400, 65536) AS u) s, LATERAL (SELECT clock_timestamp() AS after) a;
RESET sequuid.clock_offset;

-- without shared_preload_libraries the ascending clock is per backend: a new backend with its clock an hour
-- behind starts below the values of the old one (schedule-preload runs the same steps and sees the opposite)
SET sequuid.clock_offset = '1h';
INSERT INTO stepped SELECT 4, uuid_generate_v7(), uuid_generate_v6(), uuid_generate_ulid(), NULL;
\c
SET search_path = public, regress_helpers;
INSERT INTO stepped SELECT 5, uuid_generate_v7(), uuid_generate_v6(), uuid_generate_ulid(), NULL;
SELECT b.v7 > a.v7 AS v7_above_other_backend, b.v6 > a.v6 AS v6_above_other_backend
FROM stepped a, stepped b WHERE a.step = 4 AND b.step = 5;
DROP TABLE stepped;
