-- sequuid/switch/functions.sql: the steps the switch scripts in this folder share, as functions of the session's
-- temporary schema (gone when the session ends; nothing of them stays in the database).  Included by
-- from_peers.sql, from_peers_plpgsql.sql and to_core.sql inside their transaction; not meant to be run alone.
--
-- Why the switch works this way: column defaults, views, indexes, constraints and BEGIN ATOMIC functions refer to
-- a function by its OID, so DROP EXTENSION pg_uuidv7 cannot remove uuid_generate_v7() without CASCADE (which drops
-- them too), and sequuid's script cannot take over a function it did not create (CREATE OR REPLACE of an object
-- another extension or the user owns is refused since the CVE-2022-2625 fixes).  So the peer's functions are
-- detached from it and parked, sequuid is installed where the peer was, and each parked function is rebound with
-- CREATE OR REPLACE to the definition of sequuid's function of the same name and arguments (the same OID, so every
-- dependent keeps working), takes the place of sequuid's copy and, for the C extension, becomes its member.
--
-- They run as a superuser.  Every function here pins search_path to pg_catalog, pg_temp (the scripts set the same
-- for their own statements) and names what it calls with pg_catalog: a name resolved through the caller's path
-- would find a function or operator planted with exact argument types in public or in "$user" before pg_catalog's
-- (an array_agg(name), a =(oid, regclass)), and run it as the superuser.  test/roles plants them.

-- pg_uuidv7 1.6's and sequential-uuids 1.0.3's functions (their earlier versions have fewer): the signatures sequuid
-- has too, with the result type each must keep and the volatility of sequuid's (the extension's and the port's)
CREATE OR REPLACE FUNCTION pg_temp.sequuid_switch_peer_signatures()
    RETURNS TABLE (signature text, result regtype, volatility "char")
    LANGUAGE sql IMMUTABLE
    SET search_path = pg_catalog, pg_temp
AS $$
    VALUES ('uuid_generate_v7()', 'uuid'::regtype, 'v'::"char"),
           ('uuid_v7_to_timestamptz(uuid)', 'timestamptz', 'i'),
           ('uuid_v7_to_timestamp(uuid)', 'timestamp', 'i'),
           ('uuid_timestamptz_to_v7(timestamp with time zone, boolean)', 'uuid', 'v'),
           ('uuid_timestamp_to_v7(timestamp without time zone, boolean)', 'uuid', 'v'),
           ('uuid_sequence_nextval(regclass, integer, integer)', 'uuid', 'v'),
           ('uuid_time_nextval(integer, integer)', 'uuid', 'v')
$$;

CREATE OR REPLACE FUNCTION pg_temp.sequuid_switch_parking() RETURNS name
    LANGUAGE sql IMMUTABLE
    SET search_path = pg_catalog, pg_temp
AS $$ SELECT 'sequuid_switch_parked'::name $$;

-- Checks that the switch can be made (else raises, before anything changed), detaches every function of
-- pg_uuidv7 and sequential_uuids, moves them into the parking schema, drops the now empty extensions, and returns the
-- schema they were in, where sequuid goes.  kind: 'c' (the extension) or 'plpgsql' (the port).
CREATE OR REPLACE FUNCTION pg_temp.sequuid_switch_park_peers(kind text) RETURNS name
    LANGUAGE plpgsql
    SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    peers name[];
    schemas name[];
    member record;
