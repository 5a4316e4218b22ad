-- pg19_casts: PostgreSQL 19's explicit casts between uuid and bytea (shared: sequuid_pg19api and its port give
-- the same output).  Errors show message and SQLSTATE only: CONTEXT lines differ between the implementations.
\set SHOW_CONTEXT never

-- the 16 bytes in order, both ways
SELECT '019535d9-3df7-79fb-b466-fa907fa17f9e'::uuid::bytea AS bytes,
       '\x019535d93df779fbb466fa907fa17f9e'::bytea::uuid AS id,
       CAST(CAST('ffffffff-ffff-ffff-ffff-ffffffffffff'::uuid AS bytea) AS uuid) AS round_trip;
SELECT NULL::uuid::bytea AS null_bytes, NULL::bytea::uuid AS null_id;
-- with 19's encode(), the sort-preserving text: the same as uuid_to_base32hex() gives
SELECT encode('019535d9-3df7-79fb-b466-fa907fa17f9e'::uuid::bytea, 'hex') AS hex;
SELECT uuid_from_bytea('\x00000000000070008000000000000000'::bytea);

-- any other length: 19's error
SELECT '\x0102'::bytea::uuid;
SELECT ''::bytea::uuid;
SELECT '\x019535d93df779fbb466fa907fa17f9e00'::bytea::uuid;
SELECT uuid_from_bytea('\x019535d93df779fbb466fa907fa17f'::bytea);

-- explicit only, as 19's: no assignment or implicit cast
CREATE TEMP TABLE cast_target (b bytea, u uuid);
INSERT INTO cast_target (b) VALUES ('019535d9-3df7-79fb-b466-fa907fa17f9e'::uuid);
INSERT INTO cast_target (u) VALUES ('\x019535d93df779fbb466fa907fa17f9e'::bytea);
SELECT castsource::regtype, casttarget::regtype, castcontext, castmethod
FROM pg_cast WHERE (castsource, casttarget) IN (('uuid'::regtype, 'bytea'::regtype), ('bytea'::regtype, 'uuid'::regtype))
ORDER BY 1::text;
SELECT p.oid::regprocedure AS function, provolatile, proparallel, proisstrict
FROM pg_proc p WHERE proname = 'uuid_from_bytea';
