-- shared_clock_check: with the shared clock, the four concurrent sessions of gen_a .. gen_d never made two v7 or v6
-- values with the same timestamp: each call took its own step of one cluster-wide clock.  (Per-backend clocks
-- would collide here all the time: four backends making a value every microsecond or so share 1/4096-ms ticks.)
SET work_mem = '256MB';
SELECT 'uuid_generate_v7' AS generator, count(*) AS values,
       count(*) - count(DISTINCT substr(uuid_send(u), 1, 8)) AS shared_timestamps  -- ms, version, fraction
FROM gen_v7
UNION ALL
SELECT 'uuid_generate_v6', count(*), count(*) - count(DISTINCT substr(uuid_send(u), 1, 8))  -- 60-bit time, version
FROM gen_v6
ORDER BY generator;
