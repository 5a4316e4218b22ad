-- cross_backend: with sequuid in shared_preload_libraries, v7 and v6 values increase across backends.
SET search_path = public, regress_helpers;
SHOW shared_preload_libraries;

-- backend 1 generates with its clock an hour ahead ...
SET sequuid.clock_offset = '1h';
CREATE TABLE cross_backend AS SELECT 1 AS step, uuid_generate_v7() AS v7, uuid_generate_v6() AS v6;
\c
-- ... a later backend, without the offset, still generates larger values: the shared clock ran ahead
SET search_path = public, regress_helpers;
SHOW sequuid.clock_offset;
INSERT INTO cross_backend SELECT 2, uuid_generate_v7(), uuid_generate_v6();
SELECT b.v7 > a.v7 AS v7_above_other_backend, b.v6 > a.v6 AS v6_above_other_backend,
       unix_ms(b.v7) - unix_ms(a.v7) <= 1 AS v7_stays_at_the_time_reached
FROM cross_backend a, cross_backend b WHERE a.step = 1 AND b.step = 2;

-- the shared clock also orders values made in turn by new backends and by a parallel worker
\c
SET search_path = public, regress_helpers;
INSERT INTO cross_backend SELECT 3, uuid_generate_v7(), uuid_generate_v6();
SELECT set_config(CASE WHEN current_setting('server_version_num')::int >= 160000
                       THEN 'debug_parallel_query' ELSE 'force_parallel_mode' END, 'on', false) AS forced;
-- made in a parallel worker, a backend started after step 3 with its own clock (an hour behind step 1's)
EXPLAIN (COSTS OFF) SELECT uuid_generate_v7() > v7 AS v7_above_step_3 FROM cross_backend WHERE step = 3;
SELECT uuid_generate_v7() > v7 AS v7_above_step_3, uuid_generate_v6() > v6 AS v6_above_step_3
FROM cross_backend WHERE step = 3;
\c
SET search_path = public, regress_helpers;
INSERT INTO cross_backend SELECT 4, uuid_generate_v7(), uuid_generate_v6();
SELECT count(*) AS steps, count(*) FILTER (WHERE v7 <= previous_v7 OR v6 <= previous_v6) AS not_increasing
FROM (SELECT v7, v6, lag(v7) OVER w AS previous_v7, lag(v6) OVER w AS previous_v6
      FROM cross_backend WINDOW w AS (ORDER BY step)) s;
DROP TABLE cross_backend;
