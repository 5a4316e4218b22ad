-- pg18_uuid_api: PostgreSQL 18's UUID functions behave as 18's own do.  One file, one expected output, run
-- unchanged against core's functions on 18 (nothing installed), and on 15, 16 and 17 against sequuid_pg18api
-- and against its PL/pgSQL port.  Only core's names appear here: no helper, no extension function.
-- The infinite shifts are in pg18_uuid_api_infinite: before 17 no interval is infinite.
\set SHOW_CONTEXT never
-- on 17, 18's uuid_extract_timestamp() (which reads v7) is found only ahead of pg_catalog's (which reads v1 only)
SET search_path = public, pg_catalog;
SET TimeZone = 'UTC';
SET DateStyle = 'ISO, YMD';

-- the functions: names, argument names, results and labels as 18 declares them.  Where the port must differ, the
-- column is left out and checked where each is installed: parallel safety, and the strictness of a function
-- without arguments (which no call can observe; the port's uuidv7() is not STRICT so that the planner inlines it)
SELECT signature, proargnames, prorettype::regtype AS returns,
       provolatile, CASE WHEN pronargs > 0 THEN proisstrict END AS strict, proleakproof
FROM unnest(ARRAY['uuidv4()', 'uuidv7()', 'uuidv7(interval)', 'uuid_extract_version(uuid)',
                  'uuid_extract_timestamp(uuid)']) WITH ORDINALITY AS s (signature, n)
LEFT JOIN pg_proc p ON p.oid = to_regprocedure(signature)
ORDER BY n;

-- uuidv4(): random, version 4, RFC 9562 variant
CREATE TEMP TABLE v4_keys AS SELECT uuidv4() AS id FROM generate_series(1, 1000);
SELECT count(DISTINCT id) AS distinct_keys,
       bool_and(uuid_extract_version(id) = 4) AS all_version_4,
       bool_and(get_byte(uuid_send(id), 8) >> 6 = 2) AS all_variant_10
FROM v4_keys;

-- uuidv7(): distinct, version 7, RFC 9562 variant, and each one larger than the one before it in this session,
-- within one statement and across statements, however fast they come
CREATE TEMP TABLE v7_keys AS
    SELECT n, uuidv7() AS id FROM generate_series(1, 10000) n;
INSERT INTO v7_keys SELECT 10000 + n, uuidv7() FROM generate_series(1, 10000) n;
SELECT count(DISTINCT id) AS distinct_keys,
       bool_and(uuid_extract_version(id) = 7) AS all_version_7,
       bool_and(get_byte(uuid_send(id), 8) >> 6 = 2) AS all_variant_10
FROM v7_keys;
SELECT count(*) AS out_of_order
FROM (SELECT id, lag(id) OVER (ORDER BY n) AS previous FROM v7_keys) k
WHERE id <= previous;
-- keys sort in the order they were made, and the nil UUID before them all
INSERT INTO v7_keys VALUES (0, '00000000-0000-0000-0000-000000000000');
SELECT array_agg(n ORDER BY id) = array_agg(n ORDER BY n) AS sorted_as_made FROM v7_keys;

-- the timestamp is the current time, to the millisecond
SELECT clock_timestamp() AS before \gset
SELECT uuid_extract_timestamp(uuidv7()) AS made \gset
SELECT clock_timestamp() AS after \gset
SELECT date_trunc('milliseconds', :'before'::timestamptz) <= :'made'::timestamptz
       AND :'made'::timestamptz <= :'after'::timestamptz AS between_the_clock_readings,
       date_trunc('milliseconds', :'made'::timestamptz) = :'made'::timestamptz AS whole_milliseconds;

-- uuidv7(shift): the current time moved by the shift, months and days in the session's time zone
SET TimeZone = 'Europe/Berlin';
SELECT clock_timestamp() AS before \gset
SELECT uuid_extract_timestamp(uuidv7('-1 hour')) AS hour_ago,
       uuid_extract_timestamp(uuidv7(shift => '1 month 2 days')) AS month_ahead,
       uuid_extract_timestamp(uuidv7('-50 years')) AS fifty_years_ago \gset
SELECT clock_timestamp() AS after \gset
SELECT :'hour_ago'::timestamptz BETWEEN date_trunc('milliseconds', :'before'::timestamptz - interval '1 hour')
                                    AND :'after'::timestamptz - interval '1 hour' AS hour_ago,
       :'month_ahead'::timestamptz BETWEEN date_trunc('milliseconds', :'before'::timestamptz + interval '1 month 2 days')
                                       AND :'after'::timestamptz + interval '1 month 2 days' AS month_ahead,
       :'fifty_years_ago'::timestamptz BETWEEN date_trunc('milliseconds', :'before'::timestamptz - interval '50 years')
                                           AND :'after'::timestamptz - interval '50 years' AS fifty_years_ago;
SET TimeZone = 'UTC';
-- shifted keys stay version 7, and distinct
SELECT count(DISTINCT uuidv7(interval '1 day')) AS distinct_shifted,
       bool_and(uuid_extract_version(uuidv7(interval '-1 day')) = 7) AS all_version_7
FROM generate_series(1, 100);

-- every year from 1970 to 10888 can be reached, and the timestamps grow with the shift
SELECT count(*) AS years,
       count(*) FILTER (WHERE ts <= previous) AS not_after_the_year_before,
       min(extract(year FROM ts)) AS first_year, max(extract(year FROM ts)) AS last_year
FROM (SELECT ts, lag(ts) OVER (ORDER BY y) AS previous
      FROM (SELECT y, uuid_extract_timestamp(uuidv7(make_interval(years => y - extract(year FROM now())::int))) AS ts
            FROM generate_series(1970, 10888) y) shifted) years;

-- the range a shift may reach: 1970-01-01 to the last millisecond of the 48-bit field (10889-08-02 05:31:50.655);
-- out of it 18 errs with SQLSTATE 22008
SELECT uuid_extract_timestamp(uuidv7(timestamptz '1970-01-01 00:00:00.5+00' - now()))
       BETWEEN '1970-01-01 00:00:00.5+00' AND '1970-01-01 00:00:01+00' AS just_after_1970;
SELECT uuid_extract_timestamp(uuidv7(timestamptz '10889-08-02 05:31:50+00' - now()))
       BETWEEN '10889-08-02 05:31:50+00' AND '10889-08-02 05:31:50.655+00' AS just_before_10889;
SELECT uuidv7(timestamptz '1969-12-31 23:59:59.5+00' - now());
\echo :LAST_ERROR_SQLSTATE
SELECT uuidv7('-100 years');
\echo :LAST_ERROR_SQLSTATE
SELECT uuidv7(timestamptz '10889-08-02 05:31:51+00' - now());
\echo :LAST_ERROR_SQLSTATE
SELECT uuidv7('9000 years');
\echo :LAST_ERROR_SQLSTATE
-- past the timestamptz range, timestamptz arithmetic itself errs first
SELECT uuidv7('300000 years');
\echo :LAST_ERROR_SQLSTATE
SELECT uuidv7('-2147483647 days');
\echo :LAST_ERROR_SQLSTATE

-- strict: NULL in, NULL out
SELECT uuidv7(NULL) IS NULL AS uuidv7_null,
       uuid_extract_version(NULL) IS NULL AS version_null,
       uuid_extract_timestamp(NULL) IS NULL AS timestamp_null;

-- uuid_extract_version(): the version nibble of an RFC 9562 UUID, NULL for any other variant
SELECT uuid_extract_version('a1a2a3a4-b1b2-5c1c-8d1d-e1e2e3e4e5e6') AS v5,
       uuid_extract_version('a1a2a3a4-b1b2-fc1c-bd1d-e1e2e3e4e5e6') AS v15,
       uuid_extract_version('a1a2a3a4-b1b2-0c1c-9d1d-e1e2e3e4e5e6') AS v0,
       uuid_extract_version(gen_random_uuid()) AS gen_random_uuid,
       uuid_extract_version(uuidv4()) AS uuidv4,
       uuid_extract_version(uuidv7()) AS uuidv7,
       pg_typeof(uuid_extract_version(uuidv7())) AS result_type;
SELECT uuid_extract_version('a1a2a3a4-b1b2-4c1c-7d1d-e1e2e3e4e5e6') AS ncs_variant,
       uuid_extract_version('a1a2a3a4-b1b2-4c1c-cd1d-e1e2e3e4e5e6') AS microsoft_variant,
       uuid_extract_version('a1a2a3a4-b1b2-4c1c-ed1d-e1e2e3e4e5e6') AS reserved_variant,
       uuid_extract_version('00000000-0000-0000-0000-000000000000') AS nil,
       uuid_extract_version('ffffffff-ffff-ffff-ffff-ffffffffffff') AS max;

-- uuid_extract_timestamp(): RFC 9562's test vectors for v1 and v7 (appendix A) both mark
-- 2022-02-22 14:22:22 at UTC-05:00
SELECT uuid_extract_timestamp('C232AB00-9414-11EC-B3C8-9F6BDECED846') AS rfc_v1,
       uuid_extract_timestamp('017F22E2-79B0-7CC3-98C4-DC0C0C07398F') AS rfc_v7;
-- v7 to the millisecond: the sub-millisecond bits of rand_a are not read
SELECT uuid_extract_timestamp('017f22e2-7a2b-7000-8000-000000000000') AS v7_fraction_0,
       uuid_extract_timestamp('017f22e2-7a2b-7fff-bfff-ffffffffffff') AS v7_fraction_4095;
-- v1 to the microsecond (its 100-ns count truncated), and the ends of both fields
SELECT uuid_extract_timestamp('c232ab13-9414-11ec-b3c8-9f6bdeced846') AS v1_1900_ns_later,
       uuid_extract_timestamp('00000000-0000-1000-8000-000000000000') AS v1_first,
       uuid_extract_timestamp('ffffffff-ffff-1fff-bfff-ffffffffffff') AS v1_last,
       uuid_extract_timestamp('00000000-0000-7000-8000-000000000000') AS v7_first,
       uuid_extract_timestamp('ffffffff-ffff-7fff-bfff-ffffffffffff') AS v7_last;
-- generated keys read back
SELECT uuid_extract_timestamp(uuidv7()) IS NOT NULL AS uuidv7_has_time,
       uuid_extract_timestamp(uuidv4()) IS NULL AS uuidv4_has_none;
-- NULL for every other version, v6 included (RFC 9562's v6 vector), and for non-RFC variants of v1 and v7
SELECT uuid_extract_timestamp('1EC9414C-232A-6B00-B3C8-9F6BDECED846') AS rfc_v6,
       uuid_extract_timestamp('a1a2a3a4-b1b2-4c1c-8d1d-e1e2e3e4e5e6') AS v4,
       uuid_extract_timestamp('a1a2a3a4-b1b2-8c1c-8d1d-e1e2e3e4e5e6') AS v8,
       uuid_extract_timestamp('a1a2a3a4-b1b2-2c1c-8d1d-e1e2e3e4e5e6') AS v2;
SELECT uuid_extract_timestamp('C232AB00-9414-11EC-73C8-9F6BDECED846') AS v1_ncs_variant,
       uuid_extract_timestamp('017F22E2-79B0-7CC3-D8C4-DC0C0C07398F') AS v7_microsoft_variant,
       uuid_extract_timestamp('017F22E2-79B0-7CC3-F8C4-DC0C0C07398F') AS v7_reserved_variant;
