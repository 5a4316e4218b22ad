-- install_plpgsql: the pure PL/pgSQL port; every shared test after this one runs against it.
-- pg_regress (PostgreSQL 15+) exports its input directory as PG_ABS_SRCDIR; the port lives beside test/.
\getenv abs_srcdir PG_ABS_SRCDIR
\set port_script :abs_srcdir '/../plpgsql/sequuid.sql'
\set ECHO none
\set ON_ERROR_STOP 1
\i :port_script
\set ON_ERROR_STOP 0
\set ECHO all
-- installed without C: no extension, no C function
SELECT count(*) AS extensions FROM pg_extension WHERE extname = 'sequuid';
SELECT count(*) AS c_functions FROM pg_proc WHERE prolang = (SELECT oid FROM pg_language WHERE lanname = 'c')
    AND pronamespace = 'public'::regnamespace;
SELECT p.oid::regprocedure AS function, l.lanname AS language, provolatile, proparallel, proisstrict
FROM pg_proc p JOIN pg_language l ON l.oid = p.prolang
WHERE pronamespace = 'public'::regnamespace AND (proname LIKE 'uuid%' OR proname LIKE 'ulid%')
ORDER BY p.oid::regprocedure::text;
