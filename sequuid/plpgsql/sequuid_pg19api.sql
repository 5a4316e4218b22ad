-- sequuid/plpgsql/sequuid_pg19api.sql: PostgreSQL 19's explicit casts between uuid and bytea without C, for servers
-- that cannot load extensions: the PL/pgSQL port of the sequuid_pg19api extension.  It needs nothing else of
-- sequuid; install with
--
--     psql -v ON_ERROR_STOP=1 -f sequuid_pg19api.sql
--
-- It creates uuid_from_bytea(bytea) in the first schema of search_path, and, where the server has no cast between
-- the two types (15 to 18), the casts uuid::bytea (core's uuid_send(), the 16 bytes in order) and bytea::uuid
-- (uuid_from_bytea(): exactly 16 bytes, PostgreSQL 19's error otherwise), both explicit only, as 19's.  Running
-- the file again replaces the function in place and leaves the casts as they are.  Plain SQL (a DO block), so
-- migration tools that do not speak psql can run it too.
--
-- CREATE CAST needs ownership of uuid or bytea, which only a superuser has; managed services (RDS, Cloud SQL,
-- Azure) give nobody that.  There the file still creates the function, skips the casts and says so in a NOTICE
-- rather than failing, so that a migration runs to its end: write uuid_send(id) for id::bytea and
-- uuid_from_bytea(b) for b::uuid, which give the same results and errors.
--
-- Before an upgrade to PostgreSQL 19, which has both casts in core, SELECT * FROM sequuid_pg19api_upgrade_check(19)
-- lists the casts to drop and how (sequuid/docs/lifecycle.md).

CREATE OR REPLACE FUNCTION uuid_from_bytea(bytea) RETURNS uuid
    LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE
AS $$
BEGIN
    IF length($1) <> 16 THEN
        RAISE EXCEPTION 'invalid input length for type uuid'
            USING ERRCODE = 'invalid_text_representation', DETAIL = format('Expected 16 bytes, got %s.', length($1));
    END IF;
    RETURN encode($1, 'hex')::uuid;
END
$$;
COMMENT ON FUNCTION uuid_from_bytea(bytea) IS
    'the uuid of 16 bytes in order (PostgreSQL 19''s bytea::uuid, from the sequuid_pg19api port)';

-- PostgreSQL 19 has both casts in core.  pg_upgrade restores an extension's member casts one by one, so a database
-- that still has these when it is upgraded to 19 stops the upgrade with "cast from type uuid to type bytea already
-- exists", and so does a restore of the port's casts (plain casts, which pg_dump always writes).  This says, before
-- the upgrade, what has to go: one row per cast that would collide on target_major, with the statements that remove
-- it (the function uuid_from_bytea() stays, so objects that call it keep working; views and defaults that use the
-- cast call its function, not the cast, and keep working too).  No row: nothing to do.  A pg_upgrade --check
-- wrapper runs it in every database and stops where it returns a row.  The same function as sequuid_pg19api 1.1's.
CREATE OR REPLACE FUNCTION sequuid_pg19api_upgrade_check(target_major integer)
    RETURNS TABLE (object text, problem text, fix text)
    LANGUAGE sql STABLE STRICT PARALLEL SAFE
    -- a pg_upgrade --check wrapper runs it as a superuser in every database: only pg_catalog's names (the body is
    -- the extension's, byte for byte)
    SET search_path = pg_catalog, pg_temp
AS $$
    SELECT format('cast from %s to %s', c.castsource::regtype, c.casttarget::regtype),
           format('PostgreSQL %s has this cast in core: restoring this one (pg_upgrade, or a dump) fails with "cast from type %s to type %s already exists"',
                  target_major, c.castsource::regtype, c.casttarget::regtype),
           concat((SELECT format('ALTER EXTENSION %I DROP CAST (%s AS %s); ', e.extname, c.castsource::regtype,
                                 c.casttarget::regtype)
                   FROM pg_depend d JOIN pg_extension e ON e.oid = d.refobjid
                   WHERE d.classid = 'pg_cast'::regclass AND d.objid = c.oid AND d.deptype = 'e'),
                  format('DROP CAST (%s AS %s);', c.castsource::regtype, c.casttarget::regtype))
    FROM pg_cast c
    -- a cast made after initdb (core's own have OIDs below FirstNormalObjectId, 16384)
    WHERE target_major >= 19 AND c.oid >= 16384
    AND (c.castsource, c.casttarget) IN (('uuid'::regtype, 'bytea'::regtype), ('bytea'::regtype, 'uuid'::regtype))
    ORDER BY 1
$$;
COMMENT ON FUNCTION sequuid_pg19api_upgrade_check(integer) IS
    'the uuid-bytea casts that stop pg_upgrade (or a restore) to PostgreSQL target_major, with the statements that remove them';

-- The installer may be a superuser: the block runs on pg_catalog's names alone (search_path pinned, the caller's put
-- back at the end), and what it needs of the caller's path, uuid_from_bytea() just created, it looks up first.
DO $do$
DECLARE
    caller_path constant text := pg_catalog.current_setting('search_path');
    from_bytea constant regprocedure := pg_catalog.to_regprocedure('uuid_from_bytea(bytea)');
    lacks_uuid_bytea boolean;
    lacks_bytea_uuid boolean;
    may_create_casts boolean;
BEGIN
    PERFORM pg_catalog.set_config('search_path', 'pg_catalog, pg_temp', true);
    lacks_uuid_bytea := NOT EXISTS (
        SELECT FROM pg_cast WHERE castsource = 'uuid'::regtype::oid AND casttarget = 'bytea'::regtype::oid);
    lacks_bytea_uuid := NOT EXISTS (
        SELECT FROM pg_cast WHERE castsource = 'bytea'::regtype::oid AND casttarget = 'uuid'::regtype::oid);
    -- CREATE CAST's own rule: the owner of the source or the target type, or a superuser
    may_create_casts := (SELECT bool_or(pg_has_role(typowner, 'USAGE'))
                         FROM pg_type WHERE oid IN ('uuid'::regtype::oid, 'bytea'::regtype::oid));
    IF NOT (lacks_uuid_bytea OR lacks_bytea_uuid) THEN
        PERFORM pg_catalog.set_config('search_path', caller_path, true);
        RETURN;
    END IF;
    IF NOT may_create_casts THEN
        RAISE NOTICE 'the casts uuid::bytea and bytea::uuid were not created: only a superuser may create casts between built-in types'
            USING HINT = 'Write uuid_send(id) for id::bytea and uuid_from_bytea(b) for b::uuid, or have a superuser run this file.';
        PERFORM pg_catalog.set_config('search_path', caller_path, true);
        RETURN;
    END IF;
    IF lacks_uuid_bytea THEN
        CREATE CAST (uuid AS bytea) WITH FUNCTION pg_catalog.uuid_send(uuid);
        COMMENT ON CAST (uuid AS bytea) IS
            'the 16 bytes of the uuid in order (PostgreSQL 19''s, from the sequuid_pg19api port)';
    END IF;
    IF lacks_bytea_uuid THEN
        EXECUTE format('CREATE CAST (bytea AS uuid) WITH FUNCTION %s', from_bytea::oid::regprocedure);
        COMMENT ON CAST (bytea AS uuid) IS 'a uuid of 16 bytes in order (PostgreSQL 19''s, from the sequuid_pg19api port)';
    END IF;
    PERFORM pg_catalog.set_config('search_path', caller_path, true);
END
$do$;
