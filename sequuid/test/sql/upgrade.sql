-- upgrade: a database that installed 1.0 and updated step by step (ALTER EXTENSION sequuid UPDATE TO '1.1', TO
-- '1.2', TO '1.3', TO '1.4', TO '1.5', then ALTER EXTENSION sequuid UPDATE to the default version, 1.6) has exactly
-- the catalog of a fresh CREATE EXTENSION sequuid, which runs sequuid--1.6.sql: every function with its labels, arguments,
-- defaults, C symbol and comment, every operator,
-- operator class and family.  Runs in a database of its own, so the tests' objects stay untouched.
SELECT current_database() AS regress_database \gset
CREATE DATABASE sequuid_upgrade TEMPLATE template0;
\c sequuid_upgrade
SET client_min_messages = warning;

-- one row per property of every object that belongs to the extension
CREATE FUNCTION pg_temp.extension_catalog() RETURNS TABLE (object text, property text)
LANGUAGE sql STABLE AS $$
    WITH members AS (
        SELECT d.classid, d.objid FROM pg_depend d JOIN pg_extension e ON e.oid = d.refobjid
        WHERE d.refclassid = 'pg_extension'::regclass AND d.deptype = 'e' AND e.extname = 'sequuid')
    SELECT pg_describe_object(m.classid, m.objid, 0),
           format('language %s, returns %s, volatility %s, parallel %s, strict %s, leakproof %s, cost %s, '
                  'rows %s, arguments (%s), symbol %s, comment %s',
                  l.lanname, pg_get_function_result(p.oid), p.provolatile, p.proparallel, p.proisstrict,
                  p.proleakproof, p.procost, p.prorows,
                  pg_get_function_arguments(p.oid), p.prosrc, obj_description(p.oid, 'pg_proc'))
    FROM members m JOIN pg_proc p ON m.classid = 'pg_proc'::regclass AND p.oid = m.objid
    JOIN pg_language l ON l.oid = p.prolang
    UNION ALL
    SELECT pg_describe_object(m.classid, m.objid, 0),
           format('code %s, commutator %s, negator %s, restrict %s, join %s, merges %s, hashes %s',
                  o.oprcode, o.oprcom::regoperator, o.oprnegate::regoperator, o.oprrest, o.oprjoin,
                  o.oprcanmerge, o.oprcanhash)
    FROM members m JOIN pg_operator o ON m.classid = 'pg_operator'::regclass AND o.oid = m.objid
    UNION ALL
    SELECT pg_describe_object(m.classid, m.objid, 0),
           format('method %s, type %s, default %s, family %s', a.amname, c.opcintype::regtype, c.opcdefault,
                  pg_describe_object('pg_opfamily'::regclass, c.opcfamily, 0))
    FROM members m JOIN pg_opclass c ON m.classid = 'pg_opclass'::regclass AND c.oid = m.objid
    JOIN pg_am a ON a.oid = c.opcmethod
    UNION ALL
    SELECT pg_describe_object('pg_opfamily'::regclass, c.opcfamily, 0),
           format('strategy %s, operator %s', ao.amopstrategy, ao.amopopr::regoperator)
    FROM members m JOIN pg_opclass c ON m.classid = 'pg_opclass'::regclass AND c.oid = m.objid
    JOIN pg_amop ao ON ao.amopfamily = c.opcfamily
    UNION ALL
    SELECT pg_describe_object('pg_opfamily'::regclass, c.opcfamily, 0),
           format('support %s, function %s', ap.amprocnum, ap.amproc::regprocedure)
    FROM members m JOIN pg_opclass c ON m.classid = 'pg_opclass'::regclass AND c.oid = m.objid
    JOIN pg_amproc ap ON ap.amprocfamily = c.opcfamily
    UNION ALL
    SELECT pg_describe_object(m.classid, m.objid, 0), 'member'
    FROM members m WHERE m.classid NOT IN ('pg_proc'::regclass, 'pg_operator'::regclass, 'pg_opclass'::regclass)
$$;

