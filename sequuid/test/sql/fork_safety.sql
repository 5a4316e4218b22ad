-- fork_safety: with the library loaded in the postmaster, the first random bytes of freshly forked backends
-- still differ: random state made before the fork would hand every backend the same first value.
-- uuid_time_nextval(1, 1) has no prefix, so its 122 bits are the first bytes of the backend's random chunk.
CREATE TABLE first_values (backend int, u uuid);
\c
INSERT INTO first_values SELECT 1, uuid_time_nextval(1, 1);
\c
INSERT INTO first_values SELECT 2, uuid_time_nextval(1, 1);
\c
INSERT INTO first_values SELECT 3, uuid_time_nextval(1, 1);
SELECT count(*) AS backends, count(DISTINCT u) AS distinct_first_values FROM first_values;
DROP TABLE first_values;
