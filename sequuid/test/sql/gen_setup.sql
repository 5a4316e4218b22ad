-- gen_setup: the tables and the fill procedure of the concurrent uniqueness test (gen_a .. gen_d, gen_check).
-- uuid_time_nextval(1, 1) has no prefix: 122 bits straight from the random chunk, so two backends sharing
-- random state would show up as duplicates at once.
-- The PL/pgSQL port (no extension installed) makes a tenth as many: its calls cost some fifty times C's, and
-- a shared state would repeat within the first values in either.
CREATE UNLOGGED TABLE gen_v7 (u uuid);
CREATE UNLOGGED TABLE gen_v6 (u uuid);
CREATE UNLOGGED TABLE gen_ulid (u uuid);
CREATE UNLOGGED TABLE gen_random (u uuid);
CREATE UNLOGGED TABLE gen_size AS
SELECT CASE WHEN EXISTS (SELECT FROM pg_extension WHERE extname = 'sequuid') THEN 100000 ELSE 10000 END AS n;
CREATE PROCEDURE gen_fill()
LANGUAGE plpgsql AS $$
DECLARE
    n integer := (SELECT n FROM gen_size);
BEGIN
    INSERT INTO gen_v7 SELECT uuid_generate_v7() FROM generate_series(1, 2 * n);
    INSERT INTO gen_v6 SELECT uuid_generate_v6() FROM generate_series(1, n);
    INSERT INTO gen_ulid SELECT uuid_generate_ulid() FROM generate_series(1, n);
    INSERT INTO gen_random SELECT uuid_time_nextval(1, 1) FROM generate_series(1, n);
END
$$;
