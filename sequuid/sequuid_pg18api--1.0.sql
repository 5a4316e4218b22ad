/* sequuid/sequuid_pg18api--1.0.sql */

-- complain if script is sourced in psql, rather than via CREATE EXTENSION
\echo Use "CREATE EXTENSION sequuid_pg18api" to load this file. \quit

-- PostgreSQL 18's UUID functions, created only where the server lacks them: all five on 15 and 16; on 17 the three
-- generators, and uuid_extract_timestamp(), because 17's reads v1 UUIDs only (18's reads v7 too); none on 18 and
-- later.  Names, argument names, result types, labels and errors are core's, so SQL written for 18 runs unchanged;
-- on 18 core's own functions serve.  Each is looked up by its exact signature in pg_catalog, and core's
-- uuid_extract_timestamp() is asked to read RFC 9562's v7 test vector, rather than trusting the version number.
--
-- On 17, pg_catalog.uuid_extract_timestamp(uuid) exists with the same signature, and pg_catalog comes first in
-- search_path unless it is named in it: 18's version serves only where search_path names this extension's schema
-- before pg_catalog (SET search_path = public, pg_catalog).

DO $do$
DECLARE
    core_reads_v7 boolean := false;
BEGIN
    IF to_regprocedure('pg_catalog.uuidv7()') IS NULL THEN
        -- sequuid's v7 generator is PostgreSQL 18's bit for bit: same layout, same ascending clock
        CREATE FUNCTION uuidv7() RETURNS uuid
            AS 'MODULE_PATHNAME', 'uuid_generate_v7'
            LANGUAGE C VOLATILE STRICT PARALLEL SAFE;
        COMMENT ON FUNCTION uuidv7() IS 'generate UUID version 7 (PostgreSQL 18''s uuidv7(), from sequuid_pg18api)';
    END IF;

    IF to_regprocedure('pg_catalog.uuidv7(interval)') IS NULL THEN
        CREATE FUNCTION uuidv7(shift interval) RETURNS uuid
            AS 'MODULE_PATHNAME', 'sequuid_pg18_uuidv7_interval'
            LANGUAGE C VOLATILE STRICT PARALLEL SAFE;
        COMMENT ON FUNCTION uuidv7(interval) IS
            'generate UUID version 7 of the current time moved by shift (PostgreSQL 18''s uuidv7(interval), from sequuid_pg18api)';
    END IF;

    IF to_regprocedure('pg_catalog.uuidv4()') IS NULL THEN
        -- core's uuidv4() is gen_random_uuid() under a second name; so is this one
        CREATE FUNCTION uuidv4() RETURNS uuid
            AS 'gen_random_uuid'
            LANGUAGE internal VOLATILE STRICT PARALLEL SAFE;
        COMMENT ON FUNCTION uuidv4() IS 'generate UUID version 4 (PostgreSQL 18''s uuidv4(), from sequuid_pg18api)';
    END IF;

    IF to_regprocedure('pg_catalog.uuid_extract_version(uuid)') IS NULL THEN
        CREATE FUNCTION uuid_extract_version(uuid) RETURNS smallint
            AS 'MODULE_PATHNAME', 'sequuid_pg18_uuid_extract_version'
            LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
        COMMENT ON FUNCTION uuid_extract_version(uuid) IS
            'extract version from RFC 9562 UUID (PostgreSQL 17''s uuid_extract_version(), from sequuid_pg18api)';
    END IF;

    IF to_regprocedure('pg_catalog.uuid_extract_timestamp(uuid)') IS NOT NULL THEN
        EXECUTE $q$SELECT pg_catalog.uuid_extract_timestamp('017f22e2-79b0-7cc3-98c4-dc0c0c07398f') IS NOT NULL$q$
            INTO core_reads_v7;
        IF NOT core_reads_v7 THEN
            RAISE WARNING 'this server''s uuid_extract_timestamp(uuid) reads v1 UUIDs only: PostgreSQL 18''s, which reads v7 too, is created in schema %, where calls find it only if search_path names that schema before pg_catalog',
                quote_ident(current_schema())
                USING HINT = format('SET search_path = %s, pg_catalog', quote_ident(current_schema()));
        END IF;
    END IF;
    IF NOT core_reads_v7 THEN
        CREATE FUNCTION uuid_extract_timestamp(uuid) RETURNS timestamptz
            AS 'MODULE_PATHNAME', 'sequuid_pg18_uuid_extract_timestamp'
            LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
        COMMENT ON FUNCTION uuid_extract_timestamp(uuid) IS
            'extract timestamp from a v1 or v7 UUID (PostgreSQL 18''s uuid_extract_timestamp(), from sequuid_pg18api)';
    END IF;
END
$do$;