BEGIN
    SELECT pg_catalog.array_agg(e.extname ORDER BY e.extname), pg_catalog.array_agg(DISTINCT n.nspname)
        INTO peers, schemas
        FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace
        WHERE e.extname IN ('pg_uuidv7', 'sequential_uuids');
    IF peers IS NULL THEN
        RAISE EXCEPTION 'neither pg_uuidv7 nor sequential_uuids is installed in database %', pg_catalog.current_database()
            USING ERRCODE = 'undefined_object',
                  HINT = 'Without them, install sequuid with CREATE EXTENSION sequuid (or plpgsql/sequuid.sql).';
    END IF;
    IF pg_catalog.cardinality(schemas) > 1 THEN
        RAISE EXCEPTION 'pg_uuidv7 and sequential_uuids are in different schemas (%): sequuid replaces both in one',
                pg_catalog.array_to_string(schemas, ', ')
            USING ERRCODE = 'feature_not_supported',
                  HINT = 'Move one of them first: ALTER EXTENSION sequential_uuids SET SCHEMA ...';
    END IF;
    IF kind = 'c' AND EXISTS (SELECT FROM pg_extension WHERE extname = 'sequuid') THEN
        RAISE EXCEPTION 'extension "sequuid" is already installed, in schema %',
                (SELECT extnamespace::regnamespace FROM pg_extension WHERE extname = 'sequuid')
            USING ERRCODE = 'duplicate_object',
                  HINT = 'The switch installs sequuid in the schema of the extension it replaces: drop sequuid first.';
    END IF;
    IF kind = 'plpgsql' AND pg_catalog.to_regnamespace('sequuid') IS NOT NULL THEN
        RAISE EXCEPTION 'schema "sequuid" exists: the PL/pgSQL port of sequuid is installed already'
            USING ERRCODE = 'duplicate_schema',
                  HINT = 'The switch installs the port in the schema of the extension it replaces.';
    END IF;
    IF pg_catalog.to_regnamespace(pg_temp.sequuid_switch_parking()) IS NOT NULL THEN
        RAISE EXCEPTION 'schema "%" exists: the switch parks the replaced functions there', pg_temp.sequuid_switch_parking()
            USING ERRCODE = 'duplicate_schema';
    END IF;
    FOR member IN
        SELECT e.extname, d.classid, d.objid, pg_catalog.pg_describe_object(d.classid, d.objid, 0) AS object,
               p.prorettype, s.result, p.provolatile, s.volatility,
               -- where PostgreSQL requires an IMMUTABLE function: an index, a generated column, a partition key
               (SELECT pg_catalog.string_agg(pg_catalog.pg_describe_object(u.classid, u.objid, u.objsubid), ', '
                                               ORDER BY pg_catalog.pg_describe_object(u.classid, u.objid, u.objsubid))
                FROM pg_depend u
                WHERE u.refclassid = 'pg_proc'::regclass AND u.refobjid = p.oid AND u.deptype = 'n'
                  AND (EXISTS (SELECT FROM pg_class c WHERE u.classid = 'pg_class'::regclass AND c.oid = u.objid
                                                        AND c.relkind IN ('i', 'I', 'p'))
                       OR EXISTS (SELECT FROM pg_attrdef ad
                                  JOIN pg_attribute a ON a.attrelid = ad.adrelid AND a.attnum = ad.adnum
                                  WHERE u.classid = 'pg_attrdef'::regclass AND ad.oid = u.objid
                                    AND a.attgenerated <> ''))) AS immutable_users,
               pg_catalog.format('%s(%s)', p.proname, pg_catalog.oidvectortypes(p.proargtypes)) AS signature
        FROM pg_depend d
        JOIN pg_extension e ON e.oid = d.refobjid
        LEFT JOIN pg_proc p ON d.classid = 'pg_proc'::regclass AND p.oid = d.objid
        LEFT JOIN pg_temp.sequuid_switch_peer_signatures() s
               ON s.signature = pg_catalog.format('%s(%s)', p.proname, pg_catalog.oidvectortypes(p.proargtypes))
        WHERE d.refclassid = 'pg_extension'::regclass AND d.deptype = 'e' AND e.extname = ANY (peers)
        ORDER BY 1, 4
    LOOP
        IF member.result IS NULL THEN
            RAISE EXCEPTION 'extension % has a member sequuid has no counterpart for: %', member.extname, member.object
                USING ERRCODE = 'feature_not_supported',
                      DETAIL = 'sequuid replaces pg_uuidv7 1.6 and sequential-uuids 1.0.3: functions of theirs only.';
        END IF;
        IF member.result <> member.prorettype THEN
            RAISE EXCEPTION 'extension %''s % returns %, sequuid''s returns %', member.extname, member.object,
                    member.prorettype::regtype, member.result
                USING ERRCODE = 'feature_not_supported';
        END IF;
        -- pg_uuidv7 1.4's uuid_timestamptz_to_v7() was IMMUTABLE; sequuid's draws random bits (VOLATILE).  An index
        -- or generated column on it would survive the switch, and make the next dump fail to restore.
        IF member.provolatile = 'i' AND member.volatility <> 'i' AND member.immutable_users IS NOT NULL THEN
            RAISE EXCEPTION 'extension %''s % is IMMUTABLE, sequuid''s is VOLATILE, and % use it where PostgreSQL requires an IMMUTABLE function',
                    member.extname, member.object, member.immutable_users
                USING ERRCODE = 'feature_not_supported',
                      DETAIL = 'After the switch, a dump of this database would not restore: CREATE INDEX and generated columns refuse a VOLATILE function.',
                      HINT = 'Make those objects call an IMMUTABLE function of your own (zero => true makes the result depend on the instant alone), then switch.';
        END IF;
    END LOOP;

    EXECUTE pg_catalog.format('CREATE SCHEMA %I', pg_temp.sequuid_switch_parking());
    FOR member IN
        SELECT e.extname, d.objid::regprocedure AS function
        FROM pg_depend d JOIN pg_extension e ON e.oid = d.refobjid
        WHERE d.refclassid = 'pg_extension'::regclass AND d.deptype = 'e' AND e.extname = ANY (peers)
    LOOP
        EXECUTE pg_catalog.format('ALTER EXTENSION %I DROP FUNCTION %s', member.extname, member.function);
        EXECUTE pg_catalog.format('ALTER FUNCTION %s SET SCHEMA %I', member.function, pg_temp.sequuid_switch_parking());
    END LOOP;
    FOR member IN SELECT pg_catalog.unnest(peers) AS extname LOOP
        -- no CASCADE: the extension has no member left, and nothing depends on an extension itself
        EXECUTE pg_catalog.format('DROP EXTENSION %I', member.extname);
    END LOOP;
    RETURN schemas[1];
