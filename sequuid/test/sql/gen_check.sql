-- gen_check: no value repeats across the four concurrent sessions of gen_a .. gen_d, and each made all of its.
SET work_mem = '256MB';
SELECT generator, values = sessions * per_session * (SELECT n FROM gen_size) AS all_made, duplicates FROM (
SELECT 'uuid_generate_v7' AS generator, 4 AS sessions, 2 AS per_session,
    count(*) AS values, count(*) - count(DISTINCT u) AS duplicates FROM gen_v7
UNION ALL
SELECT 'uuid_generate_v6', 4, 1, count(*), count(*) - count(DISTINCT u) FROM gen_v6
UNION ALL
SELECT 'uuid_generate_ulid', 4, 1, count(*), count(*) - count(DISTINCT u) FROM gen_ulid
UNION ALL
SELECT 'uuid_time_nextval(1, 1)', 4, 1, count(*), count(*) - count(DISTINCT u) FROM gen_random
) counts ORDER BY generator;
DROP TABLE gen_v7, gen_v6, gen_ulid, gen_random, gen_size;
DROP PROCEDURE gen_fill();
