-- sequuid/bench/time_ops.sql: run by bench/time_ops with psql variables rows and spread.
\pset footer off
CREATE EXTENSION sequuid;
CREATE EXTENSION pg_walinspect;
-- keep every WAL segment of the measurement until pg_walinspect has read it
SELECT 'slot' FROM pg_create_physical_replication_slot('time_ops_bench', true) \g /dev/null

-- the v1 UUIDs, in the order a generator made them: one node, timestamps increasing over the spread
CREATE UNLOGGED TABLE v1_source AS
SELECT i, (substr(h, 8, 8) || '-' || substr(h, 4, 4) || '-1' || substr(h, 1, 3) || '-b3c8-9f6bdeced846')::uuid AS id
FROM (SELECT i, lpad(to_hex(
          (extract(epoch FROM timestamptz '2024-01-01 00:00:00+00') * 10000000)::bigint + 122192928000000000
          + (i * (extract(epoch FROM :'spread'::interval) * 10000000 / :rows))::bigint), 15, '0') AS h
      FROM generate_series(1, :rows) AS i) AS ticks;
ALTER TABLE v1_source ADD PRIMARY KEY (i);

CREATE TABLE results (index_kind text, page_splits bigint, split_wal_bytes numeric, btree_wal_bytes numeric,
                      fpi_wal_bytes numeric, total_wal_bytes numeric, index_bytes bigint, seconds numeric);

-- insert every row into an empty table whose index uses opclass, 1000 rows per transaction as an application
-- would, and record what the inserts wrote (checkpoints come from max_wal_size, set low by bench/time_ops)
CREATE PROCEDURE measure(index_kind text, opclass text)
LANGUAGE plpgsql AS $$
DECLARE
    start_lsn pg_lsn;
    end_lsn pg_lsn;
    started timestamptz;
    total bigint := (SELECT count(*) FROM v1_source);
BEGIN
    EXECUTE format('CREATE TABLE keys_%s (id uuid NOT NULL)', index_kind);
    EXECUTE format('CREATE UNIQUE INDEX keys_%s_id ON keys_%s (id %s)', index_kind, index_kind, opclass);
    COMMIT;
    CHECKPOINT;
    start_lsn := pg_current_wal_insert_lsn();
    started := clock_timestamp();
    FOR first_row IN 1..total BY 1000 LOOP
        EXECUTE format('INSERT INTO keys_%s SELECT id FROM v1_source WHERE i >= $1 AND i < $1 + 1000 ORDER BY i',
                       index_kind) USING first_row;
        COMMIT;
    END LOOP;
    end_lsn := pg_current_wal_insert_lsn();
    INSERT INTO results
    SELECT index_kind,
           sum(count) FILTER (WHERE "resource_manager/record_type" IN ('Btree/SPLIT_L', 'Btree/SPLIT_R')),
           sum(combined_size) FILTER (WHERE "resource_manager/record_type" IN ('Btree/SPLIT_L', 'Btree/SPLIT_R')),
           sum(combined_size) FILTER (WHERE "resource_manager/record_type" LIKE 'Btree/%'),
           sum(fpi_size),
           pg_wal_lsn_diff(end_lsn, start_lsn),
           pg_relation_size(format('keys_%s_id', index_kind)::regclass),
           round(extract(epoch FROM clock_timestamp() - started)::numeric, 1)
    FROM pg_get_wal_stats(start_lsn, end_lsn, true);
    COMMIT;
END
$$;

CALL measure('plain', 'uuid_ops');
CALL measure('time_ops', 'uuid_time_ops');

SELECT format('%s v1 UUIDs made over %s, inserted in order, 1000 per transaction; PostgreSQL %s, '
              'shared_buffers %s, max_wal_size %s', :rows, :'spread', current_setting('server_version'),
              current_setting('shared_buffers'), current_setting('max_wal_size')) AS "sequuid bench/time_ops";
SELECT index_kind AS index, page_splits, pg_size_pretty(split_wal_bytes) AS split_wal,
       pg_size_pretty(btree_wal_bytes) AS btree_wal, pg_size_pretty(fpi_wal_bytes) AS fpi_wal,
       pg_size_pretty(total_wal_bytes) AS total_wal, pg_size_pretty(index_bytes) AS index_size, seconds
FROM results ORDER BY index_kind;
SELECT round(p.page_splits::numeric / nullif(t.page_splits, 0), 1) AS page_splits_ratio,
       round(p.btree_wal_bytes / t.btree_wal_bytes, 1) AS btree_wal_ratio,
       round(p.total_wal_bytes / t.total_wal_bytes, 1) AS total_wal_ratio,
       round(p.index_bytes::numeric / t.index_bytes, 2) AS index_size_ratio
FROM results p, results t WHERE p.index_kind = 'plain' AND t.index_kind = 'time_ops';

SELECT pg_drop_replication_slot('time_ops_bench') \g /dev/null
