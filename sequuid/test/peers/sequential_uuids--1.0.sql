/* sequuid/test/peers/sequential_uuids--1.0.sql: a stand-in with sequential-uuids 1.0.3's names, signatures and
   labels */
\echo Use "CREATE EXTENSION sequential_uuids" to load this file. \quit

-- version 4 values, as sequential-uuids labels its own: after the switch, version 8 shows that sequuid made a key
CREATE FUNCTION uuid_sequence_nextval(regclass, block_size int default 65536, block_count int default 65536)
    RETURNS uuid
    AS 'SELECT CASE WHEN nextval($1) IS NOT NULL THEN gen_random_uuid() END'
    LANGUAGE sql STRICT PARALLEL SAFE;

CREATE FUNCTION uuid_time_nextval(interval_length int default 60, interval_count int default 65536) RETURNS uuid
    AS 'SELECT gen_random_uuid()'
    LANGUAGE sql STRICT PARALLEL SAFE;
