-- test_helpers: byte-level readers the generator tests share.  Written in plain SQL on purpose: they must
-- not depend on the extension under test (C or PL/pgSQL), so a layout bug cannot hide behind itself.
CREATE SCHEMA regress_helpers;

-- octets first..last (0-based, inclusive) of a uuid as an unsigned big-endian number
CREATE FUNCTION regress_helpers.octets(u uuid, first int, last int) RETURNS numeric
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
    AS $$ SELECT coalesce(sum(get_byte(uuid_send(u), k)::numeric * 256::numeric ^ (last - k)), 0)::numeric(40, 0)
            FROM generate_series(first, last) k $$;

CREATE FUNCTION regress_helpers.version(u uuid) RETURNS int
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$ SELECT get_byte(uuid_send(u), 6) >> 4 $$;

CREATE FUNCTION regress_helpers.variant(u uuid) RETURNS int
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$ SELECT get_byte(uuid_send(u), 8) >> 6 $$;

-- v7 and ULID: 48-bit Unix milliseconds
CREATE FUNCTION regress_helpers.unix_ms(u uuid) RETURNS bigint
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$ SELECT regress_helpers.octets(u, 0, 5)::bigint $$;

-- v7: the 12-bit sub-millisecond fraction in rand_a
CREATE FUNCTION regress_helpers.v7_fraction(u uuid) RETURNS int
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$ SELECT ((get_byte(uuid_send(u), 6) & 15) << 8) | get_byte(uuid_send(u), 7) $$;

-- v6: the 60-bit Gregorian 100-ns timestamp, most significant first, around the version nibble
CREATE FUNCTION regress_helpers.v6_gregorian_100ns(u uuid) RETURNS bigint
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
    AS $$ SELECT (regress_helpers.octets(u, 0, 5)::bigint << 12)
        | ((get_byte(uuid_send(u), 6) & 15)::bigint << 8) | get_byte(uuid_send(u), 7) $$;

-- milliseconds since the Unix epoch of a timestamptz
CREATE FUNCTION regress_helpers.ms_of(t timestamptz) RETURNS bigint
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$ SELECT floor(extract(epoch FROM t) * 1000)::bigint $$;

-- calls of a generator, one at a time, each with the clock read just before and just after it
CREATE FUNCTION regress_helpers.sample_calls(expression text, calls int, pause float8 DEFAULT 0)
    RETURNS TABLE (call int, before timestamptz, u uuid, after timestamptz)
    LANGUAGE plpgsql AS $$
BEGIN
    FOR i IN 1..calls LOOP
        call := i;
        before := clock_timestamp();
        EXECUTE 'SELECT ' || expression INTO u;
        after := clock_timestamp();
        RETURN NEXT;
        PERFORM pg_sleep(pause);
    END LOOP;
END
$$;

-- how many calls or values a test makes: c with the C extension installed, port without it.  The port's calls cost
-- several to some fifty times C's; a test prints what it proves of the values, never their count, so that C and the
-- port share its expected output.
CREATE FUNCTION regress_helpers.sized(c int, port int) RETURNS int
    LANGUAGE sql STABLE
    AS $$ SELECT CASE WHEN EXISTS (SELECT FROM pg_extension WHERE extname = 'sequuid') THEN c ELSE port END $$;

-- the sequential-uuids block of instant t: (Unix seconds / length) mod count
CREATE FUNCTION regress_helpers.block(t timestamptz, length int, count int) RETURNS bigint
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$ SELECT mod(floor(floor(extract(epoch FROM t)) / length)::bigint, count) $$;

SELECT regress_helpers.octets('00000000-0000-0000-0000-0000000001ff', 14, 15) AS low_octets,
       regress_helpers.version('017f22e2-79b0-7cc3-98c4-dc0c0c07398f') AS version,
       regress_helpers.variant('017f22e2-79b0-7cc3-98c4-dc0c0c07398f') AS variant,
       regress_helpers.unix_ms('017f22e2-79b0-7cc3-98c4-dc0c0c07398f') AS unix_ms,
       regress_helpers.v7_fraction('017f22e2-79b0-7cc3-98c4-dc0c0c07398f') AS fraction,
       regress_helpers.v6_gregorian_100ns('1ec9414c-232a-6b00-b3c8-9f6bdeced846') AS v6_100ns,
       regress_helpers.block('1970-01-01 00:10:00+00', 60, 7) AS block_3;
