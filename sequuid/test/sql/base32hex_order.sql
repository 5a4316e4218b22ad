-- base32hex_order (C only: the PL/pgSQL port takes about 50 us per value, and base32hex checks 20,000 values on
-- both): the text of a million time-ordered values sorts byte-wise (COLLATE "C") as the uuids do, as PostgreSQL
-- 19's documentation warns it does only byte-wise.
-- The values: v7's 48-bit ms and 12-bit fraction of instants 37 us apart, three at each instant, 8 pseudo-random
-- trailing bytes, made in plain SQL so that the check does not lean on the functions it checks.  Each text is
-- compared with the one before it in uuid order; every 100th is decoded back.
SELECT count(*) AS values_checked,
       count(*) FILTER (WHERE previous >= text COLLATE "C") AS out_of_byte_order,
       count(*) FILTER (WHERE n % 100 = 0 AND uuid_from_base32hex(text) <> id) AS not_round_trip
FROM (SELECT n, id, text, lag(text) OVER (ORDER BY id) AS previous
      FROM (SELECT n, id, uuid_to_base32hex(id) AS text
            FROM (SELECT n, (lpad(to_hex((us / 1000) << 16 | 28672 | (us % 1000) * 4096 / 1000), 16, '0')
                             || left(md5(n::text), 16))::uuid AS id
                  FROM (SELECT n, 1735689600000000 + (n / 3) * 37 AS us
                        FROM generate_series(1, 1000000) n) i) g) t) o;
