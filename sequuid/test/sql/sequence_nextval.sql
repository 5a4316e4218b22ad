-- sequence_nextval: uuid_sequence_nextval(seq, block_size, block_count): prefix layout, privileges, bad input.
\set SHOW_CONTEXT never
SET search_path = public, regress_helpers;

-- 30 calls through a fresh sequence with block_size 4 and block_count 3: i = nextval - 1, the block
-- (i / 4) mod 3 sits in the leading ceil(log2(3)) = 2 bits; version 8 (custom layout), variant 10
CREATE SEQUENCE seq_small;
SELECT i, get_byte(uuid_send(u), 0) >> 6 AS prefix, (i / 4) % 3 AS expected, version(u) AS version,
       variant(u) AS variant
FROM (SELECT uuid_sequence_nextval('seq_small', 4, 3) AS u, currval('seq_small') - 1 AS i
      FROM generate_series(1, 30)) s;

-- the defaults are block_size 65536 and block_count 65536: a 16-bit prefix
CREATE SEQUENCE seq_default START 327681;
SELECT octets(uuid_sequence_nextval('seq_default'), 0, 1) AS block_5,
       octets(uuid_sequence_nextval('seq_default'::regclass, 65536, 65536), 0, 1) AS still_block_5;
-- i = 65536 * 65536 + 2 * 65536 - 1 is the last value of block 65537, which wraps to block 1
SELECT setval('seq_default', 65536::bigint * 65536 + 65536 * 2, false) IS NOT NULL AS moved;
SELECT octets(uuid_sequence_nextval('seq_default'), 0, 1) AS block_1, octets(uuid_sequence_nextval('seq_default'), 0, 1) AS block_2;

-- the widest prefix an int4 block_count allows is 31 bits; it ends far before the version nibble (bits 48-51)
CREATE SEQUENCE seq_wide START 2147483647;
SELECT octets(u, 0, 3)::bigint >> 1 AS prefix_31_bits, version(u) AS version, variant(u) AS variant
FROM (SELECT uuid_sequence_nextval('seq_wide', 1, 2147483647) AS u FROM generate_series(1, 3)) s;

-- block_count 1: no prefix, 122 random bits
SELECT count(DISTINCT get_byte(uuid_send(u), 0)) > 100 AS leading_octet_random, bool_and(version(u) = 8) AS version_8
FROM (SELECT uuid_sequence_nextval('seq_small', 1, 1) AS u FROM generate_series(1, 2000)) s;

-- negative values and a sequence at the int8 minimum: i = nextval - 1 rounds down, the block is never negative
CREATE SEQUENCE seq_negative MINVALUE -9223372036854775808 START -9223372036854775808;
SELECT v, get_byte(uuid_send(u), 0) >> 6 AS prefix,
       -- floor((v - 1) / 4) mod 3, exactly (numeric division would round 19-digit quotients)
       mod(mod(div(v::numeric - 1 - mod(mod(v::numeric - 1, 4) + 4, 4), 4), 3) + 3, 3) AS expected
FROM (SELECT uuid_sequence_nextval('seq_negative', 4, 3) AS u, currval('seq_negative') AS v
      FROM generate_series(1, 6)) s;
SELECT setval('seq_negative', -11) IS NOT NULL AS moved;
SELECT v, get_byte(uuid_send(u), 0) >> 6 AS prefix,
       -- floor((v - 1) / 4) mod 3, exactly (numeric division would round 19-digit quotients)
       mod(mod(div(v::numeric - 1 - mod(mod(v::numeric - 1, 4) + 4, 4), 4), 3) + 3, 3) AS expected
FROM (SELECT uuid_sequence_nextval('seq_negative', 4, 3) AS u, currval('seq_negative') AS v
      FROM generate_series(1, 12)) s;

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

-- bad arguments: 22023 naming the argument
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
