-- gen_setup: the tables and the fill procedure of the concurrent uniqueness test (gen_a .. gen_d, gen_check).
-- uuid_time_nextval(1, 1) has no prefix: 122 bits straight from the random chunk, so two backends sharing
-- random state would show up as duplicates at once.
CREATE UNLOGGED TABLE gen_v7 (u uuid);
CREATE UNLOGGED TABLE gen_v6 (u uuid);
CREATE UNLOGGED TABLE gen_ulid (u uuid);
CREATE UNLOGGED TABLE gen_random (u uuid);

CREATE PROCEDURE gen_fill()
LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO gen_v7 SELECT uuid_generate_v7() FROM generate_series(1, 200000);
    INSERT INTO gen_v6 SELECT uuid_generate_v6() FROM generate_series(1, 100000);
    INSERT INTO gen_ulid SELECT uuid_generate_ulid() FROM generate_series(1, 100000);
    INSERT INTO gen_random SELECT uuid_time_nextval(1, 1) FROM generate_series(1, 100000);
END
$$;
