-- sequuid/bench/setup.sql: run once in the benchmark database before measuring (see cases.tsv).
CREATE EXTENSION sequuid;
CREATE SEQUENCE bench_nextval;
CREATE SEQUENCE bench_uuid_sequence;
-- the inputs of the public-id rows: UUIDv47's demo v7, its façade, and its test key
CREATE TABLE bench_public_id (v7 uuid, public_id uuid, key bytea);
INSERT INTO bench_public_id VALUES ('018f2d9f-9a2a-7def-8c3f-7b1a2c4d5e6f', '2463c780-7fca-4def-8c3f-7b1a2c4d5e6f',
                                    '\xefcdab89674523011032547698badcfe');

-- seconds this backend has run on a CPU (Linux /proc/self/schedstat, in ns): time other processes take from a
-- shared machine does not count, so figures stay comparable while the machine is busy
CREATE FUNCTION bench_cpu_seconds() RETURNS float8
LANGUAGE sql AS $$ SELECT split_part(pg_read_file('/proc/self/schedstat'), ' ', 1)::float8 / 1e9 $$;

-- seconds SELECT count(<expression>) FROM generate_series(1, calls) takes, on the CPU or on the wall clock;
-- count(*) when expression is NULL (the baseline)
CREATE FUNCTION bench_elapsed(expression text, calls int, clock text) RETURNS float8
LANGUAGE plpgsql AS $$
DECLARE
    started float8 := CASE clock WHEN 'cpu' THEN bench_cpu_seconds() ELSE extract(epoch FROM clock_timestamp()) END;
BEGIN
    EXECUTE format('SELECT count(%s) FROM generate_series(1, %s)', coalesce(expression, '*'), calls);
    RETURN CASE clock WHEN 'cpu' THEN bench_cpu_seconds() ELSE extract(epoch FROM clock_timestamp()) END - started;
END
$$;
