-- sequuid/switch/pg18api_to_core.sql: after pg_upgrade to PostgreSQL 18 or later, leave sequuid_pg18api (or its
-- port) for core's own uuidv7(), uuidv4(), uuid_extract_version() and uuid_extract_timestamp(), in place, in one
-- transaction, keeping sequuid itself:
--
--     psql -v ON_ERROR_STOP=1 -d app -f sequuid/switch/pg18api_to_core.sql
--
-- Each of the extension's functions that an object uses (a column default uuidv7(), a view) becomes a SQL function
-- calling core's, under its name and OID; the others go with DROP EXTENSION sequuid_pg18api (no CASCADE).  Run it
-- before the next pg_dump of an upgraded database: a dump names the extension's functions (public.uuidv7()), and
-- CREATE EXTENSION sequuid_pg18api on 18 creates none of them, so such a dump would not restore.
-- See sequuid/docs/lifecycle.md.
BEGIN;
-- as a superuser: nothing found through the caller's search_path may run (pg_temp is never searched for functions)
SET LOCAL search_path = pg_catalog, pg_temp;
\ir functions.sql
SELECT pg_temp.sequuid_switch_to_core(true) AS switched;
COMMIT;
