-- sequuid/vectors/make.sql: the test vectors, as the C extension answers them.  vectors/make runs it against a
-- throwaway cluster and writes one JSON file per family from its output (lines of "file<TAB>document").
--
-- Each group names its query; the expected output or error of every test is what running that query gave here,
-- never typed by hand.  To add a case, add it here and run vectors/make.
\set ON_ERROR_STOP 1
SET client_min_messages = warning;
\o /dev/null
CREATE EXTENSION sequuid;
\getenv vectors_dir VECTORS_DIR
\set run_sql :vectors_dir '/run.sql'
\i :run_sql

CREATE TEMP TABLE vector_groups (
    file text NOT NULL,
    position serial,
    doc jsonb NOT NULL
);

-- one test's description: its comment, input and flags (and a mask of its own, where its group has none)
CREATE FUNCTION pg_temp.t(comment text, input jsonb, flags text[] DEFAULT '{}', mask text DEFAULT NULL)
    RETURNS jsonb LANGUAGE sql IMMUTABLE
AS $$
    SELECT jsonb_strip_nulls(jsonb_build_object('comment', comment, 'input', input, 'flags', to_jsonb(flags),
                                                'mask', mask))
$$;

-- Unix microseconds of a timestamptz text, null for an infinity or a value that is no timestamptz
CREATE FUNCTION pg_temp.unix_us(value text) RETURNS bigint
    LANGUAGE plpgsql STABLE
AS $$
BEGIN
    IF NOT isfinite(value::timestamptz) THEN
        RETURN NULL;
    END IF;
    RETURN (extract(epoch FROM value::timestamptz) * 1000000)::bigint;
EXCEPTION WHEN OTHERS THEN
    RETURN NULL;
END
$$;

-- PostgreSQL's three interval fields
CREATE FUNCTION pg_temp.interval_parts(value text) RETURNS jsonb
    LANGUAGE sql IMMUTABLE
AS $$
    SELECT jsonb_build_object(
        'months', (extract(year FROM i) * 12 + extract(month FROM i))::bigint,
        'days', extract(day FROM i)::bigint,
        'microseconds', (extract(hour FROM i) * 3600000000 + extract(minute FROM i) * 60000000
                         + extract(microseconds FROM i))::bigint)
    FROM (SELECT value::interval AS i) s
$$;

CREATE FUNCTION pg_temp.python_exception(sqlstate text) RETURNS text
    LANGUAGE sql IMMUTABLE
AS $$ SELECT 'ValueError' $$;

-- runs every test of a group on the C extension and records the group with the answers
CREATE FUNCTION pg_temp.vector_group(file text, function text, comment text, arguments jsonb, output_type text,
                                     mask text, sql text, tests jsonb[])
    RETURNS void
    LANGUAGE plpgsql
AS $$
DECLARE
    described jsonb;
    test jsonb;
    input jsonb;
    answer jsonb;
    flags jsonb;
    test_mask text;
    recorded jsonb[] := '{}';
    name text;
    type text;
BEGIN
    FOREACH described IN ARRAY tests LOOP
        input := described -> 'input';
        flags := coalesce(described -> 'flags', '[]');
        test_mask := coalesce(described ->> 'mask', mask);
        answer := pg_temp.vector_run(sql, input);
        -- the same instant in microseconds, and an interval's fields, for languages whose types cannot hold them
        FOR name, type IN SELECT key, value #>> '{}' FROM jsonb_each(arguments) LOOP
            IF type = 'timestamptz' AND input ? name THEN
                input := input || jsonb_build_object(name || '_unix_us', pg_temp.unix_us(input ->> name));
                IF input ->> name ~ '^\d{5}' THEN
                    flags := flags || '["BeyondYear9999"]';
                END IF;
            ELSIF type = 'interval' AND input ? name THEN
                input := input || jsonb_build_object(name || '_parts', pg_temp.interval_parts(input ->> name));
            END IF;
        END LOOP;
        test := jsonb_build_object('comment', described ->> 'comment', 'input', input);
        IF answer ? 'sqlstate' THEN
            test := test || jsonb_build_object(
                'result', 'invalid',
                'error', jsonb_build_object('sqlstate', answer ->> 'sqlstate',
                                            'python', pg_temp.python_exception(answer ->> 'sqlstate')));
        ELSE
            test := test || jsonb_build_object('output', pg_temp.vector_masked(answer -> 'output', test_mask),
                                               'result', 'valid');
            IF output_type = 'timestamptz' AND jsonb_typeof(answer -> 'output') = 'string' THEN
                test := test || jsonb_build_object('output_unix_us', pg_temp.unix_us(answer ->> 'output'));
                IF answer ->> 'output' ~ '^\d{5}' THEN
                    flags := flags || '["BeyondYear9999"]';
                END IF;
            END IF;
            IF jsonb_typeof(answer -> 'output') = 'null' THEN
                flags := flags || '["Null"]';
            END IF;
            IF test_mask IS NOT NULL THEN
                flags := flags || '["Masked"]';
            END IF;
        END IF;
        IF described ? 'mask' THEN
            test := test || jsonb_build_object('mask', described ->> 'mask');
        END IF;
        test := test || jsonb_build_object(
            'flags', (SELECT coalesce(jsonb_agg(DISTINCT f ORDER BY f), '[]') FROM jsonb_array_elements_text(flags) f));
        recorded := recorded || test;
    END LOOP;
    INSERT INTO vector_groups (file, doc) VALUES (file, jsonb_build_object(
        'function', function, 'comment', comment, 'arguments', arguments, 'outputType', output_type,
        'mask', mask, 'sql', sql, 'tests', to_jsonb(recorded)));
END
$$;

-- v7 ----------------------------------------------------------------------------------------------------------

SELECT pg_temp.vector_group('v7', 'uuid_v7_boundary',
    'the smallest v7 made at the instant: its 48-bit millisecond, version 7, the 12-bit fraction of its microsecond, variant 10, every random bit zero',
    '{"instant": "timestamptz"}', 'uuid', NULL,
    'SELECT to_jsonb(uuid_v7_boundary({instant}::timestamptz))',
    ARRAY[
        pg_temp.t('the Unix epoch, the first instant a v7 holds', '{"instant": "1970-01-01T00:00:00+00:00"}', '{Limit}'),
        pg_temp.t('the first microsecond: fraction 4 (1000 ns of 1,000,000 in 4096ths)', '{"instant": "1970-01-01T00:00:00.000001+00:00"}', '{Limit,Fraction}'),
        pg_temp.t('RFC 9562 appendix A.6''s instant (Tuesday, February 22, 2022 2:22:22 PM GMT-05:00)', '{"instant": "2022-02-22T19:22:22+00:00"}', '{Rfc9562}'),
        pg_temp.t('pg_uuidv7''s documented instant', '{"instant": "2023-01-02T04:26:40.637+00:00"}', '{}'),
        pg_temp.t('a microsecond inside a millisecond', '{"instant": "2023-01-02T04:26:40.637123+00:00"}', '{Fraction}'),
        pg_temp.t('microsecond 244: fraction 999', '{"instant": "2025-02-20T12:00:00.000244+00:00"}', '{Fraction}'),
        pg_temp.t('microsecond 245: fraction 1003', '{"instant": "2025-02-20T12:00:00.000245+00:00"}', '{Fraction}'),
        pg_temp.t('microsecond 500: fraction 2048, the middle', '{"instant": "2025-02-20T12:00:00.0005+00:00"}', '{Fraction}'),
        pg_temp.t('the last microsecond of a millisecond: fraction 4091', '{"instant": "2025-02-20T12:00:00.999999+00:00"}', '{Fraction}'),
        pg_temp.t('the millisecond and fraction of base32hex.json''s example 019535d9-3df7-79fb-b466-fa907fa17f9e', '{"instant": "2025-02-24T02:46:24.503624+00:00"}', '{Fraction}'),
        pg_temp.t('the last millisecond a v7 holds', '{"instant": "10889-08-02T05:31:50.655+00:00"}', '{Limit}'),
        pg_temp.t('the last microsecond a v7 holds', '{"instant": "10889-08-02T05:31:50.655999+00:00"}', '{Limit,Fraction}'),
        pg_temp.t('one microsecond past the last', '{"instant": "10889-08-02T05:31:50.656+00:00"}', '{Limit,OutOfRange}'),
        pg_temp.t('one microsecond before the epoch', '{"instant": "1969-12-31T23:59:59.999999+00:00"}', '{Limit,OutOfRange}'),
        pg_temp.t('infinity', '{"instant": "infinity"}', '{OutOfRange}'),
        pg_temp.t('-infinity', '{"instant": "-infinity"}', '{OutOfRange}')
    ]);

