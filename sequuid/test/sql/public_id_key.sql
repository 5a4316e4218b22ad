-- public_id_key: uuid_v7_to_public(id) and uuid_public_to_v7(id) read their key from the setting
-- sequuid.public_id_key (C only).  Only a superuser or a role granted SET on it sets it; SHOW ALL and pg_settings
-- leave it out, SHOW, current_setting() and set_config() print "(hidden)" in its place, to every role, and no error
-- message carries it.  Errors show message and SQLSTATE (no LOCATION, whose line numbers change with the code).
\set SHOW_CONTEXT never
CREATE ROLE regress_public_id_app LOGIN;
CREATE ROLE regress_public_id_other LOGIN;
GRANT SET ON PARAMETER sequuid.public_id_key TO regress_public_id_app;

-- not set: the key-less forms say so
SELECT uuid_v7_to_public('018f2d9f-9a2a-7def-8c3f-7b1a2c4d5e6f');
SHOW sequuid.public_id_key;

-- UUIDv47's test key, as the bytea argument's 32 hex digits; the same answers as the key argument gives
SET sequuid.public_id_key = 'efcdab89674523011032547698badcfe';
SELECT uuid_v7_to_public('018f2d9f-9a2a-7def-8c3f-7b1a2c4d5e6f') AS public_id,
       uuid_v7_to_public('018f2d9f-9a2a-7def-8c3f-7b1a2c4d5e6f')
           = uuid_v7_to_public('018f2d9f-9a2a-7def-8c3f-7b1a2c4d5e6f', '\xefcdab89674523011032547698badcfe') AS same,
       uuid_public_to_v7('d6d6a15a-d41a-489f-8c3f-7b1a2c4d5e6f') AS v7;
-- UUIDv47's form reads the same setting
SELECT uuid_v7_to_uuidv47('018f2d9f-9a2a-7def-8c3f-7b1a2c4d5e6f') AS uuidv47_id,
       uuid_uuidv47_to_v7('2463c780-7fca-4def-8c3f-7b1a2c4d5e6f') AS v7;
-- bytea's \x form is taken too, and either case
SET sequuid.public_id_key = '\xEFCDAB89674523011032547698BADCFE';
SELECT uuid_public_to_v7('d6d6a15a-d41a-489f-8c3f-7b1a2c4d5e6f') AS v7;

-- nobody reads it back, the superuser included
SHOW sequuid.public_id_key;
SELECT current_setting('sequuid.public_id_key');
SELECT count(*) AS in_pg_settings FROM pg_settings WHERE name LIKE 'sequuid.public%' OR setting ILIKE '%efcdab89%';
DO $$
DECLARE
    shown record;
    listed integer := 0;
    revealing integer := 0;
BEGIN
    FOR shown IN EXECUTE 'SHOW ALL' LOOP
        IF shown.name LIKE 'sequuid.public%' THEN
            listed := listed + 1;
        END IF;
        IF shown.setting ILIKE '%efcdab89%' THEN
            revealing := revealing + 1;
        END IF;
    END LOOP;
    RAISE NOTICE 'SHOW ALL: % rows for the setting, % rows showing the key', listed, revealing;
END
$$;

-- DISCARD ALL, which connection pools run between clients, clears it
DISCARD ALL;
SHOW sequuid.public_id_key;
SET sequuid.public_id_key = 'efcdab89674523011032547698badcfe';

-- a malformed key is not accepted when used, and neither SHOW nor the error quotes it
SET sequuid.public_id_key = 'efcdab89674523011032547698badcf';
SHOW sequuid.public_id_key;
SELECT uuid_v7_to_public('018f2d9f-9a2a-7def-8c3f-7b1a2c4d5e6f');
\echo :LAST_ERROR_SQLSTATE
SET sequuid.public_id_key = 'efcdab89674523011032547698badcfeXX';
SELECT uuid_public_to_v7('2463c780-7fca-4def-8c3f-7b1a2c4d5e6f');
-- errors of the calls themselves never carry the key either
SET sequuid.public_id_key = 'efcdab89674523011032547698badcfe';
SELECT uuid_public_to_v7('018f2d9f-9a2a-7def-8c3f-7b1a2c4d5e6f');
\echo :LAST_ERROR_SQLSTATE
RESET sequuid.public_id_key;

-- an ordinary role cannot set it, nor read a value set for it
SET sequuid.public_id_key = 'efcdab89674523011032547698badcfe';
SET ROLE regress_public_id_other;
SET sequuid.public_id_key = 'efcdab89674523011032547698badcfe';
\echo :LAST_ERROR_SQLSTATE
SELECT set_config('sequuid.public_id_key', 'efcdab89674523011032547698badcfe', false);
SHOW sequuid.public_id_key;
SELECT current_setting('sequuid.public_id_key');
SELECT count(*) AS in_pg_settings FROM pg_settings WHERE name LIKE 'sequuid.public%';
RESET ROLE;
RESET sequuid.public_id_key;

-- a role granted SET on it sets it (as an application does when it connects, the key a bind parameter) and uses
-- it; it cannot read it back either
SET ROLE regress_public_id_app;
SELECT set_config('sequuid.public_id_key', 'efcdab89674523011032547698badcfe', false) AS shown_by_set_config;
SELECT uuid_public_to_v7('d6d6a15a-d41a-489f-8c3f-7b1a2c4d5e6f') AS v7;
SHOW sequuid.public_id_key;
SELECT count(*) AS in_pg_settings FROM pg_settings WHERE name LIKE 'sequuid.public%';
RESET sequuid.public_id_key;
RESET ROLE;

-- a lookup by façade with the key of the setting uses the primary key index: the key-less form is STABLE
CREATE TABLE public_id_key_orders (id uuid PRIMARY KEY, placed_by text NOT NULL);
INSERT INTO public_id_key_orders
SELECT ('018f2d9f-' || lpad(to_hex(i), 4, '0') || '-7def-8c3f-' || lpad(to_hex(i * 7919), 12, '0'))::uuid, 'customer ' || i
FROM generate_series(1, 5000) i;
ANALYZE public_id_key_orders;
SET sequuid.public_id_key = 'efcdab89674523011032547698badcfe';
EXPLAIN (COSTS OFF)
SELECT placed_by FROM public_id_key_orders WHERE id = uuid_public_to_v7('508d9e9b-a4ec-43b7-8c3f-000000001eef');
SELECT placed_by FROM public_id_key_orders WHERE id = uuid_public_to_v7('508d9e9b-a4ec-43b7-8c3f-000000001eef');
RESET sequuid.public_id_key;
DROP TABLE public_id_key_orders;

REVOKE SET ON PARAMETER sequuid.public_id_key FROM regress_public_id_app;
DROP ROLE regress_public_id_app, regress_public_id_other;
