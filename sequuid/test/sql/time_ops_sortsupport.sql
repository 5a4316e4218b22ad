-- uuid_time_ops sortsupport (C only): the operator class sorts through sortsupport with abbreviated keys, and
-- every sort path gives the order the comparison function defines.
SELECT amproclefttype::regtype, amprocnum, amproc
FROM pg_amproc
WHERE amprocfamily = (SELECT opcfamily FROM pg_opclass WHERE opcname = 'uuid_time_ops')
ORDER BY amprocnum;

-- v1 values that share each timestamp with several others (their abbreviated keys tie, so the full
-- comparison decides), and random non-v1 values
CREATE TEMP TABLE sort_input AS
SELECT (lpad(to_hex(i % 4096), 8, '0') || '-9414-11ec-' || '8' || substr(md5(i::text), 1, 3) || '-' ||
        substr(md5(i::text), 5, 12))::uuid AS id
FROM generate_series(1, 30000) AS i
UNION ALL
SELECT md5(i::text)::uuid FROM generate_series(1, 10000) AS i;

-- the reference: sort by uuid_time_cmp through a plain comparison, one pair at a time
CREATE FUNCTION pg_temp.sorted_by_cmp() RETURNS SETOF uuid
LANGUAGE plpgsql
AS $$
DECLARE
    previous uuid;
    current uuid;
    misordered bigint := 0;
BEGIN
    FOR current IN SELECT id FROM sort_input ORDER BY id USING ~<~ LOOP
        IF previous IS NOT NULL AND uuid_time_cmp(previous, current) >= 0 THEN
            misordered := misordered + 1;
        END IF;
        previous := current;
        RETURN NEXT current;
    END LOOP;
    IF misordered > 0 THEN
        RAISE EXCEPTION '% pairs out of order', misordered;
    END IF;
END
$$;

-- in memory (quicksort), then external (small work_mem, merge of runs)
SET work_mem = '64MB';
SELECT count(*) AS sorted_in_memory FROM pg_temp.sorted_by_cmp();
SET work_mem = '64kB';
SELECT count(*) AS sorted_on_disk FROM pg_temp.sorted_by_cmp();
RESET work_mem;

-- an index build sorts through sortsupport too
CREATE INDEX sort_input_id ON sort_input (id uuid_time_ops);
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS amcheck;
RESET client_min_messages;
SELECT bt_index_check('sort_input_id', true);
