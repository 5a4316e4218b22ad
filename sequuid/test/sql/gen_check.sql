-- gen_check: no value repeats across the four concurrent sessions of gen_a .. gen_d.
SET work_mem = '256MB';
SELECT * FROM (
SELECT 'uuid_generate_v7' AS generator, count(*) AS values, count(*) - count(DISTINCT u) AS duplicates FROM gen_v7
UNION ALL
SELECT 'uuid_generate_v6', count(*), count(*) - count(DISTINCT u) FROM gen_v6
UNION ALL
SELECT 'uuid_generate_ulid', count(*), count(*) - count(DISTINCT u) FROM gen_ulid
UNION ALL
SELECT 'uuid_time_nextval(1, 1)', count(*), count(*) - count(DISTINCT u) FROM gen_random
) counts ORDER BY generator;
DROP TABLE gen_v7, gen_v6, gen_ulid, gen_random;
DROP PROCEDURE gen_fill();
