-- sequuid/switch/from_peers.sql: replace pg_uuidv7 and sequential-uuids by the sequuid extension in place, in one
-- transaction, keeping every object that uses their functions (column defaults, views, functions, indexes,
-- constraints, generated columns, triggers) and every row:
--
--     psql -v ON_ERROR_STOP=1 -d app -f sequuid/switch/from_peers.sql
--
-- As a superuser (as the peers were installed), with sequuid's files installed in the server.  Whichever of the two
-- is installed is replaced (both at once when both are: sequuid has the functions of both, in one schema); sequuid
-- goes into their schema.  It refuses, and changes nothing, where neither is installed, where sequuid is already,
-- where the two are in different schemas, or where one of them has an object sequuid has no counterpart for.
-- See sequuid/docs/lifecycle.md.
BEGIN;
-- as a superuser: nothing found through the caller's search_path may run (pg_temp is never searched for functions)
SET LOCAL search_path = pg_catalog, pg_temp;
\ir functions.sql
SELECT pg_temp.sequuid_switch_from_peers() AS switched;
COMMIT;