CREATE EXTENSION sequuid VERSION '1.0';
SELECT extversion FROM pg_extension WHERE extname = 'sequuid';
CREATE TEMP TABLE at_1_0 AS SELECT * FROM pg_temp.extension_catalog();
ALTER EXTENSION sequuid UPDATE TO '1.1';
SELECT extversion FROM pg_extension WHERE extname = 'sequuid';
CREATE TEMP TABLE at_1_1 AS SELECT * FROM pg_temp.extension_catalog();
ALTER EXTENSION sequuid UPDATE TO '1.2';
SELECT extversion FROM pg_extension WHERE extname = 'sequuid';
CREATE TEMP TABLE at_1_2 AS SELECT * FROM pg_temp.extension_catalog();
-- what 1.2 added works in the 1.2 database
SELECT lower, upper FROM uuid_time_partitions('v7', '2024-03-09 00:00:00+00', '24 hours', 1);
ALTER EXTENSION sequuid UPDATE TO '1.3';
SELECT extversion FROM pg_extension WHERE extname = 'sequuid';
CREATE TEMP TABLE at_1_3 AS SELECT * FROM pg_temp.extension_catalog();
-- what 1.3 added works in the 1.3 database
SELECT version, variant
FROM (SELECT get_byte(uuid_send(u), 6) >> 4 AS version, get_byte(uuid_send(u), 8) >> 6 AS variant
      FROM (SELECT uuid_generate_striped(16) AS u) g) f;
SELECT * FROM uuid_striped_ranges(2, '2024-03-09 00:00:00+00', '2024-03-09 00:00:01+00');
ALTER EXTENSION sequuid UPDATE TO '1.4';
SELECT extversion FROM pg_extension WHERE extname = 'sequuid';
CREATE TEMP TABLE at_1_4 AS SELECT * FROM pg_temp.extension_catalog();
-- what 1.4 added works in the 1.4 database
SELECT uuid_to_base32hex('019535d9-3df7-79fb-b466-fa907fa17f9e'), uuid_from_base32hex('06AJBM9TUTSVND36VA87V8BVJO');
ALTER EXTENSION sequuid UPDATE TO '1.5';
SELECT extversion FROM pg_extension WHERE extname = 'sequuid';
CREATE TEMP TABLE at_1_5 AS SELECT * FROM pg_temp.extension_catalog();
-- what 1.5 added works in the 1.5 database with the library of today: UUIDv47's demo v7 under its test key, and
-- back (1.5's names keep 1.5's mapping until the update), and 1.5's lenient base32hex decoding
SELECT uuid_v7_to_public('018f2d9f-9a2a-7def-8c3f-7b1a2c4d5e6f', '\xefcdab89674523011032547698badcfe') AS public_id,
       uuid_public_to_v7('2463c780-7fca-4def-8c3f-7b1a2c4d5e6f', '\xefcdab89674523011032547698badcfe') AS v7,
       uuid_from_base32hex('06ajbm9tutsvnd36va87v8bvjo') AS lower_case_read;
SET sequuid.public_id_key = 'efcdab89674523011032547698badcfe';
SELECT uuid_v7_to_public('018f2d9f-9a2a-7def-8c3f-7b1a2c4d5e6f') AS public_id;
RESET sequuid.public_id_key;
-- an index built on 1.5's façades: the update names it in a warning
CREATE TABLE upgrade_orders (id uuid PRIMARY KEY);
CREATE INDEX upgrade_orders_public_id ON upgrade_orders (uuid_v7_to_public(id, '\xefcdab89674523011032547698badcfe'));
-- a 1.5 database moves on to the default version
ALTER EXTENSION sequuid UPDATE;
DROP TABLE upgrade_orders;
SELECT extversion FROM pg_extension WHERE extname = 'sequuid';
CREATE TEMP TABLE updated AS SELECT * FROM pg_temp.extension_catalog();
-- what 1.6 changed works in the updated database: the public id of the demo v7 under the new mapping and back; a
-- façade handed out under 1.5 decodes with uuid_uuidv47_to_v7; base32hex reads its canonical text alone
SELECT uuid_v7_to_public('018f2d9f-9a2a-7def-8c3f-7b1a2c4d5e6f', '\xefcdab89674523011032547698badcfe') AS public_id,
       uuid_public_to_v7('d6d6a15a-d41a-489f-8c3f-7b1a2c4d5e6f', '\xefcdab89674523011032547698badcfe') AS v7,
       uuid_uuidv47_to_v7('2463c780-7fca-4def-8c3f-7b1a2c4d5e6f', '\xefcdab89674523011032547698badcfe') AS v7_of_1_5_facade;
