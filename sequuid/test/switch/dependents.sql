-- sequuid/test/switch/dependents.sql: included by the switch tests.  A database that uses every function of
-- pg_uuidv7 and sequential-uuids (the stand-ins of test/peers) in every kind of object that can refer to one, with
-- rows; then what must survive the switch, kept in psql variables: the rows, the objects' definitions and the OIDs
-- of the peers' functions.
CREATE EXTENSION pg_uuidv7;
CREATE EXTENSION sequential_uuids;
CREATE SEQUENCE order_numbers;
-- a SQL-standard function body records its dependencies: the wrapper people write to index a STABLE reader
CREATE FUNCTION order_time(id uuid) RETURNS timestamptz IMMUTABLE PARALLEL SAFE LANGUAGE sql
    BEGIN ATOMIC SELECT uuid_v7_to_timestamptz(id); END;
CREATE FUNCTION order_boundary(t timestamp) RETURNS uuid LANGUAGE sql
    BEGIN ATOMIC SELECT uuid_timestamp_to_v7(t, true); END;
-- a string body (no dependency recorded): resolved by name when called
CREATE FUNCTION new_order_key() RETURNS uuid LANGUAGE sql AS 'SELECT uuid_generate_v7()';
CREATE TABLE orders (
    id uuid PRIMARY KEY DEFAULT uuid_generate_v7(),
    line uuid NOT NULL DEFAULT uuid_sequence_nextval('order_numbers', 10, 256),
    slot uuid DEFAULT uuid_time_nextval(),
    made timestamptz GENERATED ALWAYS AS (order_time(id)) STORED,
    note text,
    CONSTRAINT orders_after_epoch CHECK (uuid_v7_to_timestamptz(id) >= 'epoch')
);
CREATE INDEX orders_by_time ON orders (order_time(id));
CREATE VIEW recent_orders AS
    SELECT id, uuid_v7_to_timestamptz(id) AS made_at, uuid_v7_to_timestamp(id) AS made_at_utc FROM orders;
-- a PL/pgSQL trigger that calls a peer's function by name
CREATE FUNCTION orders_note() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    NEW.note := coalesce(NEW.note, uuid_timestamptz_to_v7(now(), true)::text);
    RETURN NEW;
END
$$;
CREATE TRIGGER orders_note BEFORE INSERT ON orders FOR EACH ROW EXECUTE FUNCTION orders_note();
INSERT INTO orders (note) SELECT NULL FROM generate_series(1, 50);
INSERT INTO orders (id, note) SELECT new_order_key(), 'by function' FROM generate_series(1, 50);

-- what must survive
SELECT count(*) AS rows_before, md5(string_agg(o::text, ',' ORDER BY id)) AS rows_md5_before
    FROM orders o \gset
CREATE TEMP VIEW definitions AS
    SELECT 'default ' || a.attname AS object, pg_get_expr(d.adbin, d.adrelid) AS definition
        FROM pg_attrdef d JOIN pg_attribute a ON a.attrelid = d.adrelid AND a.attnum = d.adnum
        WHERE d.adrelid = 'orders'::regclass
    UNION ALL SELECT 'view recent_orders', pg_get_viewdef('recent_orders'::regclass)
    UNION ALL SELECT 'index ' || indexrelid::regclass, pg_get_indexdef(indexrelid)
        FROM pg_index WHERE indrelid = 'orders'::regclass
    UNION ALL SELECT 'constraint ' || conname, pg_get_constraintdef(oid)
        FROM pg_constraint WHERE conrelid = 'orders'::regclass AND contype <> 'n'   -- 18 lists NOT NULL too
    UNION ALL SELECT 'trigger ' || tgname, pg_get_triggerdef(oid)
        FROM pg_trigger WHERE tgrelid = 'orders'::regclass
    UNION ALL SELECT 'function ' || proname, pg_get_functiondef(oid)
        FROM pg_proc WHERE proname IN ('order_time', 'order_boundary', 'new_order_key', 'orders_note');
SELECT count(*) AS definitions_before, md5(string_agg(object || ': ' || definition, ',' ORDER BY object))
    AS definitions_md5_before FROM definitions \gset
SELECT string_agg(objid::text, ',' ORDER BY objid) AS peer_function_oids
    FROM pg_depend WHERE refclassid = 'pg_extension'::regclass AND deptype = 'e'
    AND refobjid IN (SELECT oid FROM pg_extension WHERE extname IN ('pg_uuidv7', 'sequential_uuids')) \gset
SELECT :rows_before AS rows, :definitions_before AS definitions,
       cardinality(string_to_array(:'peer_function_oids', ',')) AS peer_functions;