END
$$;

-- Makes the privileges on function exactly wanted: every grantee's revoked, then wanted's granted, each by its
-- grantor (the owner's grants first, so that grants made by holders of a grant option find it).
CREATE OR REPLACE FUNCTION pg_temp.sequuid_switch_set_privileges(function regprocedure, wanted aclitem[])
    RETURNS void
    LANGUAGE plpgsql
    SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    owner oid := (SELECT p.proowner FROM pg_proc p WHERE p.oid = function);
    switching_role name := current_user;
    item record;
BEGIN
    FOR item IN
        SELECT DISTINCT a.grantee
        FROM pg_catalog.aclexplode(COALESCE((SELECT p.proacl FROM pg_proc p WHERE p.oid = function),
                                                       pg_catalog.acldefault('f', owner))) a
    LOOP
        EXECUTE pg_catalog.format('REVOKE ALL ON FUNCTION %s FROM %s CASCADE', function,
                                  pg_temp.sequuid_switch_grantee(item.grantee));
    END LOOP;
    FOR item IN
        SELECT a.grantor, a.grantee, a.privilege_type, a.is_grantable FROM pg_catalog.aclexplode(wanted) a
        ORDER BY a.grantor = owner DESC
    LOOP
        -- a superuser's GRANT counts as the owner's; a grant another role made is made as that role
        IF item.grantor <> owner THEN
            EXECUTE pg_catalog.format('SET LOCAL ROLE %I', (SELECT r.rolname FROM pg_roles r WHERE r.oid = item.grantor));
        END IF;
        EXECUTE pg_catalog.format('GRANT %s ON FUNCTION %s TO %s%s', item.privilege_type, function,
                                  pg_temp.sequuid_switch_grantee(item.grantee),
                                  CASE WHEN item.is_grantable THEN ' WITH GRANT OPTION' ELSE '' END);
        IF item.grantor <> owner THEN
            EXECUTE pg_catalog.format('SET LOCAL ROLE %I', switching_role);
        END IF;
    END LOOP;
END
$$;

-- a grantee of aclexplode() as GRANT and REVOKE write it
CREATE OR REPLACE FUNCTION pg_temp.sequuid_switch_grantee(grantee oid) RETURNS text
    LANGUAGE sql STABLE
    SET search_path = pg_catalog, pg_temp
AS $$
    SELECT CASE WHEN grantee = 0 THEN 'PUBLIC'
                ELSE pg_catalog.quote_ident((SELECT r.rolname FROM pg_roles r WHERE r.oid = grantee)) END
$$;

-- Rebinds every parked function to the definition of sequuid's function of the same name and arguments in
-- target_schema (C or port), puts it in that function's place, and drops the parking schema.  extension: 'sequuid'
-- when the C extension was installed (the rebound functions become its members), NULL for the port.  Returns how many
-- functions were rebound.
CREATE OR REPLACE FUNCTION pg_temp.sequuid_switch_adopt_parked(target_schema name, extension name) RETURNS integer
    LANGUAGE plpgsql
    SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    parked record;
    model regprocedure;
    definition text;
    header text;
    acl aclitem[];
    rebound integer := 0;
BEGIN
    FOR parked IN
        SELECT p.oid, p.proname, pg_catalog.oidvectortypes(p.proargtypes) AS arguments
        FROM pg_proc p WHERE p.pronamespace = pg_catalog.to_regnamespace(pg_temp.sequuid_switch_parking())
        ORDER BY 2, 3
    LOOP
        model := pg_catalog.to_regprocedure(pg_catalog.format('%I.%I(%s)', target_schema, parked.proname, parked.arguments));
        IF model IS NULL THEN
            RAISE EXCEPTION 'sequuid has no function %(%) in schema %', parked.proname, parked.arguments, target_schema
                USING ERRCODE = 'undefined_function';
        END IF;
        -- pg_get_functiondef() opens with the schema-qualified name; the same definition under the parked name
        definition := pg_catalog.pg_get_functiondef(model);
        header := pg_catalog.format('CREATE OR REPLACE FUNCTION %I.%I(', target_schema, parked.proname);
        IF pg_catalog.left(definition, pg_catalog.length(header)) <> header THEN
            RAISE EXCEPTION 'unexpected definition of %: %', model, pg_catalog.left(definition, 200);
        END IF;
        EXECUTE pg_catalog.format('CREATE OR REPLACE FUNCTION %I.%I(', pg_temp.sequuid_switch_parking(), parked.proname)
            || pg_catalog.substr(definition, pg_catalog.length(header) + 1);
        -- the peers ship no comments: one on the parked function is the user's, and stays
        IF pg_catalog.obj_description(parked.oid, 'pg_proc') IS NULL THEN
            EXECUTE pg_catalog.format('COMMENT ON FUNCTION %s IS %L', parked.oid::regprocedure,
                                      pg_catalog.obj_description(model, 'pg_proc'));
        END IF;
        IF extension IS NOT NULL THEN
            EXECUTE pg_catalog.format('ALTER EXTENSION %I DROP FUNCTION %s', extension, model);
        END IF;
        EXECUTE pg_catalog.format('DROP FUNCTION %s', model);
        EXECUTE pg_catalog.format('ALTER FUNCTION %s SET SCHEMA %I', parked.oid::regprocedure, target_schema);
        IF extension IS NOT NULL THEN
            -- ALTER EXTENSION ADD records the function's privileges as the extension's initial ones (pg_init_privs),
            -- and pg_dump writes only what differs from those: a REVOKE or GRANT made on the peer's function would
            -- never reach a dump.  So the function joins with the default privileges of a function the extension
            -- creates, and the user's are put back after, as differences pg_dump writes.
            acl := (SELECT p.proacl FROM pg_proc p WHERE p.oid = parked.oid);
            IF acl IS NOT NULL THEN
                PERFORM pg_temp.sequuid_switch_set_privileges(parked.oid,
                    pg_catalog.acldefault('f', (SELECT p.proowner FROM pg_proc p WHERE p.oid = parked.oid)));
            END IF;
            EXECUTE pg_catalog.format('ALTER EXTENSION %I ADD FUNCTION %s', extension, parked.oid::regprocedure);
            IF acl IS NOT NULL THEN
                PERFORM pg_temp.sequuid_switch_set_privileges(parked.oid, acl);
            END IF;
        END IF;
        rebound := rebound + 1;
    END LOOP;
    EXECUTE pg_catalog.format('DROP SCHEMA %I', pg_temp.sequuid_switch_parking());
    RETURN rebound;
END
$$;

-- The whole switch to the C extension, as one statement.
CREATE OR REPLACE FUNCTION pg_temp.sequuid_switch_from_peers() RETURNS text
    LANGUAGE plpgsql
    SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    peers text := (SELECT pg_catalog.string_agg(pg_catalog.format('%s %s', extname, extversion), ' and ' ORDER BY extname)
                   FROM pg_extension WHERE extname IN ('pg_uuidv7', 'sequential_uuids'));
    target_schema name := pg_temp.sequuid_switch_park_peers('c');
    rebound integer;
BEGIN
    EXECUTE pg_catalog.format('CREATE EXTENSION sequuid SCHEMA %I', target_schema);
    rebound := pg_temp.sequuid_switch_adopt_parked(target_schema, 'sequuid');
    RETURN pg_catalog.format('%s replaced by sequuid in schema %s: %s functions rebound, their dependents kept', peers,
                  target_schema, rebound);
END
$$;

-- Leaving sequuid for PostgreSQL 18's core functions: sequuid's and sequuid_pg18api's functions that core has, and
-- the core call each becomes
CREATE OR REPLACE FUNCTION pg_temp.sequuid_switch_core_calls()
    RETURNS TABLE (signature text, core_call text)
    LANGUAGE sql IMMUTABLE
    SET search_path = pg_catalog, pg_temp
AS $$
    VALUES ('uuid_generate_v7()', 'pg_catalog.uuidv7()'),
           ('uuid_generate_v7(interval)', 'pg_catalog.uuidv7($1)'),
           ('uuidv7()', 'pg_catalog.uuidv7()'),
           ('uuidv7(interval)', 'pg_catalog.uuidv7($1)'),
           ('uuidv4()', 'pg_catalog.uuidv4()'),
           ('uuid_extract_version(uuid)', 'pg_catalog.uuid_extract_version($1)'),
           ('uuid_extract_timestamp(uuid)', 'pg_catalog.uuid_extract_timestamp($1)')
$$;

-- Rebinds function to a SQL function that calls core_call (same OID, so its dependents keep working; no library).
CREATE OR REPLACE FUNCTION pg_temp.sequuid_switch_rebind_to_core(function regprocedure, core_call text) RETURNS void
    LANGUAGE plpgsql
    SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    EXECUTE (SELECT pg_catalog.format('CREATE OR REPLACE FUNCTION %I.%I(%s) RETURNS %s LANGUAGE sql %s STRICT PARALLEL SAFE '
                          'BEGIN ATOMIC SELECT %s; END',
                          (SELECT n.nspname FROM pg_namespace n WHERE n.oid = pronamespace), proname,
                          pg_catalog.pg_get_function_arguments(oid), prorettype::regtype,
                          CASE provolatile WHEN 'i' THEN 'IMMUTABLE' WHEN 's' THEN 'STABLE' ELSE 'VOLATILE' END,
                          core_call)
             FROM pg_proc WHERE oid = function);
    EXECUTE pg_catalog.format('COMMENT ON FUNCTION %s IS %L', function,
                   pg_catalog.format('calls PostgreSQL''s %s (was sequuid''s; kept for the objects and code that call it)',
                          core_call));
END
$$;

-- The whole switch from sequuid (the extension and sequuid_pg18api, or the port) to core's functions, as one
-- statement: every function core has a counterpart for is rebound to a call of core's where objects use it (and
-- uuid_generate_v7, the name code written for pg_uuidv7 calls, always); the extensions are then dropped, without
-- CASCADE.  Refused, before anything changes, where objects use a function core has no counterpart for.
-- With only_pg18api, sequuid itself (and the port's own functions) stay: only sequuid_pg18api (or its port) goes.
CREATE OR REPLACE FUNCTION pg_temp.sequuid_switch_to_core(only_pg18api boolean) RETURNS text
    LANGUAGE plpgsql
    SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    extensions oid[] := ARRAY(SELECT oid FROM pg_extension
                              WHERE extname IN ('sequuid_pg18api', CASE WHEN NOT only_pg18api THEN 'sequuid' END));
    -- the port: the schema of its uuid_generate_v7(), which calls its helpers in schema sequuid
    port_schema oid := (SELECT pronamespace FROM pg_proc
                        WHERE proname = 'uuid_generate_v7' AND pronargs = 0 AND prosrc LIKE '%sequuid.%'
                        AND NOT EXISTS (SELECT FROM pg_depend d WHERE d.classid = 'pg_proc'::regclass
                                        AND d.objid = pg_proc.oid AND d.deptype = 'e')
                        LIMIT 1);
    unmatched text;
    member record;
    rebound text[] := '{}';
BEGIN
    IF pg_catalog.to_regprocedure('pg_catalog.uuidv7()') IS NULL THEN
        RAISE EXCEPTION 'this server has no core uuidv7(): leaving sequuid for core''s functions needs PostgreSQL 18 or later'
            USING ERRCODE = 'feature_not_supported';
    END IF;
    IF pg_catalog.cardinality(extensions) = 0 AND port_schema IS NULL THEN
        RAISE EXCEPTION '%', CASE WHEN only_pg18api
                THEN pg_catalog.format('neither sequuid_pg18api nor its port is installed in database %s', pg_catalog.current_database())
                ELSE pg_catalog.format('neither sequuid, sequuid_pg18api nor the sequuid port is installed in database %s',
                            pg_catalog.current_database()) END
            USING ERRCODE = 'undefined_object';
    END IF;
    CREATE TEMP TABLE sequuid_switch_functions ON COMMIT DROP AS
        SELECT p.oid AS function, m.refobjid AS extension, c.core_call,
               EXISTS (SELECT FROM pg_depend u WHERE u.refclassid = 'pg_proc'::regclass AND u.refobjid = p.oid
                       AND u.deptype = 'n') AS used
        FROM pg_proc p
        LEFT JOIN pg_depend m ON m.classid = 'pg_proc'::regclass AND m.objid = p.oid AND m.deptype = 'e'
                                 AND m.refclassid = 'pg_extension'::regclass
        LEFT JOIN pg_temp.sequuid_switch_core_calls() c
               ON c.signature = pg_catalog.format('%s(%s)', p.proname, pg_catalog.oidvectortypes(p.proargtypes))
        WHERE m.refobjid = ANY (extensions) OR (m.refobjid IS NULL AND p.pronamespace = port_schema
                                               AND c.signature IS NOT NULL
                                               AND NOT (only_pg18api AND p.proname = 'uuid_generate_v7'));
    -- objects outside the extensions that use a member core has nothing for
    SELECT pg_catalog.string_agg(DISTINCT pg_catalog.format('%s uses %s', pg_catalog.pg_describe_object(u.classid, u.objid, u.objsubid),
                                      f.function::regprocedure), '; ')
        INTO unmatched
        FROM sequuid_switch_functions f
        JOIN pg_depend u ON u.refclassid = 'pg_proc'::regclass AND u.refobjid = f.function AND u.deptype = 'n'
        WHERE f.core_call IS NULL
        -- the support functions of uuid_time_ops, which goes with the extension
        AND u.classid NOT IN ('pg_amproc'::regclass, 'pg_amop'::regclass)
        AND NOT EXISTS (SELECT FROM pg_depend m WHERE m.classid = u.classid AND m.objid = u.objid AND m.deptype = 'e'
                        AND m.refobjid = ANY (extensions));
    -- and objects that use the extensions' operators or operator class (uuid_time_ops): an index, a view, a
    -- constraint; core has none of them, and DROP EXTENSION would fail on them only after everything else was done
    SELECT NULLIF(pg_catalog.concat_ws('; ', unmatched,
               pg_catalog.string_agg(DISTINCT pg_catalog.format('%s uses %s',
                                         pg_catalog.pg_describe_object(u.classid, u.objid, u.objsubid),
                                         pg_catalog.pg_describe_object(u.refclassid, u.refobjid, 0)), '; ')), '')
        INTO unmatched
        FROM pg_depend m
        JOIN pg_depend u ON u.refclassid = m.classid AND u.refobjid = m.objid AND u.deptype = 'n'
        WHERE m.refclassid = 'pg_extension'::regclass AND m.deptype = 'e' AND m.refobjid = ANY (extensions)
        AND m.classid IN ('pg_operator'::regclass, 'pg_opclass'::regclass, 'pg_opfamily'::regclass)
        -- the operator class's own entries, and whatever else the extensions hold
        AND u.classid NOT IN ('pg_amop'::regclass, 'pg_amproc'::regclass)
        AND NOT EXISTS (SELECT FROM pg_depend o WHERE o.classid = u.classid AND o.objid = u.objid AND o.deptype = 'e'
                        AND o.refobjid = ANY (extensions));
    IF unmatched IS NOT NULL THEN
        RAISE EXCEPTION 'objects use functions of sequuid that PostgreSQL has no counterpart for'
            USING ERRCODE = 'dependent_objects_still_exist', DETAIL = unmatched,
                  HINT = 'Change those objects to use core''s functions (or none of sequuid''s), or keep sequuid.';
    END IF;
    FOR member IN
        SELECT f.* FROM sequuid_switch_functions f JOIN pg_proc p ON p.oid = f.function
        -- the port's are all rebound: left as they are, they would call helpers a restore elsewhere may not have
        WHERE f.core_call IS NOT NULL AND (f.used OR p.proname = 'uuid_generate_v7' OR f.extension IS NULL)
        ORDER BY f.function::regprocedure::text
    LOOP
        PERFORM pg_temp.sequuid_switch_rebind_to_core(member.function, member.core_call);
        IF member.extension IS NOT NULL THEN
            EXECUTE pg_catalog.format('ALTER EXTENSION %I DROP FUNCTION %s',
                           (SELECT extname FROM pg_extension WHERE oid = member.extension), member.function::regprocedure);
        END IF;
        rebound := rebound || member.function::regprocedure::text;
    END LOOP;
    FOR member IN SELECT extname FROM pg_extension WHERE oid = ANY (extensions) ORDER BY extname DESC LOOP
        EXECUTE pg_catalog.format('DROP EXTENSION %I', member.extname);
    END LOOP;
    IF port_schema IS NOT NULL AND NOT only_pg18api THEN
        RAISE NOTICE 'the port''s other functions stay in schema %: they need no library; drop them where nothing calls them',
            port_schema::regnamespace;
    END IF;
    RETURN pg_catalog.format('now on core''s functions; kept, calling core''s: %s',
                  coalesce(nullif(pg_catalog.array_to_string(rebound, ', '), ''), 'none'));
END
$$;
