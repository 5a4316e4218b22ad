-- v1: the bit layout of uuid_generate_v1_random_node(), checked octet by octet, and its ordering.
SET search_path = public, regress_helpers;

-- the 60-bit Gregorian timestamp of a v1: time_low (octets 0-3), time_mid (4-5), time_high (low nibble of 6, 7).
-- One get_byte per octet rather than octets(): PostgreSQL inlines this single expression, while octets() sums
-- numerics over generate_series on every call, seconds of CPU over the ordering check's calls below.
CREATE FUNCTION pg_temp.v1_gregorian_100ns(u uuid) RETURNS bigint
    LANGUAGE sql IMMUTABLE STRICT
    AS $$ SELECT (get_byte(uuid_send(u), 0)::bigint << 24) | (get_byte(uuid_send(u), 1)::bigint << 16)
        | (get_byte(uuid_send(u), 2)::bigint << 8) | get_byte(uuid_send(u), 3)::bigint
        | (get_byte(uuid_send(u), 4)::bigint << 40) | (get_byte(uuid_send(u), 5)::bigint << 32)
        | ((get_byte(uuid_send(u), 6) & 15)::bigint << 56) | (get_byte(uuid_send(u), 7)::bigint << 48) $$;

-- the RFC 9562 Appendix A.1 vector reads as its documented timestamp (0x1EC9414C232AB00)
SELECT pg_temp.v1_gregorian_100ns('c232ab00-9414-11ec-b3c8-9f6bdeced846') = x'1EC9414C232AB00'::bigint AS rfc_vector;

CREATE TEMP TABLE v1_sample AS SELECT * FROM sample_calls('uuid_generate_v1_random_node()', 2000);

-- version 1, variant 10, random node with the multicast bit (RFC 9562 section 6.10), no two values alike
SELECT count(*) AS calls, count(DISTINCT u) AS distinct_values,
       bool_and(version(u) = 1) AS version_1, bool_and(variant(u) = 2) AS variant_10,
       bool_and(get_byte(uuid_send(u), 10) & 1 = 1) AS multicast_node
FROM v1_sample;

-- the timestamp lies between the clock readings around the call (122192928000000000: Gregorian to Unix epoch)
SELECT count(*) FILTER (WHERE pg_temp.v1_gregorian_100ns(u)
                              < floor(extract(epoch FROM before) * 10000000) + 122192928000000000) AS before_the_clock,
       count(*) FILTER (WHERE pg_temp.v1_gregorian_100ns(u)
                              > ceil(extract(epoch FROM after) * 10000000) + 122192928000000000 + 10000)
           AS after_the_clock
FROM v1_sample;

-- the low time bits come first: uuid_v1_to_v6 gives the same timestamp most significant first
SELECT bool_and(v6_gregorian_100ns(uuid_v1_to_v6(u)) = pg_temp.v1_gregorian_100ns(u)) AS same_time_as_v6_form,
       bool_and(uuid_timestamp(u) BETWEEN date_trunc('milliseconds', before) - interval '1 ms' AND after + interval '1 ms')
           AS uuid_timestamp_reads_it
FROM v1_sample;

-- clock_seq (14 bits) and node (47 bits besides the multicast bit) are random: each of those bits takes both values
SELECT bool_and(ones BETWEEN 800 AND 1200) AS clock_seq_and_node_bits_balanced
FROM (SELECT count(*) FILTER (WHERE get_bit(uuid_send(u), bit) = 1) AS ones
      FROM v1_sample, generate_series(64, 127) bit WHERE bit NOT IN (70, 71, 80) GROUP BY bit) b;

-- ordering: over 50,000 calls in one backend the timestamp strictly increases (the bytes do not: time_low
-- comes first), and so does the v6 form, which is what uuid_time_ops orders by.  The port makes 10,000, still
-- many to each of the milliseconds they span.
SELECT regress_helpers.sized(50000, 10000) AS calls \gset
SELECT count(*) = :calls AS all_made,
       count(*) FILTER (WHERE pg_temp.v1_gregorian_100ns(u) <= pg_temp.v1_gregorian_100ns(previous)) AS time_not_increasing,
       count(*) FILTER (WHERE u ~<=~ previous) AS time_ops_not_increasing
FROM (SELECT u, lag(u) OVER (ORDER BY call) AS previous
      FROM (SELECT call, uuid_generate_v1_random_node() AS u FROM generate_series(1, :calls) call) g) w;

-- never uuid-ossp's name
SELECT count(*) AS uuid_ossp_names FROM pg_proc
WHERE proname IN ('uuid_generate_v1', 'uuid_generate_v1mc', 'uuid_generate_v3', 'uuid_generate_v4', 'uuid_generate_v5',
                  'uuid_nil', 'uuid_ns_dns', 'uuid_ns_url', 'uuid_ns_oid', 'uuid_ns_x500');
