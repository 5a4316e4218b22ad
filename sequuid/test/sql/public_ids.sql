-- public_ids: uuid_v7_to_public(id, key) and uuid_public_to_v7(id, key), the keyed reversible mapping between a v7
-- and its v4-looking façade that permutes time and rand_a, and uuid_v7_to_uuidv47 / uuid_uuidv47_to_v7, UUIDv47's
-- (shared: C and PL/pgSQL give the same output).  Errors show message and SQLSTATE only: CONTEXT lines differ
-- between the implementations.
\set SHOW_CONTEXT never
-- UUIDv47's test key, k0 = 0x0123456789abcdef and k1 = 0xfedcba9876543210, as 16 bytes (each little-endian)
\set uuidv47_key 'decode(''efcdab89674523011032547698badcfe'', ''hex'')'
-- the key tests.c decodes with to show a wrong key gives another value: k0 ^ 0xdeadbeef, k1 ^ 0x1337
\set wrong_key 'decode(''00730657674523012721547698badcfe'', ''hex'')'
-- SipHash's reference key 00 01 .. 0f
\set siphash_key 'decode(''000102030405060708090a0b0c0d0e0f'', ''hex'')'

-- UUIDv47's README and demo.c examples: its façade keeps every random bit, writes version 4, and decodes back
SELECT v7, uuid_v7_to_uuidv47(v7, :uuidv47_key) AS uuidv47_id,
       uuid_uuidv47_to_v7(uuid_v7_to_uuidv47(v7, :uuidv47_key), :uuidv47_key) = v7 AS round_trip
FROM (VALUES ('00000000-0000-7000-8000-000000000000'::uuid),
             ('018f2d9f-9a2a-7def-8c3f-7b1a2c4d5e6f')) v (v7);

-- SipHash-2-4's published tag for the 10 bytes 00..09 under the key 00..0f is 0x7a5dbbc594ddb9f3 (its
-- reference's vector for length 10): a v7 at time 0 whose random bits are those 10 bytes has that tag's low 48 bits
-- as its façade's time
SELECT uuid_v7_to_uuidv47('00000000-0000-7001-8203-040506070809', :siphash_key) AS uuidv47_id,
       uuid_v7_to_uuidv47('00000000-0000-7001-8203-040506070809', :siphash_key)
           = 'bbc594dd-b9f3-4001-8203-040506070809' AS matches_published_tag;

-- uuid_v7_to_public: the same v7s; rand_b (the last 62 bits) stays, the time and rand_a change, version 4
SELECT v7, uuid_v7_to_public(v7, :uuidv47_key) AS public_id,
       uuid_public_to_v7(uuid_v7_to_public(v7, :uuidv47_key), :uuidv47_key) = v7 AS round_trip
FROM (VALUES ('00000000-0000-7000-8000-000000000000'::uuid),
             ('018f2d9f-9a2a-7def-8c3f-7b1a2c4d5e6f')) v (v7);

-- why rand_a is masked too: the v7s of PostgreSQL 18 and sequuid carry a rising fraction of the millisecond there.
-- 64 v7s of one millisecond whose fraction rises (random bits from md5): UUIDv47's façades keep the fraction, so
-- their third group rises with every step; the public ids' third group rises about half the time, as a v4's would
SELECT count(*) FILTER (WHERE substr(uuidv47_id::text, 15, 4) > lag_uuidv47) AS uuidv47_third_group_rises,
       count(*) FILTER (WHERE substr(public_id::text, 15, 4) > lag_public) BETWEEN 16 AND 47 AS public_id_rises_by_chance,
       count(*) FILTER (WHERE lag_public IS NOT NULL) AS pairs
FROM (SELECT uuidv47_id, public_id,
             lag(substr(uuidv47_id::text, 15, 4)) OVER (ORDER BY n) AS lag_uuidv47,
             lag(substr(public_id::text, 15, 4)) OVER (ORDER BY n) AS lag_public
      FROM (SELECT n, uuid_v7_to_uuidv47(v7, :uuidv47_key) AS uuidv47_id, uuid_v7_to_public(v7, :uuidv47_key) AS public_id
            FROM (SELECT n, ('0193a1b2-c3d4-7' || lpad(to_hex(n * 61), 3, '0') || '-8' || substr(md5(n::text), 1, 3)
                             || '-' || substr(md5(n::text), 4, 12))::uuid AS v7
                  FROM generate_series(1, 65) n) v) f) l;

