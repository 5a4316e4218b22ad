-- sequuid/switch/from_peers_plpgsql.sql: the same switch as from_peers.sql, to sequuid's PL/pgSQL port
-- (plpgsql/sequuid.sql) instead of the C extension, for a server that will not load sequuid's library:
--
--     psql -v ON_ERROR_STOP=1 -d app -f sequuid/switch/from_peers_plpgsql.sql
--
-- The port's functions go into the peers' schema; the rebound functions of the peers take the place of the port's
-- copies.  One transaction: on any error nothing is changed.  See sequuid/docs/lifecycle.md.
BEGIN;
-- as a superuser: nothing found through the caller's search_path may run (pg_temp is never searched for functions)
SET LOCAL search_path = pg_catalog, pg_temp;
\ir functions.sql
SELECT string_agg(format('%s %s', extname, extversion), ' and ' ORDER BY extname) AS sequuid_switch_peers
    FROM pg_extension WHERE extname IN ('pg_uuidv7', 'sequential_uuids') \gset
SELECT pg_temp.sequuid_switch_park_peers('plpgsql') AS sequuid_switch_schema \gset
-- the port installs into the first schema of search_path: the peers' schema alone while it runs (pg_catalog is still
-- searched first; the port's own statements name everything they call with its schema), inside this transaction
SELECT set_config('search_path', quote_ident(:'sequuid_switch_schema'), true) AS sequuid_switch_search_path \gset
\set sequuid_port_nested 1
\ir ../plpgsql/sequuid.sql
\unset sequuid_port_nested
SET LOCAL search_path = pg_catalog, pg_temp;
SELECT format('%s replaced by the sequuid port in schema %s: %s functions rebound, their dependents kept',
              :'sequuid_switch_peers', :'sequuid_switch_schema', pg_temp.sequuid_switch_adopt_parked(:'sequuid_switch_schema', NULL)) AS switched;
COMMIT;
