-- sequuid/bench/setup.sql: run once in the benchmark database before measuring (see cases.tsv).
CREATE EXTENSION sequuid;
CREATE SEQUENCE bench_nextval;
CREATE SEQUENCE bench_uuid_sequence;

-- elapsed seconds of SELECT count(<expression>) FROM generate_series(1, calls), timed inside the server so
-- neither the client nor the network is measured; count(*) when expression is NULL (the baseline)
CREATE FUNCTION bench_elapsed(expression text, calls int) RETURNS float8
LANGUAGE plpgsql AS $$
DECLARE
    started timestamptz := clock_timestamp();
BEGIN
    EXECUTE format('SELECT count(%s) FROM generate_series(1, %s)', coalesce(expression, '*'), calls);
    RETURN extract(epoch FROM clock_timestamp() - started);
END
$$;
