-- uuid_time_ops: v1 UUIDs in timestamp order, a total order consistent with uuid equality (shared: C and PL/pgSQL).
\set SHOW_CONTEXT never
SET TimeZone = 'UTC';
SET DateStyle = 'ISO, YMD';
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS amcheck;
RESET client_min_messages;

-- a v1 UUID spelled out from its 60-bit Gregorian 100-ns count: time_low, time_mid, version 1 + time_high
CREATE FUNCTION pg_temp.v1_at(ticks bigint, clock_seq_and_node text) RETURNS uuid
LANGUAGE sql IMMUTABLE STRICT
AS $$
    SELECT (substr(h, 8, 8) || '-' || substr(h, 4, 4) || '-1' || substr(h, 1, 3) || '-' || clock_seq_and_node)::uuid
    FROM (SELECT lpad(to_hex(ticks), 15, '0') AS h) AS hex
$$;

-- the byte order and the time order disagree: b is 1 tick later, but its time_low is smaller
SELECT pg_temp.v1_at(x'1ec9414c232ab00'::bigint, '8000-000000000000') AS a,
       pg_temp.v1_at(x'1ec9414c232ab00'::bigint + 1, '8000-000000000000') AS b \gset
SELECT :'a'::uuid < :'b'::uuid AS a_lt_b_bytes,
       :'a'::uuid ~<~ :'b' AS "a ~<~ b", :'a'::uuid ~<=~ :'b' AS "a ~<=~ b",
       :'a'::uuid ~>=~ :'b' AS "a ~>=~ b", :'a'::uuid ~>~ :'b' AS "a ~>~ b",
       uuid_time_cmp(:'a', :'b') AS "cmp(a, b)", uuid_time_cmp(:'b', :'a') AS "cmp(b, a)",
       uuid_time_cmp(:'a', :'a') AS "cmp(a, a)";
SELECT uuid_time_cmp(NULL, :'a'), :'a'::uuid ~<~ NULL AS lt_null;

-- uuid_time_cmp returns exactly -1, 0 or 1, also where the deciding octets are far apart (0x00 against 0xff):
-- two v1 values of one time with other nodes, and two values of other versions
SELECT uuid_time_cmp('c232ab00-9414-11ec-b3c8-000000000000', 'c232ab00-9414-11ec-b3c8-ff0000000000') AS same_time_nodes,
       uuid_time_cmp('c232ab00-9414-11ec-b3c8-ff0000000000', 'c232ab00-9414-11ec-b3c8-000000000000') AS same_time_nodes_swapped,
       uuid_time_cmp('00000000-0000-4000-8000-000000000000', 'ff000000-0000-4000-8000-000000000000') AS v4_first_octet,
       uuid_time_cmp('ff000000-0000-4000-8000-000000000000', '00000000-0000-4000-8000-000000000000') AS v4_first_octet_swapped,
       uuid_time_cmp('00000000-0000-4000-8000-000000000000', '00000000-0000-4000-8000-000000000000') AS equal;

-- a fixed set: v1 by time (RFC vector, min, max, same time with other clock_seq/node), then the rest by bytes,
-- including a version-1 nibble under a non-RFC variant, which is not a v1 UUID
CREATE TEMP TABLE fixed (label text, id uuid);
INSERT INTO fixed VALUES
    ('v1 rfc vector', 'c232ab00-9414-11ec-b3c8-9f6bdeced846'),
    ('v1 same time, smaller node', 'c232ab00-9414-11ec-b3c8-000000000000'),
    ('v1 same time, larger clock_seq', 'c232ab00-9414-11ec-b3c9-000000000000'),
    ('v1 one tick later', 'c232ab01-9414-11ec-8000-000000000000'),
    ('v1 minimum', '00000000-0000-1000-8000-000000000000'),
    ('v1 maximum', 'ffffffff-ffff-1fff-bfff-ffffffffffff'),
    ('v1 time_low max, time_high 0', 'ffffffff-0000-1000-8000-000000000000'),
    ('v1 nibble, NCS variant', '00000000-0000-1000-0000-000000000000'),
    ('v1 nibble, Microsoft variant', 'c232ab00-9414-11ec-c3c8-9f6bdeced846'),
    ('v6 rfc vector', '1ec9414c-232a-6b00-b3c8-9f6bdeced846'),
    ('v7 rfc vector', '017f22e2-79b0-7cc3-98c4-dc0c0c07398f'),
    ('v4 rfc vector', '919108f7-52d1-4320-9bac-f847db4148a8'),
    ('all zero', '00000000-0000-0000-0000-000000000000'),
    ('all ones', 'ffffffff-ffff-ffff-ffff-ffffffffffff');
SELECT label, id, uuid_timestamp(id) FROM fixed ORDER BY id USING ~<~;
SELECT label FROM fixed ORDER BY id USING ~>~ LIMIT 3;

-- mixed data: 300 v1 at random times with random clock_seq/node, 800 v1 hourly from 2022-01-01 (all of January and
-- a day past it, for the range below), 200 random v4, 200 v7, the fixed set, and 200 v1 sharing one timestamp
-- (different nodes).  Each comparison of the port is a PL/pgSQL call: enough rows for an index of several leaves
-- under a root, no more
CREATE FUNCTION pg_temp.ticks_at(instant timestamptz) RETURNS bigint
LANGUAGE sql IMMUTABLE STRICT
AS $$ SELECT (extract(epoch FROM instant) * 10000000)::bigint + 122192928000000000 $$;
CREATE TABLE time_ordered (id uuid NOT NULL);
INSERT INTO time_ordered
SELECT pg_temp.v1_at((random() * x'0fffffffffffffff'::bigint)::bigint,
                     '8' || substr(md5(i::text), 1, 3) || '-' || substr(md5(i::text), 5, 12))