SELECT pg_temp.vector_group('v7', 'uuid_timestamptz_to_v7',
    'a v7 at the instant, as uuid_generate_v7() makes it at that time: the millisecond and fraction, version 7, variant 10, 62 random bits (masked)',
    '{"instant": "timestamptz"}', 'uuid', 'ffffffff-ffff-ffff-c000-000000000000',
    'SELECT to_jsonb(uuid_timestamptz_to_v7({instant}::timestamptz))',
    ARRAY[
        pg_temp.t('the Unix epoch', '{"instant": "1970-01-01T00:00:00+00:00"}', '{Limit}'),
        pg_temp.t('RFC 9562 appendix A.6''s instant; its rand_a differs (RFC: random, here the fraction, zero)', '{"instant": "2022-02-22T19:22:22+00:00"}', '{Rfc9562}'),
        pg_temp.t('a microsecond inside a millisecond', '{"instant": "2023-01-02T04:26:40.637123+00:00"}', '{Fraction}'),
        pg_temp.t('the last microsecond of a millisecond', '{"instant": "2025-02-20T12:00:00.999999+00:00"}', '{Fraction}'),
        pg_temp.t('the last microsecond a v7 holds', '{"instant": "10889-08-02T05:31:50.655999+00:00"}', '{Limit}'),
        pg_temp.t('one microsecond past the last', '{"instant": "10889-08-02T05:31:50.656+00:00"}', '{Limit,OutOfRange}'),
        pg_temp.t('one microsecond before the epoch', '{"instant": "1969-12-31T23:59:59.999999+00:00"}', '{Limit,OutOfRange}')
    ]);

SELECT pg_temp.vector_group('v7', 'uuid_timestamptz_to_v7',
    'pg_uuidv7''s zero form: the millisecond, version 7, variant 10, every other bit zero (the fraction too)',
    '{"instant": "timestamptz", "zero": "boolean"}', 'uuid', NULL,
    'SELECT to_jsonb(uuid_timestamptz_to_v7({instant}::timestamptz, {zero}::boolean))',
    ARRAY[
        pg_temp.t('pg_uuidv7''s documented example', '{"instant": "2023-01-02T04:26:40.637+00:00", "zero": true}', '{}'),
        pg_temp.t('the microseconds are dropped', '{"instant": "2023-01-02T04:26:40.637999+00:00", "zero": true}', '{Fraction}'),
        pg_temp.t('the epoch', '{"instant": "1970-01-01T00:00:00+00:00", "zero": true}', '{Limit}'),
        pg_temp.t('the last millisecond', '{"instant": "10889-08-02T05:31:50.655999+00:00", "zero": true}', '{Limit}'),
        pg_temp.t('past the last', '{"instant": "10889-08-02T05:31:50.656+00:00", "zero": true}', '{Limit,OutOfRange}')
    ]);

SELECT pg_temp.vector_group('v7', 'uuid_generate_v7',
    'a v7 at the instant moved by a shift, as uuid_generate_v7(shift) moves the current time: timestamptz + interval in the time zone (months, then days on its calendar, then the time), then the v7 of that instant (random bits masked)',
    '{"instant": "timestamptz", "shift": "interval", "time_zone": "text"}', 'uuid', 'ffffffff-ffff-ffff-c000-000000000000',
    'SELECT to_jsonb(uuid_timestamptz_to_v7({instant}::timestamptz + {shift}::interval))',
    ARRAY[
        pg_temp.t('no shift', '{"instant": "2025-02-20T12:00:00.000245+00:00", "shift": "0", "time_zone": "UTC"}', '{Shift}'),
        pg_temp.t('an hour back', '{"instant": "2025-02-20T12:00:00+00:00", "shift": "-1 hour", "time_zone": "UTC"}', '{Shift}'),
        pg_temp.t('1.5 ms ahead: a new millisecond and fraction', '{"instant": "2025-02-20T12:00:00.000245+00:00", "shift": "0.0015 seconds", "time_zone": "UTC"}', '{Shift,Fraction}'),
        pg_temp.t('one month from January 31: the last day of February', '{"instant": "2025-01-31T10:00:00+00:00", "shift": "1 mon", "time_zone": "UTC"}', '{Shift}'),
        pg_temp.t('one day across the spring DST change in Berlin keeps the local time (23 hours)', '{"instant": "2025-03-29T11:00:00+00:00", "shift": "1 day", "time_zone": "Europe/Berlin"}', '{Shift,TimeZone}'),
        pg_temp.t('24 hours across the same change', '{"instant": "2025-03-29T11:00:00+00:00", "shift": "24 hours", "time_zone": "Europe/Berlin"}', '{Shift,TimeZone}'),
        pg_temp.t('months, days and time together, in New York', '{"instant": "2024-10-31T16:30:00.123456+00:00", "shift": "1 mon 2 days 03:04:05.000006", "time_zone": "America/New_York"}', '{Shift,TimeZone,Fraction}'),
        pg_temp.t('back to the epoch exactly', '{"instant": "1970-01-01T01:00:00+00:00", "shift": "-1 hour", "time_zone": "UTC"}', '{Shift,Limit}'),
        pg_temp.t('back past the epoch', '{"instant": "1970-01-01T01:00:00+00:00", "shift": "-01:00:00.000001", "time_zone": "UTC"}', '{Shift,Limit,OutOfRange}'),
        pg_temp.t('ahead past the last millisecond', '{"instant": "2025-01-01T00:00:00+00:00", "shift": "9000 years", "time_zone": "UTC"}', '{Shift,OutOfRange}')
    ]);

-- v1 and v6 -----------------------------------------------------------------------------------------------------

SELECT pg_temp.vector_group('v6', 'uuid_v1_to_v6',
    'v1 to v6: the 60-bit Gregorian timestamp reordered most significant first, version 6; clock_seq and node kept',
    '{"id": "uuid"}', 'uuid', NULL,
    'SELECT to_jsonb(uuid_v1_to_v6({id}::uuid))',
    ARRAY[
        pg_temp.t('RFC 9562 appendix A.1''s v1 gives appendix A.5''s v6', '{"id": "c232ab00-9414-11ec-b3c8-9f6bdeced846"}', '{Rfc9562}'),
        pg_temp.t('the first Gregorian 100 ns (1582-10-15)', '{"id": "00000000-0000-1000-8000-000000000000"}', '{Limit}'),
        pg_temp.t('the last 100 ns a v1 holds', '{"id": "ffffffff-ffff-1fff-bfff-ffffffffffff"}', '{Limit}'),
        pg_temp.t('a non-RFC variant is kept as it is', '{"id": "c232ab00-9414-11ec-33c8-9f6bdeced846"}', '{NotRfcVariant}'),
        pg_temp.t('a v6 is not a v1', '{"id": "1ec9414c-232a-6b00-b3c8-9f6bdeced846"}', '{}'),
        pg_temp.t('a v4 is not a v1', '{"id": "5f8b8a59-3c8c-4d6e-9c1b-2a6b0e0e4a11"}', '{}')
    ]);

SELECT pg_temp.vector_group('v6', 'uuid_v6_to_v1',
    'v6 to v1: the timestamp back to time_low, time_mid, time_high, version 1; clock_seq and node kept',
    '{"id": "uuid"}', 'uuid', NULL,
    'SELECT to_jsonb(uuid_v6_to_v1({id}::uuid))',
    ARRAY[
        pg_temp.t('RFC 9562 appendix A.5''s v6 gives appendix A.1''s v1', '{"id": "1ec9414c-232a-6b00-b3c8-9f6bdeced846"}', '{Rfc9562}'),
        pg_temp.t('the first Gregorian 100 ns', '{"id": "00000000-0000-6000-8000-000000000000"}', '{Limit}'),
        pg_temp.t('the last 100 ns a v6 holds', '{"id": "ffffffff-ffff-6fff-bfff-ffffffffffff"}', '{Limit}'),
        pg_temp.t('a v1 is not a v6', '{"id": "c232ab00-9414-11ec-b3c8-9f6bdeced846"}', '{}'),
        pg_temp.t('a v7 is not a v6', '{"id": "017f22e2-79b0-7cc3-98c4-dc0c0c07398f"}', '{}')
    ]);

-- ULID text -----------------------------------------------------------------------------------------------------

SELECT pg_temp.vector_group('ulid', 'uuid_to_ulid',
    'the 128 bits as 26 Crockford base32 digits, most significant first (the first digit at most 7)',
    '{"id": "uuid"}', 'text', NULL,
    'SELECT to_jsonb(uuid_to_ulid({id}::uuid))',
    ARRAY[
        pg_temp.t('all zero', '{"id": "00000000-0000-0000-0000-000000000000"}', '{Limit}'),
        pg_temp.t('all one: the largest ULID', '{"id": "ffffffff-ffff-ffff-ffff-ffffffffffff"}', '{Limit}'),
        pg_temp.t('the ULID spec''s example', '{"id": "01563e3a-b5d3-d676-4c61-efb99302bd5b"}', '{}'),
        pg_temp.t('a v7', '{"id": "019535d9-3df7-79fb-b466-fa907fa17f9e"}', '{}'),
        pg_temp.t('the last bit alone', '{"id": "00000000-0000-0000-0000-000000000001"}', '{}')
    ]);

