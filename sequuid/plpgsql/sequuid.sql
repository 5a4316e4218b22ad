-- sequuid/plpgsql/sequuid.sql: the sequuid generators and utilities without C, for servers that cannot load
-- extensions (RDS, Cloud SQL, Azure).  Same names, signatures and results as the C extension; install with
--
--     psql -v ON_ERROR_STOP=1 -f sequuid.sql
--
-- as any role with CREATE on the database (a managed service's database owner will do): one transaction, all or
-- nothing.  Only the operator class uuid_time_ops needs a superuser; without one it is left out with a NOTICE.  Run
-- the same command again to update an earlier port in place; uninstall.sql removes it (see docs/port.md).
--
-- The public functions go into the first schema of search_path, like CREATE EXTENSION would put them; the
-- helpers they call live in schema sequuid and are always called schema-qualified, so the functions (and an
-- index using uuid_time_ops) work under any search_path, including the one maintenance commands impose.
--
-- Differences from the C extension, all forced by what SQL can do (see README, "PL/pgSQL port"):
--   * The generators keep their per-backend state in session settings (sequuid_plpgsql.v7_state, .v6_state,
--     .ulid_state; not sequuid.*, a prefix the C library reserves) written with set_config(), which PostgreSQL
--     forbids in parallel mode: they are PARALLEL UNSAFE here (PARALLEL SAFE in C), and a transaction that rolls
--     back also rolls their state back, so values returned inside it may come again after it.
--   * Zero-argument generators are not declared STRICT: a STRICT SQL function whose body has a CASE or
--     greatest() is never inlined, and inlining is what makes them fast.  NULL in still gives NULL out.
--   * No sortsupport for uuid_time_ops; no shared (cluster-wide) ordering; no sequuid.clock_offset and no virtual
--     clock (sequuid.clock_rate / clock_anchor): see README, "PL/pgSQL port".
--   * The bits that follow the prefix of uuid_time_nextval / uuid_sequence_nextval inside the first 32 bits come
--     from random(); every other random bit comes from gen_random_uuid().
-- The generators are single SQL expressions so the planner inlines them: every function call saved counts
-- against the cost target of 2x gen_random_uuid().

-- One transaction: on any error nothing stays (with -v ON_ERROR_STOP=1, psql stops there; without it, every later
-- statement fails and COMMIT rolls back).  from_peers_plpgsql.sql includes this file inside its own transaction and
-- sets sequuid_port_nested.
\if :{?sequuid_port_nested}
\else
BEGIN;
\endif

-- Who installs.  Refused, before anything is created: a schema sequuid owned by another role, whose owner could
-- replace the helpers every public function calls.  What runs here, and in the install's other DO blocks, runs as
-- the installer, often a superuser: every name is schema-qualified and every operator pg_catalog's, so nothing a
-- caller planted on search_path is called.
DO $install$
DECLARE
    installer oid := (SELECT oid FROM pg_catalog.pg_roles WHERE rolname OPERATOR(pg_catalog.=) CURRENT_USER);
    helpers_owner oid := (SELECT nspowner FROM pg_catalog.pg_namespace
                          WHERE nspname OPERATOR(pg_catalog.=) 'sequuid'::name);
BEGIN
    IF pg_catalog.current_schema() IS NULL THEN
        RAISE EXCEPTION 'no schema of search_path exists to install the sequuid port into'
            USING ERRCODE = 'invalid_schema_name', HINT = 'Set search_path to the schema the functions should go into.';
    END IF;
    IF helpers_owner IS NOT NULL AND helpers_owner OPERATOR(pg_catalog.<>) installer THEN
        RAISE EXCEPTION 'schema "sequuid" is owned by role %, not by %: its owner could replace the port''s helpers',
                pg_catalog.quote_ident((SELECT rolname FROM pg_catalog.pg_roles
                                        WHERE oid OPERATOR(pg_catalog.=) helpers_owner)),
                pg_catalog.quote_ident(CURRENT_USER)
            USING ERRCODE = 'insufficient_privilege',
                  HINT = 'Run this file as the owner of schema sequuid, or drop that schema if it is not the port''s.';
    END IF;
    IF helpers_owner IS NULL THEN
        CREATE SCHEMA sequuid;
    END IF;
END
$install$;
COMMENT ON SCHEMA sequuid IS 'helpers of the sequuid PL/pgSQL port';
GRANT USAGE ON SCHEMA sequuid TO PUBLIC;

-- which port this is (an update reads what it replaces from here; the ports before 1.6 have no such function)
CREATE OR REPLACE FUNCTION sequuid.port_version() RETURNS text
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$ SELECT '1.6'::text $$;

-- the public functions the port creates (uninstall.sql drops them; a first install refuses where one is taken)
CREATE OR REPLACE FUNCTION sequuid.port_functions() RETURNS SETOF text
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$
    VALUES ('ulid_timestamp(uuid)'), ('ulid_to_uuid(text)'), ('uuid_from_base32hex(text)'),
           ('uuid_generate_striped(integer)'), ('uuid_generate_ulid()'), ('uuid_generate_v1_random_node()'),
           ('uuid_generate_v6()'), ('uuid_generate_v7()'), ('uuid_generate_v7(interval)'),
           ('uuid_public_to_v7(uuid, bytea)'), ('uuid_sequence_nextval(regclass, integer, integer)'),
           ('uuid_striped_ranges(integer, timestamp with time zone, timestamp with time zone)'),
           ('uuid_time_cmp(uuid, uuid)'), ('uuid_time_ge(uuid, uuid)'), ('uuid_time_gt(uuid, uuid)'),
           ('uuid_time_le(uuid, uuid)'), ('uuid_time_lt(uuid, uuid)'), ('uuid_time_nextval(integer, integer)'),
           ('uuid_time_partitions(text, timestamp with time zone, interval, integer)'),
           ('uuid_time_partitions(text, timestamp with time zone, interval, integer, text)'),
           ('uuid_timestamp(uuid)'), ('uuid_timestamp_to_v7(timestamp without time zone, boolean)'),
           ('uuid_timestamptz_to_v7(timestamp with time zone, boolean)'), ('uuid_to_base32hex(uuid)'),
           ('uuid_to_ulid(uuid)'), ('uuid_uuidv47_to_v7(uuid, bytea)'), ('uuid_v1_to_v6(uuid)'),
           ('uuid_v6_to_v1(uuid)'), ('uuid_v7_boundary(timestamp with time zone)'), ('uuid_v7_to_public(uuid, bytea)'),
           ('uuid_v7_to_timestamp(uuid)'), ('uuid_v7_to_timestamptz(uuid)'), ('uuid_v7_to_uuidv47(uuid, bytea)'),
           ('uuid_variant(uuid)'), ('uuid_version(uuid)')
$$;

-- the schemas holding the port's public functions: those of a uuid_generate_v7() that calls the helpers of schema
-- sequuid and belongs to no extension (uninstall.sql reads it too)
CREATE OR REPLACE FUNCTION sequuid.port_schemas() RETURNS SETOF name
    LANGUAGE sql STABLE PARALLEL SAFE
    SET search_path = pg_catalog, pg_temp
AS $$
    SELECT n.nspname
    FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
    WHERE p.proname = 'uuid_generate_v7'::name AND p.pronargs = 0::int2 AND p.prosrc LIKE '%sequuid.%'
      AND NOT EXISTS (SELECT FROM pg_depend d
                      WHERE d.classid = 'pg_proc'::regclass::oid AND d.objid = p.oid AND d.deptype = 'e')
$$;

-- Install or update.  An update is this file run again over an earlier port (every function below is CREATE OR
-- REPLACE, so objects that use them keep working), with the same first schema of search_path as the install:
-- refused where the port is in another schema (a second copy would be left).  A first install is refused where a
-- function of the port's name and arguments is in the target schema already (another extension's, such as
-- pg_uuidv7's, or the user's own), which CREATE OR REPLACE below would silently take over.
DO $first_install$
DECLARE
    target name := pg_catalog.current_schema();
    elsewhere name := (SELECT s FROM sequuid.port_schemas() s WHERE s OPERATOR(pg_catalog.<>) target LIMIT 1);
    taken text;
BEGIN
    IF target OPERATOR(pg_catalog.=) ANY (ARRAY(SELECT sequuid.port_schemas())) THEN
        RETURN;
    END IF;
    IF elsewhere IS NOT NULL THEN
        RAISE EXCEPTION 'the sequuid port is installed in schema %, not in %, the first schema of search_path',
                pg_catalog.quote_ident(elsewhere), pg_catalog.quote_ident(target)
            USING ERRCODE = 'duplicate_schema',
                  HINT = pg_catalog.format('To update it, run this file with search_path = %I.', elsewhere);
    END IF;
    SELECT pg_catalog.string_agg(s.signature, ', ' ORDER BY s.signature) INTO taken
        FROM sequuid.port_functions() AS s (signature)
        JOIN pg_catalog.pg_proc p
          ON pg_catalog.format('%s(%s)', p.proname, pg_catalog.oidvectortypes(p.proargtypes))
             OPERATOR(pg_catalog.=) s.signature
        JOIN pg_catalog.pg_namespace n ON n.oid OPERATOR(pg_catalog.=) p.pronamespace
        WHERE n.nspname OPERATOR(pg_catalog.=) target;
    IF taken IS NOT NULL THEN
        RAISE EXCEPTION 'schema % already has functions the sequuid port creates: %', pg_catalog.quote_ident(target),
                taken
            USING ERRCODE = 'duplicate_function',
                  HINT = 'Install the port into another schema (search_path), or switch from pg_uuidv7 and sequential-uuids with switch/from_peers_plpgsql.sql.';
    END IF;
END
$first_install$;

-- errors -----------------------------------------------------------------------------------------------------

-- sequential-uuids 1.0.3's messages, which name the argument in words
CREATE OR REPLACE FUNCTION sequuid.raise_not_positive(message text) RETURNS uuid
    LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE
AS $$
BEGIN
    RAISE EXCEPTION '%', message USING ERRCODE = 'invalid_parameter_value';
END
$$;

CREATE OR REPLACE FUNCTION sequuid.raise_shift_out_of_range() RETURNS uuid
    LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE
AS $$
BEGIN
    RAISE EXCEPTION 'argument "shift" moves the timestamp outside the range of a UUIDv7'
        USING ERRCODE = 'datetime_field_overflow',
              HINT = 'The shifted time must lie between 1970-01-01 00:00:00 UTC and 10889-08-02 05:31:50.655 UTC.';
END
$$;

-- clocks -----------------------------------------------------------------------------------------------------
-- Unix time in microseconds: the resolution of clock_timestamp().  date_part's float8 holds it exactly until the
-- year 2255.

CREATE OR REPLACE FUNCTION sequuid.unix_us() RETURNS bigint
    LANGUAGE sql VOLATILE PARALLEL SAFE
