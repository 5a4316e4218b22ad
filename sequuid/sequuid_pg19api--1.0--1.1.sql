/* sequuid/sequuid_pg19api--1.0--1.1.sql */

-- complain if script is sourced in psql, rather than via CREATE EXTENSION
\echo Use "ALTER EXTENSION sequuid_pg19api UPDATE TO '1.1'" to load this file. \quit

-- PostgreSQL 19 has both casts in core.  pg_upgrade restores an extension's member casts one by one, so a database
-- that still has these when it is upgraded to 19 stops the upgrade with "cast from type uuid to type bytea already
-- exists".  This says, before the upgrade, what has to go: one row per cast that would collide on target_major, with
-- the statements that remove it (the function uuid_from_bytea() stays, so objects that call it keep working; views
-- and defaults that use the cast call its function, not the cast, and keep working too).  No row: nothing to do.
-- A pg_upgrade --check wrapper runs it in every database and stops where it returns a row.
CREATE FUNCTION sequuid_pg19api_upgrade_check(target_major integer)
    RETURNS TABLE (object text, problem text, fix text)
    LANGUAGE sql STABLE STRICT PARALLEL SAFE
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
