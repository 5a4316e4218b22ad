/* sequuid/sequuid--1.5--1.6.sql */

-- complain if script is sourced in psql, rather than via ALTER EXTENSION
\echo Use "ALTER EXTENSION sequuid UPDATE TO '1.6'" to load this file. \quit

-- One spelling per uuid: uuid_from_base32hex() accepts only the text uuid_to_base32hex() writes (26 digits, upper
-- case, no padding or whitespace, the two bits past the 128th zero) and refuses anything else as invalid text.
CREATE OR REPLACE FUNCTION uuid_from_base32hex(base32hex text) RETURNS uuid
    AS 'MODULE_PATHNAME', 'sequuid_uuid_from_base32hex_canonical'
    LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION uuid_from_base32hex(text) IS
    'the uuid of its canonical base32hex text (26 digits 0-9 and A-V, upper case, no padding), as uuid_to_base32hex() writes it';

-- Public ids that hide the sub-millisecond order as well: the 60 bits of time and rand_a go through a four-round
-- Feistel network keyed by the 16-byte key and the id's 62 random bits (rand_b), which stay as they are.  The same
-- names and labels as 1.5; a façade made by 1.5 decodes with uuid_uuidv47_to_v7() (below).
CREATE OR REPLACE FUNCTION uuid_v7_to_public(id uuid, key bytea) RETURNS uuid
    AS 'MODULE_PATHNAME', 'sequuid_public_id_encode'
    LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION uuid_v7_to_public(uuid, bytea) IS
    'the v4-looking public id of a v7 under a 16-byte key: its time and sub-millisecond bits permuted under the key and its random bits';

CREATE OR REPLACE FUNCTION uuid_public_to_v7(id uuid, key bytea) RETURNS uuid
    AS 'MODULE_PATHNAME', 'sequuid_public_id_decode'
    LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION uuid_public_to_v7(uuid, bytea) IS
    'the v7 a public id was made from by uuid_v7_to_public() under the same 16-byte key';

CREATE OR REPLACE FUNCTION uuid_v7_to_public(id uuid) RETURNS uuid
    AS 'MODULE_PATHNAME', 'sequuid_public_id_encode_setting'
    LANGUAGE C STABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION uuid_v7_to_public(uuid) IS
    'the v4-looking public id of a v7 under the key of the setting sequuid.public_id_key';

CREATE OR REPLACE FUNCTION uuid_public_to_v7(id uuid) RETURNS uuid
    AS 'MODULE_PATHNAME', 'sequuid_public_id_decode_setting'
    LANGUAGE C STABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION uuid_public_to_v7(uuid) IS
    'the v7 a public id was made from under the key of the setting sequuid.public_id_key';

-- UUIDv47's façade, bit for bit, under a name of its own (1.5's uuid_v7_to_public): the 48-bit time XORed with
-- SipHash-2-4 of the 74 bits of rand_a and rand_b, rand_a kept.  It hides the time only where rand_a is random, not
-- in the v7s of PostgreSQL 18 or sequuid, whose rand_a is a rising fraction of the millisecond.  For exchanging
-- façades with other UUIDv47 implementations, and for decoding façades handed out under 1.5.
CREATE FUNCTION uuid_v7_to_uuidv47(id uuid, key bytea) RETURNS uuid
    AS 'MODULE_PATHNAME', 'sequuid_uuidv47_encode'
    LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION uuid_v7_to_uuidv47(uuid, bytea) IS
    'UUIDv47''s façade of a v7 under a 16-byte key: the time XORed with SipHash-2-4 of rand_a and rand_b (hides the time only where rand_a is random)';

CREATE FUNCTION uuid_uuidv47_to_v7(id uuid, key bytea) RETURNS uuid
    AS 'MODULE_PATHNAME', 'sequuid_uuidv47_decode'
    LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION uuid_uuidv47_to_v7(uuid, bytea) IS
    'the v7 of a UUIDv47 façade under the same 16-byte key (UUIDv47''s decode; 1.5''s uuid_public_to_v7)';

CREATE FUNCTION uuid_v7_to_uuidv47(id uuid) RETURNS uuid
    AS 'MODULE_PATHNAME', 'sequuid_uuidv47_encode_setting'
    LANGUAGE C STABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION uuid_v7_to_uuidv47(uuid) IS
    'UUIDv47''s façade of a v7 under the key of the setting sequuid.public_id_key';

CREATE FUNCTION uuid_uuidv47_to_v7(id uuid) RETURNS uuid
    AS 'MODULE_PATHNAME', 'sequuid_uuidv47_decode_setting'
    LANGUAGE C STABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION uuid_uuidv47_to_v7(uuid) IS
    'the v7 of a UUIDv47 façade under the key of the setting sequuid.public_id_key';

-- What was built on 1.5's façades: an index, a generated column or a materialized view holds 1.5's values, and a
-- view or a function now shows 1.6's.  Named in a warning, so that the update never changes them unseen.
DO $$
DECLARE
    dependents text;
BEGIN
    SELECT pg_catalog.string_agg(DISTINCT pg_catalog.pg_describe_object(d.classid, d.objid, d.objsubid), ', ')
    INTO dependents
    FROM pg_catalog.pg_depend d
    WHERE d.refclassid = 'pg_catalog.pg_proc'::pg_catalog.regclass
      AND d.deptype OPERATOR(pg_catalog.=) 'n'::"char"
      AND d.refobjid IN (
          SELECT m.objid FROM pg_catalog.pg_depend m
          JOIN pg_catalog.pg_extension x ON x.oid OPERATOR(pg_catalog.=) m.refobjid
          JOIN pg_catalog.pg_proc p ON p.oid OPERATOR(pg_catalog.=) m.objid
          WHERE m.classid = 'pg_catalog.pg_proc'::pg_catalog.regclass AND m.deptype OPERATOR(pg_catalog.=) 'e'::"char"
            AND x.extname OPERATOR(pg_catalog.=) 'sequuid'::pg_catalog.name
            AND p.proname IN ('uuid_v7_to_public'::pg_catalog.name, 'uuid_public_to_v7'::pg_catalog.name));
    IF dependents IS NOT NULL THEN
        RAISE WARNING 'uuid_v7_to_public() and uuid_public_to_v7() now make and read 1.6''s public ids, and these use them: %',
                dependents
            USING HINT = 'Rebuild what stores their values (REINDEX, REFRESH MATERIALIZED VIEW, an UPDATE of generated columns); '
                         'public ids made under 1.5 decode with uuid_uuidv47_to_v7().';
    END IF;
END
$$;