AS $$ SELECT (date_part('epoch', clock_timestamp()) * 1000000)::bigint $$;

-- the v7 clock in 1/4096 ms (the unit of the 12-bit fraction), strictly increasing in this backend: the current
-- time, or the previous value plus one when the clock has not moved on (PostgreSQL 18's rule, in fraction units)
CREATE OR REPLACE FUNCTION sequuid.v7_ticks() RETURNS bigint
    LANGUAGE sql VOLATILE PARALLEL UNSAFE
AS $$
    SELECT set_config('sequuid_plpgsql.v7_state',
                      greatest(sequuid.unix_us() * 512 / 125,
                               ('0' || current_setting('sequuid_plpgsql.v7_state', true))::bigint + 1)::text,
                      false)::bigint
$$;

-- the v6 and v1 clock in 100 ns since 1582-10-15, strictly increasing in this backend
CREATE OR REPLACE FUNCTION sequuid.v6_ticks() RETURNS bigint
    LANGUAGE sql VOLATILE PARALLEL UNSAFE
AS $$
    SELECT set_config('sequuid_plpgsql.v6_state',
                      greatest(sequuid.unix_us() * 10 + 122192928000000000,
                               ('0' || current_setting('sequuid_plpgsql.v6_state', true))::bigint + 1)::text,
                      false)::bigint
$$;

-- layouts ----------------------------------------------------------------------------------------------------
-- v7 and v6 share one shape: 60 bits of time, most significant first, with the version nibble after the first
-- 48 of them (RFC 9562 sections 5.6 and 5.7).  These return the first 8 octets.

CREATE OR REPLACE FUNCTION sequuid.time_octets(ticks bigint, version bit) RETURNS bytea
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$ SELECT int8send(overlay(ticks::bit(60) PLACING version FROM 49 FOR 0)::bigint) $$;

-- the first 8 octets of a v7 UUID of Unix microseconds: the millisecond, then the 12-bit fraction of it
CREATE OR REPLACE FUNCTION sequuid.v7_time_octets(unix_us bigint) RETURNS bytea
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$ SELECT sequuid.time_octets(unix_us / 1000 * 4096 + unix_us % 1000 * 512 / 125, B'0111') $$;

-- v1 keeps the same 60 bits least significant part first: time_low (32 bits), time_mid (16), then the version
-- nibble and time_high (12).  PL/pgSQL, because ticks appears three times: the planner does not inline a SQL
-- function whose volatile argument is used more than once, and a SQL function that is not inlined costs more per
-- call than a PL/pgSQL one.
CREATE OR REPLACE FUNCTION sequuid.v1_time_octets(ticks bigint) RETURNS bytea
    LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE
AS $$
BEGIN
    RETURN int8send(((ticks & 4294967295) << 32) | (((ticks >> 32) & 65535) << 16) | 4096 | (ticks >> 48));
END
$$;

-- ceil(log2(count)): the number of significant bits of count - 1
CREATE OR REPLACE FUNCTION sequuid.prefix_bits(count integer) RETURNS integer
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$ SELECT length(ltrim((count - 1)::bit(32)::text, '0')) $$;

-- sequential-uuids 1.0.3's prefix width: ceil(log2(block_count)), at least 1, rounded up to whole bytes (8 to 32)
CREATE OR REPLACE FUNCTION sequuid.whole_byte_prefix_bits(block_count integer) RETURNS integer
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$ SELECT (sequuid.prefix_bits(greatest(block_count, 2)) + 7) / 8 * 8 $$;

-- ... and its block size, rescaled so that 2^prefix_bits blocks span block_size * block_count values
CREATE OR REPLACE FUNCTION sequuid.rescaled_block_size(block_size integer, block_count integer) RETURNS bigint
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$ SELECT greatest(1, (block_size::bigint * block_count) >> sequuid.whole_byte_prefix_bits(block_count)) $$;

-- v8 with the sequential-uuids prefix: block big-endian in the leading prefix_bits bits (8 to 32), random bits
-- after it (random() inside the first 32 bits, gen_random_uuid() for the other 90), version 8 (set_bit turns the
-- version nibble 0100 of gen_random_uuid() into 1000), variant 10 as gen_random_uuid() made it
CREATE OR REPLACE FUNCTION sequuid.prefixed(block bigint, prefix_bits integer) RETURNS uuid
    LANGUAGE sql VOLATILE PARALLEL SAFE
AS $$
    SELECT encode(substr(int8send((block << (32 - prefix_bits))
                                  | floor(random() * (1::bigint << (32 - prefix_bits)))::bigint),
                         5)
                  || substr(set_bit(set_bit(uuid_send(gen_random_uuid()), 54, 0), 55, 1), 5), 'hex')::uuid
$$;

-- generators -------------------------------------------------------------------------------------------------

CREATE OR REPLACE FUNCTION uuid_generate_v7() RETURNS uuid
    LANGUAGE sql VOLATILE PARALLEL UNSAFE
AS $$
    SELECT encode(sequuid.time_octets(sequuid.v7_ticks(), B'0111') || substr(uuid_send(gen_random_uuid()), 9),
                  'hex')::uuid
$$;
COMMENT ON FUNCTION uuid_generate_v7() IS
    'RFC 9562 UUIDv7 as PostgreSQL 18 builds it (ms + 12-bit sub-ms fraction), strictly increasing per backend';

-- the ascending clock moved by the shift with calendar arithmetic, like core uuidv7(interval)
CREATE OR REPLACE FUNCTION uuid_generate_v7(shift interval) RETURNS uuid
    LANGUAGE plpgsql VOLATILE STRICT PARALLEL UNSAFE
AS $$
DECLARE
    ticks bigint := sequuid.v7_ticks();
    unix_us numeric;
BEGIN
    IF NOT isfinite(shift) THEN
        RAISE EXCEPTION 'argument "shift" must be a finite interval'
            USING ERRCODE = 'datetime_field_overflow', HINT = 'Pass a finite interval such as ''-1 hour''.';
    END IF;
    BEGIN
        -- the microsecond of the ascending clock (rounding up inverts ticks = floor(us * 4096 / 1000)), shifted
        unix_us := extract(epoch FROM sequuid.timestamptz((ticks * 125 + 511) / 512) + shift) * 1000000;
    EXCEPTION WHEN datetime_field_overflow OR numeric_value_out_of_range OR interval_field_overflow THEN
        PERFORM sequuid.raise_shift_out_of_range();
    END;
    IF unix_us < 0 OR unix_us >= 281474976710656000 THEN
        PERFORM sequuid.raise_shift_out_of_range();
    END IF;
    RETURN encode(sequuid.v7_time_octets(unix_us::bigint) || substr(uuid_send(gen_random_uuid()), 9), 'hex')::uuid;
END
$$;
COMMENT ON FUNCTION uuid_generate_v7(interval) IS 'UUIDv7 of the current time moved by shift, like core uuidv7(interval)';

-- clock_seq (with the variant) and node random, the node's multicast bit (bit 80 as set_bit counts) set
CREATE OR REPLACE FUNCTION uuid_generate_v6() RETURNS uuid
    LANGUAGE sql VOLATILE PARALLEL UNSAFE
AS $$
    SELECT encode(set_bit(sequuid.time_octets(sequuid.v6_ticks(), B'0110') || substr(uuid_send(gen_random_uuid()), 9),
                          80, 1), 'hex')::uuid
$$;
COMMENT ON FUNCTION uuid_generate_v6() IS
    'RFC 9562 UUIDv6 (Gregorian 100-ns time, random clock_seq and multicast node), strictly increasing per backend';

-- RFC 9562 v1 with a random node, on the v6 clock: clock_seq and node random, the multicast bit set.  Not named
-- uuid_generate_v1, which is uuid-ossp's name.
CREATE OR REPLACE FUNCTION uuid_generate_v1_random_node() RETURNS uuid
    LANGUAGE sql VOLATILE PARALLEL UNSAFE
AS $$
    SELECT encode(set_bit(sequuid.v1_time_octets(sequuid.v6_ticks()) || substr(uuid_send(gen_random_uuid()), 9),
                          80, 1), 'hex')::uuid
$$;
COMMENT ON FUNCTION uuid_generate_v1_random_node() IS
    'RFC 9562 UUIDv1 (Gregorian 100-ns time, low bits first; random clock_seq and multicast node), time strictly increasing per backend';

-- The ULID spec's monotonic mode.  The state is the previous ULID as 32 hex digits; a call in a later millisecond
-- starts from fresh random bits, any other call adds one to the 80 random bits (low 60 bits first, carrying into
-- the high 20), and when all 80 are ones moves on to the next millisecond with fresh bits instead of wrapping.
CREATE OR REPLACE FUNCTION uuid_generate_ulid() RETURNS uuid
    LANGUAGE sql VOLATILE PARALLEL UNSAFE
AS $$
    SELECT set_config('sequuid_plpgsql.ulid_state', CASE
        WHEN sequuid.unix_us() / 1000 > coalesce(('x' || left(nullif(current_setting('sequuid_plpgsql.ulid_state', true), ''), 12))::bit(48)::bigint, -1)
            THEN lpad(to_hex(sequuid.unix_us() / 1000), 12, '0') || right(encode(uuid_send(gen_random_uuid()), 'hex'), 20)
        WHEN right(current_setting('sequuid_plpgsql.ulid_state'), 15) <> 'fffffffffffffff'
            THEN left(current_setting('sequuid_plpgsql.ulid_state'), 17)
                 || lpad(to_hex(('x' || right(current_setting('sequuid_plpgsql.ulid_state'), 15))::bit(60)::bigint + 1), 15, '0')
        WHEN substr(current_setting('sequuid_plpgsql.ulid_state'), 13, 5) <> 'fffff'
            THEN left(current_setting('sequuid_plpgsql.ulid_state'), 12)
                 || lpad(to_hex(('x' || substr(current_setting('sequuid_plpgsql.ulid_state'), 13, 5))::bit(20)::int + 1), 5, '0')
                 || '000000000000000'
        ELSE lpad(to_hex(('x' || left(current_setting('sequuid_plpgsql.ulid_state'), 12))::bit(48)::bigint + 1), 12, '0')
             || right(encode(uuid_send(gen_random_uuid()), 'hex'), 20)
        END, false)::uuid
$$;
COMMENT ON FUNCTION uuid_generate_ulid() IS
    'ULID (48-bit ms + 80 random bits) as uuid, monotonic per backend (same ms: previous + 1)';

-- (i / size) mod 2^bits with i = nextval(seq) - 1, floored for negative sequences, in sequential-uuids 1.0.3's
-- whole-byte prefix with its rescaled block size.  That is periodic in nextval with period p = size * 2^bits
-- (below 2^63), so it is computed from nextval mod p, shifted into [0, 2p - 2] where truncating division floors:
-- bigint throughout, no overflow at the sequence's limits, and nextval appears once (a volatile argument used twice
-- would stop the planner from inlining).  numeric did the same ~0.35x gen_random_uuid() slower.  nextval is called
-- only for valid, non-NULL arguments, so bad input moves nothing.
CREATE OR REPLACE FUNCTION uuid_sequence_nextval(seq regclass, block_size integer DEFAULT 65536,
                                      block_count integer DEFAULT 65536) RETURNS uuid
    LANGUAGE sql VOLATILE PARALLEL UNSAFE
