-- uuid_to_base32hex, uuid_from_base32hex (shared: C and PL/pgSQL give the same output).  The text is PostgreSQL
-- 19's rtrim(encode(id::bytea, 'base32hex'), '='); decoding takes that canonical text alone (one spelling per uuid).
-- Errors show message and SQLSTATE only: CONTEXT lines differ between the implementations.
\set SHOW_CONTEXT never
-- the SQLSTATE and message a decoding raises, or none
CREATE FUNCTION pg_temp.base32hex_error(input text, OUT error_code text, OUT message text)
    LANGUAGE plpgsql AS $$
BEGIN
    PERFORM uuid_from_base32hex(input);
EXCEPTION WHEN OTHERS THEN
    GET STACKED DIAGNOSTICS error_code = RETURNED_SQLSTATE, message = MESSAGE_TEXT;
END
$$;

-- the example of PostgreSQL 19's documentation, both directions
SELECT uuid_to_base32hex('019535d9-3df7-79fb-b466-fa907fa17f9e') AS text,
       uuid_from_base32hex('06AJBM9TUTSVND36VA87V8BVJO') AS id;
SELECT uuid_to_base32hex(NULL), uuid_from_base32hex(NULL);

-- extremes and single bits at the digit boundaries: 26 digits, the last carrying 3 bits and two zero bits
SELECT id, uuid_to_base32hex(id) AS text, length(uuid_to_base32hex(id)) AS length,
       uuid_from_base32hex(uuid_to_base32hex(id)) = id AS round_trip
FROM (VALUES ('00000000-0000-0000-0000-000000000000'::uuid),
             ('ffffffff-ffff-ffff-ffff-ffffffffffff'),
             ('80000000-0000-0000-0000-000000000000'),
             ('04000000-0000-0000-0000-000000000000'),
             ('00000000-0000-0000-0000-000000000001'),
             ('00000000-0000-0000-0000-000000000004'),
             ('00000000-0000-0000-0000-000000000008'),
             ('00000000-0000-000f-f000-000000000000'),
             ('017f22e2-79b0-7cc3-98c4-dc0c0c07398f'),
             ('1ec9414c-232a-6b00-b3c8-9f6bdeced846')) v (id);

-- decoding takes the canonical text alone: every spelling PostgreSQL 19's decode(text, 'base32hex') also reads (lower
-- or mixed case, padding, whitespace, non-zero bits past the 128th) is invalid text (22P02), so one uuid has one
-- URL; a character outside the alphabet, a number of digits other than 26, likewise
SELECT input, error_code, message
FROM (VALUES ('06ajbm9tutsvnd36va87v8bvjo'),
             ('06aJbM9tUtSvNd36Va87V8bVjO'),
             ('06AJBM9TUTSVND36VA87V8BVJO======'),
             ('06AJBM9TUTSVND36VA87V8BVJO='),
             (E' 06AJBM9TUTSVND36VA87V8BVJO'),
             (E'06AJBM9TUTSVND36VA87V8BVJO\n'),
             (E'06AJBM9T\tUTSVND36VA87V8BVJO'),
             ('06AJBM9TUTSVND36VA87V8BVJR'),
             ('06AJBM9TUTSVND36VA87V8BVJP'),
             ('VVVVVVVVVVVVVVVVVVVVVVVVVV'),
             ('06AJBM9TUTSVND36VA87V8BVJW'),
             ('06AJBM9TUTSVND36VA87V8BVJ-'),
             ('06AJBM9TUTSVND36VA87V8BVJé'),
             ('06AJBM9TUTSVND36VA87V8BV==JO'),
             ('06AJBM9TUTSVND36VA87V8BVJ'),
             ('06AJBM9TUTSVND36VA87V8BVJOO'),
             (''),
             ('======')) v (input),
     LATERAL (SELECT * FROM pg_temp.base32hex_error(input)) e;
