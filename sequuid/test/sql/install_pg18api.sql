-- install_pg18api: sequuid_pg18api creates exactly the functions of PostgreSQL 18's UUID API that the server
-- lacks: all five on 15 and 16; on 17 the three generators and uuid_extract_timestamp() (17's reads v1 only, and
-- the extension warns); none on 18.  Whatever the version, every one of the five then resolves to a function
-- with 18's labels.  On 17 the _1 output, with the warning.
CREATE EXTENSION sequuid_pg18api;
-- 17's own uuid_extract_timestamp() comes first unless search_path puts pg_catalog after the extension's schema
SET search_path = public, pg_catalog;
SELECT signature, p.oid IS NOT NULL AS found, proargnames, prorettype::regtype AS returns,
       provolatile, proparallel, proisstrict, proleakproof
FROM unnest(ARRAY['uuidv4()', 'uuidv7()', 'uuidv7(interval)', 'uuid_extract_version(uuid)',
                  'uuid_extract_timestamp(uuid)']) WITH ORDINALITY AS s (signature, n)
LEFT JOIN pg_proc p ON p.oid = to_regprocedure(signature)
ORDER BY n;
-- the members are the functions this major version lacks, and nothing else
SELECT coalesce(array_agg(d.objid::regprocedure::text ORDER BY d.objid::regprocedure::text)
                    FILTER (WHERE d.classid = 'pg_proc'::regclass), '{}')
       = CASE WHEN current_setting('server_version_num')::int < 170000
              THEN ARRAY['uuid_extract_timestamp(uuid)', 'uuid_extract_version(uuid)', 'uuidv4()', 'uuidv7()',
                         'uuidv7(interval)']
              WHEN current_setting('server_version_num')::int < 180000
              THEN ARRAY['uuid_extract_timestamp(uuid)', 'uuidv4()', 'uuidv7()', 'uuidv7(interval)']
              ELSE '{}' END AS members_are_what_this_version_lacks,
       count(*) FILTER (WHERE d.classid <> 'pg_proc'::regclass) AS other_members
FROM pg_extension e
LEFT JOIN pg_depend d ON d.refclassid = 'pg_extension'::regclass AND d.refobjid = e.oid AND d.deptype = 'e'
WHERE e.extname = 'sequuid_pg18api';