SELECT pg_temp.vector_group('ulid', 'ulid_to_uuid',
    'ULID text to the 16 bytes: case-insensitive, Crockford''s I and L read as 1 and O as 0; U and anything else outside the alphabet, a length other than 26 and a first digit above 7 are errors',
    '{"ulid": "text"}', 'uuid', NULL,
    'SELECT to_jsonb(ulid_to_uuid({ulid}::text))',
    ARRAY[
        pg_temp.t('the ULID spec''s example', '{"ulid": "01ARZ3NDEKTSV4RRFFQ69G5FAV"}', '{}'),
        pg_temp.t('the same in lower case', '{"ulid": "01arz3ndektsv4rrffq69g5fav"}', '{Case}'),
        pg_temp.t('the largest ULID', '{"ulid": "7ZZZZZZZZZZZZZZZZZZZZZZZZZ"}', '{Limit}'),
        pg_temp.t('all zero', '{"ulid": "00000000000000000000000000"}', '{Limit}'),
        pg_temp.t('I, L and O are aliases of 1, 1 and 0', '{"ulid": "0IL0000000000000000000000O"}', '{Alias}'),
        pg_temp.t('a first digit of 8 holds more than 128 bits', '{"ulid": "80000000000000000000000000"}', '{Limit,OutOfRange}'),
        pg_temp.t('U is not a Crockford digit', '{"ulid": "0000000000000000000000000U"}', '{InvalidCharacter}'),
        pg_temp.t('a hyphen', '{"ulid": "01ARZ3NDEK-SV4RRFFQ69G5FAV"}', '{InvalidCharacter}'),
        pg_temp.t('25 characters', '{"ulid": "01ARZ3NDEKTSV4RRFFQ69G5FA"}', '{Length}'),
        pg_temp.t('27 characters', '{"ulid": "01ARZ3NDEKTSV4RRFFQ69G5FAVV"}', '{Length}'),
        pg_temp.t('empty', '{"ulid": ""}', '{Length}'),
        pg_temp.t('a non-ASCII character counts as one character, outside the alphabet', '{"ulid": "01ARZ3NDEKTSV4RRFFQ69G5FAé"}', '{InvalidCharacter}')
    ]);

-- sequential-uuids prefixes -----------------------------------------------------------------------------------------

-- the bits a prefix of block_count blocks determines: the prefix, the version and the variant
CREATE FUNCTION pg_temp.prefix_mask(block_count int) RETURNS text
    LANGUAGE sql IMMUTABLE
AS $$
    SELECT (rpad(repeat('ff', bytes), 12, '0') || 'f000c000000000000000')::uuid::text
    FROM (SELECT greatest(1, (ceil(log(2, block_count::numeric)) + 7)::int / 8) AS bytes) s
$$;

SELECT pg_temp.vector_group('sequential', 'uuid_sequence_nextval',
    'sequential-uuids 1.0.3''s sequence prefix for the value nextval returned: floor((value - 1) / size) mod 2^bits in the leading bits, version 8, variant 10, the rest random (masked)',
    '{"value": "bigint", "block_size": "integer", "block_count": "integer"}', 'uuid', NULL,
    'SELECT to_jsonb(uuid_sequence_nextval(''vectors_seq'', {block_size}::int, {block_count}::int)) FROM (SELECT setval(''vectors_seq'', {value}::bigint, false)) s',
    ARRAY[
        pg_temp.t('the first value, defaults', '{"value": 1, "block_size": 65536, "block_count": 65536}', '{}', pg_temp.prefix_mask(65536)),
        pg_temp.t('the last value of the first block', '{"value": 65536, "block_size": 65536, "block_count": 65536}', '{}', pg_temp.prefix_mask(65536)),
        pg_temp.t('the first value of the second block', '{"value": 65537, "block_size": 65536, "block_count": 65536}', '{}', pg_temp.prefix_mask(65536)),
        pg_temp.t('the last block before the wrap', '{"value": 4294967296, "block_size": 65536, "block_count": 65536}', '{Wraparound}', pg_temp.prefix_mask(65536)),
        pg_temp.t('the prefix wraps to 0 after 2^32 values', '{"value": 4294967297, "block_size": 65536, "block_count": 65536}', '{Wraparound}', pg_temp.prefix_mask(65536)),
        pg_temp.t('100 x 100: one byte, blocks of 10000 / 256 = 39', '{"value": 40, "block_size": 100, "block_count": 100}', '{Rescaled}', pg_temp.prefix_mask(100)),
        pg_temp.t('100 x 100: 39 values share a prefix', '{"value": 39, "block_size": 100, "block_count": 100}', '{Rescaled}', pg_temp.prefix_mask(100)),
        pg_temp.t('100 x 100 wraps after 256 blocks of 39', '{"value": 9985, "block_size": 100, "block_count": 100}', '{Rescaled,Wraparound}', pg_temp.prefix_mask(100)),
        pg_temp.t('block_count 1 still gives a one-byte prefix; size rescaled to 1 (10 / 256 is 0)', '{"value": 3, "block_size": 10, "block_count": 1}', '{Rescaled}', pg_temp.prefix_mask(1)),
        pg_temp.t('block_count 257: two bytes', '{"value": 1000000, "block_size": 1000, "block_count": 257}', '{Rescaled}', pg_temp.prefix_mask(257)),
        pg_temp.t('block_count 65537: three bytes', '{"value": 123456789, "block_size": 1, "block_count": 65537}', '{Rescaled}', pg_temp.prefix_mask(65537)),
        pg_temp.t('the largest block_count: four bytes', '{"value": 9223372036854775807, "block_size": 1, "block_count": 2147483647}', '{Limit,Rescaled}', pg_temp.prefix_mask(2147483647)),
        pg_temp.t('value 0: block -1 (floor), the last prefix', '{"value": 0, "block_size": 65536, "block_count": 65536}', '{Negative}', pg_temp.prefix_mask(65536)),
        pg_temp.t('a negative value', '{"value": -65536, "block_size": 65536, "block_count": 65536}', '{Negative}', pg_temp.prefix_mask(65536)),
        pg_temp.t('the bigint minimum', '{"value": -9223372036854775808, "block_size": 65536, "block_count": 65536}', '{Negative,Limit}', pg_temp.prefix_mask(65536)),
        pg_temp.t('block_size 0', '{"value": 1, "block_size": 0, "block_count": 65536}', '{}'),
        pg_temp.t('block_size -1', '{"value": 1, "block_size": -1, "block_count": 65536}', '{}'),
        pg_temp.t('block_count 0', '{"value": 1, "block_size": 65536, "block_count": 0}', '{}')
    ]);

SELECT pg_temp.vector_group('sequential', 'uuid_time_nextval',
    'sequential-uuids 1.0.3''s time prefix at a Unix second: the sequence prefix of value = unix_seconds + 1 with interval_length for block_size and interval_count for block_count (version 8, variant 10, the rest random, masked)',
    '{"unix_seconds": "bigint", "interval_length": "integer", "interval_count": "integer"}', 'uuid', NULL,
    'SELECT to_jsonb(uuid_sequence_nextval(''vectors_seq'', {interval_length}::int, {interval_count}::int)) FROM (SELECT setval(''vectors_seq'', {unix_seconds}::bigint + 1, false)) s',
    ARRAY[
        pg_temp.t('the epoch, defaults (60 s x 65536)', '{"unix_seconds": 0, "interval_length": 60, "interval_count": 65536}', '{SameAsSequence}', pg_temp.prefix_mask(65536)),
        pg_temp.t('2025-02-20 12:00:00 UTC, defaults', '{"unix_seconds": 1740052800, "interval_length": 60, "interval_count": 65536}', '{SameAsSequence}', pg_temp.prefix_mask(65536)),
        pg_temp.t('59 s later: the same minute', '{"unix_seconds": 1740052859, "interval_length": 60, "interval_count": 65536}', '{SameAsSequence}', pg_temp.prefix_mask(65536)),
        pg_temp.t('60 s later: the next prefix', '{"unix_seconds": 1740052860, "interval_length": 60, "interval_count": 65536}', '{SameAsSequence}', pg_temp.prefix_mask(65536)),
        pg_temp.t('the 16-bit prefix wraps after 65536 minutes (45.5 days)', '{"unix_seconds": 3932160, "interval_length": 60, "interval_count": 65536}', '{SameAsSequence,Wraparound}', pg_temp.prefix_mask(65536)),
        pg_temp.t('1 s x 256: wraps every 256 s', '{"unix_seconds": 1740052800, "interval_length": 1, "interval_count": 256}', '{SameAsSequence,Wraparound}', pg_temp.prefix_mask(256)),
        pg_temp.t('before the epoch', '{"unix_seconds": -1, "interval_length": 60, "interval_count": 65536}', '{SameAsSequence,Negative}', pg_temp.prefix_mask(65536))
    ]);

SELECT pg_temp.vector_group('sequential', 'uuid_time_nextval',
    'the time prefix''s argument errors (the clock does not matter)',
    '{"interval_length": "integer", "interval_count": "integer"}', 'uuid', NULL,
    'SELECT to_jsonb(uuid_time_nextval({interval_length}::int, {interval_count}::int))',
    ARRAY[
        pg_temp.t('interval_length 0', '{"interval_length": 0, "interval_count": 65536}', '{}'),
        pg_temp.t('interval_length -60', '{"interval_length": -60, "interval_count": 65536}', '{}'),
        pg_temp.t('interval_count 0', '{"interval_length": 60, "interval_count": 0}', '{}'),
        pg_temp.t('interval_count -1', '{"interval_length": 60, "interval_count": -1}', '{}')
    ]);

-- striped ---------------------------------------------------------------------------------------------------------

