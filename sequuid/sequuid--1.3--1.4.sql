/* sequuid/sequuid--1.3--1.4.sql */

-- complain if script is sourced in psql, rather than via ALTER EXTENSION
\echo Use "ALTER EXTENSION sequuid UPDATE TO '1.4'" to load this file. \quit

-- Sort-preserving text of a uuid: base32hex (RFC 4648 section 7) orders its digits as their values, so the text of
-- two uuids compares byte-wise (COLLATE "C") as the uuids do; 26 characters where the hyphenated form has 36.  The
-- same text as PostgreSQL 19's rtrim(encode(id::bytea, 'base32hex'), '='), on any server.  Deterministic:
-- IMMUTABLE STRICT PARALLEL SAFE, like uuid_to_ulid() and ulid_to_uuid().
CREATE FUNCTION uuid_to_base32hex(id uuid) RETURNS text
    AS 'MODULE_PATHNAME', 'sequuid_uuid_to_base32hex'
    LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION uuid_to_base32hex(uuid) IS
    'the uuid as 26 base32hex digits (RFC 4648 section 7, no padding), which sort byte-wise as the uuid does';

CREATE FUNCTION uuid_from_base32hex(base32hex text) RETURNS uuid
    AS 'MODULE_PATHNAME', 'sequuid_uuid_from_base32hex'
    LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION uuid_from_base32hex(text) IS
    'the uuid of 26 base32hex digits, in either case, padded or not (as PostgreSQL 19''s decode(text, ''base32hex''))';
