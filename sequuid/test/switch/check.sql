-- sequuid/test/switch/check.sql: included by the switch tests after a switch from the peers: every row and every
-- definition as before, the peers' functions kept (same OIDs) and now sequuid's, and new keys from sequuid.
SELECT extname FROM pg_extension WHERE extname <> 'plpgsql' ORDER BY 1;
SELECT count(*) = :rows_before AS rows_kept, md5(string_agg(o::text, ',' ORDER BY id)) = :'rows_md5_before' AS rows_unchanged
    FROM orders o;
SELECT count(*) = :definitions_before AS objects_kept,
       md5(string_agg(object || ': ' || definition, ',' ORDER BY object)) = :'definitions_md5_before'
       AS definitions_unchanged
    FROM definitions;
-- the same functions (OIDs), in the peers' schema, with sequuid's definitions
SELECT p.oid::regprocedure AS function, p.pronamespace::regnamespace AS schema, l.lanname AS language,
       p.provolatile AS volatility, p.proparallel AS parallel,
       (SELECT e.extname FROM pg_depend d JOIN pg_extension e ON e.oid = d.refobjid
        WHERE d.classid = 'pg_proc'::regclass AND d.objid = p.oid AND d.deptype = 'e') AS extension
    FROM pg_proc p JOIN pg_language l ON l.oid = p.prolang
    WHERE p.oid = ANY (string_to_array(:'peer_function_oids', ',')::oid[]) ORDER BY 1;
-- and no second function of those names but sequuid's own uuid_generate_v7(interval)
SELECT oid::regprocedure AS other_function FROM pg_proc
    WHERE proname IN ('uuid_generate_v7', 'uuid_v7_to_timestamptz', 'uuid_v7_to_timestamp', 'uuid_timestamptz_to_v7',
                      'uuid_timestamp_to_v7', 'uuid_sequence_nextval', 'uuid_time_nextval')
    AND NOT oid = ANY (string_to_array(:'peer_function_oids', ',')::oid[]);
SELECT to_regnamespace('sequuid_switch_parked') IS NULL AS no_parking_schema_left;
-- new keys come from sequuid: v7 strictly ordered, version 8 sequential prefixes, the trigger's v7 boundary
INSERT INTO orders (note) SELECT NULL FROM generate_series(1, 20);
INSERT INTO orders (id, note) SELECT new_order_key(), 'after' FROM generate_series(1, 20);
-- the stand-ins made version 4 keys: the version 7 ones are the new rows
SELECT count(*) AS new_rows,
       bool_and(uuid_version(line) = 8 AND uuid_version(slot) = 8) AS v8_sequential,
       bool_and(made = uuid_v7_to_timestamptz(id)) AS generated_column,
       bool_and(note = 'after' OR uuid_version(note::uuid) = 7) AS trigger_notes
    FROM orders WHERE uuid_version(id) = 7;
SELECT bool_and(id > previous) AS v7_keys_ordered
    FROM (SELECT id, lag(id) OVER (ORDER BY ctid) AS previous FROM orders WHERE uuid_version(id) = 7) k
    WHERE previous IS NOT NULL;
-- the expression index answers as a scan of the table does
SET enable_seqscan = off;
SELECT count(*) AS by_index FROM orders WHERE order_time(id) >= 'epoch';
RESET enable_seqscan;
SELECT count(*) AS by_table FROM orders WHERE made >= 'epoch';
SELECT count(*) AS view_rows, bool_and(made_at_utc = made_at AT TIME ZONE 'UTC') AS view_works FROM recent_orders;
SELECT uuid_version(order_boundary('2025-01-01 00:00:00')) AS boundary_version;
