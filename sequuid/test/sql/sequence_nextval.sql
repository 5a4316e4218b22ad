-- sequence_nextval: uuid_sequence_nextval(seq, block_size, block_count): prefix layout, privileges, bad input.
\set SHOW_CONTEXT never
SET search_path = public, regress_helpers;

-- sequential-uuids 1.0.3's layout: the prefix is ceil(log2(block_count)) bits (at least 1) rounded up to whole
-- bytes, and the block size is rescaled to max(1, block_size * block_count / 2^bits), so one wrap spans the whole
-- byte range.  100 calls with block_size 100 and block_count 100: one byte, blocks of 10000 / 256 = 39 values;
-- i = nextval - 1; version 8 (custom layout), variant 10
CREATE SEQUENCE seq_small;
SELECT i, get_byte(uuid_send(u), 0) AS prefix, (i / 39) % 256 AS expected, version(u) AS version,
       variant(u) AS variant
FROM (SELECT uuid_sequence_nextval('seq_small', 100, 100) AS u, currval('seq_small') - 1 AS i
      FROM generate_series(1, 100)) s
WHERE i IN (0, 1, 38, 39, 40, 77, 78, 79);
SELECT setval('seq_small', 39 * 256, false) IS NOT NULL AS moved_to_the_wrap;
SELECT get_byte(uuid_send(uuid_sequence_nextval('seq_small', 100, 100)), 0) AS last_block,
       get_byte(uuid_send(uuid_sequence_nextval('seq_small', 100, 100)), 0) AS wrapped_to_0;

-- sequential-uuids 1.0.3's own cases, with its counts (its suite runs unchanged against sequuid too: README)
-- 256 x 65536 over 10,000 values: 2-byte prefixes, 40 of them, all full but the last
CREATE SEQUENCE s;
CREATE TABLE uuid_tmp AS SELECT uuid_sequence_nextval('s'::regclass, 256, 65536)::text AS val FROM generate_series(1, 10000) s(i);
SELECT count(DISTINCT val) AS distinct_values, count(DISTINCT substring(val, 1, 4)) AS prefixes FROM uuid_tmp;
WITH x AS (SELECT substring(val, 1, 4) AS block, count(*) AS cnt FROM uuid_tmp GROUP BY 1)
SELECT * FROM x WHERE cnt != 256;
DROP SEQUENCE s;
DROP TABLE uuid_tmp;
-- 65536 x 256 over 200,000 values: 1-byte prefixes, 4 of them
CREATE SEQUENCE s;
CREATE TABLE uuid_tmp AS SELECT uuid_sequence_nextval('s'::regclass, 65536, 256)::text AS val FROM generate_series(1, 200000) s(i);
SELECT count(DISTINCT val) AS distinct_values, count(DISTINCT substring(val, 1, 2)) AS prefixes FROM uuid_tmp;
SELECT substring(val, 1, 2) AS block, count(*) AS cnt FROM uuid_tmp GROUP BY 1 ORDER BY 1;
DROP SEQUENCE s;
DROP TABLE uuid_tmp;
-- 100 x 100 over 1,000 values: 26 one-byte prefixes of 39 values, the last of 25
CREATE SEQUENCE s;
CREATE TABLE uuid_tmp AS SELECT uuid_sequence_nextval('s'::regclass, 100, 100)::text AS val FROM generate_series(1, 1000) s(i);
SELECT (SELECT count(DISTINCT val) FROM uuid_tmp) AS distinct_values, count(*) AS prefixes,
       count(*) FILTER (WHERE cnt = 39) AS prefixes_of_39, string_agg(block || ': ' || cnt, ', ') FILTER (WHERE cnt <> 39) AS others
FROM (SELECT substring(val, 1, 2) AS block, count(*) AS cnt FROM uuid_tmp GROUP BY 1) x;
DROP SEQUENCE s;
DROP TABLE uuid_tmp;
-- 256 x 256 over 67,000 values: the prefix wraps after 65,536 values, so every prefix holds 256 values of the first
-- wrap, and the first six also some of the second
CREATE SEQUENCE s;
CREATE TABLE uuid_tmp AS SELECT uuid_sequence_nextval('s'::regclass, 256, 256)::text AS val FROM generate_series(1, 67000) s(i);
SELECT count(DISTINCT substring(val, 1, 2)) AS prefixes FROM uuid_tmp;
WITH x AS (SELECT substring(val, 1, 2) AS block, count(*) AS cnt FROM uuid_tmp GROUP BY 1 ORDER BY 1)
SELECT * FROM x WHERE cnt != 256;
DROP SEQUENCE s;
DROP TABLE uuid_tmp;

-- the defaults are block_size 65536 and block_count 65536: a 16-bit prefix (a power of 256: nothing rescaled)
CREATE SEQUENCE seq_default START 327681;
SELECT octets(uuid_sequence_nextval('seq_default'), 0, 1) AS block_5,
       octets(uuid_sequence_nextval('seq_default'::regclass, 65536, 65536), 0, 1) AS still_block_5;
-- i = 65536 * 65536 + 2 * 65536 - 1 is the last value of block 65537, which wraps to block 1
SELECT setval('seq_default', 65536::bigint * 65536 + 65536 * 2, false) IS NOT NULL AS moved;
SELECT octets(uuid_sequence_nextval('seq_default'), 0, 1) AS block_1, octets(uuid_sequence_nextval('seq_default'), 0, 1) AS block_2;

