-- catalog: the labels of every function of the extension, so any change shows up in a diff.
SELECT p.oid::regprocedure AS function, provolatile, proparallel, proisstrict
FROM pg_proc p
JOIN pg_depend d ON d.classid = 'pg_proc'::regclass AND d.objid = p.oid AND d.deptype = 'e'
JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'sequuid'
ORDER BY p.oid::regprocedure::text;

-- names core PostgreSQL owns (or will): defining them breaks applications with ambiguous calls
SELECT count(*) AS core_names_taken
FROM pg_proc p
JOIN pg_depend d ON d.classid = 'pg_proc'::regclass AND d.objid = p.oid AND d.deptype = 'e'
JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'sequuid'
WHERE proname IN ('uuidv7', 'uuidv4', 'uuid_extract_timestamp', 'uuid_extract_version');
