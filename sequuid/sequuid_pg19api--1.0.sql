/* sequuid/sequuid_pg19api--1.0.sql */

-- complain if script is sourced in psql, rather than via CREATE EXTENSION
\echo Use "CREATE EXTENSION sequuid_pg19api" to load this file. \quit

-- PostgreSQL 19's explicit casts between uuid and bytea, created only where the server has no cast between the
-- two (15 to 18; none on 19 and later, where core's serve).  Each direction is looked up in pg_cast, rather than
-- trusting the version number.  uuid::bytea is the 16 bytes in order, which core's uuid_send() already returns;
-- bytea::uuid takes exactly 16 bytes and raises 19's error for any other length.  Both casts are explicit only, as
-- 19's: an implicit cast would change how existing queries mixing the two types resolve.
--
-- CREATE CAST needs ownership of uuid or bytea, which only a superuser has; the extension is trusted, so a user
-- with CREATE on the database installs it as the bootstrap superuser.

-- the function behind bytea::uuid, also callable as a function where the cast is core's
CREATE FUNCTION uuid_from_bytea(bytea) RETURNS uuid
    AS 'MODULE_PATHNAME', 'sequuid_uuid_from_bytea'
    LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION uuid_from_bytea(bytea) IS
    'the uuid of 16 bytes in order (PostgreSQL 19''s bytea::uuid, from sequuid_pg19api)';

DO $do$
BEGIN
    IF NOT EXISTS (SELECT FROM pg_cast WHERE castsource = 'uuid'::regtype AND casttarget = 'bytea'::regtype) THEN
        CREATE CAST (uuid AS bytea) WITH FUNCTION pg_catalog.uuid_send(uuid);
        COMMENT ON CAST (uuid AS bytea) IS 'the 16 bytes of the uuid in order (PostgreSQL 19''s, from sequuid_pg19api)';
    END IF;
    IF NOT EXISTS (SELECT FROM pg_cast WHERE castsource = 'bytea'::regtype AND casttarget = 'uuid'::regtype) THEN
        EXECUTE format('CREATE CAST (bytea AS uuid) WITH FUNCTION %s.uuid_from_bytea(bytea)',
                       quote_ident(current_schema()));
        COMMENT ON CAST (bytea AS uuid) IS 'a uuid of 16 bytes in order (PostgreSQL 19''s, from sequuid_pg19api)';
    END IF;
END
$do$;
