-- time_partitions: uuid_time_partitions, the uuid bounds of time ranges for range partitions on v7, ULID and v6
-- keys (shared: C and PL/pgSQL give the same output).  Keys are built here from their octets in plain SQL, not
-- by the extension under test, so a layout bug in a bound cannot hide behind the same bug in a generator.
-- Errors show message, detail, hint and SQLSTATE: CONTEXT lines differ between the implementations.
\set SHOW_CONTEXT never
SET search_path = public, regress_helpers;
SET TimeZone = 'UTC';
SET DateStyle = 'ISO, YMD';

-- A key of a kind made at a Unix nanosecond, as a generator with a nanosecond clock makes it: v7 keeps the 12-bit
-- fraction of the millisecond, ULID the millisecond, v6 the 100 ns since 1582-10-15.  The bits after the time
-- are random, all zero ('zero': the smallest key of that instant) or all one ('one': the largest).
CREATE FUNCTION regress_helpers.key_at(kind text, unix_ns bigint, fill text DEFAULT 'random') RETURNS uuid
    LANGUAGE sql VOLATILE
    AS $$
    WITH bits AS (
        SELECT CASE fill WHEN 'zero' THEN repeat('0', 20) WHEN 'one' THEN repeat('f', 20)
                         ELSE left(md5(random()::text) || md5(random()::text), 20) END AS rest,
               unix_ns / 100 + 122192928000000000 AS gregorian_100ns)
    SELECT CASE kind
        WHEN 'v7' THEN (lpad(to_hex(unix_ns / 1000000), 12, '0') || '7'
                        || lpad(to_hex(unix_ns % 1000000 * 4096 / 1000000), 3, '0')
                        || to_hex(8 | (('x' || left(rest, 1))::bit(4)::int & 3)) || right(rest, 15))::uuid
        WHEN 'ulid' THEN (lpad(to_hex(unix_ns / 1000000), 12, '0') || rest)::uuid
        WHEN 'v6' THEN (lpad(to_hex(gregorian_100ns >> 12), 12, '0') || '6' || lpad(to_hex(gregorian_100ns & 4095), 3, '0')
                        || to_hex(8 | (('x' || left(rest, 1))::bit(4)::int & 3)) || right(rest, 15))::uuid
        END
    FROM bits
$$;

CREATE FUNCTION regress_helpers.ns_of(t timestamptz) RETURNS bigint
    LANGUAGE sql IMMUTABLE STRICT AS $$ SELECT (extract(epoch FROM t) * 1000000000)::bigint $$;

-- the helper against the RFC 9562 test vectors (A.6 v7, A.5 v6; their random parts are not ours)
SELECT left(key_at('v7', 1645557742000000000, 'zero')::text, 18) AS v7_prefix_017f22e2_79b0_7000,
       left(key_at('v6', ns_of('2022-02-22 19:22:22+00'), 'zero')::text, 18) AS v6_prefix_1ec9414c_232a_6b00;

-- three days, for each kind
SELECT * FROM uuid_time_partitions('v7', '2024-03-09 00:00:00+00', '24 hours', 3);
SELECT * FROM uuid_time_partitions('ulid', '2024-03-09 00:00:00+00', '24 hours', 3);
SELECT * FROM uuid_time_partitions('v6', '2024-03-09 00:00:00+00', '24 hours', 3);
-- the kind is read case-insensitively
SELECT lower, upper FROM uuid_time_partitions('ULID', '2024-03-09 00:00:00+00', '24 hours', 1);

-- Over 2,000 ranges of an uneven step (whole milliseconds) per kind: the ranges tile (each range ends where the
-- next starts, each upper is the next lower), lower is the smallest key made at range_start, the largest key made
-- in the range's last nanosecond lies below upper, and keys made at random instants inside lie in [lower, upper).
CREATE TEMP TABLE ranges AS
    SELECT kind, row_number() OVER (PARTITION BY kind ORDER BY range_start) AS n, p.*
    FROM unnest(ARRAY['v7', 'ulid', 'v6']) kind,
         uuid_time_partitions(kind, '2023-12-31 23:00:00+00', '3 hours 17 minutes 0.001 seconds', 2000) p;
SELECT kind, count(*) AS ranges,
       bool_and(next_start IS NULL OR range_end = next_start) AS ranges_tile,
       bool_and(next_lower IS NULL OR upper = next_lower) AS bounds_tile,
       bool_and(lower < upper) AS ascending,
       bool_and(lower = key_at(kind, ns_of(range_start), 'zero')) AS lower_is_the_first_key,
       bool_and(key_at(kind, ns_of(range_end) - 1, 'one') < upper) AS last_key_below_upper,
       bool_and(key_at(kind, ns_of(range_start) - 1, 'one') < lower) AS earlier_key_below_lower,
       bool_and(inside >= lower AND inside < upper) AS random_keys_inside
FROM (SELECT r.*, lead(range_start) OVER w AS next_start, lead(lower) OVER w AS next_lower,
             key_at(kind, ns_of(range_start) + (random() * (ns_of(range_end) - ns_of(range_start)))::bigint) AS inside
      FROM ranges r WINDOW w AS (PARTITION BY kind ORDER BY n)) s
