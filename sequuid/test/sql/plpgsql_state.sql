-- plpgsql_state (PL/pgSQL port only): the generators' per-backend state, driven directly.  The C tests step the
-- clock with sequuid.clock_offset; here the state is moved ahead of the clock instead, which is the same thing
-- seen from the generator: the time in the values must run on from the state, never back to the clock.
SET search_path = public, regress_helpers;

-- v7: state one hour ahead (in 1/4096 ms); the next values continue from it, one fraction step at a time
SELECT set_config('sequuid_plpgsql.v7_state',
                  ((floor(extract(epoch FROM clock_timestamp()) * 1000)::bigint + 3600000) * 4096)::text, false)
       AS moved_state \gset
SELECT unix_ms(u) * 4096 + v7_fraction(u) - :moved_state AS steps_after_moved_state,
       version(u) AS version, variant(u) AS variant
FROM (SELECT uuid_generate_v7() AS u) g;
SELECT count(*) AS calls, count(*) FILTER (WHERE ticks <> previous_ticks + 1) AS not_one_step
FROM (SELECT ticks, lag(ticks) OVER (ORDER BY call) AS previous_ticks
      FROM (SELECT call, unix_ms(u) * 4096 + v7_fraction(u) AS ticks
            FROM (SELECT call, uuid_generate_v7() AS u FROM generate_series(1, 1000) call) g) t) w
WHERE previous_ticks IS NOT NULL;

-- v6: the same, in 100 ns
SELECT set_config('sequuid_plpgsql.v6_state',
                  ((floor(extract(epoch FROM clock_timestamp()) * 1000)::bigint + 3600000) * 10000
                   + 122192928000000000)::text, false) IS NOT NULL AS moved;
SELECT count(*) AS calls, count(*) FILTER (WHERE t <> previous_t + 1) AS not_one_step
FROM (SELECT t, lag(t) OVER (ORDER BY call) AS previous_t
      FROM (SELECT call, v6_gregorian_100ns(uuid_generate_v6()) AS t FROM generate_series(1, 1000) call) g) w
WHERE previous_t IS NOT NULL;

-- ULID monotonic mode: a state in a later millisecond is incremented; the carry runs from the low 60 bits into
-- the high 20; when all 80 random bits are ones the value moves to the next millisecond with fresh random bits
SELECT set_config('sequuid_plpgsql.ulid_state', 'ffff00000000' || '00000' || 'ffffffffffffffe', false) IS NOT NULL AS moved;
SELECT uuid_generate_ulid() AS plus_one, uuid_generate_ulid() AS carry_into_high_bits,
       uuid_generate_ulid() AS plus_one_again;
SELECT set_config('sequuid_plpgsql.ulid_state', 'ffff00000000' || 'ffffffffffffffffffff', false) IS NOT NULL AS moved;
SELECT unix_ms(u) - x'ffff00000000'::bigint AS next_millisecond, octets(u, 6, 15) <> 0 AS fresh_random_bits
FROM (SELECT uuid_generate_ulid() AS u) g;

-- a rolled-back transaction takes the state back with it (documented difference from C)
SELECT set_config('sequuid_plpgsql.v7_state', '1000', false) IS NOT NULL AS moved;
BEGIN;
SELECT set_config('sequuid_plpgsql.v7_state', '5000', false) IS NOT NULL AS moved_in_transaction;
ROLLBACK;
SELECT current_setting('sequuid_plpgsql.v7_state') AS state_after_rollback;

-- RESET leaves an empty setting, which counts as no state: the clocks start again from the current time
RESET sequuid_plpgsql.v7_state;
RESET sequuid_plpgsql.v6_state;
SELECT uuid_version(uuid_generate_v7()) AS v7, uuid_version(uuid_generate_v6()) AS v6,
       abs(extract(epoch FROM uuid_timestamp(uuid_generate_v7()) - clock_timestamp())) < 60 AS v7_from_the_clock;

-- uuid_sequence_nextval's block arithmetic at the int8 limits: bigint, from nextval mod the period size * 2^bits
-- (the numeric form it replaced overflowed at the minimum with block_size 1).  expected is floor((v - 1) / size)
-- mod 2^bits exactly (numeric's / would round the quotient), in sequential-uuids 1.0.3's whole-byte layout: 1 x 3 is
-- one byte of blocks of size 1; 2147483647 x 2147483647 is 32 bits of blocks of (2^31 - 1)^2 / 2^32 = 1073741823
CREATE SEQUENCE state_seq_limits MINVALUE -9223372036854775808 START -9223372036854775808 CYCLE;
SELECT v, get_byte(uuid_send(u), 0) AS prefix, mod(mod(v::numeric - 1, 256) + 256, 256) AS expected
FROM (SELECT uuid_sequence_nextval('state_seq_limits', 1, 3) AS u, currval('state_seq_limits') AS v
      FROM generate_series(1, 2)) s;
-- the maximum, then the minimum again (the sequence cycles)
SELECT setval('state_seq_limits', 9223372036854775806) IS NOT NULL AS moved;
SELECT v, octets(u, 0, 3)::bigint AS prefix,
       mod(mod(div(v::numeric - 1 - mod(mod(v::numeric - 1, 1073741823) + 1073741823, 1073741823), 1073741823),
               4294967296) + 4294967296, 4294967296) AS expected
FROM (SELECT uuid_sequence_nextval('state_seq_limits', 2147483647, 2147483647) AS u, currval('state_seq_limits') AS v
      FROM generate_series(1, 3)) s;
DROP SEQUENCE state_seq_limits;
