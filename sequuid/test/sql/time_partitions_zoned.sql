-- time_partitions_zoned: uuid_time_partitions(kind, start, step, count, time_zone), calendar days and months of a
-- named time zone (shared: C and PL/pgSQL give the same output).  Range i starts at start + i * step on the
-- zone's clock.  Errors show message, detail, hint and SQLSTATE, without CONTEXT lines.
\set SHOW_CONTEXT never
SET search_path = public, regress_helpers;
SET TimeZone = 'UTC';
SET DateStyle = 'ISO, YMD';

-- The rows one query returns and the other does not, both ways: 0 when they return the same rows
CREATE FUNCTION pg_temp.rows_differing(one text, other text) RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
    found bigint;
BEGIN
    EXECUTE format('SELECT count(*) FROM (((%s) EXCEPT (%s)) UNION ALL ((%2$s) EXCEPT (%1$s))) d', one, other)
        INTO found;
    RETURN found;
END
$$;

-- How a call of uuid_time_partitions is refused: its SQLSTATE, message, detail and hint
CREATE FUNCTION pg_temp.refusal(kind text, start timestamptz, step interval, count integer, time_zone text,
                                OUT code text, OUT message text, OUT detail text, OUT hint text)
    LANGUAGE plpgsql AS $$
BEGIN
    PERFORM * FROM uuid_time_partitions(kind, start, step, count, time_zone);
    code := 'not refused';
EXCEPTION WHEN OTHERS THEN
    GET STACKED DIAGNOSTICS code = RETURNED_SQLSTATE, message = MESSAGE_TEXT, detail = PG_EXCEPTION_DETAIL,
                            hint = PG_EXCEPTION_HINT;
END
$$;

-- days across both DST changes of 2024 in Berlin: from local midnight to local midnight, 23 hours in March and
-- 25 in October
SELECT range_start, range_end, range_end - range_start AS length,
       range_start AT TIME ZONE 'Europe/Berlin' AS local_start
FROM unnest(ARRAY[timestamptz '2024-03-30 00:00:00+01', '2024-10-26 00:00:00+02']) start,
     uuid_time_partitions('v7', start, '1 day', 3, 'Europe/Berlin')
ORDER BY range_start;

-- months from the 31st: each range starts at start + i months (clamped to the month's end, and back to the 31st
-- where the month has one), not at the previous range's end plus a month
SELECT range_start, range_end, lower, upper
FROM uuid_time_partitions('v7', '2024-01-31 00:00:00+00', '1 month', 5, 'UTC');

-- a year of Berlin months, for each kind: every range starts at local midnight of the 1st, the ranges and the bounds
-- tile, each lower is the kind's smallest key of range_start (v7: uuid_v7_boundary), and the result equals the one
-- the README's month-by-month calls of the four-argument form give
CREATE TEMP TABLE berlin_months AS
    SELECT kind, row_number() OVER (PARTITION BY kind ORDER BY range_start) AS n, p.*
    FROM unnest(ARRAY['v7', 'ulid', 'v6']) kind,
         uuid_time_partitions(kind, '2025-01-01 00:00:00+01', '1 month', 12, 'Europe/Berlin') p;
SELECT kind, count(*) AS ranges,
       bool_and(range_start AT TIME ZONE 'Europe/Berlin' = date_trunc('month', range_start AT TIME ZONE 'Europe/Berlin')
                AND (range_start AT TIME ZONE 'Europe/Berlin')::time = '00:00') AS at_local_midnight_of_the_1st,
       bool_and(next_start IS NULL OR range_end = next_start) AS ranges_tile,
       bool_and(next_lower IS NULL OR upper = next_lower) AS bounds_tile,
       bool_and(kind <> 'v7' OR lower = uuid_v7_boundary(range_start)) AS v7_lower_is_the_boundary,
       bool_and(lower = key_at(kind, ns_of(range_start), 'zero')) AS lower_is_the_first_key,
       bool_and(key_at(kind, ns_of(range_end) - 1, 'one') < upper) AS last_key_below_upper
FROM (SELECT b.*, lead(range_start) OVER w AS next_start, lead(lower) OVER w AS next_lower
      FROM berlin_months b WINDOW w AS (PARTITION BY kind ORDER BY n)) r