SELECT pg_temp.vector_group('striped', 'uuid_striped_ranges',
    'the striped layout (version 8): per stripe, the smallest keys made at from_time and at to_time: the stripe in the leading ceil(log2(stripes)) bits, then v7''s 48-bit millisecond and 12-bit fraction around the version nibble, every random bit zero',
    '{"stripes": "integer", "from_time": "timestamptz", "to_time": "timestamptz"}', 'rows', NULL,
    'SELECT jsonb_agg(to_jsonb(r) ORDER BY r.stripe) FROM uuid_striped_ranges({stripes}::int, {from_time}::timestamptz, {to_time}::timestamptz) r',
    ARRAY[
        pg_temp.t('one stripe: no stripe bits', '{"stripes": 1, "from_time": "2025-02-20T12:00:00+00:00", "to_time": "2025-02-20T13:00:00+00:00"}', '{}'),
        pg_temp.t('two stripes: one bit', '{"stripes": 2, "from_time": "2025-02-20T12:00:00+00:00", "to_time": "2025-02-20T13:00:00+00:00"}', '{}'),
        pg_temp.t('three stripes: two bits, stripe 3 unused', '{"stripes": 3, "from_time": "2025-02-20T12:00:00.000245+00:00", "to_time": "2025-02-21T12:00:00.999999+00:00"}', '{Fraction}'),
        pg_temp.t('sixteen stripes: four bits', '{"stripes": 16, "from_time": "2023-01-02T04:26:40.637123+00:00", "to_time": "2023-01-02T04:26:40.637124+00:00"}', '{Fraction}'),
        pg_temp.t('an empty interval', '{"stripes": 2, "from_time": "2025-02-20T12:00:00+00:00", "to_time": "2025-02-20T12:00:00+00:00"}', '{}'),
        pg_temp.t('the whole v7 range, four stripes', '{"stripes": 4, "from_time": "1970-01-01T00:00:00+00:00", "to_time": "10889-08-02T05:31:50.655999+00:00"}', '{Limit}'),
        pg_temp.t('past the v7 range', '{"stripes": 4, "from_time": "2025-01-01T00:00:00+00:00", "to_time": "10889-08-02T05:31:50.656+00:00"}', '{Limit,OutOfRange}'),
        pg_temp.t('before the epoch', '{"stripes": 4, "from_time": "1969-12-31T23:59:59.999999+00:00", "to_time": "2025-01-01T00:00:00+00:00"}', '{Limit,OutOfRange}'),
        pg_temp.t('from_time after to_time', '{"stripes": 2, "from_time": "2025-02-20T13:00:00+00:00", "to_time": "2025-02-20T12:00:00+00:00"}', '{}'),
        pg_temp.t('zero stripes', '{"stripes": 0, "from_time": "2025-02-20T12:00:00+00:00", "to_time": "2025-02-20T13:00:00+00:00"}', '{}'),
        pg_temp.t('257 stripes, one more than the 256 allowed', '{"stripes": 257, "from_time": "2025-02-20T12:00:00+00:00", "to_time": "2025-02-20T13:00:00+00:00"}', '{Limit}')
    ]);

SELECT pg_temp.vector_group('striped', 'uuid_striped_ranges',
    'the largest stripe count, only the first and last rows',
    '{"stripes": "integer", "from_time": "timestamptz", "to_time": "timestamptz"}', 'rows', NULL,
    'SELECT jsonb_agg(to_jsonb(r) ORDER BY r.stripe) FROM uuid_striped_ranges({stripes}::int, {from_time}::timestamptz, {to_time}::timestamptz) r WHERE r.stripe IN (0, {stripes}::int - 1)',
    ARRAY[
        pg_temp.t('256 stripes: eight bits', '{"stripes": 256, "from_time": "2025-02-20T12:00:00+00:00", "to_time": "2025-02-20T13:00:00+00:00"}', '{Limit}')
    ]);

-- extractors -----------------------------------------------------------------------------------------------------

SELECT pg_temp.vector_group('extract', 'uuid_timestamp',
    'the instant of a v1, v6 (to the microsecond, from 100 ns) or v7 (the last microsecond starting in its fraction''s range); null for any other version',
    '{"id": "uuid"}', 'timestamptz', NULL,
    'SELECT to_jsonb(uuid_timestamp({id}::uuid))',
    ARRAY[
        pg_temp.t('RFC 9562 appendix A.1''s v1', '{"id": "c232ab00-9414-11ec-b3c8-9f6bdeced846"}', '{Rfc9562}'),
        pg_temp.t('RFC 9562 appendix A.5''s v6', '{"id": "1ec9414c-232a-6b00-b3c8-9f6bdeced846"}', '{Rfc9562}'),
        pg_temp.t('RFC 9562 appendix A.6''s v7 (its rand_a read as a fraction)', '{"id": "017f22e2-79b0-7cc3-98c4-dc0c0c07398f"}', '{Rfc9562,Fraction}'),
        pg_temp.t('a v7 of microsecond 123', '{"id": "018570bb-4a7d-71f7-8000-000000000000"}', '{Fraction}'),
        pg_temp.t('a v7 with fraction 0', '{"id": "018570bb-4a7d-7000-8000-000000000000"}', '{Fraction}'),
        pg_temp.t('a v7 with fraction 4095: microsecond 999', '{"id": "018570bb-4a7d-7fff-8000-000000000000"}', '{Fraction}'),
        pg_temp.t('the first v7 instant', '{"id": "00000000-0000-7000-8000-000000000000"}', '{Limit}'),
        pg_temp.t('the last v7 instant', '{"id": "ffffffff-ffff-7fff-bfff-ffffffffffff"}', '{Limit}'),
        pg_temp.t('the first v6 instant: 1582-10-15', '{"id": "00000000-0000-6000-8000-000000000000"}', '{Limit}'),
        pg_temp.t('the last v6 instant', '{"id": "ffffffff-ffff-6fff-bfff-ffffffffffff"}', '{Limit}'),
        pg_temp.t('the last v1 instant', '{"id": "ffffffff-ffff-1fff-bfff-ffffffffffff"}', '{Limit}'),
        pg_temp.t('a v4', '{"id": "5f8b8a59-3c8c-4d6e-9c1b-2a6b0e0e4a11"}', '{}'),
        pg_temp.t('a v8', '{"id": "018570bb-4a7d-8000-8000-000000000000"}', '{}'),
        pg_temp.t('the nil UUID', '{"id": "00000000-0000-0000-0000-000000000000"}', '{}')
    ]);

SELECT pg_temp.vector_group('extract', 'ulid_timestamp',
    'the 48-bit Unix millisecond of any 16 bytes (a ULID or a v7), as pg_uuidv7''s uuid_v7_to_timestamptz reads it',
    '{"id": "uuid"}', 'timestamptz', NULL,
    'SELECT to_jsonb(ulid_timestamp({id}::uuid))',
    ARRAY[
        pg_temp.t('the ULID spec''s example', '{"id": "01563e3a-b5d3-d676-4c61-efb99302bd5b"}', '{}'),
        pg_temp.t('pg_uuidv7''s documented example', '{"id": "018570bb-4a7d-7c7e-8df4-6d47afd8c8fc"}', '{}'),
        pg_temp.t('all zero', '{"id": "00000000-0000-0000-0000-000000000000"}', '{Limit}'),
        pg_temp.t('all one', '{"id": "ffffffff-ffff-ffff-ffff-ffffffffffff"}', '{Limit}'),
        pg_temp.t('a v4 is read the same way', '{"id": "5f8b8a59-3c8c-4d6e-9c1b-2a6b0e0e4a11"}', '{}')
    ]);

SELECT pg_temp.vector_group('extract', 'uuid_version',
    'the version nibble (bits 48-51) of any UUID',
    '{"id": "uuid"}', 'integer', NULL,
    'SELECT to_jsonb(uuid_version({id}::uuid))',
    ARRAY[
        pg_temp.t('v1', '{"id": "c232ab00-9414-11ec-b3c8-9f6bdeced846"}', '{Rfc9562}'),
        pg_temp.t('v4', '{"id": "5f8b8a59-3c8c-4d6e-9c1b-2a6b0e0e4a11"}', '{}'),
        pg_temp.t('v6', '{"id": "1ec9414c-232a-6b00-b3c8-9f6bdeced846"}', '{Rfc9562}'),
        pg_temp.t('v7', '{"id": "017f22e2-79b0-7cc3-98c4-dc0c0c07398f"}', '{Rfc9562}'),
        pg_temp.t('v8', '{"id": "018570bb-4a7d-8000-8000-000000000000"}', '{}'),
        pg_temp.t('nil', '{"id": "00000000-0000-0000-0000-000000000000"}', '{}'),
        pg_temp.t('max', '{"id": "ffffffff-ffff-ffff-ffff-ffffffffffff"}', '{}'),
        pg_temp.t('a ULID''s bits where the nibble would be, non-RFC variant', '{"id": "01563e3a-b5d3-d676-4c61-efb99302bd5b"}', '{NotRfcVariant}')
    ]);

SELECT pg_temp.vector_group('extract', 'uuid_variant',
    'the variant: the top bits of octet 8 (0 for 0xxx, 2 for 10xx, 6 for 110x, 7 for 111x as sequuid numbers them)',
    '{"id": "uuid"}', 'integer', NULL,
    'SELECT to_jsonb(uuid_variant({id}::uuid))',
    ARRAY[
        pg_temp.t('RFC 9562 variant 10', '{"id": "017f22e2-79b0-7cc3-98c4-dc0c0c07398f"}', '{Rfc9562}'),
        pg_temp.t('octet 8 = 0x3f', '{"id": "00000000-0000-0000-3fff-000000000000"}', '{NotRfcVariant}'),
        pg_temp.t('octet 8 = 0x80', '{"id": "00000000-0000-0000-8000-000000000000"}', '{}'),
        pg_temp.t('octet 8 = 0xbf', '{"id": "00000000-0000-0000-bfff-000000000000"}', '{}'),
        pg_temp.t('octet 8 = 0xc0', '{"id": "00000000-0000-0000-c000-000000000000"}', '{NotRfcVariant}'),
        pg_temp.t('octet 8 = 0xe0', '{"id": "00000000-0000-0000-e000-000000000000"}', '{NotRfcVariant}'),
        pg_temp.t('octet 8 = 0xff', '{"id": "ffffffff-ffff-ffff-ffff-ffffffffffff"}', '{NotRfcVariant}')
    ]);

