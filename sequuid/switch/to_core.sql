-- sequuid/switch/to_core.sql: leave sequuid (the extension, sequuid_pg18api, or the PL/pgSQL port) for PostgreSQL
-- 18's own UUID functions, in place, in one transaction, keeping every object that uses them:
--
--     psql -v ON_ERROR_STOP=1 -d app -f sequuid/switch/to_core.sql
--
-- On PostgreSQL 18 or later.  Each function core has a counterpart for (uuid_generate_v7() and
-- uuid_generate_v7(interval): uuidv7(); sequuid_pg18api's uuidv7(), uuidv7(interval), uuidv4(),
-- uuid_extract_version(), uuid_extract_timestamp(): core's of the same name) and that an object uses becomes a
-- SQL function calling core's, under its name and OID, so defaults, views, indexes and functions keep working;
-- uuid_generate_v7() is kept so whatever calls it by name (application code, PL/pgSQL) keeps working.  Then the
-- extensions are dropped, without CASCADE.  Refused, changing nothing, where an object uses a function core has no
-- counterpart for (uuid_timestamp(), the ULID, v6 and sequential generators, uuid_time_ops...).  The port's other
-- functions stay where they are.  See sequuid/docs/lifecycle.md.
BEGIN;
-- as a superuser: nothing found through the caller's search_path may run (pg_temp is never searched for functions)
SET LOCAL search_path = pg_catalog, pg_temp;
\ir functions.sql
SELECT pg_temp.sequuid_switch_to_core(false) AS switched;
COMMIT;
