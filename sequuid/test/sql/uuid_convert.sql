-- uuid_v1_to_v6, uuid_v6_to_v1, uuid_v7_boundary (shared: C and PL/pgSQL give the same output).
-- Errors show message and SQLSTATE only: CONTEXT lines differ between the implementations.
\set SHOW_CONTEXT never
SET TimeZone = 'UTC';
SET DateStyle = 'ISO, YMD';

-- RFC 9562 Appendix A: the v1 vector (A.1) and the v6 vector (A.5) are the same UUID reordered
SELECT uuid_v1_to_v6('c232ab00-9414-11ec-b3c8-9f6bdeced846') AS v6,
       uuid_v6_to_v1('1ec9414c-232a-6b00-b3c8-9f6bdeced846') AS v1;
SELECT uuid_v1_to_v6(NULL), uuid_v6_to_v1(NULL), uuid_v7_boundary(NULL);

-- extremes: the smallest and largest timestamp with every other bit zero, then one
SELECT id, uuid_v1_to_v6(id), uuid_v6_to_v1(uuid_v1_to_v6(id)) = id AS round_trip
FROM (VALUES ('00000000-0000-1000-8000-000000000000'::uuid),
             ('ffffffff-ffff-1fff-bfff-ffffffffffff'),
             ('00000000-0000-1000-bfff-ffffffffffff'),
             ('ffffffff-ffff-1fff-8000-000000000000')) AS ids(id);

-- 5k random v1 UUIDs (the port 1k: each of their random bits takes both values either way): v1 -> v6 -> v1 gives
-- the same bytes, v6 has version 6 and the same instant
SELECT regress_helpers.sized(5000, 1000) AS ids \gset
CREATE TEMP TABLE random_v1 AS
SELECT (substr(id::text, 1, 14) || '1' || substr(id::text, 16))::uuid AS id
FROM (SELECT gen_random_uuid() AS id FROM generate_series(1, :ids)) AS r;
SELECT count(*) = :ids AS all_converted,
       count(*) FILTER (WHERE uuid_v6_to_v1(v6) <> id) AS round_trip_differs,
       count(*) FILTER (WHERE uuid_version(v6) <> 6) AS not_version_6,
       count(*) FILTER (WHERE uuid_timestamp(v6) <> uuid_timestamp(id)) AS timestamp_differs,
       count(*) FILTER (WHERE substr(v6::text, 20) <> substr(id::text, 20)) AS clock_seq_or_node_differs
FROM (SELECT id, uuid_v1_to_v6(id) AS v6 FROM random_v1) AS converted;

-- v6 orders like time: sorting the v6 forms sorts by the v1 timestamp
SELECT bool_and(previous_time <= this_time) AS v6_order_is_time_order
FROM (SELECT uuid_timestamp(v6) AS this_time, lag(uuid_timestamp(v6)) OVER (ORDER BY v6) AS previous_time
      FROM (SELECT uuid_v1_to_v6(id) AS v6 FROM random_v1) AS converted) AS ordered;

-- another version or variant is an error that names the argument and what it found
SELECT uuid_v1_to_v6('919108f7-52d1-4320-9bac-f847db4148a8');
\echo :SQLSTATE
SELECT uuid_v1_to_v6('1ec9414c-232a-6b00-b3c8-9f6bdeced846');
\echo :SQLSTATE
SELECT uuid_v6_to_v1('c232ab00-9414-11ec-b3c8-9f6bdeced846');
\echo :SQLSTATE
SELECT uuid_v1_to_v6('00000000-0000-0000-0000-000000000000');
\echo :SQLSTATE
SELECT uuid_v6_to_v1('ffffffff-ffff-ffff-ffff-ffffffffffff');
\echo :SQLSTATE
SELECT uuid_v1_to_v6('c232ab00-9414-11ec-33c8-9f6bdeced846');
\echo :SQLSTATE

-- uuid_v7_boundary: the millisecond, the floor of the 12-bit fraction, version 7, variant 2, zero random bits
SELECT instant, uuid_v7_boundary(instant), uuid_timestamp(uuid_v7_boundary(instant))
FROM (VALUES ('2022-02-22 19:22:22+00'::timestamptz),
             ('2022-02-22 19:22:22.000001+00'),
             ('2022-02-22 19:22:22.999999+00'),
             ('1970-01-01 00:00:00+00'),
             ('10889-08-02 05:31:50.655999+00')) AS instants(instant);

-- it is the smallest v7 of its instant: exact round trip for 5k random microsecond instants (the port 1k), and every v7
-- UUID encoded at that instant or later (any random bits) sorts at or above it
SELECT count(*) = :ids AS all_instants,
       count(*) FILTER (WHERE uuid_timestamp(uuid_v7_boundary(instant)) <> instant) AS round_trip_differs,
       count(*) FILTER (WHERE uuid_v7_boundary(instant) > uuid_v7_boundary(instant + interval '1 microsecond'))
           AS not_monotonic
FROM (SELECT timestamptz '1970-01-01 00:00:00+00' + random() * interval '8000 years' AS instant
      FROM generate_series(1, :ids)) AS r;
SELECT uuid_v7_boundary('2022-02-22 19:22:22.123456+00') <= '017f22e2-7a2b-774b-8000-000000000000' AS at_boundary,
       uuid_v7_boundary('2022-02-22 19:22:22.123457+00') > '017f22e2-7a2b-774b-bfff-ffffffffffff'::uuid AS above_previous;
SELECT uuid_timestamp('017f22e2-7a2b-774b-bfff-ffffffffffff') AS last_uuid_of_boundary_fraction;

-- outside 1970-01-01 .. 10889-08-02 05:31:50.655999 UTC, and infinities: 22008 naming the argument
SELECT uuid_v7_boundary('1969-12-31 23:59:59.999999+00');
\echo :SQLSTATE
SELECT uuid_v7_boundary('10889-08-02 05:31:50.656+00');
\echo :SQLSTATE
SELECT uuid_v7_boundary('infinity');
\echo :SQLSTATE
SELECT uuid_v7_boundary('-infinity');
\echo :SQLSTATE
SELECT uuid_v7_boundary('4713-01-01 00:00:00+00 BC');
\echo :SQLSTATE
SELECT uuid_v7_boundary('294276-12-31 23:59:59.999999+00');
\echo :SQLSTATE
