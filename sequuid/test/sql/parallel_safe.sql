-- parallel_safe: the generators labelled PARALLEL SAFE run in a parallel worker; uuid_sequence_nextval, which
-- calls nextval, is PARALLEL UNSAFE and keeps its query in the leader.
SET search_path = public, regress_helpers;
-- force_parallel_mode is PostgreSQL 15's name; 16 renamed it debug_parallel_query
SELECT set_config(CASE WHEN current_setting('server_version_num')::int >= 160000
                       THEN 'debug_parallel_query' ELSE 'force_parallel_mode' END, 'on', false) AS forced;

-- EXPLAIN ANALYZE's lines with the row counts written as before PostgreSQL 18, which adds two decimals
CREATE FUNCTION regress_helpers.analyzed_plan(query text) RETURNS SETOF text LANGUAGE plpgsql AS $$
DECLARE
    line text;
BEGIN
    FOR line IN EXECUTE 'EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF, BUFFERS OFF) ' || query LOOP
        RETURN NEXT regexp_replace(line, 'rows=(\d+)\.00 ', 'rows=\1 ');
    END LOOP;
END
$$;
-- 1,000 rows in C.  The port's plan keeps the generators in the leader (parallel_safe_1.out), on 10 rows: under
-- debug_parallel_query its functions' own statements each start a worker, milliseconds a call.  The row counts
-- differ, so neither implementation passes on the other's expected plan.
SELECT regress_helpers.sized(1000, 10) AS plan_rows \gset
SELECT regress_helpers.analyzed_plan(format($$
SELECT uuid_generate_v7(), uuid_generate_v7('-1 hour'), uuid_generate_v6(), uuid_generate_ulid(),
       uuid_time_nextval(), uuid_time_nextval(1, 1)
FROM generate_series(1, %s) $$, :plan_rows)) AS "QUERY PLAN";

-- the values made in the worker have the right versions and do not repeat (10,000 of each; the port 2,000)
SELECT regress_helpers.sized(10000, 2000) AS calls \gset
SELECT count(DISTINCT v7) = :calls AS v7, count(DISTINCT v6) = :calls AS v6, count(DISTINCT ulid) = :calls AS ulid,
       count(DISTINCT v8) = :calls AS v8,
       bool_and(version(v7) = 7 AND version(v6) = 6 AND version(v8) = 8) AS versions
FROM (SELECT uuid_generate_v7() AS v7, uuid_generate_v6() AS v6, uuid_generate_ulid() AS ulid,
             uuid_time_nextval() AS v8
      FROM generate_series(1, :calls)) s;

CREATE SEQUENCE parallel_seq;
EXPLAIN (COSTS OFF) SELECT uuid_sequence_nextval('parallel_seq') FROM generate_series(1, 1000);
SELECT count(DISTINCT uuid_sequence_nextval('parallel_seq')) AS distinct_values FROM generate_series(1, 1000);
SELECT last_value FROM parallel_seq;
DROP SEQUENCE parallel_seq;