AS $$
    SELECT CASE
        WHEN block_size < 1 THEN sequuid.raise_not_positive('block size must be a positive integer')
        WHEN block_count < 1 THEN sequuid.raise_not_positive('number of blocks must be a positive integer')
        WHEN seq IS NOT NULL AND block_size IS NOT NULL AND block_count IS NOT NULL THEN
            sequuid.prefixed((nextval(seq) % (sequuid.rescaled_block_size(block_size, block_count)
                                              << sequuid.whole_byte_prefix_bits(block_count))
                              + (sequuid.rescaled_block_size(block_size, block_count)
                                 << sequuid.whole_byte_prefix_bits(block_count)) - 1)
                             / sequuid.rescaled_block_size(block_size, block_count)
                             % (1::bigint << sequuid.whole_byte_prefix_bits(block_count)),
                             sequuid.whole_byte_prefix_bits(block_count))
        END
$$;
COMMENT ON FUNCTION uuid_sequence_nextval(regclass, integer, integer) IS
    'version 8 UUID led by the block of nextval(seq) - 1 in whole bytes, laid out as sequential-uuids 1.0.3 does, rest random';

CREATE OR REPLACE FUNCTION uuid_time_nextval(interval_length integer DEFAULT 60, interval_count integer DEFAULT 65536)
    RETURNS uuid
    LANGUAGE sql VOLATILE PARALLEL UNSAFE
AS $$
    SELECT CASE
        WHEN interval_length < 1 THEN sequuid.raise_not_positive('length of interval must be a positive integer')
        WHEN interval_count < 1 THEN sequuid.raise_not_positive('number of intervals must be a positive integer')
        WHEN interval_length IS NOT NULL AND interval_count IS NOT NULL THEN
            sequuid.prefixed(sequuid.unix_us() / 1000000 / sequuid.rescaled_block_size(interval_length, interval_count)
                             % (1::bigint << sequuid.whole_byte_prefix_bits(interval_count)),
                             sequuid.whole_byte_prefix_bits(interval_count))
        END
$$;
COMMENT ON FUNCTION uuid_time_nextval(integer, integer) IS
    'version 8 UUID led by the block of the Unix time in seconds in whole bytes, laid out as sequential-uuids 1.0.3 does, rest random';

-- utilities ----------------------------------------------------------------------------------------------------
-- Deterministic: IMMUTABLE, STRICT, PARALLEL SAFE, exactly as in C.

-- Unix microseconds as timestamptz; whole seconds times 10^6 stay exact in the float8 of interval multiplication
CREATE OR REPLACE FUNCTION sequuid.timestamptz(unix_us bigint) RETURNS timestamptz
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
AS $$
    SELECT timestamptz '1970-01-01 00:00:00+00' + (unix_us / 1000000) * interval '1 second'
           + (unix_us % 1000000) * interval '1 microsecond'
$$;

-- Internal helpers are not STRICT, so that the planner can inline them (a STRICT SQL function whose body has a
-- CASE is never inlined); the public functions around them are STRICT like their C twins.

-- the 32 hex digits of a uuid
CREATE OR REPLACE FUNCTION sequuid.hex(id uuid) RETURNS text
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$ SELECT encode(uuid_send(id), 'hex') $$;

-- the version of an RFC 9562 UUID, NULL for other variants
CREATE OR REPLACE FUNCTION sequuid.rfc_version(id uuid) RETURNS integer
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$ SELECT CASE WHEN get_byte(uuid_send(id), 8) >> 6 = 2 THEN get_byte(uuid_send(id), 6) >> 4 END $$;

-- the 60-bit Gregorian 100-ns count of a v1 / v6 UUID, as 15 hex digits
CREATE OR REPLACE FUNCTION sequuid.v1_time_hex(hex text) RETURNS text
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$ SELECT substr(hex, 14, 3) || substr(hex, 9, 4) || substr(hex, 1, 8) $$;

CREATE OR REPLACE FUNCTION sequuid.v6_time_hex(hex text) RETURNS text
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$ SELECT substr(hex, 1, 12) || substr(hex, 14, 3) $$;

-- the variant field as RFC 9562 Table 1 reads it
CREATE OR REPLACE FUNCTION sequuid.variant(id uuid) RETURNS integer
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$
    SELECT CASE WHEN get_byte(uuid_send(id), 8) < 128 THEN 0
                WHEN get_byte(uuid_send(id), 8) < 192 THEN 2
                ELSE get_byte(uuid_send(id), 8) >> 5 END
$$;

CREATE OR REPLACE FUNCTION uuid_variant(id uuid) RETURNS integer
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
AS $$ SELECT sequuid.variant(id) $$;
COMMENT ON FUNCTION uuid_variant(uuid) IS
    'variant field as RFC 9562 Table 1 reads it: 0 NCS, 2 RFC 9562, 6 Microsoft, 7 reserved';

CREATE OR REPLACE FUNCTION uuid_version(id uuid) RETURNS integer
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
AS $$ SELECT sequuid.rfc_version(id) $$;
COMMENT ON FUNCTION uuid_version(uuid) IS 'version field of an RFC 9562 UUID; NULL for other variants';

-- v1/v6 truncated to the microsecond; v7 to the last whole microsecond that starts inside its fraction's 244 ns
-- (the last nanosecond of fraction f is ceil((f + 1) * 10^6 / 4096) - 1), as in C
CREATE OR REPLACE FUNCTION uuid_timestamp(id uuid) RETURNS timestamptz
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
AS $$
    SELECT CASE sequuid.rfc_version(id)
        WHEN 1 THEN sequuid.timestamptz(('x' || sequuid.v1_time_hex(sequuid.hex(id)))::bit(60)::bigint / 10
                                        - 12219292800000000)
        WHEN 6 THEN sequuid.timestamptz(('x' || sequuid.v6_time_hex(sequuid.hex(id)))::bit(60)::bigint / 10
                                        - 12219292800000000)
        WHEN 7 THEN sequuid.timestamptz(('x' || left(sequuid.hex(id), 12))::bit(48)::bigint * 1000
                                        + (((('x' || substr(sequuid.hex(id), 14, 3))::bit(12)::bigint + 1) * 1000000
                                            + 4095) / 4096 - 1) / 1000)
        END
$$;
COMMENT ON FUNCTION uuid_timestamp(uuid) IS
    'instant a v1, v6 or v7 UUID was made, to the microsecond (v7 sub-millisecond fraction included); NULL for other UUIDs';

-- the 48-bit Unix millisecond in the first six octets (ULID, v7)
CREATE OR REPLACE FUNCTION sequuid.unix_ms_timestamptz(id uuid) RETURNS timestamptz
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$ SELECT sequuid.timestamptz(('x' || left(sequuid.hex(id), 12))::bit(48)::bigint * 1000) $$;

CREATE OR REPLACE FUNCTION ulid_timestamp(id uuid) RETURNS timestamptz
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
AS $$ SELECT sequuid.unix_ms_timestamptz(id) $$;
COMMENT ON FUNCTION ulid_timestamp(uuid) IS 'the millisecond timestamp of a ULID stored as uuid';

CREATE OR REPLACE FUNCTION sequuid.raise_wrong_version(id uuid, expected integer, function_name text) RETURNS uuid
    LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE
AS $$
BEGIN
    IF sequuid.rfc_version(id) IS NULL THEN
        RAISE EXCEPTION 'argument "id" of % must be a version % UUID, found variant %',
                        function_name, expected, sequuid.variant(id)
            USING ERRCODE = 'invalid_parameter_value', HINT = 'Only RFC 9562 UUIDs (variant 2) have a version.';
    END IF;
    RAISE EXCEPTION 'argument "id" of % must be a version % UUID, found version %',
                    function_name, expected, sequuid.rfc_version(id)
        USING ERRCODE = 'invalid_parameter_value';
END
$$;

-- only the 60 timestamp bits move and the version nibble changes; every other bit is kept
CREATE OR REPLACE FUNCTION uuid_v1_to_v6(id uuid) RETURNS uuid
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
AS $$
    SELECT CASE WHEN sequuid.rfc_version(id) = 1
        THEN (left(sequuid.v1_time_hex(sequuid.hex(id)), 12) || '6' || right(sequuid.v1_time_hex(sequuid.hex(id)), 3)
              || substr(sequuid.hex(id), 17))::uuid
        ELSE sequuid.raise_wrong_version(id, 1, 'uuid_v1_to_v6') END
$$;
COMMENT ON FUNCTION uuid_v1_to_v6(uuid) IS 'the same UUID with its timestamp most significant first (lossless)';

CREATE OR REPLACE FUNCTION uuid_v6_to_v1(id uuid) RETURNS uuid
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
AS $$
    SELECT CASE WHEN sequuid.rfc_version(id) = 6
        THEN (right(sequuid.v6_time_hex(sequuid.hex(id)), 8) || substr(sequuid.v6_time_hex(sequuid.hex(id)), 4, 4)
              || '1' || left(sequuid.v6_time_hex(sequuid.hex(id)), 3) || substr(sequuid.hex(id), 17))::uuid
        ELSE sequuid.raise_wrong_version(id, 6, 'uuid_v6_to_v1') END
$$;
COMMENT ON FUNCTION uuid_v6_to_v1(uuid) IS 'inverse of uuid_v1_to_v6 (lossless)';

-- The time-ordered key layouts by name, as C's time_layout.c has them: the first and last instant (Unix
-- microseconds) a key can hold.  lower(... COLLATE "C") folds ASCII only, like C's pg_strcasecmp.
CREATE OR REPLACE FUNCTION sequuid.time_layout(kind text)
    RETURNS TABLE (layout text, name text, min_unix_us bigint, max_unix_us bigint, range_text text)
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$
    SELECT * FROM (VALUES
        ('v7', 'UUIDv7', 0::bigint, 281474976710655999::bigint,
         '1970-01-01 00:00:00 UTC to 10889-08-02 05:31:50.655999 UTC'),
        ('ulid', 'ULID', 0, 281474976710655999, '1970-01-01 00:00:00 UTC to 10889-08-02 05:31:50.655999 UTC'),
        ('v6', 'UUIDv6', -12219292800000000, 103072857660684697,
         '1582-10-15 00:00:00 UTC to 5236-03-31 21:21:00.684697 UTC')) AS l
    WHERE l.column1 = lower(kind COLLATE "C")
