-- pg_uuidv7_api: pg_uuidv7's conversions with its signatures (shared: C and PL/pgSQL give the same output).
-- The first block is pg_uuidv7's own documented examples (its README and regression tests).
\set SHOW_CONTEXT never
SET search_path = public, regress_helpers;
SET TimeZone = 'UTC';
SET DateStyle = 'ISO, YMD';

\set uuidv7 '018570bb-4a7d-7000-8000-000000000000'
SELECT uuid_v7_to_timestamptz('018570bb-4a7d-7c7e-8df4-6d47afd8c8fc') AS readme_timestamptz,
       uuid_v7_to_timestamp('018570bb-4a7d-7c7e-8df4-6d47afd8c8fc') AS readme_timestamp,
       uuid_timestamptz_to_v7('2023-01-02 04:26:40.637+00') > :'uuidv7' AS timestamptz_above_zero,
       uuid_timestamptz_to_v7('2023-01-02 04:26:40.637+00', true) = :'uuidv7' AS timestamptz_zero,
       uuid_timestamp_to_v7('2023-01-02 04:26:40.637') > :'uuidv7' AS timestamp_above_zero,
       uuid_timestamp_to_v7('2023-01-02 04:26:40.637', true) = :'uuidv7' AS timestamp_zero;

-- the signatures: zero is optional and can be named
SELECT uuid_timestamptz_to_v7('2023-01-02 04:26:40.637+00', zero => true) AS named_zero,
       uuid_timestamp_to_v7('2023-01-02 04:26:40.637', zero => true) AS named_zero_timestamp;

-- zero gives pg_uuidv7's boundary: the millisecond, rand_a and rand_b zero, also for an instant inside the
-- millisecond, so keys pg_uuidv7 made in that millisecond with a random rand_a are all above it
SELECT uuid_timestamptz_to_v7('2023-01-02 04:26:40.637999+00', true) AS zero_drops_the_microseconds,
       uuid_timestamptz_to_v7('2023-01-02 04:26:40.637999+00', true) <= '018570bb-4a7d-7000-8000-000000000000'
           AS below_every_key_of_the_ms;

-- without zero: a v7 as sequuid makes it, the fraction of the millisecond in rand_a, 62 random bits
CREATE TEMP TABLE converted AS
    SELECT uuid_timestamptz_to_v7('2023-01-02 04:26:40.637123+00') AS u FROM generate_series(1, 1000);
SELECT count(DISTINCT u) AS distinct_values, bool_and(version(u) = 7) AS version_7,
       bool_and(variant(u) = 2) AS variant_10, bool_and(unix_ms(u) = 1672633600637) AS millisecond,
       bool_and(v7_fraction(u) = 123000 * 4096 / 1000000) AS fraction,
       bool_and(uuid_timestamp(u) = '2023-01-02 04:26:40.637123+00') AS reads_back_to_the_microsecond
FROM converted;

-- the timestamp forms read and write UTC whatever the session time zone
SET TimeZone = 'America/New_York';
SELECT uuid_v7_to_timestamp('018570bb-4a7d-7c7e-8df4-6d47afd8c8fc') AS utc_wall_clock,
       uuid_v7_to_timestamptz('018570bb-4a7d-7c7e-8df4-6d47afd8c8fc') AS in_new_york,
       uuid_timestamp_to_v7('2023-01-02 04:26:40.637', true) AS from_utc_wall_clock;
SET TimeZone = 'UTC';

-- reading takes the first 48 bits of any UUID, as pg_uuidv7 does; the range ends are exact
SELECT uuid_v7_to_timestamptz('00000000-0000-4000-8000-000000000000') AS nil_time,
       uuid_v7_to_timestamptz('ffffffff-ffff-7fff-bfff-ffffffffffff') AS last_time,
       uuid_timestamptz_to_v7('1970-01-01 00:00:00+00', true) AS first_v7,
       uuid_timestamptz_to_v7('10889-08-02 05:31:50.655999+00', true) AS last_v7;

-- outside the 48-bit millisecond range, or infinite: 22008 naming the argument and the function
SELECT uuid_timestamptz_to_v7('1969-12-31 23:59:59.999999+00');
\echo :LAST_ERROR_SQLSTATE
SELECT uuid_timestamptz_to_v7('10889-08-02 05:31:50.656+00', true);
\echo :LAST_ERROR_SQLSTATE
SELECT uuid_timestamp_to_v7('infinity');
\echo :LAST_ERROR_SQLSTATE
SELECT uuid_timestamp_to_v7('-infinity', true);
\echo :LAST_ERROR_SQLSTATE

-- STRICT: NULL in, NULL out
SELECT uuid_v7_to_timestamptz(NULL) IS NULL AS a, uuid_v7_to_timestamp(NULL) IS NULL AS b,
       uuid_timestamptz_to_v7(NULL) IS NULL AS c, uuid_timestamptz_to_v7(now(), NULL) IS NULL AS d,
       uuid_timestamp_to_v7(NULL, true) IS NULL AS e;

-- the zero form is VOLATILE like the rest of the function: an index range condition uses uuid_v7_boundary,
-- which is IMMUTABLE and equals the zero form for an instant given to the millisecond
SELECT uuid_v7_boundary(date_trunc('milliseconds', timestamptz '2023-01-02 04:26:40.637999+00'))
           = uuid_timestamptz_to_v7('2023-01-02 04:26:40.637999+00', true) AS boundary_equals_zero_form;
