-- Leaving sequuid for PostgreSQL 18's core functions in place (switch/to_core.sql), from the extension and from the
-- port, each in a database of its own (18 and later: test/run leaves it out before).
CREATE DATABASE sequuid_switch_core;
\c sequuid_switch_core
\set SHOW_CONTEXT never
\getenv abs_srcdir PG_ABS_SRCDIR
\set switch_dir :abs_srcdir '/../switch'
-- from switch/, so that errors name the script as switch/to_core.sql does, not by where this checkout is
\cd :switch_dir
CREATE EXTENSION sequuid;
CREATE TABLE events (id uuid PRIMARY KEY DEFAULT uuid_generate_v7(), due uuid DEFAULT uuid_generate_v7('1 day'));
CREATE VIEW event_times AS SELECT id, uuid_timestamp(id) AS made_at FROM events;
CREATE FUNCTION new_event_key() RETURNS uuid LANGUAGE sql BEGIN ATOMIC SELECT uuid_generate_v7(); END;
INSERT INTO events SELECT FROM generate_series(1, 10);
SELECT md5(string_agg(e::text, ',' ORDER BY id)) AS rows_md5_before FROM events e \gset
-- a view uses uuid_timestamp(), which core has no counterpart for: refused, nothing changed
\set ECHO none
\i to_core.sql
\echo :LAST_ERROR_SQLSTATE
\set ECHO all
SELECT extname FROM pg_extension WHERE extname <> 'plpgsql' ORDER BY 1;
DROP VIEW event_times;
-- an index on uuid_time_ops and a view using one of its operators: core has neither, refused
CREATE INDEX events_by_time ON events (id uuid_time_ops);
CREATE VIEW early_events AS SELECT id FROM events WHERE id ~<~ '00000000-0000-7000-8000-000000000000';
\set ECHO none
\i to_core.sql
\echo :LAST_ERROR_SQLSTATE
\set ECHO all
DROP VIEW early_events;
DROP INDEX events_by_time;
\set ECHO none
\i to_core.sql
\set ECHO all
SELECT extname FROM pg_extension WHERE extname <> 'plpgsql' ORDER BY 1;
SELECT md5(string_agg(e::text, ',' ORDER BY id)) = :'rows_md5_before' AS rows_unchanged FROM events e;
SELECT pg_get_expr(adbin, adrelid) AS column_default FROM pg_attrdef WHERE adrelid = 'events'::regclass ORDER BY adnum;
SELECT p.oid::regprocedure AS function, l.lanname AS language, p.provolatile AS volatility, p.proparallel AS parallel,
       pg_get_function_sqlbody(p.oid) AS body
    FROM pg_proc p JOIN pg_language l ON l.oid = p.prolang
    WHERE p.proname = 'uuid_generate_v7' ORDER BY 1;
INSERT INTO events SELECT FROM generate_series(1, 10);
SELECT count(*) AS rows, count(*) FILTER (WHERE uuid_extract_version(id) = 7 AND uuid_extract_version(due) = 7) AS v7,
       bool_and(uuid_extract_timestamp(due) - uuid_extract_timestamp(id) BETWEEN '23 hours' AND '25 hours') AS due_shifted
    FROM events;
SELECT uuid_extract_version(new_event_key()) AS function_version;
-- nothing left to leave
\set ECHO none
\i to_core.sql
\echo :LAST_ERROR_SQLSTATE
\set ECHO all
-- the port
\c sequuid_regress
DROP DATABASE sequuid_switch_core;
CREATE DATABASE sequuid_switch_core_port;
\c sequuid_switch_core_port
\set SHOW_CONTEXT never
\set port_script :abs_srcdir '/../plpgsql/sequuid.sql'
\set ECHO none
\i :port_script
\set ECHO all
CREATE TABLE events (id uuid PRIMARY KEY DEFAULT uuid_generate_v7());
INSERT INTO events SELECT FROM generate_series(1, 10);
\set ECHO none
\i to_core.sql
\set ECHO all
SELECT p.oid::regprocedure AS function, l.lanname AS language, pg_get_function_sqlbody(p.oid) AS body
    FROM pg_proc p JOIN pg_language l ON l.oid = p.prolang
    WHERE p.proname = 'uuid_generate_v7' ORDER BY 1;
INSERT INTO events SELECT FROM generate_series(1, 10);
SELECT count(*) AS rows, count(*) FILTER (WHERE uuid_extract_version(id) = 7) AS v7 FROM events;
\c sequuid_regress
DROP DATABASE sequuid_switch_core_port;
-- sequuid in a schema whose name needs quoting
CREATE DATABASE sequuid_switch_core_schema;
\c sequuid_switch_core_schema
\set SHOW_CONTEXT never
CREATE SCHEMA "My Schema";
CREATE EXTENSION sequuid SCHEMA "My Schema";
CREATE TABLE events (id uuid PRIMARY KEY DEFAULT "My Schema".uuid_generate_v7());
\set ECHO none
\i to_core.sql
\set ECHO all
INSERT INTO events SELECT FROM generate_series(1, 10);
SELECT count(*) AS rows, count(*) FILTER (WHERE uuid_extract_version(id) = 7) AS v7 FROM events;
SELECT p.oid::regprocedure AS function, pg_get_function_sqlbody(p.oid) AS body
    FROM pg_proc p WHERE p.proname = 'uuid_generate_v7' ORDER BY 1;
\c sequuid_regress
DROP DATABASE sequuid_switch_core_schema;
