-- sequuid/plpgsql/uninstall.sql: remove the sequuid PL/pgSQL port (sequuid.sql, and sequuid_pg18api.sql's functions
-- where that was installed too) from the current database, in one transaction:
--
--     psql -v ON_ERROR_STOP=1 -f sequuid/plpgsql/uninstall.sql
--
-- As the role that installed it (the owner of its functions and of schema sequuid).  Nothing is dropped with
-- CASCADE: where a column default, a view, an index or a function of the application still uses one of the port's
-- functions, operators or its operator class, the drop of that object fails, names what depends on it, and nothing
-- is removed.  sequuid_pg19api.sql's function and casts need nothing of the port and stay (see docs/port.md).
-- Like the install, every name here is schema-qualified, so nothing a caller planted on search_path runs.
BEGIN;
DO $uninstall$
DECLARE
    port_schema name;
    object record;
BEGIN
    IF pg_catalog.to_regprocedure('sequuid.port_version()') IS NULL THEN
        RAISE EXCEPTION 'the sequuid PL/pgSQL port (1.6 or later) is not installed in database %',
                pg_catalog.current_database()
            USING ERRCODE = 'undefined_object',
                  HINT = 'An earlier port: update it first (psql -v ON_ERROR_STOP=1 -f sequuid/plpgsql/sequuid.sql).';
    END IF;
    FOREACH port_schema IN ARRAY ARRAY(SELECT sequuid.port_schemas()) LOOP
        IF EXISTS (SELECT FROM pg_catalog.pg_opclass c JOIN pg_catalog.pg_namespace n
                                                       ON n.oid OPERATOR(pg_catalog.=) c.opcnamespace
                   WHERE c.opcname OPERATOR(pg_catalog.=) 'uuid_time_ops'::name
                     AND n.nspname OPERATOR(pg_catalog.=) port_schema) THEN
            -- the operator family of the same name goes with it
            EXECUTE pg_catalog.format('DROP OPERATOR FAMILY %I.uuid_time_ops USING btree', port_schema);
        END IF;
        FOR object IN
            SELECT p.oid::pg_catalog.regoperator AS operator
            FROM pg_catalog.pg_operator p JOIN pg_catalog.pg_namespace n ON n.oid OPERATOR(pg_catalog.=) p.oprnamespace
            WHERE n.nspname OPERATOR(pg_catalog.=) port_schema
              AND p.oprname OPERATOR(pg_catalog.=) ANY ('{~<~,~<=~,~>=~,~>~}'::name[])
              AND p.oprleft OPERATOR(pg_catalog.=) 'pg_catalog.uuid'::pg_catalog.regtype
              AND p.oprright OPERATOR(pg_catalog.=) 'pg_catalog.uuid'::pg_catalog.regtype
        LOOP
            EXECUTE pg_catalog.format('DROP OPERATOR IF EXISTS %s', object.operator);
        END LOOP;
        -- the port's public functions, and sequuid_pg18api.sql's (which call them) where it made them there
        FOR object IN
            SELECT p.oid::pg_catalog.regprocedure AS function
            FROM pg_catalog.pg_proc p JOIN pg_catalog.pg_namespace n ON n.oid OPERATOR(pg_catalog.=) p.pronamespace
            WHERE n.nspname OPERATOR(pg_catalog.=) port_schema
              AND NOT EXISTS (SELECT FROM pg_catalog.pg_depend d
                              WHERE d.classid OPERATOR(pg_catalog.=) 'pg_catalog.pg_proc'::pg_catalog.regclass
                                AND d.objid OPERATOR(pg_catalog.=) p.oid
                                AND d.deptype OPERATOR(pg_catalog.=) 'e'::"char")
              AND (pg_catalog.format('%s(%s)', p.proname, pg_catalog.oidvectortypes(p.proargtypes))
                       OPERATOR(pg_catalog.=) ANY (ARRAY(SELECT sequuid.port_functions()))
                   OR (pg_catalog.format('%s(%s)', p.proname, pg_catalog.oidvectortypes(p.proargtypes))
                           OPERATOR(pg_catalog.=) ANY ('{uuidv7(),uuidv7(interval),uuidv4(),uuid_extract_version(uuid),uuid_extract_timestamp(uuid)}'::text[])
                       AND pg_catalog.obj_description(p.oid, 'pg_proc'::name)
                           OPERATOR(pg_catalog.~~) '%sequuid_pg18api port%'::text))
            ORDER BY 1
        LOOP
            EXECUTE pg_catalog.format('DROP FUNCTION %s', object.function);
        END LOOP;
    END LOOP;
    FOR object IN
        SELECT p.oid::pg_catalog.regprocedure AS function FROM pg_catalog.pg_proc p
        WHERE p.pronamespace OPERATOR(pg_catalog.=) 'sequuid'::pg_catalog.regnamespace
        ORDER BY 1
    LOOP
        EXECUTE pg_catalog.format('DROP FUNCTION %s', object.function);
    END LOOP;
    DROP SCHEMA sequuid;
END
$uninstall$;
COMMIT;
