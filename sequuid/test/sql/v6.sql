-- v6: the bit layout of uuid_generate_v6(), checked octet by octet.
SET search_path = public, regress_helpers;

CREATE TEMP TABLE v6_sample AS SELECT * FROM sample_calls('uuid_generate_v6()', 2000);

-- version 6, variant 10, random node with the multicast bit (RFC 9562 section 6.10), no two values alike
SELECT count(*) AS calls, count(DISTINCT u) AS distinct_values,
       bool_and(version(u) = 6) AS version_6, bool_and(variant(u) = 2) AS variant_10,
       bool_and(get_byte(uuid_send(u), 10) & 1 = 1) AS multicast_node
FROM v6_sample;

-- the 60-bit Gregorian timestamp (100 ns since 1582-10-15) lies between the clock readings around the call;
-- 122192928000000000 is the distance from the Gregorian to the Unix epoch in 100 ns
SELECT count(*) FILTER (WHERE v6_gregorian_100ns(u) < floor(extract(epoch FROM before) * 10000000) + 122192928000000000)
           AS before_the_clock,
       count(*) FILTER (WHERE v6_gregorian_100ns(u) > ceil(extract(epoch FROM after) * 10000000) + 122192928000000000
                                                   + 10000) AS after_the_clock
FROM v6_sample;

-- clock_seq (14 bits) and node (47 bits besides the multicast bit) are random: each of those bits takes both values
SELECT bool_and(ones BETWEEN 800 AND 1200) AS clock_seq_and_node_bits_balanced
-- get_bit numbers bits from the right within each octet: 70 and 71 are the variant, 80 the multicast bit
FROM (SELECT count(*) FILTER (WHERE get_bit(uuid_send(u), bit) = 1) AS ones
      FROM v6_sample, generate_series(64, 127) bit WHERE bit NOT IN (70, 71, 80) GROUP BY bit) b;