-- range bounds ----------------------------------------------------------------------------------------------------

SELECT pg_temp.vector_group('ranges', 'uuid_time_partitions',
    'count consecutive ranges of a fixed step from start, each with the smallest keys of the layout (v7, ulid or v6) made at its start and end',
    '{"kind": "text", "start": "timestamptz", "step": "interval", "count": "integer"}', 'rows', NULL,
    'SELECT jsonb_agg(to_jsonb(r) || jsonb_build_object(''range_start_unix_us'', (extract(epoch FROM r.range_start) * 1000000)::bigint, ''range_end_unix_us'', (extract(epoch FROM r.range_end) * 1000000)::bigint)) FROM uuid_time_partitions({kind}::text, {start}::timestamptz, {step}::interval, {count}::int) r',
    ARRAY[
        pg_temp.t('three days of v7', '{"kind": "v7", "start": "2025-02-20T00:00:00+00:00", "step": "24 hours", "count": 3}', '{}'),
        pg_temp.t('v7 ranges of 1.5 ms: fractions at the ends', '{"kind": "v7", "start": "2025-02-20T00:00:00.000245+00:00", "step": "0.0015 seconds", "count": 2}', '{Fraction}'),
        pg_temp.t('two hours of ULID: the millisecond, every random bit zero', '{"kind": "ulid", "start": "2025-02-20T00:00:00.000999+00:00", "step": "1 hour", "count": 2}', '{}'),
        pg_temp.t('two hours of v6: 100 ns', '{"kind": "v6", "start": "2025-02-20T00:00:00.000001+00:00", "step": "1 hour", "count": 2}', '{}'),
        pg_temp.t('kind in upper case', '{"kind": "V7", "start": "2025-02-20T00:00:00+00:00", "step": "1 hour", "count": 1}', '{Case}'),
        pg_temp.t('v7 from the epoch', '{"kind": "v7", "start": "1970-01-01T00:00:00+00:00", "step": "1 hour", "count": 1}', '{Limit}'),
        pg_temp.t('v7 up to its last microsecond', '{"kind": "v7", "start": "10889-08-02T05:31:50.655998+00:00", "step": "0.000001 seconds", "count": 1}', '{Limit}'),
        pg_temp.t('v7 ending one microsecond past its range', '{"kind": "v7", "start": "10889-08-02T05:31:50.655999+00:00", "step": "0.000001 seconds", "count": 1}', '{Limit,OutOfRange}'),
        pg_temp.t('v7 starting before the epoch', '{"kind": "v7", "start": "1969-12-31T23:59:59+00:00", "step": "1 hour", "count": 1}', '{Limit,OutOfRange}'),
        pg_temp.t('ULID up to its last microsecond', '{"kind": "ulid", "start": "10889-08-02T05:31:50.655998+00:00", "step": "0.000001 seconds", "count": 1}', '{Limit}'),
        pg_temp.t('ULID past its range', '{"kind": "ulid", "start": "10889-08-02T05:31:50.655999+00:00", "step": "0.000001 seconds", "count": 1}', '{Limit,OutOfRange}'),
        pg_temp.t('v6 from the Gregorian epoch', '{"kind": "v6", "start": "1582-10-15T00:00:00+00:00", "step": "1 hour", "count": 1}', '{Limit}'),
        pg_temp.t('v6 before the Gregorian epoch', '{"kind": "v6", "start": "1582-10-14T23:59:59.999999+00:00", "step": "1 hour", "count": 1}', '{Limit,OutOfRange}'),
        pg_temp.t('v6 up to its last microsecond', '{"kind": "v6", "start": "5236-03-31T21:21:00.684696+00:00", "step": "0.000001 seconds", "count": 1}', '{Limit}'),
        pg_temp.t('v6 past its range', '{"kind": "v6", "start": "5236-03-31T21:21:00.684697+00:00", "step": "0.000001 seconds", "count": 1}', '{Limit,OutOfRange}'),
        pg_temp.t('v1 keys are not in time order', '{"kind": "v1", "start": "2025-02-20T00:00:00+00:00", "step": "1 hour", "count": 1}', '{}'),
        pg_temp.t('a step of days needs a time zone', '{"kind": "v7", "start": "2025-02-20T00:00:00+00:00", "step": "1 day", "count": 1}', '{}'),
        pg_temp.t('a negative step', '{"kind": "v7", "start": "2025-02-20T00:00:00+00:00", "step": "-1 hour", "count": 1}', '{}'),
        pg_temp.t('count 0', '{"kind": "v7", "start": "2025-02-20T00:00:00+00:00", "step": "1 hour", "count": 0}', '{}'),
        pg_temp.t('count 100001', '{"kind": "v7", "start": "2025-02-20T00:00:00+00:00", "step": "1 hour", "count": 100001}', '{Limit}')
    ]);

SELECT pg_temp.vector_group('ranges', 'uuid_time_partitions',
    'calendar steps (days, months) on the calendar of the time zone given as argument time_zone',
    '{"kind": "text", "start": "timestamptz", "step": "interval", "count": "integer", "zone": "text"}', 'rows', NULL,
    'SELECT jsonb_agg(to_jsonb(r) || jsonb_build_object(''range_start_unix_us'', (extract(epoch FROM r.range_start) * 1000000)::bigint, ''range_end_unix_us'', (extract(epoch FROM r.range_end) * 1000000)::bigint)) FROM uuid_time_partitions({kind}::text, {start}::timestamptz, {step}::interval, {count}::int, {zone}::text) r',
    ARRAY[
        pg_temp.t('months in UTC', '{"kind": "v7", "start": "2025-01-01T00:00:00+00:00", "step": "1 mon", "count": 3, "zone": "UTC"}', '{TimeZone}'),
        pg_temp.t('days across the spring DST change in Berlin: one of 23 hours', '{"kind": "v7", "start": "2025-03-28T23:00:00+00:00", "step": "1 day", "count": 3, "zone": "Europe/Berlin"}', '{TimeZone}'),
        pg_temp.t('a month from January 31 in New York', '{"kind": "v6", "start": "2025-01-31T05:00:00+00:00", "step": "1 mon", "count": 2, "zone": "America/New_York"}', '{TimeZone}'),
        pg_temp.t('a negative part', '{"kind": "v7", "start": "2025-01-01T00:00:00+00:00", "step": "1 mon -1 day", "count": 1, "zone": "UTC"}', '{TimeZone}'),
        pg_temp.t('an unknown time zone', '{"kind": "v7", "start": "2025-01-01T00:00:00+00:00", "step": "1 day", "count": 1, "zone": "Mars/Olympus_Mons"}', '{TimeZone}')
    ]);

-- base32hex --------------------------------------------------------------------------------------------------------

SELECT pg_temp.vector_group('base32hex', 'uuid_to_base32hex',
    'the 128 bits and two zero bits as 26 base32hex digits (0-9, A-V), most significant first, no padding',
    '{"id": "uuid"}', 'text', NULL,
    'SELECT to_jsonb(uuid_to_base32hex({id}::uuid))',
    ARRAY[
        pg_temp.t('PostgreSQL 19''s documented example', '{"id": "019535d9-3df7-79fb-b466-fa907fa17f9e"}', '{}'),
        pg_temp.t('all zero', '{"id": "00000000-0000-0000-0000-000000000000"}', '{Limit}'),
        pg_temp.t('all one: the last digit holds three bits and two zero bits', '{"id": "ffffffff-ffff-ffff-ffff-ffffffffffff"}', '{Limit}'),
        pg_temp.t('the first bit alone', '{"id": "80000000-0000-0000-0000-000000000000"}', '{}'),
        pg_temp.t('the last bit alone', '{"id": "00000000-0000-0000-0000-000000000001"}', '{}'),
        pg_temp.t('the bit before the last digit', '{"id": "00000000-0000-0000-0000-000000000008"}', '{}'),
        pg_temp.t('RFC 9562 appendix A.6''s v7', '{"id": "017f22e2-79b0-7cc3-98c4-dc0c0c07398f"}', '{Rfc9562}'),
        pg_temp.t('RFC 9562 appendix A.5''s v6', '{"id": "1ec9414c-232a-6b00-b3c8-9f6bdeced846"}', '{Rfc9562}'),
        pg_temp.t('the smallest v7', '{"id": "00000000-0000-7000-8000-000000000000"}', '{Limit}'),
        pg_temp.t('the largest v7', '{"id": "ffffffff-ffff-7fff-bfff-ffffffffffff"}', '{Limit}')
    ]);