-- a façade changed in one bit decodes to an unrelated time, not to the hidden time changed in that bit (a keyed
-- permutation, where UUIDv47's XOR passes the change through): probing chosen façades learns nothing of the time
SELECT uuid_public_to_v7(public_id, :uuidv47_key) AS decoded,
       uuid_public_to_v7(('0' || substr(public_id::text, 2))::uuid, :uuidv47_key) AS decoded_first_bits_changed,
       uuid_uuidv47_to_v7(('0' || substr(uuidv47_id::text, 2))::uuid, :uuidv47_key) AS uuidv47_first_bits_changed
FROM (SELECT uuid_v7_to_public('018f2d9f-9a2a-7def-8c3f-7b1a2c4d5e6f', :uuidv47_key) AS public_id,
             uuid_v7_to_uuidv47('018f2d9f-9a2a-7def-8c3f-7b1a2c4d5e6f', :uuidv47_key) AS uuidv47_id) f;

-- a wrong key decodes to another v7 with the same random bits and a time that is noise: the documented result
-- (docs/public-ids.md, "What decoding detects"); it matches no stored row
SELECT uuid_public_to_v7(uuid_v7_to_public('018f2d9f-9a2a-7def-8c3f-7b1a2c4d5e6f', :uuidv47_key), :wrong_key)
           AS decoded_with_wrong_key;

-- façades of consecutive ids do not rise more often than chance in any field: 1000 consecutive v7s of a generator
-- (in creation order, which is their order), the public id of each, and in each of its eight 16-bit groups the
-- number of pairs in which the later one is larger.  For random values that count has mean 499.5 and a standard
-- deviation under 16 (binomial(999, 1/2)'s; the rises of independent values vary less): every group must lie
-- within five of those of 499.5, which a random v4 misses about once in 3.5 million groups and a rising field never
-- meets.  The raw v7s fail it (the top of their time stands still), which shows the count can fail.  The generators:
-- uuid_generate_v7(), and uuidv7() where the server has it (PostgreSQL 18's core), else uuid_generate_v7() again.
CREATE FUNCTION pg_temp.rises_per_group(generator text, key bytea, encode boolean)
    RETURNS TABLE (g integer, rises bigint, pairs bigint)
    LANGUAGE plpgsql AS $$
BEGIN
    RETURN QUERY EXECUTE format($query$
        WITH made AS (SELECT %s AS v7 FROM generate_series(1, 1000)),
             shown AS MATERIALIZED (SELECT v7, uuid_send(CASE WHEN $2 THEN uuid_v7_to_public(v7, $1) ELSE v7 END) AS bytes FROM made),
             groups AS (SELECT v7, g, get_byte(bytes, 2 * g) * 256 + get_byte(bytes, 2 * g + 1) AS value
                        FROM shown, generate_series(0, 7) g),
             steps AS (SELECT groups.g, value > lag(value) OVER (PARTITION BY groups.g ORDER BY v7) AS rose FROM groups)
        SELECT steps.g, count(*) FILTER (WHERE rose), count(rose) FROM steps GROUP BY steps.g$query$, generator)
        USING key, encode;
END
$$;
SELECT generator, shown, min(pairs) AS pairs_per_group,
       count(*) FILTER (WHERE abs(rises - pairs / 2.0) <= 5 * sqrt(pairs) / 2) = 8 AS every_group_within_chance
FROM (VALUES ('uuid_generate_v7()', 'uuid_generate_v7()'),
             ('uuidv7() (PostgreSQL 18), or uuid_generate_v7()',
              CASE WHEN to_regprocedure('pg_catalog.uuidv7()') IS NULL THEN 'uuid_generate_v7()' ELSE 'pg_catalog.uuidv7()' END))
         gen (generator, expression),
     (VALUES ('public id', true), ('raw v7', false)) s (shown, encode),
     LATERAL pg_temp.rises_per_group(gen.expression, :uuidv47_key, s.encode) r
GROUP BY generator, shown
ORDER BY generator, shown;

-- every v7 round-trips, whatever its time and random bits, under both mappings; the façade is version 4, variant
-- 10, and keeps rand_b (the last 62 bits)
SELECT count(*) AS v7s,
       count(*) FILTER (WHERE uuid_public_to_v7(public_id, :uuidv47_key) = v7) AS round_trips,
       count(*) FILTER (WHERE substr(public_id::text, 15, 1) = '4' AND substr(public_id::text, 20, 1) IN ('8', '9', 'a', 'b'))
           AS version_4_variant_10,
       count(*) FILTER (WHERE substr(public_id::text, 21) = substr(v7::text, 21)
                          AND (get_byte(uuid_send(public_id), 8) & 63) = (get_byte(uuid_send(v7), 8) & 63)) AS rand_b_kept,
       count(DISTINCT public_id) AS distinct_public_ids,
       count(*) FILTER (WHERE uuid_uuidv47_to_v7(uuid_v7_to_uuidv47(v7, :uuidv47_key), :uuidv47_key) = v7) AS uuidv47_round_trips
FROM (SELECT v7, uuid_v7_to_public(v7, :uuidv47_key) AS public_id
      FROM (SELECT (lpad(to_hex(i * 7919), 12, '0') || '7' || lpad(to_hex(i % 4096), 3, '0')
                    || to_hex(8 + i % 4) || lpad(to_hex(i * 104729 % 4096), 3, '0') || lpad(to_hex(i * 1299709), 12, '0'))::uuid
            FROM generate_series(1::bigint, 400) i) v (v7)) f;
-- ... including the ends of the v7 range
SELECT v7, uuid_v7_to_public(v7, :uuidv47_key) AS public_id,
       uuid_public_to_v7(uuid_v7_to_public(v7, :uuidv47_key), :uuidv47_key) = v7 AS round_trip,
       uuid_uuidv47_to_v7(uuid_v7_to_uuidv47(v7, :uuidv47_key), :uuidv47_key) = v7 AS uuidv47_round_trip
FROM (VALUES ('ffffffff-ffff-7fff-bfff-ffffffffffff'::uuid),
             ('00000000-0000-7000-8000-000000000000')) v (v7);

-- NULL in, NULL out (STRICT)
SELECT uuid_v7_to_public(NULL, :uuidv47_key), uuid_v7_to_public('018f2d9f-9a2a-7def-8c3f-7b1a2c4d5e6f', NULL),
       uuid_public_to_v7(NULL, :uuidv47_key), uuid_public_to_v7('2463c780-7fca-4def-8c3f-7b1a2c4d5e6f', NULL),
       uuid_v7_to_uuidv47(NULL, :uuidv47_key), uuid_uuidv47_to_v7('2463c780-7fca-4def-8c3f-7b1a2c4d5e6f', NULL);

-- errors: a key of another length, a uuid of the wrong version or variant for the direction
SELECT uuid_v7_to_public('018f2d9f-9a2a-7def-8c3f-7b1a2c4d5e6f', '\x00112233445566778899aabbccddee'::bytea);
SELECT uuid_public_to_v7('2463c780-7fca-4def-8c3f-7b1a2c4d5e6f', '\x00112233445566778899aabbccddeeff00'::bytea);
SELECT uuid_v7_to_public('018f2d9f-9a2a-7def-8c3f-7b1a2c4d5e6f', ''::bytea);
-- a façade encoded again, a v7 decoded as if it were a façade, other versions
SELECT uuid_v7_to_public('2463c780-7fca-4def-8c3f-7b1a2c4d5e6f', :uuidv47_key);
SELECT uuid_public_to_v7('018f2d9f-9a2a-7def-8c3f-7b1a2c4d5e6f', :uuidv47_key);
SELECT uuid_v7_to_public('1ec9414c-232a-6b00-b3c8-9f6bdeced846', :uuidv47_key);
-- variant other than 10
SELECT uuid_v7_to_public('018f2d9f-9a2a-7def-cc3f-7b1a2c4d5e6f', :uuidv47_key);
SELECT uuid_public_to_v7('2463c780-7fca-4def-4c3f-7b1a2c4d5e6f', :uuidv47_key);
SELECT uuid_v7_to_public('018f2d9f-9a2a-7def-8c3f-7b1a2c4d5e6f', '\x0011'::bytea);
\echo :LAST_ERROR_SQLSTATE
SELECT uuid_public_to_v7('018f2d9f-9a2a-7def-8c3f-7b1a2c4d5e6f', :uuidv47_key);
\echo :LAST_ERROR_SQLSTATE
-- UUIDv47's functions name themselves and each other
SELECT uuid_v7_to_uuidv47('2463c780-7fca-4def-8c3f-7b1a2c4d5e6f', :uuidv47_key);
SELECT uuid_uuidv47_to_v7('018f2d9f-9a2a-7def-8c3f-7b1a2c4d5e6f', :uuidv47_key);
SELECT uuid_uuidv47_to_v7('2463c780-7fca-4def-8c3f-7b1a2c4d5e6f', '\x0011'::bytea);

-- docs/public-ids.md's examples --------------------------------------------------------------------------------------
-- a table keyed by v7, its key kept where only the application's role reads it, a view that shows façades
CREATE TABLE public_ids_orders (id uuid PRIMARY KEY, placed_by text NOT NULL);
INSERT INTO public_ids_orders
SELECT ('018f2d9f-' || lpad(to_hex(i), 4, '0') || '-7def-8c3f-' || lpad(to_hex(i * 7919), 12, '0'))::uuid, 'customer ' || i
FROM generate_series(1, 5000) i;
ANALYZE public_ids_orders;
CREATE TABLE public_ids_keys (key_id smallint PRIMARY KEY, key bytea NOT NULL CHECK (length(key) = 16));
INSERT INTO public_ids_keys VALUES (1, :uuidv47_key);
CREATE VIEW public_ids_orders_public AS
SELECT uuid_v7_to_public(o.id, k.key) AS public_id, o.placed_by
FROM public_ids_orders o, public_ids_keys k WHERE k.key_id = 1;
SELECT public_id, placed_by FROM public_ids_orders_public ORDER BY placed_by LIMIT 3;

-- a lookup by façade: the decoded v7 is an index condition on the primary key
SELECT uuid_v7_to_public(id, :uuidv47_key) AS public_id FROM public_ids_orders WHERE placed_by = 'customer 1' \gset
PREPARE public_ids_lookup (uuid, bytea) AS
SELECT placed_by FROM public_ids_orders WHERE id = uuid_public_to_v7($1, $2);
EXPLAIN (COSTS OFF) EXECUTE public_ids_lookup (:'public_id', :uuidv47_key);
-- a generic plan, as a driver's prepared statement reuses: still the index, the call its condition
SET plan_cache_mode = force_generic_plan;
EXPLAIN (COSTS OFF) EXECUTE public_ids_lookup (:'public_id', :uuidv47_key);
RESET plan_cache_mode;
EXECUTE public_ids_lookup (:'public_id', :uuidv47_key);
-- also with the key read from the table in the same statement: the key's row first, then the primary key
EXPLAIN (COSTS OFF)
SELECT o.placed_by FROM public_ids_keys k JOIN public_ids_orders o ON o.id = uuid_public_to_v7(:'public_id', k.key)
WHERE k.key_id = 1;
-- a random v4 that is nobody's façade decodes to a v7 that matches no row
SELECT count(*) AS rows_found FROM public_ids_orders
WHERE id = uuid_public_to_v7('0f6a2d2e-93b1-4c55-9a1e-5b2f0c7d8e91', :uuidv47_key);

-- the URL-safe text of a façade: 26 base32hex digits, and back
SELECT url_text, uuid_public_to_v7(uuid_from_base32hex(url_text), :uuidv47_key) AS v7
FROM (SELECT uuid_to_base32hex(uuid_v7_to_public('018f2d9f-9a2a-7def-8c3f-7b1a2c4d5e6f', :uuidv47_key)) AS url_text) u;

-- key rotation: the key id beside the façade (here a prefix of the URL text) says which key decodes it; both keys
-- decode their own façades of the same row
INSERT INTO public_ids_keys VALUES (2, decode('5f1d2c3b4a69788796a5b4c3d2e1f00f', 'hex'));
CREATE TEMP TABLE public_ids_urls AS
SELECT key_id, key_id || '-' || uuid_to_base32hex(uuid_v7_to_public(o.id, k.key)) AS url_text
FROM public_ids_orders o, public_ids_keys k WHERE o.placed_by = 'customer 1';
SELECT key_id, url_text FROM public_ids_urls ORDER BY key_id;
SELECT u.url_text, o.placed_by
FROM public_ids_urls u, public_ids_keys k, public_ids_orders o
WHERE k.key_id = split_part(u.url_text, '-', 1)::smallint
  AND o.id = uuid_public_to_v7(uuid_from_base32hex(split_part(u.url_text, '-', 2)), k.key)
ORDER BY u.key_id;
-- what rotation breaks: a URL made under key 1 read with key 2 finds nothing
SELECT count(*) AS rows_found
FROM public_ids_urls u, public_ids_orders o
WHERE u.key_id = 1
  AND o.id = uuid_public_to_v7(uuid_from_base32hex(split_part(u.url_text, '-', 2)),
                               (SELECT key FROM public_ids_keys WHERE key_id = 2));

-- the key in a table only a SECURITY DEFINER function's owner reads: a role that may map ids never reads the key
REVOKE ALL ON public_ids_keys FROM PUBLIC;
CREATE FUNCTION public_ids_order_public_id(id uuid) RETURNS uuid
    LANGUAGE sql STABLE STRICT SECURITY DEFINER SET search_path = pg_catalog, pg_temp
AS $$ SELECT public.uuid_v7_to_public(id, key) FROM public.public_ids_keys WHERE key_id = 1 $$;
CREATE ROLE regress_public_ids_api;
GRANT SELECT ON public_ids_orders TO regress_public_ids_api;
SET ROLE regress_public_ids_api;
SELECT public_ids_order_public_id(id) AS public_id FROM public_ids_orders WHERE placed_by = 'customer 1';
SELECT key FROM public_ids_keys;
RESET ROLE;
DROP FUNCTION public_ids_order_public_id(uuid);
REVOKE SELECT ON public_ids_orders FROM regress_public_ids_api;
DROP ROLE regress_public_ids_api;

DROP VIEW public_ids_orders_public;
DROP TABLE public_ids_orders, public_ids_keys, public_ids_urls;
