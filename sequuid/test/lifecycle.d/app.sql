-- sequuid/test/lifecycle.d/app.sql: a database that uses sequuid (C or port, whichever is installed), with
-- sequuid_pg18api's uuidv7() and sequuid_pg19api's cast, in every kind of object, with rows.
CREATE SEQUENCE order_numbers;
CREATE TABLE orders (
    id uuid PRIMARY KEY DEFAULT uuid_generate_v7(),
    core_id uuid NOT NULL DEFAULT uuidv7(),
    line uuid NOT NULL DEFAULT uuid_sequence_nextval('order_numbers'),
    ulid uuid NOT NULL DEFAULT uuid_generate_ulid(),
    made timestamptz GENERATED ALWAYS AS (uuid_timestamp(id)) STORED,
    CONSTRAINT orders_v7 CHECK (uuid_version(id) = 7)
);
CREATE INDEX orders_by_time ON orders (id uuid_time_ops);
CREATE INDEX orders_made ON orders (uuid_v7_to_timestamptz(id));
CREATE VIEW order_times AS
    SELECT id, uuid_timestamp(id) AS made_at, uuid_extract_timestamp(core_id) AS core_made_at,
           ulid_timestamp(ulid) AS ulid_made_at, id::bytea AS bytes
    FROM orders;
CREATE FUNCTION next_order() RETURNS uuid LANGUAGE sql BEGIN ATOMIC SELECT uuid_generate_v7(); END;
INSERT INTO orders SELECT FROM generate_series(1, 200);
