-- The switch from pg_uuidv7 and sequential-uuids to sequuid's PL/pgSQL port in place
-- (switch/from_peers_plpgsql.sql), on the stand-ins of test/peers, in a database of its own.
CREATE DATABASE sequuid_switch_plpgsql;
\c sequuid_switch_plpgsql
\set SHOW_CONTEXT never
-- from switch/, so that errors name the script as switch/from_peers.sql does, not by where this checkout is
\getenv abs_srcdir PG_ABS_SRCDIR
\set switch_dir :abs_srcdir '/../switch'
\set test_switch_dir :abs_srcdir '/switch'
\set dependents :test_switch_dir '/dependents.sql'
\i :dependents
\set ECHO none
\cd :switch_dir
\i from_peers_plpgsql.sql
\set ECHO all
\set check :test_switch_dir '/check.sql'
\i :check
-- the port's other functions are there too
SELECT uuid_version(uuid_generate_ulid()) IS NOT NULL AS port_installed, current_setting('search_path') AS search_path;
\c sequuid_regress
DROP DATABASE sequuid_switch_plpgsql;