GROUP BY kind ORDER BY kind;

-- A bound finer than a kind's unit is rounded down to it, as every key is: a ULID made in the same millisecond
-- before range_start still sorts at lower or above.  Bounds in whole milliseconds route every key exactly.
SELECT key_at('ulid', ns_of('2024-03-09 00:00:00.0005+00') - 1, 'one') >= lower AS ulid_same_ms_before_start_above_lower
FROM uuid_time_partitions('ulid', '2024-03-09 00:00:00.0005+00', '1 hour', 1);

-- PostgreSQL's own partition routing: one table per kind, range-partitioned on its uuid key by days made from the
-- function's rows.  Keys made at each day's first nanosecond, noon and last nanosecond land in that day's partition.
DO $$
DECLARE
    kind text;
    r record;
BEGIN
    FOREACH kind IN ARRAY ARRAY['v7', 'ulid', 'v6'] LOOP
        EXECUTE format('CREATE TABLE %I (id uuid PRIMARY KEY, made_ns bigint, label text) PARTITION BY RANGE (id)',
                       'events_' || kind);
        FOR r IN SELECT * FROM uuid_time_partitions(kind, '2024-03-09 00:00:00+00', '24 hours', 3) LOOP
            EXECUTE format('CREATE TABLE %I PARTITION OF %I FOR VALUES FROM (%L) TO (%L)',
                           'events_' || kind || '_' || to_char(r.range_start, 'YYYYMMDD'), 'events_' || kind,
                           r.lower, r.upper);
        END LOOP;
    END LOOP;
END
$$;
CREATE TEMP TABLE instants AS
    SELECT day, label, ns_of(day) + offset_ns AS unix_ns, fill
    FROM generate_series(timestamptz '2024-03-09 00:00:00+00', '2024-03-11 00:00:00+00', '24 hours') day,
         (VALUES ('first ns', 0::bigint, 'zero'), ('noon', 43200000000000, 'random'),
                 ('last ns', 86400000000000 - 1, 'one')) v(label, offset_ns, fill);
INSERT INTO events_v7 SELECT key_at('v7', unix_ns, fill), unix_ns, label FROM instants;
INSERT INTO events_ulid SELECT key_at('ulid', unix_ns, fill), unix_ns, label FROM instants;
INSERT INTO events_v6 SELECT key_at('v6', unix_ns, fill), unix_ns, label FROM instants;
-- and v7 keys made by the extension's own uuid_timestamptz_to_v7, at each day's first microsecond, noon, last microsecond
INSERT INTO events_v7
    SELECT uuid_timestamptz_to_v7(day + offset_us * interval '1 microsecond'),
           ns_of(day) + offset_us * 1000, 'converted, ' || label
    FROM generate_series(timestamptz '2024-03-09 00:00:00+00', '2024-03-11 00:00:00+00', '24 hours') day,
         (VALUES ('first us', 0::bigint), ('noon', 43200000000), ('last us', 86400000000 - 1)) v(label, offset_us);
SELECT e.tableoid::regclass AS partition, e.label,
       to_char(to_timestamp(e.made_ns / 1000000000), 'YYYY-MM-DD HH24:MI:SS.')
           || lpad((e.made_ns % 1000000000)::text, 9, '0') AS made_at_utc,
       e.tableoid::regclass::text
           = 'events_' || kind || '_' || to_char(to_timestamp(e.made_ns / 1000000000), 'YYYYMMDD') AS in_its_day
FROM (SELECT 'v7' AS kind, tableoid, * FROM events_v7 UNION ALL SELECT 'ulid', tableoid, * FROM events_ulid
      UNION ALL SELECT 'v6', tableoid, * FROM events_v6) e
ORDER BY kind, made_ns, label;
-- a key of the nanosecond before the first day, and one of the first nanosecond after the last, have no partition
\set VERBOSITY terse
INSERT INTO events_v7 VALUES (key_at('v7', ns_of('2024-03-09 00:00:00+00') - 1, 'one'), 0, 'before');
INSERT INTO events_v6 VALUES (key_at('v6', ns_of('2024-03-12 00:00:00+00'), 'zero'), 0, 'after');
\set VERBOSITY default
DROP TABLE events_v7, events_ulid, events_v6;

-- IMMUTABLE: the result depends on the arguments alone.  The same call in New York across the change to daylight
-- saving time (2024-03-10) gives the same bounds as in UTC; a day as the step is refused, its length depends on
-- the time zone.
CREATE TEMP TABLE in_utc AS SELECT * FROM uuid_time_partitions('v7', '2024-03-09 00:00:00+00', '24 hours', 3);
SET TimeZone = 'America/New_York';
SELECT count(*) AS rows_differing_from_utc
FROM ((SELECT * FROM uuid_time_partitions('v7', '2024-03-09 00:00:00+00', '24 hours', 3) EXCEPT SELECT * FROM in_utc)
      UNION ALL
      (SELECT * FROM in_utc EXCEPT SELECT * FROM uuid_time_partitions('v7', '2024-03-09 00:00:00+00', '24 hours', 3))) d;