SELECT pg_temp.vector_group('base32hex', 'uuid_from_base32hex',
    'canonical base32hex text to the uuid: exactly the text uuid_to_base32hex writes (26 digits 0-9 and A-V, upper case, no padding, no whitespace, the two bits past the 128th zero); every other spelling is invalid text, so one uuid has one spelling',
    '{"base32hex": "text"}', 'uuid', NULL,
    'SELECT to_jsonb(uuid_from_base32hex({base32hex}::text))',
    ARRAY[
        pg_temp.t('PostgreSQL 19''s documented example', '{"base32hex": "06AJBM9TUTSVND36VA87V8BVJO"}', '{}'),
        pg_temp.t('the largest text: every bit one, the two past the 128th zero', '{"base32hex": "VVVVVVVVVVVVVVVVVVVVVVVVVS"}', '{Limit}'),
        pg_temp.t('all zero', '{"base32hex": "00000000000000000000000000"}', '{Limit}'),
        pg_temp.t('the last bit alone', '{"base32hex": "0000000000000000000000000G"}', '{}'),
        pg_temp.t('lower case is not canonical', '{"base32hex": "06ajbm9tutsvnd36va87v8bvjo"}', '{Case}'),
        pg_temp.t('mixed case is not canonical', '{"base32hex": "06aJbM9tUtSvNd36Va87V8bVjO"}', '{Case}'),
        pg_temp.t('one lower-case letter', '{"base32hex": "06AJBM9TUTSVND36VA87V8BVJo"}', '{Case}'),
        pg_temp.t('RFC 4648''s padding to 32 characters is not canonical', '{"base32hex": "06AJBM9TUTSVND36VA87V8BVJO======"}', '{Padding}'),
        pg_temp.t('one = of padding', '{"base32hex": "06AJBM9TUTSVND36VA87V8BVJO="}', '{Padding}'),
        pg_temp.t('a leading space', '{"base32hex": " 06AJBM9TUTSVND36VA87V8BVJO"}', '{Whitespace}'),
        pg_temp.t('a trailing newline', '{"base32hex": "06AJBM9TUTSVND36VA87V8BVJO\n"}', '{Whitespace}'),
        pg_temp.t('a tab inside', '{"base32hex": "06AJBM9T\tUTSVND36VA87V8BVJO"}', '{Whitespace}'),
        pg_temp.t('the two bits past the 128th not zero (R: 0b10111)', '{"base32hex": "06AJBM9TUTSVND36VA87V8BVJR"}', '{TrailingBits}'),
        pg_temp.t('the last bit past the 128th set (P: 0b11001)', '{"base32hex": "06AJBM9TUTSVND36VA87V8BVJP"}', '{TrailingBits}'),
        pg_temp.t('all V: the two bits past the 128th set', '{"base32hex": "VVVVVVVVVVVVVVVVVVVVVVVVVV"}', '{TrailingBits,Limit}'),
        pg_temp.t('W is past the alphabet', '{"base32hex": "06AJBM9TUTSVND36VA87V8BVJW"}', '{InvalidCharacter}'),
        pg_temp.t('a hyphen', '{"base32hex": "06AJBM9TUTSVND36-VA87V8BVJO"}', '{InvalidCharacter}'),
        pg_temp.t('a non-ASCII character', '{"base32hex": "06AJBM9TUTSVND36VA87V8BVJé"}', '{InvalidCharacter}'),
        pg_temp.t('a Crockford alias is not base32hex: only 0-9 and A-V', '{"base32hex": "06AJBM9TUTSVND36VA87V8BVJZ"}', '{InvalidCharacter}'),
        pg_temp.t('a digit after padding', '{"base32hex": "06AJBM9TUTSVND36VA87V8BV==JO"}', '{Padding}'),
        pg_temp.t('25 digits', '{"base32hex": "06AJBM9TUTSVND36VA87V8BVJ"}', '{Length}'),
        pg_temp.t('27 digits', '{"base32hex": "06AJBM9TUTSVND36VA87V8BVJOO"}', '{Length}'),
        pg_temp.t('empty', '{"base32hex": ""}', '{Length}'),
        pg_temp.t('padding alone', '{"base32hex": "======"}', '{Length,Padding}'),
        pg_temp.t('the 36-character hyphenated form is not base32hex', '{"base32hex": "019535d9-3df7-79fb-b466-fa907fa17f9e"}', '{InvalidCharacter}')
    ]);

-- public ids: UUIDv47's façade (uuid_v7_to_uuidv47) and the default mapping (uuid_v7_to_public) -----------------------------------------------------------------------------------
-- The key is 16 bytes given as 32 hex digits; UUIDv47's (k0, k1) are those bytes read little-endian, 8 at a time
-- (its test key k0 = 0x0123456789abcdef, k1 = 0xfedcba9876543210 is efcdab8967452301 1032547698badcfe).

SELECT pg_temp.vector_group('publicid', 'uuid_v7_to_uuidv47',
    'UUIDv47''s published cases (tests.c, README, demo.c at stateless-me/uuidv47 81ba63f): the v7''s 48-bit time XORed with the low 48 bits of SipHash-2-4 of its 74 random bits under the key, version 4; and SipHash''s own published tag for a 10-byte message',
    '{"id": "uuid", "key": "bytea"}', 'uuid', NULL,
    'SELECT to_jsonb(uuid_v7_to_uuidv47({id}::uuid, decode({key}, ''hex'')))',
    ARRAY[
        pg_temp.t('UUIDv47 tests.c''s round-trip case 0: time 0x100000 * 0 + 123, rand_a 0xAAA ^ 0*7, rand_b 0x0123456789ABCDEF ^ 0x1111111111111111 * 0', '{"id": "00000000-007b-7aaa-8123-456789abcdef", "key": "efcdab89674523011032547698badcfe"}', '{Uuidv47}'),
        pg_temp.t('UUIDv47 tests.c''s round-trip case 1: time 0x100000 * 1 + 123, rand_a 0xAAA ^ 1*7, rand_b 0x0123456789ABCDEF ^ 0x1111111111111111 * 1', '{"id": "00000010-007b-7aad-9032-547698badcfe", "key": "efcdab89674523011032547698badcfe"}', '{Uuidv47}'),
        pg_temp.t('UUIDv47 tests.c''s round-trip case 2: time 0x100000 * 2 + 123, rand_a 0xAAA ^ 2*7, rand_b 0x0123456789ABCDEF ^ 0x1111111111111111 * 2', '{"id": "00000020-007b-7aa4-a301-6745ab89efcd", "key": "efcdab89674523011032547698badcfe"}', '{Uuidv47}'),
        pg_temp.t('UUIDv47 tests.c''s round-trip case 3: time 0x100000 * 3 + 123, rand_a 0xAAA ^ 3*7, rand_b 0x0123456789ABCDEF ^ 0x1111111111111111 * 3', '{"id": "00000030-007b-7abf-b210-7654ba98fedc", "key": "efcdab89674523011032547698badcfe"}', '{Uuidv47}'),
        pg_temp.t('UUIDv47 tests.c''s round-trip case 4: time 0x100000 * 4 + 123, rand_a 0xAAA ^ 4*7, rand_b 0x0123456789ABCDEF ^ 0x1111111111111111 * 4', '{"id": "00000040-007b-7ab6-8567-0123cdef89ab", "key": "efcdab89674523011032547698badcfe"}', '{Uuidv47}'),
        pg_temp.t('UUIDv47 tests.c''s round-trip case 5: time 0x100000 * 5 + 123, rand_a 0xAAA ^ 5*7, rand_b 0x0123456789ABCDEF ^ 0x1111111111111111 * 5', '{"id": "00000050-007b-7a89-9476-1032dcfe98ba", "key": "efcdab89674523011032547698badcfe"}', '{Uuidv47}'),
        pg_temp.t('UUIDv47 tests.c''s round-trip case 6: time 0x100000 * 6 + 123, rand_a 0xAAA ^ 6*7, rand_b 0x0123456789ABCDEF ^ 0x1111111111111111 * 6', '{"id": "00000060-007b-7a80-a745-2301efcdab89", "key": "efcdab89674523011032547698badcfe"}', '{Uuidv47}'),
        pg_temp.t('UUIDv47 tests.c''s round-trip case 7: time 0x100000 * 7 + 123, rand_a 0xAAA ^ 7*7, rand_b 0x0123456789ABCDEF ^ 0x1111111111111111 * 7', '{"id": "00000070-007b-7a9b-b654-3210fedcba98", "key": "efcdab89674523011032547698badcfe"}', '{Uuidv47}'),
        pg_temp.t('UUIDv47 tests.c''s round-trip case 8: time 0x100000 * 8 + 123, rand_a 0xAAA ^ 8*7, rand_b 0x0123456789ABCDEF ^ 0x1111111111111111 * 8', '{"id": "00000080-007b-7a92-89ab-cdef01234567", "key": "efcdab89674523011032547698badcfe"}', '{Uuidv47}'),
        pg_temp.t('UUIDv47 tests.c''s round-trip case 9: time 0x100000 * 9 + 123, rand_a 0xAAA ^ 9*7, rand_b 0x0123456789ABCDEF ^ 0x1111111111111111 * 9', '{"id": "00000090-007b-7a95-98ba-dcfe10325476", "key": "efcdab89674523011032547698badcfe"}', '{Uuidv47}'),
        pg_temp.t('UUIDv47 tests.c''s round-trip case 10: time 0x100000 * 10 + 123, rand_a 0xAAA ^ 10*7, rand_b 0x0123456789ABCDEF ^ 0x1111111111111111 * 10', '{"id": "000000a0-007b-7aec-ab89-efcd23016745", "key": "efcdab89674523011032547698badcfe"}', '{Uuidv47}'),
        pg_temp.t('UUIDv47 tests.c''s round-trip case 11: time 0x100000 * 11 + 123, rand_a 0xAAA ^ 11*7, rand_b 0x0123456789ABCDEF ^ 0x1111111111111111 * 11', '{"id": "000000b0-007b-7ae7-ba98-fedc32107654", "key": "efcdab89674523011032547698badcfe"}', '{Uuidv47}'),
        pg_temp.t('UUIDv47 tests.c''s round-trip case 12: time 0x100000 * 12 + 123, rand_a 0xAAA ^ 12*7, rand_b 0x0123456789ABCDEF ^ 0x1111111111111111 * 12', '{"id": "000000c0-007b-7afe-8def-89ab45670123", "key": "efcdab89674523011032547698badcfe"}', '{Uuidv47}'),
        pg_temp.t('UUIDv47 tests.c''s round-trip case 13: time 0x100000 * 13 + 123, rand_a 0xAAA ^ 13*7, rand_b 0x0123456789ABCDEF ^ 0x1111111111111111 * 13', '{"id": "000000d0-007b-7af1-9cfe-98ba54761032", "key": "efcdab89674523011032547698badcfe"}', '{Uuidv47}'),
        pg_temp.t('UUIDv47 tests.c''s round-trip case 14: time 0x100000 * 14 + 123, rand_a 0xAAA ^ 14*7, rand_b 0x0123456789ABCDEF ^ 0x1111111111111111 * 14', '{"id": "000000e0-007b-7ac8-afcd-ab8967452301", "key": "efcdab89674523011032547698badcfe"}', '{Uuidv47}'),
        pg_temp.t('UUIDv47 tests.c''s round-trip case 15: time 0x100000 * 15 + 123, rand_a 0xAAA ^ 15*7, rand_b 0x0123456789ABCDEF ^ 0x1111111111111111 * 15', '{"id": "000000f0-007b-7ac3-bedc-ba9876543210", "key": "efcdab89674523011032547698badcfe"}', '{Uuidv47}'),
        pg_temp.t('UUIDv47 tests.c''s SipHash-input stability case: time 0x123456789ABC, rand_a 0xABC', '{"id": "12345678-9abc-7abc-8123-456789abcdef", "key": "efcdab89674523011032547698badcfe"}', '{Uuidv47}'),
        pg_temp.t('UUIDv47 README''s quick-start v7', '{"id": "00000000-0000-7000-8000-000000000000", "key": "efcdab89674523011032547698badcfe"}', '{Uuidv47,Limit}'),
        pg_temp.t('UUIDv47 demo.c''s v7', '{"id": "018f2d9f-9a2a-7def-8c3f-7b1a2c4d5e6f", "key": "efcdab89674523011032547698badcfe"}', '{Uuidv47}'),
        pg_temp.t('SipHash-2-4''s published tag of the 10 bytes 00..09 under the key 00..0f, 0x7a5dbbc594ddb9f3: its low 48 bits are the facade''s time', '{"id": "00000000-0000-7001-8203-040506070809", "key": "000102030405060708090a0b0c0d0e0f"}', '{SipHashVector}')
    ]);

