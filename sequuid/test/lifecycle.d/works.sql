-- sequuid/test/lifecycle.d/works.sql: after an upgrade or a restore, every default, index, view and function works,
-- and new keys come out as they did.  Raises (psql stops) where anything does not.
CREATE TEMP TABLE rows_before AS SELECT count(*) AS n FROM orders;
INSERT INTO orders SELECT FROM generate_series(1, 20);
DO $$
DECLARE
    bad text;
    expected bigint := (SELECT n + 20 FROM rows_before);
BEGIN
    SELECT string_agg(id::text, ', ') INTO bad FROM (
        SELECT id FROM orders
        WHERE uuid_version(id) <> 7 OR uuid_version(core_id) <> 7 OR uuid_version(line) <> 8
        OR made <> uuid_timestamp(id) OR ulid_timestamp(ulid) IS NULL) k;
    IF bad IS NOT NULL THEN
        RAISE EXCEPTION 'rows whose keys are not what the defaults make: %', bad;
    END IF;
    IF (SELECT count(*) FROM orders) <> expected THEN
        RAISE EXCEPTION 'expected % rows, found %', expected, (SELECT count(*) FROM orders);
    END IF;
    IF (SELECT count(*) FROM order_times WHERE made_at IS NOT NULL AND core_made_at IS NOT NULL
        AND bytes = uuid_send(id)) <> expected THEN
        RAISE EXCEPTION 'the view order_times does not answer for every row';
    END IF;
    IF uuid_version(next_order()) <> 7 THEN
        RAISE EXCEPTION 'next_order() made no v7';
    END IF;
    -- the uuid_time_ops index and the expression index answer as the table does
    SET LOCAL enable_seqscan = off;
    IF (SELECT count(*) FROM orders WHERE id ~>=~ uuid_v7_boundary('1970-01-01')) <> expected
       OR (SELECT count(*) FROM orders WHERE uuid_v7_to_timestamptz(id) >= 'epoch') <> expected THEN
        RAISE EXCEPTION 'an index of orders misses rows';
    END IF;
END
$$;
