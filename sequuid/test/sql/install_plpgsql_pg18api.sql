-- install_plpgsql_pg18api: the PL/pgSQL port of sequuid_pg18api, on top of the sequuid port (install_plpgsql).
-- It creates exactly the functions of PostgreSQL 18's UUID API that the server lacks, as the extension does; its
-- labels are core's but where SQL forces another: its generators are PARALLEL UNSAFE, and uuidv7() is not STRICT
-- so that the planner inlines it.  On 18, where every function is core's, the _1 output.
\getenv abs_srcdir PG_ABS_SRCDIR
\set port_script :abs_srcdir '/../plpgsql/sequuid_pg18api.sql'
-- (its warning on 17, which psql prefixes with the script's path, is left to install_pg18api: the same text)
\set ECHO none
\set ON_ERROR_STOP 1
SET client_min_messages = error;
\i :port_script
RESET client_min_messages;
\set ON_ERROR_STOP 0
\set ECHO all
-- 17's own uuid_extract_timestamp() comes first unless search_path puts pg_catalog after the port's schema
SET search_path = public, pg_catalog;
SELECT signature, p.oid IS NOT NULL AS found, proargnames, prorettype::regtype AS returns,
       provolatile, proparallel, proisstrict, proleakproof
FROM unnest(ARRAY['uuidv4()', 'uuidv7()', 'uuidv7(interval)', 'uuid_extract_version(uuid)',
                  'uuid_extract_timestamp(uuid)']) WITH ORDINALITY AS s (signature, n)
LEFT JOIN pg_proc p ON p.oid = to_regprocedure(signature)
ORDER BY n;
-- running it again replaces the port's functions in place and creates no second one
SELECT count(*) AS functions_before FROM pg_proc
WHERE proname IN ('uuidv4', 'uuidv7', 'uuid_extract_version', 'uuid_extract_timestamp') \gset
\set ECHO none
SET client_min_messages = error;
\i :port_script
RESET client_min_messages;
\set ECHO all
SELECT count(*) = :functions_before AS no_second_function FROM pg_proc
WHERE proname IN ('uuidv4', 'uuidv7', 'uuid_extract_version', 'uuid_extract_timestamp');
