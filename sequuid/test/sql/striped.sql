-- striped: the layout of uuid_generate_striped(stripes) and the ranges of uuid_striped_ranges(), the same in C and
-- in the PL/pgSQL port.  Errors show message, hint and SQLSTATE, without CONTEXT lines.
\set SHOW_CONTEXT never
SET search_path = public, regress_helpers;

-- the stripe: the leading ceil(log2(stripes)) bits
CREATE FUNCTION pg_temp.stripe(u uuid, stripe_bits int) RETURNS int
    LANGUAGE sql IMMUTABLE STRICT AS $$ SELECT get_byte(uuid_send(u), 0) >> (8 - stripe_bits) $$;
-- the 60 bits of time (1/4096 ms since the Unix epoch) after the stripe, around the version nibble and the variant
CREATE FUNCTION pg_temp.ticks(u uuid, stripe_bits int) RETURNS bigint
    LANGUAGE sql IMMUTABLE STRICT AS $$
    SELECT ((((octets(u, 0, 5)::bigint << 12) | ((get_byte(uuid_send(u), 6) & 15) << 8) | get_byte(uuid_send(u), 7))
             & ((1::bigint << (60 - stripe_bits)) - 1)) << stripe_bits)
           | ((get_byte(uuid_send(u), 8) & 63) >> (6 - stripe_bits)) $$;

CREATE TEMP TABLE striped_sample AS SELECT * FROM sample_calls('uuid_generate_striped(16)', 2000);

-- version 8, variant 10, no two alike, one stripe in this backend, and the time between the clock readings around
-- each call (to the 1/4096 ms of the fraction; a key may run ahead of the clock by the minimal step)
SELECT count(*) AS calls, count(DISTINCT u) AS distinct_values,
       bool_and(version(u) = 8) AS version_8, bool_and(variant(u) = 2) AS variant_10,
       count(DISTINCT pg_temp.stripe(u, 4)) AS stripes_seen,
       count(*) FILTER (WHERE pg_temp.ticks(u, 4) < floor(extract(epoch FROM before) * 4096000)) AS before_the_clock,
       count(*) FILTER (WHERE pg_temp.ticks(u, 4) > ceil(extract(epoch FROM after) * 4096000) + 4096)
           AS after_the_clock
FROM striped_sample;

-- the random bits after the time: 62 - 4 of them, every one taking both values
SELECT bool_and(ones BETWEEN 800 AND 1200) AS random_bits_balanced
FROM (SELECT count(*) FILTER (WHERE get_bit(uuid_send(u), bit) = 1) AS ones
      -- get_bit numbers bits from the right within each octet: 70 and 71 are the variant, 66 to 69 the time's end
      FROM striped_sample, generate_series(64, 127) bit WHERE bit NOT BETWEEN 66 AND 71 GROUP BY bit) b;

-- the stripe is the backend's number modulo stripes: the stripe of 256 modulo 16 is the stripe of 16, and so on
SELECT pg_temp.stripe(uuid_generate_striped(256), 8) % 16 = pg_temp.stripe(uuid_generate_striped(16), 4)
           AS same_number_256_16,
       pg_temp.stripe(uuid_generate_striped(256), 8) % 2 = pg_temp.stripe(uuid_generate_striped(2), 1)
           AS same_number_256_2,
       pg_temp.stripe(uuid_generate_striped(200), 8) = pg_temp.stripe(uuid_generate_striped(256), 8) % 200
           AS not_a_power_of_two;

-- strictly increasing in one backend, 20,000 calls at each of three widths (the port 5,000: many to each of the
-- milliseconds they span)
SELECT regress_helpers.sized(20000, 5000) AS calls \gset
SELECT stripes, count(*) = :calls AS all_made, count(*) FILTER (WHERE u <= previous) AS not_increasing,
       count(DISTINCT pg_temp.stripe(u, CASE stripes WHEN 1 THEN 0 ELSE 8 END)) AS stripes_seen
FROM (SELECT stripes, u, lag(u) OVER (PARTITION BY stripes ORDER BY call) AS previous
      FROM (SELECT stripes, call, uuid_generate_striped(stripes) AS u
            FROM (VALUES (1), (7), (256)) s (stripes), generate_series(1, :calls) call) g) w
GROUP BY stripes ORDER BY stripes;

-- one stripe is v7's layout with version 8
SELECT pg_temp.ticks(u, 0) >> 12 = unix_ms(u) AS time_leads, version(u) AS version
FROM (SELECT uuid_generate_striped(1) AS u) g;