SELECT pg_temp.vector_group('publicid', 'uuid_v7_to_public',
    'the v7 of each layout (PostgreSQL 18''s and sequuid''s with the 12-bit fraction, pg_uuidv7''s zero form, RFC 9562''s example), the ends of the v7 range, and the errors: a uuid other than a v7 (another version, another variant), a key other than 16 bytes',
    '{"id": "uuid", "key": "bytea"}', 'uuid', NULL,
    'SELECT to_jsonb(uuid_v7_to_public({id}::uuid, decode({key}, ''hex'')))',
    ARRAY[
        pg_temp.t('RFC 9562 appendix A.6''s v7', '{"id": "017f22e2-79b0-7cc3-98c4-dc0c0c07398f", "key": "efcdab89674523011032547698badcfe"}', '{Rfc9562}'),
        pg_temp.t('a v7 with the 12-bit fraction of PostgreSQL 18 and sequuid (base32hex.json''s example)', '{"id": "019535d9-3df7-79fb-b466-fa907fa17f9e", "key": "efcdab89674523011032547698badcfe"}', '{Fraction}'),
        pg_temp.t('pg_uuidv7''s zero form: every bit but the time, version and variant zero', '{"id": "01857162-1b9d-7000-8000-000000000000", "key": "efcdab89674523011032547698badcfe"}', '{}'),
        pg_temp.t('the last v7: every free bit one', '{"id": "ffffffff-ffff-7fff-bfff-ffffffffffff", "key": "efcdab89674523011032547698badcfe"}', '{Limit}'),
        pg_temp.t('the all-zero key is a key like any other', '{"id": "019535d9-3df7-79fb-b466-fa907fa17f9e", "key": "00000000000000000000000000000000"}', '{}'),
        pg_temp.t('a façade is not encoded again', '{"id": "2463c780-7fca-4def-8c3f-7b1a2c4d5e6f", "key": "efcdab89674523011032547698badcfe"}', '{WrongVersion}'),
        pg_temp.t('RFC 9562 appendix A.5''s v6', '{"id": "1ec9414c-232a-6b00-b3c8-9f6bdeced846", "key": "efcdab89674523011032547698badcfe"}', '{WrongVersion}'),
        pg_temp.t('the nil uuid', '{"id": "00000000-0000-0000-0000-000000000000", "key": "efcdab89674523011032547698badcfe"}', '{WrongVersion}'),
        pg_temp.t('version 7 with variant 11', '{"id": "018f2d9f-9a2a-7def-cc3f-7b1a2c4d5e6f", "key": "efcdab89674523011032547698badcfe"}', '{NotRfcVariant}'),
        pg_temp.t('version 7 with variant 0', '{"id": "018f2d9f-9a2a-7def-4c3f-7b1a2c4d5e6f", "key": "efcdab89674523011032547698badcfe"}', '{NotRfcVariant}'),
        pg_temp.t('a key of 15 bytes', '{"id": "018f2d9f-9a2a-7def-8c3f-7b1a2c4d5e6f", "key": "efcdab89674523011032547698badc"}', '{KeyLength}'),
        pg_temp.t('a key of 17 bytes', '{"id": "018f2d9f-9a2a-7def-8c3f-7b1a2c4d5e6f", "key": "efcdab89674523011032547698badcfe00"}', '{KeyLength}'),
        pg_temp.t('an empty key', '{"id": "018f2d9f-9a2a-7def-8c3f-7b1a2c4d5e6f", "key": ""}', '{KeyLength}')
    ]);