-- the widest prefix an int4 block_count allows is 31 bits, rounded up to 32; it ends far before the version nibble
-- (bits 48-51); block_size 1 * 2147483647 / 2^32 rescales to 1
CREATE SEQUENCE seq_wide START 4294967295;
SELECT octets(u, 0, 3)::bigint AS prefix_32_bits, version(u) AS version, variant(u) AS variant
FROM (SELECT uuid_sequence_nextval('seq_wide', 1, 2147483647) AS u FROM generate_series(1, 3)) s;

-- block_count 1: still one byte, as in 1.0.3, and block_size 1000 rescales to 1000 / 256 = 3
SELECT setval('seq_small', 1, false) IS NOT NULL AS restarted;
SELECT string_agg(get_byte(uuid_send(u), 0)::text, ' ' ORDER BY i) AS prefixes, bool_and(version(u) = 8) AS version_8
FROM (SELECT uuid_sequence_nextval('seq_small', 1000, 1) AS u, currval('seq_small') - 1 AS i
      FROM generate_series(1, 10)) s;

-- negative values and a sequence at the int8 minimum: i = nextval - 1 rounds down, the block is never negative
-- (block_size 1024, block_count 3: one byte, blocks of 3072 / 256 = 12)
CREATE SEQUENCE seq_negative MINVALUE -9223372036854775808 START -9223372036854775808;
SELECT v, get_byte(uuid_send(u), 0) AS prefix,
       -- floor((v - 1) / 12) mod 256, exactly (numeric division would round 19-digit quotients)
       mod(mod(div(v::numeric - 1 - mod(mod(v::numeric - 1, 12) + 12, 12), 12), 256) + 256, 256) AS expected
FROM (SELECT uuid_sequence_nextval('seq_negative', 1024, 3) AS u, currval('seq_negative') AS v
      FROM generate_series(1, 3)) s;
SELECT setval('seq_negative', -26) IS NOT NULL AS moved;
SELECT v, get_byte(uuid_send(u), 0) AS prefix,
       mod(mod(div(v::numeric - 1 - mod(mod(v::numeric - 1, 12) + 12, 12), 12), 256) + 256, 256) AS expected
FROM (SELECT uuid_sequence_nextval('seq_negative', 1024, 3) AS u, currval('seq_negative') AS v
      FROM generate_series(1, 30)) s
WHERE v IN (-25, -24, -23, -13, -12, -11, -1, 0, 1, 2, 4);

-- privileges exactly as nextval(): USAGE or UPDATE on the sequence, 42501 without
CREATE ROLE regress_sequuid_user;
CREATE SEQUENCE seq_private;
CREATE SEQUENCE seq_usage;
CREATE SEQUENCE seq_update;
CREATE SEQUENCE seq_select;
GRANT USAGE ON SEQUENCE seq_usage TO regress_sequuid_user;
GRANT UPDATE ON SEQUENCE seq_update TO regress_sequuid_user;
GRANT SELECT ON SEQUENCE seq_select TO regress_sequuid_user;
SET ROLE regress_sequuid_user;
SELECT uuid_sequence_nextval('seq_private') IS NOT NULL AS private;
\echo :LAST_ERROR_SQLSTATE
SELECT nextval('seq_private');
\echo :LAST_ERROR_SQLSTATE
SELECT uuid_sequence_nextval('seq_select') IS NOT NULL AS select_only;
\echo :LAST_ERROR_SQLSTATE
SELECT uuid_sequence_nextval('seq_usage') IS NOT NULL AS usage, uuid_sequence_nextval('seq_update') IS NOT NULL AS update;
RESET ROLE;
DROP SEQUENCE seq_private, seq_usage, seq_update, seq_select;
DROP ROLE regress_sequuid_user;

-- bad arguments: 22023 with sequential-uuids 1.0.3's messages
SELECT uuid_sequence_nextval('seq_small', 0, 3);
\echo :LAST_ERROR_SQLSTATE
SELECT uuid_sequence_nextval('seq_small', -1, 3);
\echo :LAST_ERROR_SQLSTATE
SELECT uuid_sequence_nextval('seq_small', 4, 0);
\echo :LAST_ERROR_SQLSTATE
SELECT uuid_sequence_nextval('seq_small', 4, -2147483648);
\echo :LAST_ERROR_SQLSTATE
-- a relation that is not a sequence, and one that does not exist
CREATE TABLE not_a_sequence (id int);
-- the message is core's and differs between major versions: the SQLSTATE is what matters
\set VERBOSITY sqlstate
SELECT uuid_sequence_nextval('not_a_sequence');
\set VERBOSITY default
\echo :LAST_ERROR_SQLSTATE
SELECT uuid_sequence_nextval('no_such_sequence');
\echo :LAST_ERROR_SQLSTATE

-- STRICT: NULL in, NULL out, and the sequence does not move
SELECT last_value AS before_nulls FROM seq_small;
SELECT uuid_sequence_nextval(NULL) IS NULL AS null_seq,
       uuid_sequence_nextval('seq_small', NULL) IS NULL AS null_block_size,
       uuid_sequence_nextval('seq_small', 4, NULL) IS NULL AS null_block_count;
SELECT last_value AS after_nulls FROM seq_small;
