-- vectors: the shared test vectors (vectors/*.json, made from the C extension by vectors/make) against the
-- functions installed here, C or PL/pgSQL (shared: both give this output).  Per file, the number of tests and of
-- those whose answer differs; then every such test, expected none.  vectors/run.sql is the query both use.
\getenv abs_srcdir PG_ABS_SRCDIR
\set vectors_dir :abs_srcdir '/../vectors'
\set run_sql :vectors_dir '/run.sql'
\set ECHO none
\set ON_ERROR_STOP 1
SET client_min_messages = warning;
\i :run_sql
RESET client_min_messages;
\set ON_ERROR_STOP 0
\set ECHO all
CREATE TEMP TABLE vector_files (family text, doc jsonb);
\set doc `cat :'vectors_dir'/v7.json`
INSERT INTO vector_files VALUES ('v7', :'doc');
\set doc `cat :'vectors_dir'/v6.json`
INSERT INTO vector_files VALUES ('v6', :'doc');
\set doc `cat :'vectors_dir'/ulid.json`
INSERT INTO vector_files VALUES ('ulid', :'doc');
\set doc `cat :'vectors_dir'/sequential.json`
INSERT INTO vector_files VALUES ('sequential', :'doc');
\set doc `cat :'vectors_dir'/striped.json`
INSERT INTO vector_files VALUES ('striped', :'doc');
\set doc `cat :'vectors_dir'/extract.json`
INSERT INTO vector_files VALUES ('extract', :'doc');
\set doc `cat :'vectors_dir'/ranges.json`
INSERT INTO vector_files VALUES ('ranges', :'doc');
\set doc `cat :'vectors_dir'/base32hex.json`
INSERT INTO vector_files VALUES ('base32hex', :'doc');
\set doc `cat :'vectors_dir'/publicid.json`
INSERT INTO vector_files VALUES ('publicid', :'doc');
CREATE TEMP TABLE mismatches AS
SELECT m.* FROM vector_files f, pg_temp.vector_mismatches(f.doc) m;
SELECT f.family, (f.doc ->> 'numberOfTests')::int AS tests,
       pg_temp.vector_count(f.doc) = (f.doc ->> 'numberOfTests')::int AS count_agrees,
       (SELECT count(*) FROM mismatches m WHERE m.family = f.family) AS mismatches
FROM vector_files f ORDER BY f.family;
SELECT * FROM mismatches ORDER BY family, tc_id;
-- every file is there
SELECT count(*) AS files FROM vector_files;
