-- ordering: 200,000 calls per generator in one backend, each value strictly greater than the one before.  In C
-- that is thousands of calls per millisecond, so nearly every value is the previous one plus the minimal step (v7,
-- v6) or plus one (ULID, within its millisecond), not a fresh clock reading.  The port makes 20,000: some tens of
-- milliseconds of calls, a few hundred in each, so its values too come both from the step within a millisecond and
-- from each new clock reading.
SET work_mem = '256MB';
SELECT regress_helpers.sized(200000, 20000) AS calls \gset

SELECT 'uuid_generate_v7' AS generator, count(*) = :calls AS all_made, count(*) FILTER (WHERE u <= previous) AS not_increasing
FROM (SELECT u, lag(u) OVER (ORDER BY call) AS previous
      FROM (SELECT call, uuid_generate_v7() AS u FROM generate_series(1, :calls) call) g) w;

SELECT 'uuid_generate_v6' AS generator, count(*) = :calls AS all_made, count(*) FILTER (WHERE u <= previous) AS not_increasing
FROM (SELECT u, lag(u) OVER (ORDER BY call) AS previous
      FROM (SELECT call, uuid_generate_v6() AS u FROM generate_series(1, :calls) call) g) w;

SELECT 'uuid_generate_ulid' AS generator, count(*) = :calls AS all_made, count(*) FILTER (WHERE u <= previous) AS not_increasing
FROM (SELECT u, lag(u) OVER (ORDER BY call) AS previous
      FROM (SELECT call, uuid_generate_ulid() AS u FROM generate_series(1, :calls) call) g) w;
