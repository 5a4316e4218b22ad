-- sequuid/plpgsql/sequuid_pg18api.sql: PostgreSQL 18's UUID functions without C, for servers that cannot load
-- extensions: the PL/pgSQL port of the sequuid_pg18api extension.  It builds on the sequuid port; install both with
--
--     psql -v ON_ERROR_STOP=1 -f sequuid.sql -f sequuid_pg18api.sql
--
-- Like the extension it creates only what the server lacks: uuidv7(), uuidv7(shift interval), uuidv4(),
-- uuid_extract_version(uuid) and uuid_extract_timestamp(uuid) on 15 and 16; on 17 the three generators and
-- uuid_extract_timestamp(), because 17's reads v1 UUIDs only (on 17, calls find 18's only where search_path names
-- its schema before pg_catalog); nothing on 18 and later, where core's functions serve.  They go into the schema
-- that holds the sequuid port's uuid_generate_v7() (the first schema of search_path, where sequuid.sql puts it).
-- Running the file again replaces them in place.  Plain SQL (a DO block), so migration tools that do not speak
-- psql can run it too.
--
-- Differences from core's functions, all forced by what SQL can do:
--   * uuidv7() and uuidv7(shift) keep their per-backend state in a session setting, which PostgreSQL forbids in
--     parallel mode: PARALLEL UNSAFE (core: PARALLEL SAFE).  Their clock reads microseconds, so the 12-bit
--     fraction advances by one step when the clock has not moved on, rather than by 245 ns.
--   * uuidv7() is not STRICT (it has no argument, so nothing can be observed of it), so that the planner inlines it.
--   * uuid_extract_version() and uuid_extract_timestamp() are LEAKPROOF only when a superuser installs them: only a
--     superuser may declare a function LEAKPROOF.

-- The installer may be a superuser: the block runs on pg_catalog's names alone (search_path pinned, the caller's put
-- back at the end), and what it needs of the caller's path, the port's uuid_generate_v7(), it looks up first.
DO $do$
DECLARE
    caller_path constant text := pg_catalog.current_setting('search_path');
    port_function constant regprocedure := pg_catalog.to_regprocedure('uuid_generate_v7()');
    port_schema text;
    superuser boolean;
    core_reads_v7 boolean := false;
