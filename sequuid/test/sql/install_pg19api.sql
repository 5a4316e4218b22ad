-- install_pg19api: sequuid_pg19api creates PostgreSQL 19's casts between uuid and bytea where the server has none
-- (15 to 18), and the function behind bytea::uuid; on 19 only the function.
CREATE EXTENSION sequuid_pg19api;
SELECT pg_describe_object(d.classid, d.objid, 0) AS member
FROM pg_extension e
JOIN pg_depend d ON d.refclassid = 'pg_extension'::regclass AND d.refobjid = e.oid AND d.deptype = 'e'
WHERE e.extname = 'sequuid_pg19api'
ORDER BY 1;
-- dropping it drops its casts
DROP EXTENSION sequuid_pg19api;
SELECT count(*) AS casts_left FROM pg_cast
WHERE (castsource, casttarget) IN (('uuid'::regtype, 'bytea'::regtype), ('bytea'::regtype, 'uuid'::regtype));
CREATE EXTENSION sequuid_pg19api;