$$;

-- Unix microseconds of an instant inside a layout's range, or the error naming the argument and the function
CREATE OR REPLACE FUNCTION sequuid.layout_unix_us(instant timestamptz, kind text, argument text, function_name text)
    RETURNS bigint
    LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE
AS $$
DECLARE
    layout record;
    unix_us numeric;
BEGIN
    SELECT * INTO layout FROM sequuid.time_layout(kind);
    IF isfinite(instant) THEN
        unix_us := extract(epoch FROM instant) * 1000000;
    END IF;
    IF unix_us IS NULL OR unix_us < layout.min_unix_us OR unix_us > layout.max_unix_us THEN
        RAISE EXCEPTION 'argument % of % is out of the % range', argument, function_name, layout.name
            USING ERRCODE = 'datetime_field_overflow',
                  DETAIL = format('%s holds instants from %s.', layout.name, layout.range_text);
    END IF;
    RETURN unix_us::bigint;
END
$$;

CREATE OR REPLACE FUNCTION sequuid.v7_unix_us(instant timestamptz, argument text, function_name text) RETURNS bigint
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$ SELECT sequuid.layout_unix_us(instant, 'v7', argument, function_name) $$;

-- The smallest key of each layout made at or after an instant: the time rounded down to the layout's unit, the
-- version and variant where the layout has them, every other bit zero (one helper per layout, as in C)
CREATE OR REPLACE FUNCTION sequuid.v7_lower_bound(unix_us bigint) RETURNS uuid
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$ SELECT encode(sequuid.v7_time_octets(unix_us) || '\x8000000000000000'::bytea, 'hex')::uuid $$;

CREATE OR REPLACE FUNCTION sequuid.ulid_lower_bound(unix_us bigint) RETURNS uuid
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$ SELECT (lpad(to_hex(unix_us / 1000), 12, '0') || '00000000000000000000')::uuid $$;

CREATE OR REPLACE FUNCTION sequuid.v6_lower_bound(unix_us bigint) RETURNS uuid
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$
    SELECT encode(sequuid.time_octets(unix_us * 10 + 122192928000000000, B'0110') || '\x8000000000000000'::bytea,
                  'hex')::uuid
$$;

CREATE OR REPLACE FUNCTION sequuid.lower_bound(layout text, unix_us bigint) RETURNS uuid
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$
    SELECT CASE layout WHEN 'v7' THEN sequuid.v7_lower_bound(unix_us)
                       WHEN 'ulid' THEN sequuid.ulid_lower_bound(unix_us)
                       WHEN 'v6' THEN sequuid.v6_lower_bound(unix_us) END
$$;

CREATE OR REPLACE FUNCTION uuid_v7_boundary(instant timestamptz) RETURNS uuid
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
AS $$ SELECT sequuid.v7_lower_bound(sequuid.v7_unix_us(instant, '"instant"', 'uuid_v7_boundary')) $$;
COMMENT ON FUNCTION uuid_v7_boundary(timestamptz) IS
    'smallest UUIDv7 made at or after the instant, for range conditions on v7 keys';

-- Bounds for range partitions, checked in C's order, every argument before the first row.  IMMUTABLE because
-- step must be a fixed length of time: days and months last as long as TimeZone says (see README).  No name
-- below may be range_start, range_end, lower or upper as a column: those are the result's variables here.
CREATE OR REPLACE FUNCTION uuid_time_partitions(kind text, start timestamptz, step interval, count integer)
    RETURNS TABLE (range_start timestamptz, range_end timestamptz, lower uuid, upper uuid)
    LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
AS $$
DECLARE
    layout record;
    step_us bigint;
    start_us bigint;
BEGIN
    SELECT * INTO layout FROM sequuid.time_layout(kind);
    IF layout.layout IS NULL THEN
        RAISE EXCEPTION 'argument "kind" must name a time-ordered key layout, not "%"', kind
            USING ERRCODE = 'invalid_parameter_value',
                  HINT = 'Pass ''v7'', ''ulid'' or ''v6''; v1 keys are not in time order, their v6 form is.';
    END IF;
    IF count < 1 OR count > 100000 THEN
        RAISE EXCEPTION 'argument "count" must be between 1 and 100000, not %', count
            USING ERRCODE = 'invalid_parameter_value',
                  HINT = 'For more ranges, call uuid_time_partitions again from the last range_end.';
    END IF;
    IF NOT isfinite(step) THEN
        RAISE EXCEPTION 'argument "step" must be a finite interval'
            USING ERRCODE = 'invalid_parameter_value', HINT = 'Pass a fixed length of time such as ''24 hours''.';
    END IF;
    IF extract(year FROM step) * 12 + extract(month FROM step) <> 0 OR extract(day FROM step) <> 0 THEN
        RAISE EXCEPTION 'argument "step" must be a fixed length of time, without days or months'
            USING ERRCODE = 'invalid_parameter_value',
                  DETAIL = 'How long a day or a month lasts depends on the TimeZone setting, and bounds must not.',
                  HINT = 'Count in hours (''24 hours'' for a day), or name the time zone of the days and months as argument "time_zone".';
    END IF;
    step_us := extract(epoch FROM step) * 1000000;
    IF step_us <= 0 THEN
        RAISE EXCEPTION 'argument "step" must be positive'
            USING ERRCODE = 'invalid_parameter_value', HINT = 'Pass a fixed length of time such as ''24 hours''.';
    END IF;
    start_us := sequuid.layout_unix_us(start, layout.layout, '"start"', 'uuid_time_partitions');
    IF start_us + count * step_us::numeric > layout.max_unix_us THEN
        RAISE EXCEPTION 'arguments "step" and "count" of uuid_time_partitions take the last range past the % range',
                        layout.name
            USING ERRCODE = 'datetime_field_overflow',
                  DETAIL = format('%s holds instants from %s.', layout.name, layout.range_text);
    END IF;
    RETURN QUERY
        SELECT sequuid.timestamptz(b.from_us), sequuid.timestamptz(b.from_us + step_us),
               sequuid.lower_bound(layout.layout, b.from_us), sequuid.lower_bound(layout.layout, b.from_us + step_us)
        FROM generate_series(0, count - 1) AS i, LATERAL (SELECT start_us + i * step_us AS from_us) b;
END
$$;
COMMENT ON FUNCTION uuid_time_partitions(text, timestamptz, interval, integer) IS
    'count consecutive time ranges of length step from start, with the uuid bounds [lower, upper) of the v7, ULID or v6 keys made in each';

-- Calendar steps in a named time zone, checked in C's order: range i starts at start + i * step on the zone's
-- clock (month ends clamp from start, a day across a DST change lasts 23 or 25 hours).  IMMUTABLE like core's
-- timezone(text, timestamptz).  An estimate with 28-day months and two days to spare rules out an end surely past
-- the layout's range before the exact arithmetic could overflow.
CREATE OR REPLACE FUNCTION uuid_time_partitions(kind text, start timestamptz, step interval, count integer, time_zone text)
    RETURNS TABLE (range_start timestamptz, range_end timestamptz, lower uuid, upper uuid)
    LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
AS $$
DECLARE
    layout record;
    start_us bigint;
    local_start timestamp;
    step_months bigint := extract(year FROM step)::bigint * 12 + extract(month FROM step)::bigint;
    step_days bigint := extract(day FROM step)::bigint;
    -- the time part alone: interval subtraction works field by field
    step_time_us numeric := extract(epoch FROM step - make_interval(months => (extract(year FROM step) * 12
                                                                               + extract(month FROM step))::integer,
                                                                    days => extract(day FROM step)::integer))
                            * 1000000;
    last_end_us numeric;
    empty_range integer;
BEGIN
    SELECT * INTO layout FROM sequuid.time_layout(kind);
    IF layout.layout IS NULL THEN
        RAISE EXCEPTION 'argument "kind" must name a time-ordered key layout, not "%"', kind
            USING ERRCODE = 'invalid_parameter_value',
                  HINT = 'Pass ''v7'', ''ulid'' or ''v6''; v1 keys are not in time order, their v6 form is.';
    END IF;
    IF count < 1 OR count > 100000 THEN
        RAISE EXCEPTION 'argument "count" must be between 1 and 100000, not %', count
            USING ERRCODE = 'invalid_parameter_value',
                  HINT = 'For more ranges, call uuid_time_partitions again from the last range_end.';
    END IF;
    IF NOT isfinite(step) THEN
        RAISE EXCEPTION 'argument "step" must be a finite interval'
            USING ERRCODE = 'invalid_parameter_value', HINT = 'Pass a length of time such as ''1 day'' or ''1 month''.';
    END IF;
    IF step_months < 0 OR step_days < 0 OR step_time_us < 0
       OR (step_months = 0 AND step_days = 0 AND step_time_us = 0) THEN
        RAISE EXCEPTION 'argument "step" must be positive, with no negative part'
            USING ERRCODE = 'invalid_parameter_value', HINT = 'Pass a length of time such as ''1 day'' or ''1 month''.';
    END IF;
    start_us := sequuid.layout_unix_us(start, layout.layout, '"start"', 'uuid_time_partitions');
    local_start := start AT TIME ZONE time_zone;
    IF step_months * count > 120000 OR step_days * count > 3660000 OR step_time_us * count > 3660000 * 86400000000::numeric
       OR start_us + ((step_months * count * 28 + step_days * count - 2) * 86400000000::numeric + step_time_us * count)
          > layout.max_unix_us THEN
        last_end_us := layout.max_unix_us + 1;
    ELSE
        last_end_us := extract(epoch FROM (local_start + step * count) AT TIME ZONE time_zone) * 1000000;
    END IF;
    IF last_end_us > layout.max_unix_us THEN
        RAISE EXCEPTION 'arguments "step" and "count" of uuid_time_partitions take the last range past the % range',
                        layout.name
            USING ERRCODE = 'datetime_field_overflow',
                  DETAIL = format('%s holds instants from %s.', layout.name, layout.range_text);
    END IF;
    -- an hour step can land twice on one instant where the zone's clocks jump
    SELECT min(i) + 1 INTO empty_range FROM generate_series(0, count - 1) AS i
    WHERE (local_start + step * (i + 1)) AT TIME ZONE time_zone <= (local_start + step * i) AT TIME ZONE time_zone;
    IF empty_range IS NOT NULL THEN
        RAISE EXCEPTION 'argument "step" of uuid_time_partitions makes an empty range in time zone "%"', time_zone
            USING ERRCODE = 'invalid_parameter_value',
                  DETAIL = format('Range %s starts and ends at the same instant, where the zone''s clocks jump.',
                                  empty_range),
                  HINT = 'Step by whole days or months, or by a fixed length of time without the time zone.';
    END IF;
    RETURN QUERY
        SELECT b.from_t, b.to_t,
               sequuid.lower_bound(layout.layout, (extract(epoch FROM b.from_t) * 1000000)::bigint),
               sequuid.lower_bound(layout.layout, (extract(epoch FROM b.to_t) * 1000000)::bigint)
        FROM generate_series(0, count - 1) AS i,
             LATERAL (SELECT (local_start + step * i) AT TIME ZONE time_zone AS from_t,
                             (local_start + step * (i + 1)) AT TIME ZONE time_zone AS to_t) b
        ORDER BY i;