SET sequuid.public_id_key = 'efcdab89674523011032547698badcfe';
SELECT uuid_v7_to_public('018f2d9f-9a2a-7def-8c3f-7b1a2c4d5e6f') AS public_id,
       uuid_uuidv47_to_v7('2463c780-7fca-4def-8c3f-7b1a2c4d5e6f') AS v7_of_1_5_facade;
RESET sequuid.public_id_key;
SELECT uuid_from_base32hex('06ajbm9tutsvnd36va87v8bvjo') AS lower_case_read;
DROP EXTENSION sequuid;
CREATE EXTENSION sequuid;
SELECT extversion, (SELECT default_version FROM pg_available_extensions WHERE name = 'sequuid') AS default_version
FROM pg_extension WHERE extname = 'sequuid';
CREATE TEMP TABLE fresh AS SELECT * FROM pg_temp.extension_catalog();

-- what each update added, and what it changed (the older row): 1.3 changes only the comments of
-- uuid_sequence_nextval and uuid_time_nextval, whose layout the library changed
(SELECT '1.0 to 1.1' AS step, 'added' AS change, * FROM at_1_1 EXCEPT SELECT '1.0 to 1.1', 'added', * FROM at_1_0)
UNION ALL
(SELECT '1.0 to 1.1', 'removed or changed', * FROM at_1_0 EXCEPT SELECT '1.0 to 1.1', 'removed or changed', * FROM at_1_1)
UNION ALL
(SELECT '1.1 to 1.2', 'added', * FROM at_1_2 EXCEPT SELECT '1.1 to 1.2', 'added', * FROM at_1_1)
UNION ALL
(SELECT '1.1 to 1.2', 'removed or changed', * FROM at_1_1 EXCEPT SELECT '1.1 to 1.2', 'removed or changed', * FROM at_1_2)
UNION ALL
(SELECT '1.2 to 1.3', 'added', * FROM at_1_3 EXCEPT SELECT '1.2 to 1.3', 'added', * FROM at_1_2)
UNION ALL
(SELECT '1.2 to 1.3', 'removed or changed', * FROM at_1_2 EXCEPT SELECT '1.2 to 1.3', 'removed or changed', * FROM at_1_3)
UNION ALL
(SELECT '1.3 to 1.4', 'added', * FROM at_1_4 EXCEPT SELECT '1.3 to 1.4', 'added', * FROM at_1_3)
UNION ALL
(SELECT '1.3 to 1.4', 'removed or changed', * FROM at_1_3 EXCEPT SELECT '1.3 to 1.4', 'removed or changed', * FROM at_1_4)
UNION ALL
(SELECT '1.4 to 1.5', 'added', * FROM at_1_5 EXCEPT SELECT '1.4 to 1.5', 'added', * FROM at_1_4)
UNION ALL
(SELECT '1.4 to 1.5', 'removed or changed', * FROM at_1_4 EXCEPT SELECT '1.4 to 1.5', 'removed or changed', * FROM at_1_5)
UNION ALL
(SELECT '1.5 to 1.6', 'added', * FROM updated EXCEPT SELECT '1.5 to 1.6', 'added', * FROM at_1_5)
UNION ALL
(SELECT '1.5 to 1.6', 'removed or changed', * FROM at_1_5 EXCEPT SELECT '1.5 to 1.6', 'removed or changed', * FROM updated)
ORDER BY step, change, object, property;

-- the updated catalog against the fresh one: no row differs
SELECT count(*) AS properties_compared FROM fresh;
(SELECT 'only after update' AS side, * FROM updated EXCEPT SELECT 'only after update', * FROM fresh)
UNION ALL
(SELECT 'only in fresh install', * FROM fresh EXCEPT SELECT 'only in fresh install', * FROM updated)
ORDER BY side, object, property;

\c :regress_database
DROP DATABASE sequuid_upgrade;
