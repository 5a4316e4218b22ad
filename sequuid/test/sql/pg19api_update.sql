-- pg19api_update: sequuid_pg19api 1.0, then ALTER EXTENSION UPDATE to 1.1, against a fresh install; 1.1's
-- sequuid_pg19api_upgrade_check() names the casts that stop an upgrade to 19, and its fix removes them and only them.
CREATE DATABASE sequuid_pg19api_update;
\c sequuid_pg19api_update
CREATE EXTENSION sequuid_pg19api VERSION '1.0';
ALTER EXTENSION sequuid_pg19api UPDATE;
SELECT extversion FROM pg_extension WHERE extname = 'sequuid_pg19api';
CREATE TEMP TABLE updated AS
    SELECT pg_describe_object(d.classid, d.objid, 0) AS member,
           CASE WHEN d.classid = 'pg_proc'::regclass THEN pg_get_functiondef(d.objid) END AS definition,
           obj_description(d.objid, d.classid::regclass::name) AS comment
    FROM pg_depend d WHERE d.refobjid = (SELECT oid FROM pg_extension WHERE extname = 'sequuid_pg19api')
    AND d.deptype = 'e';
DROP EXTENSION sequuid_pg19api;
CREATE EXTENSION sequuid_pg19api;
SELECT member, u.definition IS NOT DISTINCT FROM f.definition AND u.comment IS NOT DISTINCT FROM f.comment AS same
    FROM updated u FULL JOIN (
        SELECT pg_describe_object(d.classid, d.objid, 0) AS member,
               CASE WHEN d.classid = 'pg_proc'::regclass THEN pg_get_functiondef(d.objid) END AS definition,
               obj_description(d.objid, d.classid::regclass::name) AS comment
        FROM pg_depend d WHERE d.refobjid = (SELECT oid FROM pg_extension WHERE extname = 'sequuid_pg19api')
        AND d.deptype = 'e') f USING (member)
    ORDER BY 1;
SELECT p.oid::regprocedure, provolatile, proparallel, proisstrict FROM pg_proc p
    WHERE proname = 'sequuid_pg19api_upgrade_check';
-- an upgrade to 18 needs nothing; to 19 both casts must go
SELECT count(*) AS to_18 FROM sequuid_pg19api_upgrade_check(18);
SELECT object, problem, fix FROM sequuid_pg19api_upgrade_check(19);
SELECT count(*) AS rows_for_null FROM sequuid_pg19api_upgrade_check(NULL);
-- a view that converts with the cast keeps working without it: it calls the cast's function
CREATE VIEW as_bytes AS SELECT '019535d9-3df7-79fb-b466-fa907fa17f9e'::uuid::bytea AS bytes,
    '\x019535d93df779fbb466fa907fa17f9e'::bytea::uuid AS id;
SELECT fix FROM sequuid_pg19api_upgrade_check(19) \gexec
SELECT count(*) AS still_to_do FROM sequuid_pg19api_upgrade_check(19);
SELECT count(*) AS casts FROM pg_cast
    WHERE (castsource, casttarget) IN (('uuid'::regtype, 'bytea'::regtype), ('bytea'::regtype, 'uuid'::regtype));
SELECT * FROM as_bytes;
SELECT uuid_from_bytea('\x019535d93df779fbb466fa907fa17f9e') AS function_kept;
\c sequuid_regress
DROP DATABASE sequuid_pg19api_update;