-- every last digit a uuid's text can end in decodes (0 4 8 C G K O S: three bits and two zero bits)
SELECT d AS last_digit, uuid_from_base32hex('0000000000000000000000000' || d) AS id
FROM unnest(ARRAY['0', '4', '8', 'C', 'G', 'K', 'O', 'S']) d ORDER BY d;
-- one error in full, with its hint
SELECT uuid_from_base32hex('06ajbm9tutsvnd36va87v8bvjo');
\echo :LAST_ERROR_SQLSTATE

-- characters that a linguistic collation upper-cases into digits ('ı' and 'ſ' to I and S, 'ß' to SS) are refused
-- under every deterministic collation of the server (ICU's and the C library's where the build has them), as under
-- "C"; a collation that let one through is named
DO $$
DECLARE
    collation_name text;
    odd_character text;
    accepted text[] := '{}';
BEGIN
    FOR collation_name IN
        SELECT collname FROM pg_collation
        WHERE collnamespace = 'pg_catalog'::regnamespace AND collisdeterministic
          AND collencoding IN (-1, (SELECT encoding FROM pg_database WHERE datname = current_database()))
          AND (collprovider <> 'i' OR collname IN ('und-x-icu', 'tr-TR-x-icu', 'de-DE-x-icu', 'en-US-x-icu'))
        ORDER BY collname
    LOOP
        FOREACH odd_character IN ARRAY ARRAY['ı', 'ſ', 'ß'] LOOP
            BEGIN
                EXECUTE format('SELECT uuid_from_base32hex(%L COLLATE %I)', '06AJBM9TUTSVND36VA87V8BVJ' || odd_character,
                               collation_name);
                accepted := accepted || format('%s under %s', odd_character, collation_name);
            EXCEPTION WHEN invalid_parameter_value OR invalid_text_representation THEN
                NULL;
            END;
        END LOOP;
    END LOOP;
    IF cardinality(accepted) > 0 THEN
        RAISE WARNING 'uuid_from_base32hex accepted %', array_to_string(accepted, ', ');
    END IF;
END
$$;

-- the text sorts byte-wise as the uuids do: 20,000 time-ordered v7 values (48-bit ms and 12-bit fraction of
-- instants 37 us apart, three at each instant, 8 pseudo-random trailing bytes; made in plain SQL so that the
-- check does not lean on the functions it checks), each next to the one before it in uuid order; every one decoded
-- back (base32hex_order, C only, checks a million); the port 4,000, still across 49 milliseconds
SELECT regress_helpers.sized(20000, 4000) AS checked \gset
SELECT count(*) = :checked AS all_checked,
       count(*) FILTER (WHERE previous >= text COLLATE "C") AS out_of_byte_order,
       count(*) FILTER (WHERE uuid_from_base32hex(text) <> id) AS not_round_trip
FROM (SELECT n, id, text, lag(text) OVER (ORDER BY id) AS previous
      FROM (SELECT n, id, uuid_to_base32hex(id) AS text
            FROM (SELECT n, (lpad(to_hex((us / 1000) << 16 | 28672 | (us % 1000) * 4096 / 1000), 16, '0')
                             || left(md5(n::text), 16))::uuid AS id
                  FROM (SELECT n, 1735689600000000 + (n / 3) * 37 AS us
                        FROM generate_series(1, :checked) n) i) g) t) o;
-- ... which the hyphenated text does not promise under a linguistic collation; base32hex under "C" does, and the
-- hyphenated text of time-ordered keys also sorts as them: both compared for the first and the last value
SELECT uuid_to_base32hex('00000000-0000-7000-8000-000000000000') COLLATE "C"
           < uuid_to_base32hex('ffffffff-ffff-7fff-bfff-ffffffffffff') COLLATE "C" AS extremes_in_order;

-- labels
SELECT p.oid::regprocedure AS function, provolatile, proparallel, proisstrict, prorettype::regtype AS returns
FROM pg_proc p WHERE proname IN ('uuid_to_base32hex', 'uuid_from_base32hex') ORDER BY 1::text;