-- from local midnight: 24 hours are 24 hours, so after the change a range starts at 01:00 local time
SELECT range_start, range_end FROM uuid_time_partitions('v7', '2024-03-09 00:00:00', '24 hours', 3);
SELECT * FROM uuid_time_partitions('v7', '2024-03-09 00:00:00', '1 day', 3);
\echo :LAST_ERROR_SQLSTATE
SET TimeZone = 'UTC';

-- STRICT: NULL in, no rows
SELECT count(*) AS rows_for_null
FROM (SELECT * FROM uuid_time_partitions(NULL, now(), '1 hour', 1)
      UNION ALL SELECT * FROM uuid_time_partitions('v7', NULL, '1 hour', 1)
      UNION ALL SELECT * FROM uuid_time_partitions('v7', now(), NULL, 1)
      UNION ALL SELECT * FROM uuid_time_partitions('v7', now(), '1 hour', NULL)) n;

-- the ends of each kind's range are reachable, exactly
SELECT * FROM uuid_time_partitions('v7', '1970-01-01 00:00:00+00', '1 millisecond', 1);
SELECT * FROM uuid_time_partitions('v7', '10889-08-02 05:31:50.654999+00', '1 millisecond', 1);
SELECT * FROM uuid_time_partitions('ulid', '10889-08-02 05:31:50.654999+00', '1 millisecond', 1);
SELECT * FROM uuid_time_partitions('v6', '1582-10-15 00:00:00+00', '1 microsecond', 1);
SELECT * FROM uuid_time_partitions('v6', '5236-03-31 21:21:00.684696+00', '1 microsecond', 1);
-- 100,000 ranges at most per call
SELECT count(*) AS most_ranges FROM uuid_time_partitions('v7', '2024-01-01 00:00:00+00', '1 second', 100000);

-- bad input: 22023 naming the argument, 22008 for instants a kind cannot hold
SELECT * FROM uuid_time_partitions('v1', '2024-03-09 00:00:00+00', '24 hours', 3);
\echo :LAST_ERROR_SQLSTATE
SELECT * FROM uuid_time_partitions('v4', '2024-03-09 00:00:00+00', '24 hours', 3);
\echo :LAST_ERROR_SQLSTATE
SELECT * FROM uuid_time_partitions('v7', '2024-03-09 00:00:00+00', '24 hours', 0);
\echo :LAST_ERROR_SQLSTATE
SELECT * FROM uuid_time_partitions('v7', '2024-03-09 00:00:00+00', '24 hours', 100001);
\echo :LAST_ERROR_SQLSTATE
SELECT * FROM uuid_time_partitions('v7', '2024-03-09 00:00:00+00', '0', 3);
\echo :LAST_ERROR_SQLSTATE
SELECT * FROM uuid_time_partitions('v7', '2024-03-09 00:00:00+00', '-1 hour', 3);
\echo :LAST_ERROR_SQLSTATE
SELECT * FROM uuid_time_partitions('v7', '2024-03-09 00:00:00+00', '1 mon', 3);
\echo :LAST_ERROR_SQLSTATE
SELECT * FROM uuid_time_partitions('v7', '2024-03-09 00:00:00+00', '1 day -24 hours', 3);
\echo :LAST_ERROR_SQLSTATE
SELECT * FROM uuid_time_partitions('v7', '1969-12-31 23:59:59.999999+00', '24 hours', 3);
\echo :LAST_ERROR_SQLSTATE
SELECT * FROM uuid_time_partitions('ulid', 'infinity', '24 hours', 3);
\echo :LAST_ERROR_SQLSTATE
SELECT * FROM uuid_time_partitions('v6', '1582-10-14 23:59:59.999999+00', '24 hours', 3);
\echo :LAST_ERROR_SQLSTATE
SELECT * FROM uuid_time_partitions('v7', '10889-08-02 05:31:50.654999+00', '1 millisecond', 2);
\echo :LAST_ERROR_SQLSTATE
SELECT * FROM uuid_time_partitions('v6', '5236-03-31 21:21:00.684696+00', '2 microseconds', 1);
\echo :LAST_ERROR_SQLSTATE
SELECT * FROM uuid_time_partitions('v7', '2024-03-09 00:00:00+00', '2000000000 hours', 100000);
\echo :LAST_ERROR_SQLSTATE

-- README's calendar months: one call per month with the month's own length as the step, in the caller's time
-- zone; each starts at local midnight of the 1st and its upper is the next month's lower
SET TimeZone = 'Europe/Berlin';
SELECT p.range_start, p.range_end, p.upper = lead(p.lower) OVER (ORDER BY m) AS upper_is_next_lower
FROM generate_series(timestamptz '2025-01-01', '2025-12-01', '1 month') m,
     uuid_time_partitions('v7', m, make_interval(secs => extract(epoch FROM (m + interval '1 month') - m)), 1) p
ORDER BY m;
SET TimeZone = 'UTC';