GROUP BY kind ORDER BY kind;
\set berlin_v7 'SELECT range_start, range_end, lower, upper FROM berlin_months WHERE kind = ''v7'''
SET TimeZone = 'Europe/Berlin';
SELECT pg_temp.rows_differing(:'berlin_v7', $$
    SELECT p.* FROM generate_series(timestamptz '2025-01-01', '2025-12-01', '1 month') m,
        uuid_time_partitions('v7', m, make_interval(secs => extract(epoch FROM (m + interval '1 month') - m)), 1) p
$$) AS rows_differing_from_monthly_calls;

-- IMMUTABLE: the session's TimeZone changes nothing, only the argument does
SET TimeZone = 'America/New_York';
SELECT pg_temp.rows_differing(:'berlin_v7', $$
    SELECT * FROM uuid_time_partitions('v7', '2025-01-01 00:00:00+01', '1 month', 12, 'Europe/Berlin')
$$) AS rows_differing_in_new_york;
SET TimeZone = 'UTC';

-- PostgreSQL's own routing: a table partitioned by the Berlin days around the March change; keys made a
-- nanosecond before and at each local midnight land on either side of it
CREATE TABLE events_berlin (id uuid, day int, PRIMARY KEY (id)) PARTITION BY RANGE (id);
SELECT format('CREATE TABLE events_berlin_%s PARTITION OF events_berlin FOR VALUES FROM (%L) TO (%L)',
              row_number() OVER (ORDER BY range_start), lower, upper)
FROM uuid_time_partitions('v7', '2024-03-30 00:00:00+01', '1 day', 3, 'Europe/Berlin') \gexec
INSERT INTO events_berlin
SELECT key_at('v7', ns_of(t) + nudge, CASE WHEN nudge < 0 THEN 'one' ELSE 'zero' END), d
FROM (VALUES (1, timestamptz '2024-03-31 00:00:00+01', -1), (2, '2024-03-31 00:00:00+01', 0),
             (2, '2024-04-01 00:00:00+02', -1), (3, '2024-04-01 00:00:00+02', 0)) v (d, t, nudge);
SELECT tableoid::regclass AS partition, day FROM events_berlin ORDER BY id;
DROP TABLE events_berlin;

-- a fixed step with a time zone is that step, where the zone's clocks do not jump
SELECT pg_temp.rows_differing(
    $$SELECT * FROM uuid_time_partitions('v7', '2024-01-01 00:00:00+00', '6 hours', 8, 'UTC')$$,
    $$SELECT * FROM uuid_time_partitions('v7', '2024-01-01 00:00:00+00', '6 hours', 8)$$) AS rows_differing_from_fixed;

-- STRICT: NULL in, no rows
SELECT count(*) AS rows_for_null FROM uuid_time_partitions('v7', now(), '1 day', 1, NULL);

-- bad input: 22023 for a step that is not positive in every part, for a time zone PostgreSQL does not know
-- (core's message), and for an hour step that lands twice on one instant where clocks jump (New York,
-- 2024-03-10: local 02:00 does not exist and is read as 03:00); 22008 past the kind's range
\x on
SELECT c.kind, c.step, c.count, c.time_zone, r.*
FROM (VALUES ('v7', timestamptz '2024-03-09 00:00:00+00', interval '-1 day', 3, 'UTC'),
             ('v7', '2024-03-09 00:00:00+00', '1 month -1 day', 3, 'UTC'),
             ('v7', '2024-03-09 00:00:00+00', '0', 3, 'UTC'),
             ('v7', '2024-03-09 00:00:00+00', '1 day', 3, 'Mars/Olympus_Mons'),
             ('v7', '2024-03-10 00:00:00-05', '1 hour', 6, 'America/New_York'),
             ('v7', '10889-01-01 00:00:00+00', '1 month', 12, 'UTC'),
             ('v6', '2024-01-01 00:00:00+00', '1000 years', 100000, 'UTC'),
             ('v7', '2024-01-01 00:00:00+00', '2000000000 days', 2, 'UTC'),
             ('v7', '2024-01-01 00:00:00+00', '1 month', 0, 'UTC')) c (kind, start, step, count, time_zone),
     pg_temp.refusal(c.kind, c.start, c.step, c.count, c.time_zone) r;
\x off
