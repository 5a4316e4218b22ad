-- uuid_to_ulid, ulid_to_uuid (shared: C and PL/pgSQL give the same output).
-- Errors show message and SQLSTATE only: CONTEXT lines differ between the implementations.
\set SHOW_CONTEXT never
SET TimeZone = 'UTC';
SET DateStyle = 'ISO, YMD';

-- the ULID spec's example, its timestamp (1469922850259 ms), both directions
SELECT ulid_to_uuid('01ARZ3NDEKTSV4RRFFQ69G5FAV') AS id,
       uuid_to_ulid('01563e3a-b5d3-d676-4c61-efb99302bd5b') AS ulid,
       ulid_timestamp(ulid_to_uuid('01ARZ3NDEKTSV4RRFFQ69G5FAV')) AS instant,
       (extract(epoch FROM ulid_timestamp(ulid_to_uuid('01ARZ3NDEKTSV4RRFFQ69G5FAV'))) * 1000)::bigint AS unix_ms;
SELECT uuid_to_ulid(NULL), ulid_to_uuid(NULL);

-- extremes, single bits at the digit boundaries, and the RFC 9562 vectors
SELECT id, uuid_to_ulid(id), ulid_to_uuid(uuid_to_ulid(id)) = id AS round_trip
FROM (VALUES ('00000000-0000-0000-0000-000000000000'::uuid),
             ('ffffffff-ffff-ffff-ffff-ffffffffffff'),
             ('00000000-0000-0000-0000-000000000001'),
             ('00000000-0000-0000-0000-00000000001f'),
             ('00000000-0000-0000-0000-000000000020'),
             ('00000000-0000-0000-8000-000000000000'),
             ('00000000-0000-0001-0000-000000000000'),
             ('08000000-0000-0000-0000-000000000000'),
             ('80000000-0000-0000-0000-000000000000'),
             ('c232ab00-9414-11ec-b3c8-9f6bdeced846'),
             ('017f22e2-79b0-7cc3-98c4-dc0c0c07398f')) AS ids(id);

-- decoding is case-insensitive and takes Crockford's aliases: I and L read as 1, O as 0
SELECT ulid_to_uuid('01arz3ndektsv4rrffq69g5fav') = ulid_to_uuid('01ARZ3NDEKTSV4RRFFQ69G5FAV') AS lower_case,
       ulid_to_uuid('7zzzzzzzzzzzzzzzzzzzzzzzzz') AS largest,
       ulid_to_uuid('OOOOOOOOOOOOOOOOOOOOOOOOOI') AS aliases_o_i,
       ulid_to_uuid('0000000000000000000000000l') AS alias_l,
       uuid_to_ulid(ulid_to_uuid('0IL0ILoilOILOILOILOILOILOI')) AS normalised;

-- 20k fully random UUIDs (all 128 bits; the port 4k, every digit still taking each of its values a hundred times
-- or more): uuid -> ulid -> uuid gives the same bytes, ULID order is uuid order
SELECT regress_helpers.sized(20000, 4000) AS ids \gset
CREATE TEMP TABLE random_ids AS
SELECT md5(random()::text || i)::uuid AS id FROM generate_series(1, :ids) AS i;
SELECT count(*) = :ids AS all_converted,
       count(*) FILTER (WHERE ulid_to_uuid(ulid) <> id) AS round_trip_differs,
       count(*) FILTER (WHERE ulid_to_uuid(lower(ulid)) <> id) AS lower_case_differs,
       count(*) FILTER (WHERE ulid !~ '^[0-7][0-9A-HJKMNP-TV-Z]{25}$') AS not_canonical
FROM (SELECT id, uuid_to_ulid(id) AS ulid FROM random_ids) AS converted;
SELECT bool_and(previous_ulid COLLATE "C" < ulid COLLATE "C") AS ulid_text_order_is_uuid_order
FROM (SELECT uuid_to_ulid(id) AS ulid, lag(uuid_to_ulid(id)) OVER (ORDER BY id) AS previous_ulid
      FROM random_ids) AS ordered;

-- bad input: 22P02 naming the input, with the reason in the detail
SELECT ulid_to_uuid('');
\echo :SQLSTATE
SELECT ulid_to_uuid('01ARZ3NDEKTSV4RRFFQ69G5FA');
\echo :SQLSTATE
SELECT ulid_to_uuid('01ARZ3NDEKTSV4RRFFQ69G5FAVV');
\echo :SQLSTATE
SELECT ulid_to_uuid('01ARZ3NDEKTSV4RRFFQ69G5FAU');
\echo :SQLSTATE
SELECT ulid_to_uuid('01ARZ3NDEKTSV4RRFFQ69G5FA-');
\echo :SQLSTATE
SELECT ulid_to_uuid('01ARZ3NDEKTSV4RRFFQ69G5FA ');
\echo :SQLSTATE
SELECT ulid_to_uuid('80000000000000000000000000');
\echo :SQLSTATE
SELECT ulid_to_uuid('ZZZZZZZZZZZZZZZZZZZZZZZZZZ');
\echo :SQLSTATE
