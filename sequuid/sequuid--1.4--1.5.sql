/* sequuid/sequuid--1.4--1.5.sql */

-- complain if script is sourced in psql, rather than via ALTER EXTENSION
\echo Use "ALTER EXTENSION sequuid UPDATE TO '1.5'" to load this file. \quit

-- Public ids: a keyed, reversible mapping between a stored v7 and a v4-looking façade, bit-compatible with UUIDv47
-- (the v7's 48-bit time XORed with SipHash-2-4 of its random bits, version 4).  With the key as an argument the
-- result depends on the arguments alone: IMMUTABLE, so that WHERE id = uuid_public_to_v7($1, key) is an index
-- condition on the primary key.  STRICT PARALLEL SAFE like every utility.
CREATE FUNCTION uuid_v7_to_public(id uuid, key bytea) RETURNS uuid
    AS 'MODULE_PATHNAME', 'sequuid_uuid_v7_to_public'
    LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION uuid_v7_to_public(uuid, bytea) IS
    'the v4-looking public id of a v7 under a 16-byte key (UUIDv47''s façade): the time XORed with SipHash-2-4 of the random bits';

CREATE FUNCTION uuid_public_to_v7(id uuid, key bytea) RETURNS uuid
    AS 'MODULE_PATHNAME', 'sequuid_uuid_public_to_v7'
    LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION uuid_public_to_v7(uuid, bytea) IS
    'the v7 a public id was made from under the same 16-byte key (UUIDv47''s decode)';

-- The same with the key of the setting sequuid.public_id_key: STABLE, since a setting can change between
-- statements but not within one, which still lets the planner use the primary key index.
CREATE FUNCTION uuid_v7_to_public(id uuid) RETURNS uuid
    AS 'MODULE_PATHNAME', 'sequuid_uuid_v7_to_public_setting'
    LANGUAGE C STABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION uuid_v7_to_public(uuid) IS
    'the v4-looking public id of a v7 under the key of the setting sequuid.public_id_key';

CREATE FUNCTION uuid_public_to_v7(id uuid) RETURNS uuid
    AS 'MODULE_PATHNAME', 'sequuid_uuid_public_to_v7_setting'
    LANGUAGE C STABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION uuid_public_to_v7(uuid) IS
    'the v7 a public id was made from under the key of the setting sequuid.public_id_key';