SELECT pg_temp.vector_group('publicid', 'uuid_uuidv47_to_v7',
    'a façade back to its v7 under the same key (UUIDv47''s decode): the same XOR, version 7; UUIDv47''s published cases, what a wrong key gives (not detected: docs/public-ids.md), and the errors: a uuid other than a façade (another version, another variant), a key other than 16 bytes',
    '{"id": "uuid", "key": "bytea"}', 'uuid', NULL,
    'SELECT to_jsonb(uuid_uuidv47_to_v7({id}::uuid, decode({key}, ''hex'')))',
    ARRAY[
        pg_temp.t('UUIDv47 tests.c''s round-trip case 0, back', '{"id": "b108050e-46b6-4aaa-8123-456789abcdef", "key": "efcdab89674523011032547698badcfe"}', '{Uuidv47}'),
        pg_temp.t('UUIDv47 tests.c''s round-trip case 1, back', '{"id": "bc75bd50-97ef-4aad-9032-547698badcfe", "key": "efcdab89674523011032547698badcfe"}', '{Uuidv47}'),
        pg_temp.t('UUIDv47 tests.c''s round-trip case 2, back', '{"id": "a3e09c87-bf85-4aa4-a301-6745ab89efcd", "key": "efcdab89674523011032547698badcfe"}', '{Uuidv47}'),
        pg_temp.t('UUIDv47 tests.c''s round-trip case 3, back', '{"id": "4a643a79-6975-4abf-b210-7654ba98fedc", "key": "efcdab89674523011032547698badcfe"}', '{Uuidv47}'),
        pg_temp.t('UUIDv47 tests.c''s round-trip case 4, back', '{"id": "ba071f02-23bd-4ab6-8567-0123cdef89ab", "key": "efcdab89674523011032547698badcfe"}', '{Uuidv47}'),
        pg_temp.t('UUIDv47 tests.c''s round-trip case 5, back', '{"id": "b215242c-6fb1-4a89-9476-1032dcfe98ba", "key": "efcdab89674523011032547698badcfe"}', '{Uuidv47}'),
        pg_temp.t('UUIDv47 tests.c''s round-trip case 6, back', '{"id": "e8e788cf-ded6-4a80-a745-2301efcdab89", "key": "efcdab89674523011032547698badcfe"}', '{Uuidv47}'),
        pg_temp.t('UUIDv47 tests.c''s round-trip case 7, back', '{"id": "3d4b88de-ece3-4a9b-b654-3210fedcba98", "key": "efcdab89674523011032547698badcfe"}', '{Uuidv47}'),
        pg_temp.t('UUIDv47 tests.c''s round-trip case 8, back', '{"id": "9d9bd354-51fe-4a92-89ab-cdef01234567", "key": "efcdab89674523011032547698badcfe"}', '{Uuidv47}'),
        pg_temp.t('UUIDv47 tests.c''s round-trip case 9, back', '{"id": "f261fb3c-8b2e-4a95-98ba-dcfe10325476", "key": "efcdab89674523011032547698badcfe"}', '{Uuidv47}'),
        pg_temp.t('UUIDv47 tests.c''s round-trip case 10, back', '{"id": "31c34e74-1771-4aec-ab89-efcd23016745", "key": "efcdab89674523011032547698badcfe"}', '{Uuidv47}'),
        pg_temp.t('UUIDv47 tests.c''s round-trip case 11, back', '{"id": "928f4297-9c9b-4ae7-ba98-fedc32107654", "key": "efcdab89674523011032547698badcfe"}', '{Uuidv47}'),
        pg_temp.t('UUIDv47 tests.c''s round-trip case 12, back', '{"id": "b8c1b1f0-8831-4afe-8def-89ab45670123", "key": "efcdab89674523011032547698badcfe"}', '{Uuidv47}'),
        pg_temp.t('UUIDv47 tests.c''s round-trip case 13, back', '{"id": "3994c161-2a72-4af1-9cfe-98ba54761032", "key": "efcdab89674523011032547698badcfe"}', '{Uuidv47}'),
        pg_temp.t('UUIDv47 tests.c''s round-trip case 14, back', '{"id": "fae6e510-f8b5-4ac8-afcd-ab8967452301", "key": "efcdab89674523011032547698badcfe"}', '{Uuidv47}'),
        pg_temp.t('UUIDv47 tests.c''s round-trip case 15, back', '{"id": "ce171cbd-d0f1-4ac3-bedc-ba9876543210", "key": "efcdab89674523011032547698badcfe"}', '{Uuidv47}'),
        pg_temp.t('UUIDv47 demo.c''s facade, back', '{"id": "2463c780-7fca-4def-8c3f-7b1a2c4d5e6f", "key": "efcdab89674523011032547698badcfe"}', '{Uuidv47}'),
        pg_temp.t('UUIDv47 tests.c''s wrong key (k0 ^ 0xdeadbeef, k1 ^ 0x1337): another v7 with the same random bits, its time noise; not detected (docs/public-ids.md)', '{"id": "2463c780-7fca-4def-8c3f-7b1a2c4d5e6f", "key": "00730657674523012721547698badcfe"}', '{Uuidv47,WrongKey}'),
        pg_temp.t('the SipHash tag''s case, back', '{"id": "bbc594dd-b9f3-4001-8203-040506070809", "key": "000102030405060708090a0b0c0d0e0f"}', '{SipHashVector}'),
        pg_temp.t('a random v4 that is nobody''s façade decodes to a v7 whose time is noise', '{"id": "0f6a2d2e-93b1-4c55-9a1e-5b2f0c7d8e91", "key": "efcdab89674523011032547698badcfe"}', '{WrongKey}'),
        pg_temp.t('a v7 is not decoded', '{"id": "018f2d9f-9a2a-7def-8c3f-7b1a2c4d5e6f", "key": "efcdab89674523011032547698badcfe"}', '{WrongVersion}'),
        pg_temp.t('the nil uuid', '{"id": "00000000-0000-0000-0000-000000000000", "key": "efcdab89674523011032547698badcfe"}', '{WrongVersion}'),
        pg_temp.t('version 4 with variant 11', '{"id": "2463c780-7fca-4def-cc3f-7b1a2c4d5e6f", "key": "efcdab89674523011032547698badcfe"}', '{NotRfcVariant}'),
        pg_temp.t('a key of 15 bytes', '{"id": "2463c780-7fca-4def-8c3f-7b1a2c4d5e6f", "key": "efcdab89674523011032547698badc"}', '{KeyLength}'),
        pg_temp.t('a key of 17 bytes', '{"id": "2463c780-7fca-4def-8c3f-7b1a2c4d5e6f", "key": "efcdab89674523011032547698badcfe00"}', '{KeyLength}')
    ]);

SELECT pg_temp.vector_group('publicid', 'uuid_public_to_v7',
    'a public id back to its v7 under the same key: the four Feistel rounds backwards, version 7; each façade of the uuid_v7_to_public groups, what a wrong key gives (not detected: docs/public-ids.md), and the errors: a uuid other than a façade (another version, another variant), a key other than 16 bytes',
    '{"id": "uuid", "key": "bytea"}', 'uuid', NULL,
    'SELECT to_jsonb(uuid_public_to_v7({id}::uuid, decode({key}, ''hex'')))',
    (SELECT array_agg(pg_temp.t(format('the public id of %s, back', v7), jsonb_build_object('id', uuid_v7_to_public(v7::uuid, decode(k, 'hex')), 'key', k), '{}') ORDER BY n)
     FROM (VALUES (1, '017f22e2-79b0-7cc3-98c4-dc0c0c07398f', 'efcdab89674523011032547698badcfe'),
                  (2, '019535d9-3df7-79fb-b466-fa907fa17f9e', 'efcdab89674523011032547698badcfe'),
                  (3, '01857162-1b9d-7000-8000-000000000000', 'efcdab89674523011032547698badcfe'),
                  (4, 'ffffffff-ffff-7fff-bfff-ffffffffffff', 'efcdab89674523011032547698badcfe'),
                  (5, '00000000-0000-7000-8000-000000000000', 'efcdab89674523011032547698badcfe'),
                  (6, '018f2d9f-9a2a-7def-8c3f-7b1a2c4d5e6f', 'efcdab89674523011032547698badcfe'),
                  (7, '019535d9-3df7-79fb-b466-fa907fa17f9e', '00000000000000000000000000000000'),
                  (8, '00000000-0000-7001-8203-040506070809', '000102030405060708090a0b0c0d0e0f')) v (n, v7, k))
    || ARRAY[
        pg_temp.t('a façade decoded with another key: a v7 with the same rand_b, its time and fraction noise; not detected (docs/public-ids.md)', '{"id": "d6d6a15a-d41a-489f-8c3f-7b1a2c4d5e6f", "key": "00730657674523012721547698badcfe"}', '{WrongKey}'),
        pg_temp.t('a random v4 that is nobody''s façade decodes to a v7 whose time is noise', '{"id": "0f6a2d2e-93b1-4c55-9a1e-5b2f0c7d8e91", "key": "efcdab89674523011032547698badcfe"}', '{WrongKey}'),
        pg_temp.t('a v7 is not decoded', '{"id": "018f2d9f-9a2a-7def-8c3f-7b1a2c4d5e6f", "key": "efcdab89674523011032547698badcfe"}', '{WrongVersion}'),
        pg_temp.t('the nil uuid', '{"id": "00000000-0000-0000-0000-000000000000", "key": "efcdab89674523011032547698badcfe"}', '{WrongVersion}'),
        pg_temp.t('version 4 with variant 11', '{"id": "d6d6a15a-d41a-489f-cc3f-7b1a2c4d5e6f", "key": "efcdab89674523011032547698badcfe"}', '{NotRfcVariant}'),
        pg_temp.t('a key of 15 bytes', '{"id": "d6d6a15a-d41a-489f-8c3f-7b1a2c4d5e6f", "key": "efcdab89674523011032547698badc"}', '{KeyLength}'),
        pg_temp.t('a key of 17 bytes', '{"id": "d6d6a15a-d41a-489f-8c3f-7b1a2c4d5e6f", "key": "efcdab89674523011032547698badcfe00"}', '{KeyLength}')
    ]);

SELECT pg_temp.vector_group('publicid', 'uuid_v7_to_public',
    'v7s of one millisecond whose rand_a rises, as PostgreSQL 18''s and sequuid''s do: each public id''s time and rand_a change as a whole, rand_b stays',
    '{"id": "uuid", "key": "bytea"}', 'uuid', NULL,
    'SELECT to_jsonb(uuid_v7_to_public({id}::uuid, decode({key}, ''hex'')))',
    ARRAY[
        pg_temp.t('fraction 0x001', '{"id": "0193a1b2-c3d4-7001-8123-456789abcdef", "key": "efcdab89674523011032547698badcfe"}', '{Fraction}'),
        pg_temp.t('fraction 0x002, every other bit the same', '{"id": "0193a1b2-c3d4-7002-8123-456789abcdef", "key": "efcdab89674523011032547698badcfe"}', '{Fraction}'),
        pg_temp.t('fraction 0x003', '{"id": "0193a1b2-c3d4-7003-8123-456789abcdef", "key": "efcdab89674523011032547698badcfe"}', '{Fraction}'),
        pg_temp.t('the next millisecond, fraction 0x001', '{"id": "0193a1b2-c3d5-7001-8123-456789abcdef", "key": "efcdab89674523011032547698badcfe"}', '{Fraction}'),
        pg_temp.t('fraction 0x001 with rand_b one bit apart: another tweak', '{"id": "0193a1b2-c3d4-7001-8123-456789abcdee", "key": "efcdab89674523011032547698badcfe"}', '{Fraction}')
    ]);

-- the files ------------------------------------------------------------------------------------------------------

\o
SELECT file || E'\t' || jsonb_build_object('testGroups', jsonb_agg(doc ORDER BY position))::text
FROM vector_groups
GROUP BY file
ORDER BY file
\g (format=unaligned tuples_only=on)
