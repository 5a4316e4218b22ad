-- virtual_clock_shared: with the library preloaded, ordering across backends holds at any clock rate.  At rate
-- 0.001 a backend's 100,000 calls run the shared clock far ahead of the virtual time (each takes the minimal
-- step); a backend started afterwards still makes larger values, because the clock state is shared.  At rate
-- 10000 the virtual time runs ahead of the calls instead.  The rate is set for the database, as whoever sets it
-- for a run would (postgresql.conf, ALTER SYSTEM or ALTER DATABASE), so every new backend reads it.
SET search_path = public, regress_helpers;
SELECT current_database() AS db \gset

ALTER DATABASE :"db" SET sequuid.clock_rate = 0.001;
\c
CREATE TABLE shared_rate (rate float8, backend int, v7 uuid, v6 uuid, v1 uuid);
INSERT INTO shared_rate SELECT 0.001, 1, uuid_generate_v7(), uuid_generate_v6(), uuid_generate_v1_random_node()
FROM generate_series(1, 100000);
\c
INSERT INTO shared_rate SELECT current_setting('sequuid.clock_rate')::float8, 2, uuid_generate_v7(), uuid_generate_v6(),
                               uuid_generate_v1_random_node();

ALTER DATABASE :"db" SET sequuid.clock_rate = 10000;
\c
INSERT INTO shared_rate SELECT 10000, 3, uuid_generate_v7(), uuid_generate_v6(), uuid_generate_v1_random_node()
FROM generate_series(1, 100000);
\c
INSERT INTO shared_rate SELECT current_setting('sequuid.clock_rate')::float8, 4, uuid_generate_v7(), uuid_generate_v6(),
                               uuid_generate_v1_random_node();
ALTER DATABASE :"db" RESET sequuid.clock_rate;

-- each later backend's value is above every value of the backends before it
SELECT later.rate, later.backend,
       bool_and(later.v7 > earlier.v7) AS v7_above_earlier_backends,
       bool_and(later.v6 > earlier.v6) AS v6_above_earlier_backends,
       bool_and(uuid_v1_to_v6(later.v1) > uuid_v1_to_v6(earlier.v1)) AS v1_time_above_earlier_backends
FROM shared_rate later JOIN shared_rate earlier ON earlier.backend < later.backend
WHERE later.backend IN (2, 4)
GROUP BY later.rate, later.backend ORDER BY later.backend;
DROP TABLE shared_rate;
