-- install_plpgsql_pg19api: the PL/pgSQL port of sequuid_pg19api.  A user who may not create casts (every user on
-- a managed service) gets the function and a NOTICE that names what to write instead; a superuser gets the casts.
\getenv abs_srcdir PG_ABS_SRCDIR
\set port_script :abs_srcdir '/../plpgsql/sequuid_pg19api.sql'
CREATE ROLE regress_pg19api_user;
CREATE SCHEMA regress_pg19api AUTHORIZATION regress_pg19api_user;
SET ROLE regress_pg19api_user;
SET search_path = regress_pg19api;
-- run as one query string, so that the NOTICE carries no path of this machine
\set port_text `cat :'port_script'`
\set ECHO none
SELECT :'port_text' \gexec
\set ECHO all
RESET search_path;
RESET ROLE;
SELECT count(*) AS casts FROM pg_cast
WHERE (castsource, casttarget) IN (('uuid'::regtype, 'bytea'::regtype), ('bytea'::regtype, 'uuid'::regtype));
SELECT regress_pg19api.uuid_from_bytea('\x019535d93df779fbb466fa907fa17f9e'::bytea) AS without_the_cast;
DROP SCHEMA regress_pg19api CASCADE;
DROP ROLE regress_pg19api_user;
-- as a superuser, into the first schema of search_path
\set ECHO none
\set ON_ERROR_STOP 1
\i :port_script
\set ON_ERROR_STOP 0
\set ECHO all
SELECT castsource::regtype, casttarget::regtype, castfunc::regprocedure FROM pg_cast
WHERE (castsource, casttarget) IN (('uuid'::regtype, 'bytea'::regtype), ('bytea'::regtype, 'uuid'::regtype))
ORDER BY 1::text;
-- running it again creates nothing twice
\set ECHO none
\i :port_script
\set ECHO all
SELECT count(*) AS casts FROM pg_cast
WHERE (castsource, casttarget) IN (('uuid'::regtype, 'bytea'::regtype), ('bytea'::regtype, 'uuid'::regtype));
