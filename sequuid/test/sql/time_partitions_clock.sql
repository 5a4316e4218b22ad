-- time_partitions_clock: keys made by the generators themselves (v7, ULID, v6) on the virtual clock, set to
-- chosen days, land in the partitions uuid_time_partitions bounds for those days (C only: the PL/pgSQL port has
-- no virtual clock).  Not preloaded, so moving this backend's clock to 2100 moves no other backend's.
\set SHOW_CONTEXT never
SET search_path = public, regress_helpers;
SET TimeZone = 'UTC';

DO $$
DECLARE
    kind text;
    r record;
BEGIN
    FOREACH kind IN ARRAY ARRAY['v7', 'ulid', 'v6'] LOOP
        EXECUTE format('CREATE TABLE %I (id uuid PRIMARY KEY, day date) PARTITION BY RANGE (id)', 'made_' || kind);
        FOR r IN SELECT * FROM uuid_time_partitions(kind, '2100-01-01 00:00:00+00', '24 hours', 4) LOOP
            EXECUTE format('CREATE TABLE %I PARTITION OF %I FOR VALUES FROM (%L) TO (%L)',
                           'made_' || kind || '_' || to_char(r.range_start, 'YYYYMMDD'), 'made_' || kind,
                           r.lower, r.upper);
        END LOOP;
    END LOOP;
END
$$;

-- At rate 10^-6 with the anchor at a day's noon, the virtual clock reads that noon minus a millionth of the
-- time from now to it: minutes before noon, inside the day.  Days in ascending order, because a backend's keys
-- never go back in time.
DO $$
DECLARE
    day date;
BEGIN
    PERFORM set_config('sequuid.clock_rate', '0.000001', false);
    FOR day IN SELECT d::date FROM generate_series(date '2100-01-01', date '2100-01-04', '1 day') d LOOP
        PERFORM set_config('sequuid.clock_anchor',
                           extract(epoch FROM (day + time '12:00') AT TIME ZONE 'UTC')::text, false);
        INSERT INTO made_v7 SELECT uuid_generate_v7(), day FROM generate_series(1, 100);
        INSERT INTO made_ulid SELECT uuid_generate_ulid(), day FROM generate_series(1, 100);
        INSERT INTO made_v6 SELECT uuid_generate_v6(), day FROM generate_series(1, 100);
    END LOOP;
END
$$;
RESET sequuid.clock_anchor;
RESET sequuid.clock_rate;

-- every key in the partition of the day the clock was set to; the keys' own time fields, read with the plain SQL
-- helpers, say the same
SELECT kind, count(*) AS keys,
       count(DISTINCT partition) AS partitions,
       bool_and(partition = 'made_' || kind || '_' || to_char(day, 'YYYYMMDD')) AS each_in_its_day,
       bool_and(to_timestamp(key_ms / 1000.0)::date = day) AS time_field_in_that_day
FROM (SELECT 'v7' AS kind, tableoid::regclass::text AS partition, day, unix_ms(id) AS key_ms FROM made_v7
      UNION ALL
      SELECT 'ulid', tableoid::regclass::text, day, unix_ms(id) FROM made_ulid
      UNION ALL
      SELECT 'v6', tableoid::regclass::text, day, v6_gregorian_100ns(id) / 10000 - 12219292800000 FROM made_v6) k
GROUP BY kind ORDER BY kind;
DROP TABLE made_v7, made_ulid, made_v6;