-- ranges: one per stripe, each the stripe's keys of [from_time, to_time): fixed values, the same in C and the port
SELECT * FROM uuid_striped_ranges(4, '2024-03-09 00:00:00+00', '2024-03-09 00:00:01.000001+00');
SELECT * FROM uuid_striped_ranges(1, '2024-03-09 00:00:00+00', '2024-03-09 01:00:00+00');
SELECT stripe, lower, upper FROM uuid_striped_ranges(256, '2024-03-09 00:00:00+00', '2024-03-09 00:00:00+00')
WHERE stripe IN (0, 1, 255);
-- with one stripe the bounds are uuid_v7_boundary's with version 8
SELECT encode(uuid_send(lower), 'hex') = overlay(encode(uuid_send(uuid_v7_boundary('2024-03-09 12:34:56.789012+00')), 'hex')
                                                 PLACING '8' FROM 13 FOR 1) AS same_as_v7_boundary
FROM uuid_striped_ranges(1, '2024-03-09 12:34:56.789012+00', '2024-03-10 00:00:00+00');

-- keys made now fall in the range of their stripe for now, and in no other, and not in a range of the past
-- (1,000 keys; the port 200, each checked against three calls of its uuid_striped_ranges)
SELECT regress_helpers.sized(1000, 200) AS keys \gset
CREATE TEMP TABLE striped_now AS SELECT clock_timestamp() AS before;
CREATE TEMP TABLE striped_keys AS SELECT uuid_generate_striped(16) AS u FROM generate_series(1, :keys);
SELECT count(*) = :keys AS all_made,
       count(*) FILTER (WHERE (SELECT count(*) FROM uuid_striped_ranges(16, n.before, clock_timestamp() + interval '1 ms') r
                               WHERE k.u >= r.lower AND k.u < r.upper AND r.stripe = pg_temp.stripe(k.u, 4)) = 1)
           = :keys AS all_in_their_stripes_range,
       count(*) FILTER (WHERE EXISTS (SELECT FROM uuid_striped_ranges(16, n.before, clock_timestamp() + interval '1 ms') r
                                      WHERE k.u >= r.lower AND k.u < r.upper AND r.stripe <> pg_temp.stripe(k.u, 4)))
           AS in_another_range,
       count(*) FILTER (WHERE EXISTS (SELECT FROM uuid_striped_ranges(16, n.before - interval '1 hour', n.before) r
                                      WHERE k.u >= r.lower AND k.u < r.upper)) AS in_the_past_range
FROM striped_keys k, striped_now n;

-- a range of the stripes' ranges is one index range per stripe
CREATE TEMP TABLE striped_indexed (id uuid PRIMARY KEY);
INSERT INTO striped_indexed SELECT u FROM striped_keys;
SELECT count(*) = :keys AS all_found_by_ranges
FROM uuid_striped_ranges(16, (SELECT before FROM striped_now), clock_timestamp()) r
JOIN striped_indexed i ON i.id >= r.lower AND i.id < r.upper;

-- errors: 22023 for a count of stripes outside 1 to 256 and for from_time after to_time, 22008 for instants
-- outside the v7 range
SELECT uuid_generate_striped(0);
\echo :LAST_ERROR_SQLSTATE
SELECT uuid_generate_striped(257);
\echo :LAST_ERROR_SQLSTATE
SELECT * FROM uuid_striped_ranges(-1, '2024-01-01', '2024-01-02');
\echo :LAST_ERROR_SQLSTATE
SELECT * FROM uuid_striped_ranges(300, '2024-01-01', '2024-01-02');
\echo :LAST_ERROR_SQLSTATE
SELECT * FROM uuid_striped_ranges(4, '2024-01-02 00:00:00+00', '2024-01-01 00:00:00+00');
\echo :LAST_ERROR_SQLSTATE
SELECT * FROM uuid_striped_ranges(4, '1969-12-31 23:59:59+00', '2024-01-01 00:00:00+00');
\echo :LAST_ERROR_SQLSTATE
SELECT * FROM uuid_striped_ranges(4, '2024-01-01 00:00:00+00', 'infinity');
\echo :LAST_ERROR_SQLSTATE
-- STRICT: NULL in, NULL out
SELECT uuid_generate_striped(NULL) IS NULL AS null_stripes_gives_null,
       (SELECT count(*) FROM uuid_striped_ranges(4, NULL, now())) AS rows_for_null;
