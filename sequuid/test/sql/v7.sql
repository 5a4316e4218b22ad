-- v7: the bit layout of uuid_generate_v7() and uuid_generate_v7(shift), checked octet by octet.
-- errors show message, hint and SQLSTATE; no CONTEXT lines, which differ between the C and PL/pgSQL builds
\set SHOW_CONTEXT never
SET search_path = public, regress_helpers;

CREATE TEMP TABLE v7_sample AS SELECT * FROM sample_calls('uuid_generate_v7()', 2000);

-- version 7, variant 10, and no two values alike
SELECT count(*) AS calls, count(DISTINCT u) AS distinct_values,
       bool_and(version(u) = 7) AS version_7, bool_and(variant(u) = 2) AS variant_10
FROM v7_sample;

-- time = 48-bit Unix ms + 12-bit fraction of the ms (RFC 9562 method 3, as PostgreSQL 18): it lies between the
-- clock readings around the call (to the 1/4096 ms the fraction resolves; a value may run ahead of the clock by
-- the minimal step when calls come faster than the clock ticks)
SELECT count(*) FILTER (WHERE unix_ms(u) * 4096 + v7_fraction(u) < floor(extract(epoch FROM before) * 4096000))
           AS before_the_clock,
       count(*) FILTER (WHERE unix_ms(u) * 4096 + v7_fraction(u) > ceil(extract(epoch FROM after) * 4096000) + 4096)
           AS after_the_clock
FROM v7_sample;

-- rand_b is random: 62 bits, all different, and every one of its bits takes both values
SELECT count(DISTINCT octets(u, 8, 15) % (2::numeric ^ 62)) = count(*) AS rand_b_distinct,
       (SELECT bool_and(ones BETWEEN 800 AND 1200)
        -- get_bit numbers bits from the right within each octet: 70 and 71 are the variant
        FROM (SELECT count(*) FILTER (WHERE get_bit(uuid_send(u), bit) = 1) AS ones
              FROM v7_sample, generate_series(64, 127) bit WHERE bit NOT IN (70, 71) GROUP BY bit) b)
           AS rand_b_bits_balanced
FROM v7_sample;

-- uuid_generate_v7(shift): the timestamp moves by the shift, with calendar arithmetic
SELECT abs(unix_ms(uuid_generate_v7('-1 day')) - ms_of(clock_timestamp() - interval '1 day')) < 1000 AS minus_one_day,
       abs(unix_ms(uuid_generate_v7('1 month 2 hours')) - ms_of(clock_timestamp() + interval '1 month 2 hours')) < 1000
           AS plus_month_and_hours,
       version(uuid_generate_v7('-40 years')) AS version_shifted,
       variant(uuid_generate_v7('-40 years')) AS variant_shifted;

-- shifted out of the 48-bit millisecond range (before 1970, after 10889-08-02) or past timestamptz: 22008
SELECT uuid_generate_v7('-100 years');
\echo :LAST_ERROR_SQLSTATE
SELECT uuid_generate_v7('9000 years');
\echo :LAST_ERROR_SQLSTATE
SELECT uuid_generate_v7('-200000 years');
\echo :LAST_ERROR_SQLSTATE
-- shifts before the timestamptz range (4714 BC) but within 20,000 years give the same message
SELECT uuid_generate_v7('-6800 years');
\echo :LAST_ERROR_SQLSTATE
SELECT uuid_generate_v7('-19999 years');
\echo :LAST_ERROR_SQLSTATE
SELECT uuid_generate_v7(make_interval(days => -7000 * 365));
\echo :LAST_ERROR_SQLSTATE
SELECT uuid_generate_v7(make_interval(hours => -7000 * 365 * 24));
\echo :LAST_ERROR_SQLSTATE
-- a month step past 4714 BC that the days bring back is out of range too (core errs on the intermediate)
SELECT uuid_generate_v7(make_interval(years => -7000, days => 6000 * 365));
\echo :LAST_ERROR_SQLSTATE
SELECT uuid_generate_v7('2147483647 days');
\echo :LAST_ERROR_SQLSTATE
SELECT uuid_generate_v7(make_interval(hours => 2147483647));
\echo :LAST_ERROR_SQLSTATE

-- STRICT: NULL in, NULL out
SELECT uuid_generate_v7(NULL) IS NULL AS null_shift_gives_null;
