-- ordering: a million calls in one backend, each value strictly greater than the one before.
SET work_mem = '256MB';

SELECT 'uuid_generate_v7' AS generator, count(*) AS calls, count(*) FILTER (WHERE u <= previous) AS not_increasing
FROM (SELECT u, lag(u) OVER (ORDER BY call) AS previous
      FROM (SELECT call, uuid_generate_v7() AS u FROM generate_series(1, 1000000) call) g) w;

SELECT 'uuid_generate_v6' AS generator, count(*) AS calls, count(*) FILTER (WHERE u <= previous) AS not_increasing
FROM (SELECT u, lag(u) OVER (ORDER BY call) AS previous
      FROM (SELECT call, uuid_generate_v6() AS u FROM generate_series(1, 1000000) call) g) w;

SELECT 'uuid_generate_ulid' AS generator, count(*) AS calls, count(*) FILTER (WHERE u <= previous) AS not_increasing
FROM (SELECT u, lag(u) OVER (ORDER BY call) AS previous
      FROM (SELECT call, uuid_generate_ulid() AS u FROM generate_series(1, 1000000) call) g) w;
