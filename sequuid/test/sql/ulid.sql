-- ulid: the layout of uuid_generate_ulid() (48-bit ms + 80 random bits) and its monotonic mode.
SET search_path = public, regress_helpers;

CREATE TEMP TABLE ulid_sample AS SELECT * FROM sample_calls('uuid_generate_ulid()', 2000);

-- the millisecond lies between the clock readings around the call
SELECT count(*) AS calls, count(DISTINCT u) AS distinct_values,
       count(*) FILTER (WHERE unix_ms(u) < ms_of(before)) AS before_the_clock,
       count(*) FILTER (WHERE unix_ms(u) > ms_of(after)) AS after_the_clock
FROM ulid_sample;

-- monotonic mode: within a millisecond each value is the previous one plus 1 in the 80 random bits; a new
-- millisecond starts from fresh random bits.  A burst of calls makes sure many share a millisecond.
CREATE TEMP TABLE ulid_burst AS SELECT call, uuid_generate_ulid() AS u FROM generate_series(1, 2000) call;
SELECT count(*) FILTER (WHERE same_ms) > 0 AS some_calls_share_a_millisecond,
       count(*) FILTER (WHERE same_ms AND random80 <> previous_random80 + 1) AS same_ms_not_plus_one,
       count(*) FILTER (WHERE NOT same_ms AND unix_ms <= previous_unix_ms) AS new_ms_not_later
FROM (SELECT unix_ms(u) AS unix_ms, octets(u, 6, 15) AS random80,
             lag(unix_ms(u)) OVER w AS previous_unix_ms, lag(octets(u, 6, 15)) OVER w AS previous_random80,
             unix_ms(u) = lag(unix_ms(u)) OVER w AS same_ms
      FROM ulid_burst WINDOW w AS (ORDER BY call)) s
WHERE previous_unix_ms IS NOT NULL;

-- the first value of each millisecond has fresh random bits: no two alike
SELECT count(DISTINCT random80) = count(*) AS fresh_random_distinct
FROM (SELECT DISTINCT ON (unix_ms(u)) octets(u, 6, 15) AS random80 FROM ulid_sample ORDER BY unix_ms(u), call) s;
