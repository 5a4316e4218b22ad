-- pg18_uuid_api_infinite: uuidv7() refuses an infinite shift as PostgreSQL 18 does (message, detail, SQLSTATE).
-- Intervals are infinite from PostgreSQL 17 on, so test/run runs this on 17 (sequuid_pg18api and its port) and
-- on 18 (core); before 17 no infinite interval can be written.
\set SHOW_CONTEXT never
SELECT uuidv7('infinity');
\echo :LAST_ERROR_SQLSTATE
SELECT uuidv7('-infinity');
\echo :LAST_ERROR_SQLSTATE
SELECT uuidv7(shift) FROM (VALUES (interval '1 hour'), (interval 'infinity')) shifts (shift);
\echo :LAST_ERROR_SQLSTATE
