-- ordering: 200,000 calls per generator in one backend, each value strictly greater than the one before.  In C
-- that is thousands of calls per millisecond, so nearly every value is the previous one plus the minimal step (v7,
-- v6) or plus one (ULID, within its millisecond), not a fresh clock reading.
SET work_mem = '256MB';

SELECT 'uuid_generate_v7' AS generator, count(*) AS calls, count(*) FILTER (WHERE u <= previous) AS not_increasing
FROM (SELECT u, lag(u) OVER (ORDER BY call) AS previous
      FROM (SELECT call, uuid_generate_v7() AS u FROM generate_series(1, 200000) call) g) w;

SELECT 'uuid_generate_v6' AS generator, count(*) AS calls, count(*) FILTER (WHERE u <= previous) AS not_increasing
FROM (SELECT u, lag(u) OVER (ORDER BY call) AS previous
      FROM (SELECT call, uuid_generate_v6() AS u FROM generate_series(1, 200000) call) g) w;

SELECT 'uuid_generate_ulid' AS generator, count(*) AS calls, count(*) FILTER (WHERE u <= previous) AS not_increasing
FROM (SELECT u, lag(u) OVER (ORDER BY call) AS previous
      FROM (SELECT call, uuid_generate_ulid() AS u FROM generate_series(1, 200000) call) g) w;