END
$$;
COMMENT ON FUNCTION uuid_time_partitions(text, timestamptz, interval, integer, text) IS
    'count consecutive ranges from start, each step long in the calendar of time_zone, with the uuid bounds [lower, upper) of the v7, ULID or v6 keys made in each';

-- striped keys -------------------------------------------------------------------------------------------------
-- The stripe field's width, ceil(log2(stripes)), or the error naming the argument
CREATE OR REPLACE FUNCTION sequuid.stripe_bits(stripes integer) RETURNS integer
    LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE
AS $$
BEGIN
    IF stripes < 1 OR stripes > 256 THEN
        RAISE EXCEPTION 'argument "stripes" must be between 1 and 256, not %', stripes
            USING ERRCODE = 'invalid_parameter_value', HINT = 'Pass about as many stripes as backends insert at once.';
    END IF;
    RETURN sequuid.prefix_bits(stripes);
END
$$;

-- The striped layout (version 8): the stripe in the leading stripe_bits bits, then v7's 60 bits of time (ticks of
-- 1/4096 ms), then random bits, flowing around the version nibble and the variant: the first 60 bits of stripe and
-- time make the first 8 octets as v7's time does, the time's last stripe_bits bits lead the 62 bits after the
-- variant, and the low bits of low_random fill the rest (zero: the stripe's lower bound of the instant).
CREATE OR REPLACE FUNCTION sequuid.striped(stripe integer, stripe_bits integer, ticks bigint, low_random bigint) RETURNS uuid
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$
    SELECT encode(sequuid.time_octets((stripe::bigint << (60 - stripe_bits)) | (ticks >> stripe_bits), B'1000')
                  || int8send((1::bigint << 63)
                              | ((ticks & ((1::bigint << stripe_bits) - 1)) << (62 - stripe_bits))
                              | (low_random & ((1::bigint << (62 - stripe_bits)) - 1))),
                  'hex')::uuid
$$;

-- This backend's number among the server's backends, as pg_stat_get_backend_idset() numbers them (a dense slot,
-- reused as backends come and go), looked up once per session
CREATE OR REPLACE FUNCTION sequuid.backend_number() RETURNS integer
    LANGUAGE sql VOLATILE PARALLEL UNSAFE
AS $$
    SELECT coalesce(nullif(current_setting('sequuid_plpgsql.backend_number', true), ''),
                    set_config('sequuid_plpgsql.backend_number',
                               coalesce((SELECT min(b) FROM pg_stat_get_backend_idset() AS b
                                         WHERE pg_stat_get_backend_pid(b) = pg_backend_pid()), 0)::text,
                               false))::integer
$$;

CREATE OR REPLACE FUNCTION uuid_generate_striped(stripes integer) RETURNS uuid
    LANGUAGE plpgsql VOLATILE STRICT PARALLEL UNSAFE
AS $$
DECLARE
    stripe_bits integer := sequuid.stripe_bits(stripes);
BEGIN
    RETURN sequuid.striped(sequuid.backend_number() % stripes, stripe_bits, sequuid.v7_ticks(),
                           ('x' || encode(substr(uuid_send(gen_random_uuid()), 9), 'hex'))::bit(64)::bigint);
END
$$;
COMMENT ON FUNCTION uuid_generate_striped(integer) IS
    'version 8 UUID led by the backend''s number mod stripes in ceil(log2(stripes)) bits, then v7''s time (ms + 12-bit fraction) and random bits; strictly increasing per backend';

-- Checked in C's order, every argument before the first row.  No name below may be stripe, lower or upper as a
-- column: those are the result's variables here.
CREATE OR REPLACE FUNCTION uuid_striped_ranges(stripes integer, from_time timestamptz, to_time timestamptz)
    RETURNS TABLE (stripe integer, lower uuid, upper uuid)
    LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
    ROWS 16
AS $$
DECLARE
    stripe_bits integer := sequuid.stripe_bits(stripes);
    from_us bigint := sequuid.v7_unix_us(from_time, '"from_time"', 'uuid_striped_ranges');
    to_us bigint := sequuid.v7_unix_us(to_time, '"to_time"', 'uuid_striped_ranges');
BEGIN
    IF from_us > to_us THEN
        RAISE EXCEPTION 'argument "from_time" of uuid_striped_ranges must not be later than argument "to_time"'
            USING ERRCODE = 'invalid_parameter_value', HINT = 'Swap the two instants.';
    END IF;
    RETURN QUERY
        SELECT s, sequuid.striped(s, stripe_bits, from_us / 1000 * 4096 + from_us % 1000 * 512 / 125, 0),
               sequuid.striped(s, stripe_bits, to_us / 1000 * 4096 + to_us % 1000 * 512 / 125, 0)
        FROM generate_series(0, stripes - 1) AS s;
END
$$;
COMMENT ON FUNCTION uuid_striped_ranges(integer, timestamptz, timestamptz) IS
    'for each stripe, the uuid range [lower, upper) of the uuid_generate_striped(stripes) keys made in [from_time, to_time)';

-- pg_uuidv7's conversions (see README, "Coming from pg_uuidv7"): reading IMMUTABLE; writing VOLATILE, because
-- without zero it draws random bits.  A timestamp is read and written as UTC.
CREATE OR REPLACE FUNCTION uuid_v7_to_timestamptz(uuid) RETURNS timestamptz
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
AS $$ SELECT sequuid.unix_ms_timestamptz($1) $$;
COMMENT ON FUNCTION uuid_v7_to_timestamptz(uuid) IS
    'pg_uuidv7: the millisecond in the first 48 bits of a v7 UUID, as timestamptz';

CREATE OR REPLACE FUNCTION uuid_v7_to_timestamp(uuid) RETURNS timestamp
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
AS $$ SELECT sequuid.unix_ms_timestamptz($1) AT TIME ZONE 'UTC' $$;
COMMENT ON FUNCTION uuid_v7_to_timestamp(uuid) IS
    'pg_uuidv7: the millisecond in the first 48 bits of a v7 UUID, as timestamp in UTC';

-- zero: the millisecond and every other bit zero (pg_uuidv7's boundary); otherwise the fraction in rand_a and
-- 62 random bits, as the generator makes them
CREATE OR REPLACE FUNCTION sequuid.timestamptz_to_v7(instant timestamptz, zero boolean, function_name text) RETURNS uuid
    LANGUAGE sql VOLATILE PARALLEL SAFE
AS $$
    SELECT CASE WHEN zero
                THEN sequuid.v7_lower_bound(sequuid.v7_unix_us(instant, '1', function_name) / 1000 * 1000)
                ELSE encode(sequuid.v7_time_octets(sequuid.v7_unix_us(instant, '1', function_name))
                            || substr(uuid_send(gen_random_uuid()), 9), 'hex')::uuid END
$$;

CREATE OR REPLACE FUNCTION uuid_timestamptz_to_v7(timestamptz, zero boolean DEFAULT false) RETURNS uuid
    LANGUAGE sql VOLATILE STRICT PARALLEL SAFE
AS $$ SELECT sequuid.timestamptz_to_v7($1, zero, 'uuid_timestamptz_to_v7') $$;
COMMENT ON FUNCTION uuid_timestamptz_to_v7(timestamptz, boolean) IS
    'pg_uuidv7: a v7 UUID of the instant (12-bit sub-ms fraction, random bits); zero: the millisecond, all other bits zero';

CREATE OR REPLACE FUNCTION uuid_timestamp_to_v7(timestamp, zero boolean DEFAULT false) RETURNS uuid
    LANGUAGE sql VOLATILE STRICT PARALLEL SAFE
AS $$ SELECT sequuid.timestamptz_to_v7($1 AT TIME ZONE 'UTC', zero, 'uuid_timestamp_to_v7') $$;
COMMENT ON FUNCTION uuid_timestamp_to_v7(timestamp, boolean) IS
    'pg_uuidv7: a v7 UUID of the UTC timestamp (12-bit sub-ms fraction, random bits); zero: the millisecond, all other bits zero';

-- ULID text: 130 bits (two zero bits, then the 128 of the uuid) in 26 base-32 digits, most significant first,
-- handled as 2 + 12 + 12 digits: octet 0, then two runs of 60 bits (15 hex digits each).  Spelled out digit by
-- digit: PL/pgSQL evaluates one long expression much faster than a loop.
CREATE OR REPLACE FUNCTION uuid_to_ulid(id uuid) RETURNS text
    LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
AS $$
DECLARE
    alphabet constant text := '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
    hex constant text := encode(uuid_send(id), 'hex');
    octet0 constant bigint := get_byte(uuid_send(id), 0);
    middle constant bigint := ('x' || substr(hex, 3, 15))::bit(60)::bigint;
    low constant bigint := ('x' || right(hex, 15))::bit(60)::bigint;
BEGIN
    RETURN substr(alphabet, ((octet0 >> 5) & 31)::int + 1, 1) || substr(alphabet, ((octet0 >> 0) & 31)::int + 1, 1)
           || substr(alphabet, ((middle >> 55) & 31)::int + 1, 1) || substr(alphabet, ((middle >> 50) & 31)::int + 1, 1) || substr(alphabet, ((middle >> 45) & 31)::int + 1, 1)
           || substr(alphabet, ((middle >> 40) & 31)::int + 1, 1) || substr(alphabet, ((middle >> 35) & 31)::int + 1, 1) || substr(alphabet, ((middle >> 30) & 31)::int + 1, 1)
           || substr(alphabet, ((middle >> 25) & 31)::int + 1, 1) || substr(alphabet, ((middle >> 20) & 31)::int + 1, 1) || substr(alphabet, ((middle >> 15) & 31)::int + 1, 1)
           || substr(alphabet, ((middle >> 10) & 31)::int + 1, 1) || substr(alphabet, ((middle >> 5) & 31)::int + 1, 1) || substr(alphabet, ((middle >> 0) & 31)::int + 1, 1)
           || substr(alphabet, ((low >> 55) & 31)::int + 1, 1) || substr(alphabet, ((low >> 50) & 31)::int + 1, 1) || substr(alphabet, ((low >> 45) & 31)::int + 1, 1)
           || substr(alphabet, ((low >> 40) & 31)::int + 1, 1) || substr(alphabet, ((low >> 35) & 31)::int + 1, 1) || substr(alphabet, ((low >> 30) & 31)::int + 1, 1)
           || substr(alphabet, ((low >> 25) & 31)::int + 1, 1) || substr(alphabet, ((low >> 20) & 31)::int + 1, 1) || substr(alphabet, ((low >> 15) & 31)::int + 1, 1)
           || substr(alphabet, ((low >> 10) & 31)::int + 1, 1) || substr(alphabet, ((low >> 5) & 31)::int + 1, 1) || substr(alphabet, ((low >> 0) & 31)::int + 1, 1);
END
$$;
COMMENT ON FUNCTION uuid_to_ulid(uuid) IS 'the 16 bytes as 26 characters of upper-case Crockford base32';

CREATE OR REPLACE FUNCTION ulid_to_uuid(ulid text) RETURNS uuid
    LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
AS $$
DECLARE
    alphabet constant text := '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
    canonical constant text := translate(upper(ulid), 'ILO', '110');
BEGIN
    IF length(ulid) <> 26 THEN
        RAISE EXCEPTION 'invalid input syntax for a ULID: "%"', ulid
            USING ERRCODE = 'invalid_text_representation', DETAIL = 'A ULID is exactly 26 characters long.';
    END IF;
    IF canonical !~ '^[0-9A-HJKMNP-TV-Z]{26}$' THEN
        RAISE EXCEPTION 'invalid input syntax for a ULID: "%"', ulid
            USING ERRCODE = 'invalid_text_representation',
                  DETAIL = 'A ULID consists of Crockford base32 characters (0-9 and A-Z except U).';
    END IF;
    IF left(canonical, 1) > '7' THEN
        RAISE EXCEPTION 'invalid input syntax for a ULID: "%"', ulid
            USING ERRCODE = 'invalid_text_representation', DETAIL = 'The largest ULID is 7ZZZZZZZZZZZZZZZZZZZZZZZZZ.';
    END IF;
    RETURN (lpad(to_hex(((strpos(alphabet, substr(canonical, 1, 1)) - 1)::bigint << 5)
                 | ((strpos(alphabet, substr(canonical, 2, 1)) - 1)::bigint << 0)), 2, '0')
            || lpad(to_hex(((strpos(alphabet, substr(canonical, 3, 1)) - 1)::bigint << 55)
                 | ((strpos(alphabet, substr(canonical, 4, 1)) - 1)::bigint << 50)
                 | ((strpos(alphabet, substr(canonical, 5, 1)) - 1)::bigint << 45)
                 | ((strpos(alphabet, substr(canonical, 6, 1)) - 1)::bigint << 40)
                 | ((strpos(alphabet, substr(canonical, 7, 1)) - 1)::bigint << 35)
                 | ((strpos(alphabet, substr(canonical, 8, 1)) - 1)::bigint << 30)
                 | ((strpos(alphabet, substr(canonical, 9, 1)) - 1)::bigint << 25)
                 | ((strpos(alphabet, substr(canonical, 10, 1)) - 1)::bigint << 20)
                 | ((strpos(alphabet, substr(canonical, 11, 1)) - 1)::bigint << 15)
                 | ((strpos(alphabet, substr(canonical, 12, 1)) - 1)::bigint << 10)
                 | ((strpos(alphabet, substr(canonical, 13, 1)) - 1)::bigint << 5)
                 | ((strpos(alphabet, substr(canonical, 14, 1)) - 1)::bigint << 0)), 15, '0')
            || lpad(to_hex(((strpos(alphabet, substr(canonical, 15, 1)) - 1)::bigint << 55)
                 | ((strpos(alphabet, substr(canonical, 16, 1)) - 1)::bigint << 50)
                 | ((strpos(alphabet, substr(canonical, 17, 1)) - 1)::bigint << 45)
                 | ((strpos(alphabet, substr(canonical, 18, 1)) - 1)::bigint << 40)
                 | ((strpos(alphabet, substr(canonical, 19, 1)) - 1)::bigint << 35)
                 | ((strpos(alphabet, substr(canonical, 20, 1)) - 1)::bigint << 30)
                 | ((strpos(alphabet, substr(canonical, 21, 1)) - 1)::bigint << 25)
                 | ((strpos(alphabet, substr(canonical, 22, 1)) - 1)::bigint << 20)
                 | ((strpos(alphabet, substr(canonical, 23, 1)) - 1)::bigint << 15)
                 | ((strpos(alphabet, substr(canonical, 24, 1)) - 1)::bigint << 10)
                 | ((strpos(alphabet, substr(canonical, 25, 1)) - 1)::bigint << 5)
                 | ((strpos(alphabet, substr(canonical, 26, 1)) - 1)::bigint << 0)), 15, '0'))::uuid;
END
$$;
COMMENT ON FUNCTION ulid_to_uuid(text) IS 'ULID text (case-insensitive; I and L read as 1, O as 0) as uuid';

-- base32hex -----------------------------------------------------------------------------------------------------
-- RFC 4648 section 7's alphabet sorts as its values, so the text of two uuids compares byte-wise (COLLATE "C") as
-- the uuids do: PostgreSQL 19's rtrim(encode(id::bytea, 'base32hex'), '=').  130 bits (the 128 and two zero bits)
-- in 26 digits: 60 bits, 60 bits, then the last 8 bits shifted up by two.

CREATE OR REPLACE FUNCTION uuid_to_base32hex(id uuid) RETURNS text
    LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
AS $$
DECLARE
    alphabet constant text := '0123456789ABCDEFGHIJKLMNOPQRSTUV';
    hex constant text := encode(uuid_send(id), 'hex');
    first constant bigint := ('x' || substr(hex, 1, 15))::bit(60)::bigint;
    second constant bigint := ('x' || substr(hex, 16, 15))::bit(60)::bigint;
    last constant bigint := ('x' || right(hex, 2))::bit(8)::bigint << 2;
BEGIN
    RETURN substr(alphabet, ((first >> 55) & 31)::int + 1, 1) || substr(alphabet, ((first >> 50) & 31)::int + 1, 1) || substr(alphabet, ((first >> 45) & 31)::int + 1, 1)
           || substr(alphabet, ((first >> 40) & 31)::int + 1, 1) || substr(alphabet, ((first >> 35) & 31)::int + 1, 1) || substr(alphabet, ((first >> 30) & 31)::int + 1, 1)
           || substr(alphabet, ((first >> 25) & 31)::int + 1, 1) || substr(alphabet, ((first >> 20) & 31)::int + 1, 1) || substr(alphabet, ((first >> 15) & 31)::int + 1, 1)
           || substr(alphabet, ((first >> 10) & 31)::int + 1, 1) || substr(alphabet, ((first >> 5) & 31)::int + 1, 1) || substr(alphabet, ((first >> 0) & 31)::int + 1, 1)
           || substr(alphabet, ((second >> 55) & 31)::int + 1, 1) || substr(alphabet, ((second >> 50) & 31)::int + 1, 1) || substr(alphabet, ((second >> 45) & 31)::int + 1, 1)
           || substr(alphabet, ((second >> 40) & 31)::int + 1, 1) || substr(alphabet, ((second >> 35) & 31)::int + 1, 1) || substr(alphabet, ((second >> 30) & 31)::int + 1, 1)
           || substr(alphabet, ((second >> 25) & 31)::int + 1, 1) || substr(alphabet, ((second >> 20) & 31)::int + 1, 1) || substr(alphabet, ((second >> 15) & 31)::int + 1, 1)
           || substr(alphabet, ((second >> 10) & 31)::int + 1, 1) || substr(alphabet, ((second >> 5) & 31)::int + 1, 1) || substr(alphabet, ((second >> 0) & 31)::int + 1, 1)
           || substr(alphabet, ((last >> 5) & 31)::int + 1, 1) || substr(alphabet, ((last >> 0) & 31)::int + 1, 1);
END
$$;
COMMENT ON FUNCTION uuid_to_base32hex(uuid) IS
    'the uuid as 26 base32hex digits (RFC 4648 section 7, no padding), which sort byte-wise as the uuid does';

-- The canonical text alone, the one uuid_to_base32hex() writes (the C extension's 1.6): 26 digits 0-9 and A-V, upper
-- case, no padding, no whitespace, the last digit's two bits past the 128th zero, so that one uuid has one
-- spelling; anything else is invalid text (22P02).  The text is checked against the digits listed one by one, in
-- the C collation: a regular expression's ranges or upper() would follow the argument's collation.
CREATE OR REPLACE FUNCTION uuid_from_base32hex(base32hex text) RETURNS uuid
    LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
    SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    alphabet constant text := '0123456789ABCDEFGHIJKLMNOPQRSTUV';
    hint constant text := 'The canonical text is what uuid_to_base32hex() writes: 26 digits 0-9 and A-V, upper case, without padding or whitespace.';
    bad constant text := substring(base32hex COLLATE "C" FROM '[^0123456789ABCDEFGHIJKLMNOPQRSTUV]');
    digits constant text := base32hex COLLATE "C";
BEGIN
    IF bad IS NOT NULL THEN
        RAISE EXCEPTION 'argument "base32hex" of uuid_from_base32hex contains "%", which is not a digit of canonical base32hex', bad
            USING ERRCODE = 'invalid_text_representation', HINT = hint;
    END IF;
    IF length(digits) <> 26 THEN
        RAISE EXCEPTION 'argument "base32hex" of uuid_from_base32hex has % digits, not 26', length(digits)
            USING ERRCODE = 'invalid_text_representation', HINT = hint;
    END IF;
    IF ((strpos(alphabet, substr(digits, 26, 1)) - 1) & 3) <> 0 THEN
        RAISE EXCEPTION 'argument "base32hex" of uuid_from_base32hex ends in "%", whose two bits past the 128th are not zero',
                substr(digits, 26, 1)
            USING ERRCODE = 'invalid_text_representation',
                  HINT = 'The last digit of a uuid''s text is one of 0 4 8 C G K O S.';
    END IF;
    RETURN (lpad(to_hex(((strpos(alphabet, substr(digits, 1, 1)) - 1)::bigint << 55)
                     | ((strpos(alphabet, substr(digits, 2, 1)) - 1)::bigint << 50)
                     | ((strpos(alphabet, substr(digits, 3, 1)) - 1)::bigint << 45)
                     | ((strpos(alphabet, substr(digits, 4, 1)) - 1)::bigint << 40)
                     | ((strpos(alphabet, substr(digits, 5, 1)) - 1)::bigint << 35)
                     | ((strpos(alphabet, substr(digits, 6, 1)) - 1)::bigint << 30)
                     | ((strpos(alphabet, substr(digits, 7, 1)) - 1)::bigint << 25)
                     | ((strpos(alphabet, substr(digits, 8, 1)) - 1)::bigint << 20)
                     | ((strpos(alphabet, substr(digits, 9, 1)) - 1)::bigint << 15)
                     | ((strpos(alphabet, substr(digits, 10, 1)) - 1)::bigint << 10)
                     | ((strpos(alphabet, substr(digits, 11, 1)) - 1)::bigint << 5)
                     | ((strpos(alphabet, substr(digits, 12, 1)) - 1)::bigint << 0)), 15, '0')
            || lpad(to_hex(((strpos(alphabet, substr(digits, 13, 1)) - 1)::bigint << 55)
                     | ((strpos(alphabet, substr(digits, 14, 1)) - 1)::bigint << 50)
                     | ((strpos(alphabet, substr(digits, 15, 1)) - 1)::bigint << 45)
                     | ((strpos(alphabet, substr(digits, 16, 1)) - 1)::bigint << 40)
                     | ((strpos(alphabet, substr(digits, 17, 1)) - 1)::bigint << 35)
                     | ((strpos(alphabet, substr(digits, 18, 1)) - 1)::bigint << 30)
                     | ((strpos(alphabet, substr(digits, 19, 1)) - 1)::bigint << 25)
                     | ((strpos(alphabet, substr(digits, 20, 1)) - 1)::bigint << 20)
                     | ((strpos(alphabet, substr(digits, 21, 1)) - 1)::bigint << 15)
                     | ((strpos(alphabet, substr(digits, 22, 1)) - 1)::bigint << 10)
                     | ((strpos(alphabet, substr(digits, 23, 1)) - 1)::bigint << 5)
                     | ((strpos(alphabet, substr(digits, 24, 1)) - 1)::bigint << 0)), 15, '0')
            || lpad(to_hex((((strpos(alphabet, substr(digits, 25, 1)) - 1)::bigint << 5)
                     | ((strpos(alphabet, substr(digits, 26, 1)) - 1)::bigint << 0)) >> 2), 2, '0'))::uuid;
END
$$;
COMMENT ON FUNCTION uuid_from_base32hex(text) IS
    'the uuid of its canonical base32hex text (26 digits 0-9 and A-V, upper case, no padding), as uuid_to_base32hex() writes it';

-- uuid_time_ops: v1 UUIDs first, by their v6 form (timestamp, then clock_seq and node), then every other UUID by
-- its bytes; the same order as the C comparison, without sortsupport.
CREATE OR REPLACE FUNCTION sequuid.time_key(id uuid) RETURNS bytea
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$
    SELECT CASE WHEN sequuid.rfc_version(id) = 1
                THEN '\x00'::bytea || decode('0' || sequuid.v1_time_hex(sequuid.hex(id)) || substr(sequuid.hex(id), 17), 'hex')
                ELSE '\x01'::bytea || uuid_send(id) END
$$;

-- byteacmp() returns memcmp()'s sign, not -1/0/1
CREATE OR REPLACE FUNCTION uuid_time_cmp(a uuid, b uuid) RETURNS integer
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
AS $$ SELECT sign(byteacmp(sequuid.time_key(a), sequuid.time_key(b)))::integer $$;
CREATE OR REPLACE FUNCTION uuid_time_lt(a uuid, b uuid) RETURNS boolean
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$ SELECT sequuid.time_key(a) < sequuid.time_key(b) $$;
CREATE OR REPLACE FUNCTION uuid_time_le(a uuid, b uuid) RETURNS boolean
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$ SELECT sequuid.time_key(a) <= sequuid.time_key(b) $$;
CREATE OR REPLACE FUNCTION uuid_time_ge(a uuid, b uuid) RETURNS boolean
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$ SELECT sequuid.time_key(a) >= sequuid.time_key(b) $$;
CREATE OR REPLACE FUNCTION uuid_time_gt(a uuid, b uuid) RETURNS boolean
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$ SELECT sequuid.time_key(a) > sequuid.time_key(b) $$;

-- The operators and the operator class have no CREATE OR REPLACE: created where missing (an update keeps those it
-- finds; their functions above were replaced in place).  CREATE OPERATOR CLASS needs a superuser, which managed
-- services (RDS, Cloud SQL, Azure) give nobody: there the class is left out with a NOTICE and everything else is
-- installed (see docs/port.md for what that costs: ORDER BY uuid_time_cmp-ordered indexes are not available).
DO $operators$
DECLARE
    target name := pg_catalog.current_schema();
    operator record;
BEGIN
    FOR operator IN
        SELECT *
        FROM (VALUES ('~<~', 'uuid_time_lt', '~>~', '~>=~', 'scalarltsel', 'scalarltjoinsel'),
                     ('~<=~', 'uuid_time_le', '~>=~', '~>~', 'scalarlesel', 'scalarlejoinsel'),
                     ('~>=~', 'uuid_time_ge', '~<=~', '~<~', 'scalargesel', 'scalargejoinsel'),
                     ('~>~', 'uuid_time_gt', '~<~', '~<=~', 'scalargtsel', 'scalargtjoinsel'))
            AS o (name, function, commutator, negator, restrict, join_estimator)
        WHERE NOT EXISTS (SELECT FROM pg_catalog.pg_operator p JOIN pg_catalog.pg_namespace n
                                                                ON n.oid OPERATOR(pg_catalog.=) p.oprnamespace
                          WHERE p.oprname OPERATOR(pg_catalog.=) o.name::name
                            AND p.oprleft OPERATOR(pg_catalog.=) 'pg_catalog.uuid'::pg_catalog.regtype
                            AND p.oprright OPERATOR(pg_catalog.=) 'pg_catalog.uuid'::pg_catalog.regtype
                            AND n.nspname OPERATOR(pg_catalog.=) target)
    LOOP
        EXECUTE pg_catalog.format(
            'CREATE OPERATOR %1$I.%2$s (LEFTARG = pg_catalog.uuid, RIGHTARG = pg_catalog.uuid, FUNCTION = %1$I.%3$I, '
            'COMMUTATOR = OPERATOR(%1$I.%4$s), NEGATOR = OPERATOR(%1$I.%5$s), RESTRICT = pg_catalog.%6$I, '
            'JOIN = pg_catalog.%7$I)',
            target, operator.name, operator.function, operator.commutator, operator.negator, operator.restrict,
            operator.join_estimator);
    END LOOP;
    IF EXISTS (SELECT FROM pg_catalog.pg_opclass c
               JOIN pg_catalog.pg_am a ON a.oid OPERATOR(pg_catalog.=) c.opcmethod
               JOIN pg_catalog.pg_namespace n ON n.oid OPERATOR(pg_catalog.=) c.opcnamespace
               WHERE c.opcname OPERATOR(pg_catalog.=) 'uuid_time_ops'::name
                 AND a.amname OPERATOR(pg_catalog.=) 'btree'::name AND n.nspname OPERATOR(pg_catalog.=) target) THEN
        RETURN;
    END IF;
    IF NOT (SELECT rolsuper FROM pg_catalog.pg_roles WHERE rolname OPERATOR(pg_catalog.=) CURRENT_USER) THEN
        RAISE NOTICE 'operator class uuid_time_ops not created: only a superuser may create an operator class'
            USING HINT = 'Everything else is installed; the operators ~<~ ~<=~ ~>=~ ~>~ and uuid_time_cmp() work without it (sequuid/docs/port.md).';
        RETURN;
    END IF;
    EXECUTE pg_catalog.format(
        'CREATE OPERATOR CLASS %1$I.uuid_time_ops FOR TYPE pg_catalog.uuid USING btree AS '
        'OPERATOR 1 %1$I.~<~, OPERATOR 2 %1$I.~<=~, OPERATOR 3 pg_catalog.=, OPERATOR 4 %1$I.~>=~, '
        'OPERATOR 5 %1$I.~>~, FUNCTION 1 %1$I.uuid_time_cmp(pg_catalog.uuid, pg_catalog.uuid)', target);
END
$operators$;

-- public ids ---------------------------------------------------------------------------------------------------
-- Two keyed, reversible mappings between a v7 and a v4-looking façade, bit for bit the C extension's
-- (docs/public-ids.md): uuid_v7_to_public / uuid_public_to_v7 permute the 60 bits of time and rand_a by a
-- four-round Feistel network keyed by the key and the id's 62 random bits (rand_b), which stay; uuid_v7_to_uuidv47 /
-- uuid_uuidv47_to_v7 are UUIDv47's façade (the time XORed with SipHash-2-4 of rand_a and rand_b).  Both hash with
-- SipHash-2-4 under a 16-byte key (k0 = bytes 0-7, k1 = bytes 8-15, each little-endian) a message of one 8-byte
-- word and a last block.  SipHash works on unsigned 64-bit words, which bigint cannot add without overflowing, so
-- each word is two 32-bit halves in bigints.
-- Every function here sees the key: each pins search_path to pg_catalog, pg_temp (pg_temp is never searched for
-- functions or operators), and every operator has operands of exactly its types, so that pg_catalog's operator is
-- the one that runs whatever a caller's path holds.
-- Only the forms with the key as an argument: a session setting read by PL/pgSQL could be read back by any
-- role, so the port has no key-less form (docs/public-ids.md shows a wrapper that keeps the key in a table).
-- The public functions are PL/pgSQL, not SQL, so that plans show them by name, as they show the C functions.

-- 1.5's port had one helper for UUIDv47's façade under the public names; an in-place update removes it
DO $$
BEGIN
    IF pg_catalog.to_regprocedure('sequuid.public_id_remap(uuid, bytea, integer, text)') IS NOT NULL THEN
        DROP FUNCTION sequuid.public_id_remap(uuid, bytea, integer, text);
    END IF;
END
$$;

-- SipHash-2-4 of a message of 8 to 15 bytes: its first 8 bytes as a little-endian word, and its last block (the
-- bytes left, little-endian, with the message's length in the top byte); the 64-bit tag in a bigint
CREATE OR REPLACE FUNCTION sequuid.siphash24(key bytea, first_word bigint, last_block bigint) RETURNS bigint
    LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
    SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    half constant bigint := 4294967295;
    byte_mask constant bigint := 255;
    -- k0, k1 and the message's two words, each as high and low 32 bits
    k0l constant bigint := get_byte(key, 0)::bigint | (get_byte(key, 1)::bigint << 8) | (get_byte(key, 2)::bigint << 16)
                           | (get_byte(key, 3)::bigint << 24);
    k0h constant bigint := get_byte(key, 4)::bigint | (get_byte(key, 5)::bigint << 8) | (get_byte(key, 6)::bigint << 16)
                           | (get_byte(key, 7)::bigint << 24);
    k1l constant bigint := get_byte(key, 8)::bigint | (get_byte(key, 9)::bigint << 8) | (get_byte(key, 10)::bigint << 16)
                           | (get_byte(key, 11)::bigint << 24);
    k1h constant bigint := get_byte(key, 12)::bigint | (get_byte(key, 13)::bigint << 8) | (get_byte(key, 14)::bigint << 16)
                           | (get_byte(key, 15)::bigint << 24);
    mh constant bigint := (first_word >> 32) & half;
    ml constant bigint := first_word & half;
    bh constant bigint := (last_block >> 32) & half;
    bl constant bigint := last_block & half;
    v0h bigint := 1936682341::bigint # k0h; v0l bigint := 1886610805::bigint # k0l;   -- 0x736f6d65 0x70736575
    v1h bigint := 1685025377::bigint # k1h; v1l bigint := 1852075885::bigint # k1l;   -- 0x646f7261 0x6e646f6d
    v2h bigint := 1819895653::bigint # k0h; v2l bigint := 1852142177::bigint # k0l;   -- 0x6c796765 0x6e657261
    v3h bigint := 1952801890::bigint # k1h; v3l bigint := 2037671283::bigint # k1l;   -- 0x74656462 0x79746573
    t bigint;
BEGIN
    -- two rounds for the word, two for the last block, four to finish
    FOR round IN 1..8 LOOP
        IF round = 1 THEN
            v3h := v3h # mh; v3l := v3l # ml;
        ELSIF round = 3 THEN
            v0h := v0h # mh; v0l := v0l # ml;
            v3h := v3h # bh; v3l := v3l # bl;
        ELSIF round = 5 THEN
            v0h := v0h # bh; v0l := v0l # bl;
            v2l := v2l # byte_mask;
        END IF;
        -- (PostgreSQL gives | << & # one precedence, left to right: every shift is parenthesised)
        -- v0 += v1; v1 = rotl(v1, 13) ^ v0; v0 = rotl(v0, 32)
        v0l := v0l + v1l; v0h := (v0h + v1h + (v0l >> 32)) & half; v0l := v0l & half;
        t := v1h; v1h := ((v1h << 13) | (v1l >> 19)) & half; v1l := ((v1l << 13) | (t >> 19)) & half;
        v1h := v1h # v0h; v1l := v1l # v0l;
        t := v0h; v0h := v0l; v0l := t;
        -- v2 += v3; v3 = rotl(v3, 16) ^ v2
        v2l := v2l + v3l; v2h := (v2h + v3h + (v2l >> 32)) & half; v2l := v2l & half;
        t := v3h; v3h := ((v3h << 16) | (v3l >> 16)) & half; v3l := ((v3l << 16) | (t >> 16)) & half;
        v3h := v3h # v2h; v3l := v3l # v2l;
        -- v0 += v3; v3 = rotl(v3, 21) ^ v0
        v0l := v0l + v3l; v0h := (v0h + v3h + (v0l >> 32)) & half; v0l := v0l & half;
        t := v3h; v3h := ((v3h << 21) | (v3l >> 11)) & half; v3l := ((v3l << 21) | (t >> 11)) & half;
        v3h := v3h # v0h; v3l := v3l # v0l;
        -- v2 += v1; v1 = rotl(v1, 17) ^ v2; v2 = rotl(v2, 32)
        v2l := v2l + v1l; v2h := (v2h + v1h + (v2l >> 32)) & half; v2l := v2l & half;
        t := v1h; v1h := ((v1h << 17) | (v1l >> 15)) & half; v1l := ((v1l << 17) | (t >> 15)) & half;
        v1h := v1h # v2h; v1l := v1l # v2l;
        t := v2h; v2h := v2l; v2l := t;
    END LOOP;
    RETURN ((v0h # v1h # v2h # v3h) << 32) | (v0l # v1l # v2l # v3l);
END
$$;

-- the key's length, the version the direction reads and RFC 9562's variant, or the error the C function raises
CREATE OR REPLACE FUNCTION sequuid.public_id_check(id uuid, key bytea, reads integer, function_name text,
                                                   encoder text, decoder text) RETURNS void
    LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
    SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    bytes constant bytea := uuid_send(id);
    found constant integer := get_byte(bytes, 6) >> 4;
    what constant text := CASE reads WHEN 4 THEN 'a public id' ELSE 'a v7' END;
BEGIN
    IF length(key) <> 16 THEN
        RAISE EXCEPTION 'argument "key" of % must be 16 bytes, not %', function_name, length(key)
            USING ERRCODE = 'invalid_parameter_value',
                  HINT = 'Make a key with gen_random_bytes(16) (pgcrypto) or from 16 bytes of a key derivation.';
    END IF;
    IF found <> reads THEN
        RAISE EXCEPTION 'argument "id" of % is a version % uuid, not % (version %)', function_name, found, what, reads
            USING ERRCODE = 'invalid_parameter_value',
                  HINT = CASE reads
                      WHEN 7 THEN format('A public id (version 4) decodes with %s(); only a v7 encodes.', decoder)
                      ELSE format('A stored v7 encodes with %s(); only a public id (version 4) decodes.', encoder) END;
    END IF;
    IF get_byte(bytes, 8) >> 6 <> 2 THEN
        RAISE EXCEPTION 'argument "id" of % does not have RFC 9562''s variant (10), so it is not %', function_name, what
            USING ERRCODE = 'invalid_parameter_value';
    END IF;
END
$$;

-- UUIDv47: the 48-bit time XORed with the low 48 bits of SipHash-2-4 of the 10 bytes of rand_a and rand_b
-- (low nibble of byte 6, byte 7, byte 8 less the variant, bytes 9-15), version 4 (back: 7)
CREATE OR REPLACE FUNCTION sequuid.public_id_uuidv47(id uuid, key bytea, version integer) RETURNS uuid
    LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
    SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    bytes constant bytea := uuid_send(id);
    hex constant text := encode(bytes, 'hex');
    time_mask constant bigint := 281474976710655;
    first_word constant bigint := (get_byte(bytes, 6)::bigint & 15::bigint) | (get_byte(bytes, 7)::bigint << 8)
                                  | ((get_byte(bytes, 8)::bigint & 63::bigint) << 16) | (get_byte(bytes, 9)::bigint << 24)
                                  | (get_byte(bytes, 10)::bigint << 32) | (get_byte(bytes, 11)::bigint << 40)
                                  | (get_byte(bytes, 12)::bigint << 48) | (get_byte(bytes, 13)::bigint << 56);
    last_block constant bigint := get_byte(bytes, 14)::bigint | (get_byte(bytes, 15)::bigint << 8) | (10::bigint << 56);
    time constant bigint := ('x' || substr(hex, 1, 12))::bit(48)::bigint;
    mask constant bigint := sequuid.siphash24(key, first_word, last_block) & time_mask;
BEGIN
    RETURN (lpad(to_hex(time # mask), 12, '0') || version::text || substr(hex, 14))::uuid;
END
$$;

-- The Feistel mapping: the 60 bits of time and rand_a as two 30-bit halves through four rounds, forwards to encode
-- (version 4), backwards to decode (7).  Round i's function is the low 30 bits of SipHash-2-4 of the 12 bytes rand_b
-- (a little-endian word) and i << 30 | half (little-endian, 4 bytes).
CREATE OR REPLACE FUNCTION sequuid.public_id_feistel(id uuid, key bytea, version integer) RETURNS uuid
    LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
    SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    hex constant text := encode(uuid_send(id), 'hex');
    half_mask constant bigint := 1073741823;
    length_byte constant bigint := 12::bigint << 56;
    rand_b constant bigint := ('x' || substr(hex, 17, 16))::bit(64)::bigint & 4611686018427387903::bigint;
    bits bigint := ('x' || substr(hex, 1, 12) || substr(hex, 14, 3))::bit(60)::bigint;
    left_half bigint := bits >> 30;
    right_half bigint := bits & half_mask;
    next bigint;
    out_hex text;
BEGIN
    IF version = 4 THEN
        FOR round IN 0..3 LOOP
            next := left_half # (sequuid.siphash24(key, rand_b, length_byte | (round::bigint << 30) | right_half)
                                 & half_mask);
            left_half := right_half;
            right_half := next;
        END LOOP;
    ELSE
        FOR round IN REVERSE 3..0 LOOP
            next := right_half # (sequuid.siphash24(key, rand_b, length_byte | (round::bigint << 30) | left_half)
                                  & half_mask);
            right_half := left_half;
            left_half := next;
        END LOOP;
    END IF;
    bits := (left_half << 30) | right_half;
    out_hex := lpad(to_hex(bits), 15, '0');
    RETURN (substr(out_hex, 1, 12) || version::text || substr(out_hex, 13, 3) || substr(hex, 17))::uuid;
END
$$;

CREATE OR REPLACE FUNCTION uuid_v7_to_public(id uuid, key bytea) RETURNS uuid
    LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
    SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    PERFORM sequuid.public_id_check(id, key, 7, 'uuid_v7_to_public', 'uuid_v7_to_public', 'uuid_public_to_v7');
    RETURN sequuid.public_id_feistel(id, key, 4);
END
$$;
COMMENT ON FUNCTION uuid_v7_to_public(uuid, bytea) IS
    'the v4-looking public id of a v7 under a 16-byte key: its time and sub-millisecond bits permuted under the key and its random bits';

CREATE OR REPLACE FUNCTION uuid_public_to_v7(id uuid, key bytea) RETURNS uuid
    LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
    SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    PERFORM sequuid.public_id_check(id, key, 4, 'uuid_public_to_v7', 'uuid_v7_to_public', 'uuid_public_to_v7');
    RETURN sequuid.public_id_feistel(id, key, 7);
END
$$;
COMMENT ON FUNCTION uuid_public_to_v7(uuid, bytea) IS
    'the v7 a public id was made from by uuid_v7_to_public() under the same 16-byte key';

CREATE OR REPLACE FUNCTION uuid_v7_to_uuidv47(id uuid, key bytea) RETURNS uuid
    LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
    SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    PERFORM sequuid.public_id_check(id, key, 7, 'uuid_v7_to_uuidv47', 'uuid_v7_to_uuidv47', 'uuid_uuidv47_to_v7');
    RETURN sequuid.public_id_uuidv47(id, key, 4);
END
$$;
COMMENT ON FUNCTION uuid_v7_to_uuidv47(uuid, bytea) IS
    'UUIDv47''s façade of a v7 under a 16-byte key: the time XORed with SipHash-2-4 of rand_a and rand_b (hides the time only where rand_a is random)';

CREATE OR REPLACE FUNCTION uuid_uuidv47_to_v7(id uuid, key bytea) RETURNS uuid
    LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
    SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    PERFORM sequuid.public_id_check(id, key, 4, 'uuid_uuidv47_to_v7', 'uuid_v7_to_uuidv47', 'uuid_uuidv47_to_v7');
    RETURN sequuid.public_id_uuidv47(id, key, 7);
END
$$;
COMMENT ON FUNCTION uuid_uuidv47_to_v7(uuid, bytea) IS
    'the v7 of a UUIDv47 façade under the same 16-byte key (UUIDv47''s decode; 1.5''s uuid_public_to_v7)';

\if :{?sequuid_port_nested}
\else
COMMIT;
\endif