BEGIN
    PERFORM pg_catalog.set_config('search_path', 'pg_catalog, pg_temp', true);
    superuser := (SELECT rolsuper FROM pg_roles WHERE rolname = current_user);
    IF to_regprocedure('pg_catalog.uuid_extract_timestamp(uuid)') IS NOT NULL THEN
        EXECUTE $q$SELECT pg_catalog.uuid_extract_timestamp('017f22e2-79b0-7cc3-98c4-dc0c0c07398f') IS NOT NULL$q$
            INTO core_reads_v7;
    END IF;
    IF to_regprocedure('pg_catalog.uuidv7()') IS NOT NULL
       AND to_regprocedure('pg_catalog.uuidv7(interval)') IS NOT NULL
       AND to_regprocedure('pg_catalog.uuidv4()') IS NOT NULL
       AND to_regprocedure('pg_catalog.uuid_extract_version(uuid)') IS NOT NULL
       AND core_reads_v7 THEN
        PERFORM pg_catalog.set_config('search_path', caller_path, true);
        RETURN;
    END IF;

    SELECT pronamespace::regnamespace::text INTO port_schema
    FROM pg_proc WHERE oid = port_function::oid;
    IF port_schema IS NULL OR to_regnamespace('sequuid') IS NULL THEN
        RAISE EXCEPTION 'sequuid_pg18api.sql needs the sequuid PL/pgSQL port'
            USING ERRCODE = 'undefined_function',
                  HINT = 'Run sequuid.sql first, with the same search_path.';
    END IF;

    IF to_regprocedure('pg_catalog.uuidv7()') IS NULL THEN
        -- the port's v7 generator is PostgreSQL 18's layout on the same per-backend clock
        EXECUTE format($f$
            CREATE OR REPLACE FUNCTION %1$s.uuidv7() RETURNS uuid
                LANGUAGE sql VOLATILE PARALLEL UNSAFE
            AS 'SELECT %1$s.uuid_generate_v7()'$f$, port_schema);
        EXECUTE format($f$COMMENT ON FUNCTION %s.uuidv7() IS
            'generate UUID version 7 (PostgreSQL 18''s uuidv7(), from the sequuid_pg18api port)'$f$, port_schema);
    END IF;

    IF to_regprocedure('pg_catalog.uuidv7(interval)') IS NULL THEN
        -- the ascending clock's microsecond moved by the shift (timestamptz arithmetic raises core's own "timestamp
        -- out of range" past the timestamptz range), then core's checks of infinity and of the 48-bit range
        EXECUTE format($f$
            CREATE OR REPLACE FUNCTION %s.uuidv7(shift interval) RETURNS uuid
                LANGUAGE plpgsql VOLATILE STRICT PARALLEL UNSAFE
            AS $body$
            DECLARE
                ticks bigint := sequuid.v7_ticks();
                unix_us numeric;
            BEGIN
                IF NOT isfinite(shift) THEN
                    RAISE EXCEPTION 'interval out of range for UUID version 7'
                        USING ERRCODE = 'datetime_field_overflow',
                              DETAIL = 'UUID version 7 does not support infinite intervals.';
                END IF;
                -- rounding up inverts ticks = floor(us * 4096 / 1000)
                unix_us := extract(epoch FROM sequuid.timestamptz((ticks * 125 + 511) / 512) + shift) * 1000000;
                IF unix_us < 0 OR unix_us > 281474976710655000 THEN
                    RAISE EXCEPTION 'timestamp out of range for UUID version 7'
                        USING ERRCODE = 'datetime_field_overflow',
                              DETAIL = 'UUID version 7 supports timestamps from 1970-01-01 to approximately year 10889.';
                END IF;
                RETURN encode(sequuid.v7_time_octets(unix_us::bigint) || substr(uuid_send(gen_random_uuid()), 9),
                              'hex')::uuid;
            END
            $body$$f$, port_schema);
        EXECUTE format($f$COMMENT ON FUNCTION %s.uuidv7(interval) IS
            'generate UUID version 7 of the current time moved by shift (PostgreSQL 18''s uuidv7(interval), from the sequuid_pg18api port)'$f$,
            port_schema);
    END IF;

    IF to_regprocedure('pg_catalog.uuidv4()') IS NULL THEN
        -- core's uuidv4() is gen_random_uuid() under a second name
        EXECUTE format($f$
            CREATE OR REPLACE FUNCTION %s.uuidv4() RETURNS uuid
                LANGUAGE sql VOLATILE STRICT PARALLEL SAFE
            AS 'SELECT gen_random_uuid()'$f$, port_schema);
        EXECUTE format($f$COMMENT ON FUNCTION %s.uuidv4() IS
            'generate UUID version 4 (PostgreSQL 18''s uuidv4(), from the sequuid_pg18api port)'$f$, port_schema);
    END IF;

    IF to_regprocedure('pg_catalog.uuid_extract_version(uuid)') IS NULL THEN
        EXECUTE format($f$
            CREATE OR REPLACE FUNCTION %s.uuid_extract_version(uuid) RETURNS smallint
                LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
            AS 'SELECT sequuid.rfc_version($1)::smallint'$f$, port_schema);
        EXECUTE format($f$COMMENT ON FUNCTION %s.uuid_extract_version(uuid) IS
            'extract version from RFC 9562 UUID (PostgreSQL 17''s uuid_extract_version(), from the sequuid_pg18api port)'$f$,
            port_schema);
        IF superuser THEN
            EXECUTE format('ALTER FUNCTION %s.uuid_extract_version(uuid) LEAKPROOF', port_schema);
        END IF;
    END IF;

    IF NOT core_reads_v7 THEN
        IF to_regprocedure('pg_catalog.uuid_extract_timestamp(uuid)') IS NOT NULL THEN
            RAISE WARNING 'this server''s uuid_extract_timestamp(uuid) reads v1 UUIDs only: PostgreSQL 18''s, which reads v7 too, is created in schema %, where calls find it only if search_path names that schema before pg_catalog',
                port_schema
                USING HINT = format('SET search_path = %s, pg_catalog', port_schema);
        END IF;
        -- v1 to the microsecond as the port's uuid_timestamp() reads it; v7 to the millisecond only
        EXECUTE format($f$
            CREATE OR REPLACE FUNCTION %1$s.uuid_extract_timestamp(uuid) RETURNS timestamptz
                LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
            AS 'SELECT CASE sequuid.rfc_version($1)
                           WHEN 1 THEN %1$s.uuid_timestamp($1)
                           WHEN 7 THEN sequuid.unix_ms_timestamptz($1)
                       END'$f$, port_schema);
        EXECUTE format($f$COMMENT ON FUNCTION %s.uuid_extract_timestamp(uuid) IS
            'extract timestamp from a v1 or v7 UUID (PostgreSQL 18''s uuid_extract_timestamp(), from the sequuid_pg18api port)'$f$,
            port_schema);
        IF superuser THEN
            EXECUTE format('ALTER FUNCTION %s.uuid_extract_timestamp(uuid) LEAKPROOF', port_schema);
        END IF;
    END IF;
    PERFORM pg_catalog.set_config('search_path', caller_path, true);
END
$do$;