FROM generate_series(1, 300) AS i;
INSERT INTO time_ordered
SELECT pg_temp.v1_at(pg_temp.ticks_at(timestamptz '2022-01-01 00:00:00+00' + i * interval '1 hour'),
                     'a' || substr(md5(i::text), 1, 3) || '-' || substr(md5(i::text), 5, 12))
FROM generate_series(1, 800) AS i;
INSERT INTO time_ordered SELECT gen_random_uuid() FROM generate_series(1, 200);
INSERT INTO time_ordered
SELECT (lpad(to_hex(i * 1000003), 12, '0') || '7abc8def' || lpad(to_hex(i), 12, '0'))::uuid
FROM generate_series(1, 200) AS i;
INSERT INTO time_ordered SELECT id FROM fixed;
INSERT INTO time_ordered
SELECT pg_temp.v1_at(x'1ec9414c232ab00'::bigint, '9000-' || lpad(to_hex(i), 12, '0')) FROM generate_series(1, 200) AS i;
SELECT count(*) AS rows, count(DISTINCT id) AS distinct_ids, count(*) FILTER (WHERE uuid_version(id) = 1) AS v1
FROM time_ordered;

CREATE UNIQUE INDEX time_ordered_id ON time_ordered (id uuid_time_ops);
-- the metapage, a root and two leaves at least: the parent check has downlinks and high keys to compare
SELECT pg_relation_size('time_ordered_id') >= 4 * current_setting('block_size')::bigint AS more_than_one_leaf;
-- bt_index_parent_check checks all bt_index_check does, and the parent-child invariants besides
SELECT bt_index_parent_check('time_ordered_id', true);

-- the order is: v1 first, by their v6 form (timestamp, then clock_seq and node); then everything else by bytes
CREATE FUNCTION pg_temp.reference_key(id uuid) RETURNS bytea
LANGUAGE sql IMMUTABLE STRICT
AS $$
    SELECT CASE WHEN uuid_version(id) = 1 THEN '\x00'::bytea || uuid_send(uuid_v1_to_v6(id))
                ELSE '\x01'::bytea || uuid_send(id) END
$$;
SET enable_seqscan = off;
SET enable_bitmapscan = off;
EXPLAIN (COSTS OFF) SELECT id FROM time_ordered ORDER BY id USING ~<~;
SELECT count(*) AS rows, count(*) FILTER (WHERE by_index <> by_reference) AS out_of_place
FROM (SELECT row_number() OVER () AS by_index, id FROM (SELECT id FROM time_ordered ORDER BY id USING ~<~) AS i) AS a
JOIN (SELECT row_number() OVER (ORDER BY pg_temp.reference_key(id)) AS by_reference, id FROM time_ordered) AS b
USING (id);

-- a range of time through the index: the v1 UUIDs made in January 2022 (the smallest v1 of each bound's tick)
SELECT pg_temp.v1_at(pg_temp.ticks_at('2022-01-01 00:00:00+00'), '8000-000000000000') AS from_id,
       pg_temp.v1_at(pg_temp.ticks_at('2022-02-01 00:00:00+00'), '8000-000000000000') AS to_id \gset
SELECT uuid_timestamp(:'from_id') AS from_instant, uuid_timestamp(:'to_id') AS to_instant;
EXPLAIN (COSTS OFF) SELECT count(*) FROM time_ordered WHERE id ~>=~ :'from_id' AND id ~<~ :'to_id';
SELECT count(*) AS through_index FROM time_ordered WHERE id ~>=~ :'from_id' AND id ~<~ :'to_id' \gset
RESET enable_seqscan;
RESET enable_bitmapscan;
SELECT :through_index >= 743 AS has_the_hourly_ones, count(*) = :through_index AS same_as_through_timestamp
FROM time_ordered
WHERE uuid_version(id) = 1 AND uuid_timestamp(id) >= '2022-01-01 00:00:00+00' AND uuid_timestamp(id) < '2022-02-01 00:00:00+00';

-- equality is uuid =: found through the index, and the unique index refuses the same bytes
SET enable_seqscan = off;
SELECT count(*) FROM time_ordered WHERE id = 'c232ab00-9414-11ec-b3c8-9f6bdeced846';
RESET enable_seqscan;
INSERT INTO time_ordered VALUES ('c232ab00-9414-11ec-b3c8-9f6bdeced846');
\echo :SQLSTATE

-- REINDEX rebuilds the same order (and the C version sorts through sortsupport there)
REINDEX INDEX time_ordered_id;
SELECT bt_index_parent_check('time_ordered_id', true);
-- inserts into the built index (each descends it by comparisons) after deletes
DELETE FROM time_ordered WHERE uuid_version(id) IS DISTINCT FROM 1;
INSERT INTO time_ordered SELECT gen_random_uuid() FROM generate_series(1, 200);
SELECT bt_index_check('time_ordered_id', true);
DROP TABLE time_ordered;
