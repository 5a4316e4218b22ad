-- uuid_timestamp, ulid_timestamp, uuid_version, uuid_variant (shared: C and PL/pgSQL give the same output).
-- Errors show message and SQLSTATE only: CONTEXT lines differ between the implementations.
\set SHOW_CONTEXT never
SET TimeZone = 'UTC';
SET DateStyle = 'ISO, YMD';

-- RFC 9562 Appendix A: v1 (A.1), v4 (A.3), v6 (A.5), v7 (A.6) test vectors; all made at 2022-02-22 19:22:22 UTC.
SELECT id, uuid_version(id), uuid_variant(id), uuid_timestamp(id)
FROM (VALUES ('c232ab00-9414-11ec-b3c8-9f6bdeced846'::uuid),
             ('919108f7-52d1-4320-9bac-f847db4148a8'),
             ('1ec9414c-232a-6b00-b3c8-9f6bdeced846'),
             ('017f22e2-79b0-7cc3-98c4-dc0c0c07398f')) AS vectors(id);

-- NULL in, NULL out
SELECT uuid_timestamp(NULL), ulid_timestamp(NULL), uuid_version(NULL), uuid_variant(NULL);

-- the variant field read as RFC 9562 Table 1: 0xx -> 0, 10x -> 2, 110 -> 6, 111 -> 7; a version only for variant 2
SELECT id, uuid_variant(id), uuid_version(id), uuid_timestamp(id)
FROM (VALUES ('00000000-0000-0000-0000-000000000000'::uuid),
             ('ffffffff-ffff-ffff-ffff-ffffffffffff'),
             ('c232ab00-9414-11ec-33c8-9f6bdeced846'),
             ('c232ab00-9414-11ec-7fc8-9f6bdeced846'),
             ('c232ab00-9414-11ec-bfc8-9f6bdeced846'),
             ('c232ab00-9414-11ec-c3c8-9f6bdeced846'),
             ('c232ab00-9414-11ec-dfc8-9f6bdeced846'),
             ('c232ab00-9414-11ec-e3c8-9f6bdeced846'),
             ('00000000-0000-f000-8000-000000000000'),
             ('00000000-0000-8000-8000-000000000000')) AS ids(id);

-- every version 0-15 with the RFC variant: a timestamp exactly for 1, 6 and 7
SELECT version, uuid_version(id), uuid_timestamp(id) IS NOT NULL AS has_timestamp
FROM generate_series(0, 15) AS version,
     LATERAL (SELECT ('01234567-89ab-' || to_hex(version) || 'def-8123-456789abcdef')::uuid AS id) AS built;

-- extremes of each clock: the v1/v6 60-bit Gregorian count (1582-10-15 .. 5236-03-31), the v7/ULID 48-bit ms
SELECT label, id, uuid_timestamp(id)
FROM (VALUES ('v1 minimum', '00000000-0000-1000-8000-000000000000'::uuid),
             ('v1 maximum', 'ffffffff-ffff-1fff-bfff-ffffffffffff'),
             ('v6 minimum', '00000000-0000-6000-8000-000000000000'),
             ('v6 maximum', 'ffffffff-ffff-6fff-bfff-ffffffffffff'),
             ('v1 unix epoch', '13814000-1dd2-11b2-8000-000000000000'),
             ('v6 unix epoch', '1b21dd21-3814-6000-8000-000000000000'),
             ('v7 minimum', '00000000-0000-7000-8000-000000000000'),
             ('v7 maximum', 'ffffffff-ffff-7fff-bfff-ffffffffffff')) AS extremes(label, id);

-- v1 and v6 keep 100-ns ticks; the timestamp truncates them to the microsecond
SELECT uuid_timestamp('13814009-1dd2-11b2-8000-000000000000') AS nine_ticks,
       uuid_timestamp('1381400a-1dd2-11b2-8000-000000000000') AS ten_ticks;

-- v7: the sub-millisecond fraction is read back to the microsecond.  A fraction covers 244 ns; the result is the
-- last whole microsecond starting inside it, so fraction 4095 stays in its millisecond (.000999, not .001)
SELECT fraction, uuid_timestamp(('017f22e2-79b0-7' || lpad(to_hex(fraction), 3, '0') || '-8000-000000000000')::uuid)
FROM (VALUES (0), (1), (4), (5), (2047), (2048), (4091), (4092), (4095)) AS fractions(fraction);

-- within 1 us of the instant a generator encoded, for 20k random instants given in nanoseconds (the port 4k):
-- fraction = sub-ms ns * 4096 / 10^6 as PostgreSQL 18 computes it
SELECT regress_helpers.sized(20000, 4000) AS instants \gset
SELECT count(*) = :instants AS all_read,
       count(*) FILTER (WHERE error_us NOT IN (0, 1)) AS off_by_more_than_1us,
       count(*) FILTER (WHERE error_us = 0) > 0.7 * count(*) AS mostly_exact
FROM (SELECT (extract(epoch FROM uuid_timestamp(id)) * 1000000)::bigint - floor(unix_ns / 1000)::bigint AS error_us
      FROM (SELECT unix_ns,
                   (lpad(to_hex(unix_ns / 1000000), 12, '0') || '7' ||
                    lpad(to_hex((unix_ns % 1000000) * 4096 / 1000000), 3, '0') || '8000000000000000')::uuid AS id
            FROM (SELECT (random() * 4e18)::bigint AS unix_ns FROM generate_series(1, :instants)) AS r) AS built
     ) AS errors;

-- ULID: the first 48 bits are Unix milliseconds, whatever the rest (no version or variant in a ULID)
SELECT id, ulid_timestamp(id)
FROM (VALUES ('01563e3a-b5d3-d676-4c61-efb99302bd5b'::uuid),
             ('00000000-0000-0000-0000-000000000000'),
             ('ffffffff-ffff-ffff-ffff-ffffffffffff'),
             ('017f22e2-79b0-7cc3-98c4-dc0c0c07398f')) AS ulids(id);
