-- The switch from pg_uuidv7 and sequential-uuids to the sequuid extension in place (switch/from_peers.sql), on the
-- stand-ins of test/peers, in a database of its own.
CREATE DATABASE sequuid_switch_c;
\c sequuid_switch_c
\set SHOW_CONTEXT never
-- from switch/, so that errors name the script as switch/from_peers.sql does, not by where this checkout is
\getenv abs_srcdir PG_ABS_SRCDIR
\set switch_dir :abs_srcdir '/../switch'
\set test_switch_dir :abs_srcdir '/switch'
-- nothing to replace: refused
\set ECHO none
\cd :switch_dir
\i from_peers.sql
\echo :LAST_ERROR_SQLSTATE
\set ECHO all
\set dependents :test_switch_dir '/dependents.sql'
\i :dependents
-- a member sequuid has no counterpart for: refused, and nothing changed
CREATE FUNCTION uuid_generate_v8() RETURNS uuid LANGUAGE sql AS 'SELECT gen_random_uuid()';
ALTER EXTENSION sequential_uuids ADD FUNCTION uuid_generate_v8();
\set ECHO none
\i from_peers.sql
\echo :LAST_ERROR_SQLSTATE
\set ECHO all
SELECT extname, extnamespace::regnamespace FROM pg_extension WHERE extname <> 'plpgsql' ORDER BY 1;
SELECT count(*) AS peer_members FROM pg_depend WHERE refclassid = 'pg_extension'::regclass AND deptype = 'e'
    AND refobjid IN (SELECT oid FROM pg_extension WHERE extname IN ('pg_uuidv7', 'sequential_uuids'));
SELECT to_regnamespace('sequuid_switch_parked') IS NULL AS no_parking_schema;
ALTER EXTENSION sequential_uuids DROP FUNCTION uuid_generate_v8();
DROP FUNCTION uuid_generate_v8();
-- the peers in two schemas: refused
CREATE SCHEMA elsewhere;
ALTER EXTENSION sequential_uuids SET SCHEMA elsewhere;
\set ECHO none
\i from_peers.sql
\echo :LAST_ERROR_SQLSTATE
\set ECHO all
ALTER EXTENSION sequential_uuids SET SCHEMA public;
DROP SCHEMA elsewhere;
-- pg_uuidv7 1.4's uuid_timestamptz_to_v7() was IMMUTABLE, sequuid's is VOLATILE: where an index or a generated column
-- uses it (the next dump would not restore them), refused
ALTER FUNCTION uuid_timestamptz_to_v7(timestamptz, boolean) IMMUTABLE;
CREATE INDEX orders_by_note ON orders (uuid_timestamptz_to_v7(to_timestamp(length(note)), true));
ALTER TABLE orders ADD COLUMN boundary uuid GENERATED ALWAYS AS (uuid_timestamptz_to_v7(to_timestamp(length(note)), true)) STORED;
\set ECHO none
\i from_peers.sql
\echo :LAST_ERROR_SQLSTATE
\set ECHO all
ALTER TABLE orders DROP COLUMN boundary;
DROP INDEX orders_by_note;
ALTER FUNCTION uuid_timestamptz_to_v7(timestamptz, boolean) STABLE;
-- a name sequuid installs is taken: CREATE EXTENSION fails inside the switch, and everything done before it in the
-- transaction (the peers' functions detached and parked, the peers dropped) is undone
CREATE FUNCTION uuid_timestamp(id uuid) RETURNS timestamptz LANGUAGE sql AS 'SELECT now()';
\set ECHO none
\i from_peers.sql
\echo :LAST_ERROR_SQLSTATE
\set ECHO all
SELECT e.extname, count(*) AS members FROM pg_extension e
    JOIN pg_depend d ON d.refobjid = e.oid AND d.refclassid = 'pg_extension'::regclass AND d.deptype = 'e'
    WHERE e.extname <> 'plpgsql' GROUP BY 1 ORDER BY 1;
SELECT to_regnamespace('sequuid_switch_parked') IS NULL AS no_parking_schema;
DROP FUNCTION uuid_timestamp(uuid);
-- the switch
\set ECHO none
\i from_peers.sql
\set ECHO all
\set check :test_switch_dir '/check.sql'
\i :check
-- sequuid now owns the functions the objects use: DROP EXTENSION without CASCADE is refused as it was for the peers
SELECT count(DISTINCT d.objid) AS objects_using_sequuid FROM pg_depend d
    JOIN pg_depend m ON m.classid = d.refclassid AND m.objid = d.refobjid AND m.deptype = 'e'
    WHERE m.refobjid = (SELECT oid FROM pg_extension WHERE extname = 'sequuid') AND d.deptype = 'n';
-- sequuid is there now: a second switch is refused
CREATE SCHEMA legacy;
CREATE EXTENSION pg_uuidv7 SCHEMA legacy;
\set ECHO none
\i from_peers.sql
\echo :LAST_ERROR_SQLSTATE
\set ECHO all
SELECT extname, extnamespace::regnamespace FROM pg_extension WHERE extname <> 'plpgsql' ORDER BY 1;
\c sequuid_regress
DROP DATABASE sequuid_switch_c;
-- a peer in a schema of its own, whose name needs quoting: sequuid goes there
CREATE DATABASE sequuid_switch_c_schema;
\c sequuid_switch_c_schema
CREATE SCHEMA "Shared Functions";
CREATE EXTENSION pg_uuidv7 SCHEMA "Shared Functions";
CREATE TABLE events (id uuid PRIMARY KEY DEFAULT "Shared Functions".uuid_generate_v7());
INSERT INTO events DEFAULT VALUES;
\set ECHO none
\i from_peers.sql
\set ECHO all
INSERT INTO events DEFAULT VALUES;
SELECT extname, extnamespace::regnamespace FROM pg_extension WHERE extname <> 'plpgsql';
SELECT count(*) AS rows, count(*) FILTER (WHERE "Shared Functions".uuid_version(id) = 7) AS sequuid_keys FROM events;
\c sequuid_regress
DROP DATABASE sequuid_switch_c_schema;
