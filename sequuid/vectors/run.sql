-- sequuid/vectors/run.sql: how SQL runs one test vector; read by vectors/make.sql, which records what the C
-- extension answers, and by test/sql/vectors.sql, which checks the C extension and the PL/pgSQL port against the
-- files.  One definition, so that what is recorded and what is checked are the same query.
--
-- Everything lives in pg_temp and goes with the session.  Instants are written and read in UTC.

SET TimeZone = 'UTC';
SET DateStyle = 'ISO, YMD';
SET IntervalStyle = 'postgres';
SET extra_float_digits = 3;

-- the sequence sequence-prefix vectors set before each call; its range is the whole of bigint
CREATE TEMP SEQUENCE vectors_seq MINVALUE -9223372036854775808 MAXVALUE 9223372036854775807;

-- a group's query with each {name} replaced by the test's input name as a quoted literal
CREATE FUNCTION pg_temp.vector_query(template text, input jsonb) RETURNS text
    LANGUAGE plpgsql IMMUTABLE
AS $$
DECLARE
    name text;
    statement text := template;
BEGIN
    FOR name IN SELECT jsonb_object_keys(input) LOOP
        statement := replace(statement, '{' || name || '}', quote_nullable(input ->> name));
    END LOOP;
    RETURN statement;
END
$$;

-- {"output": value} or {"sqlstate": code}; a test with a time_zone input runs in that time zone
CREATE FUNCTION pg_temp.vector_run(template text, input jsonb) RETURNS jsonb
    LANGUAGE plpgsql
AS $$
DECLARE
    result jsonb;
BEGIN
    IF input ? 'time_zone' THEN
        PERFORM set_config('TimeZone', input ->> 'time_zone', false);
    END IF;
    BEGIN
        EXECUTE pg_temp.vector_query(template, input) INTO result;
    EXCEPTION WHEN OTHERS THEN
        PERFORM set_config('TimeZone', 'UTC', false);
        RETURN jsonb_build_object('sqlstate', SQLSTATE);
    END;
    PERFORM set_config('TimeZone', 'UTC', false);
    RETURN jsonb_build_object('output', result);
END
$$;

-- the bits of a uuid (as JSON text) that a mask keeps, as uuid JSON text; anything else stays as it is
CREATE FUNCTION pg_temp.vector_masked(value jsonb, mask text) RETURNS jsonb
    LANGUAGE plpgsql IMMUTABLE
AS $$
DECLARE
    bytes bytea;
    mask_bytes bytea := decode(replace(mask, '-', ''), 'hex');
BEGIN
    IF mask IS NULL OR value IS NULL OR jsonb_typeof(value) <> 'string' THEN
        RETURN value;
    END IF;
    bytes := decode(replace(value #>> '{}', '-', ''), 'hex');
    FOR i IN 0..15 LOOP
        bytes := set_byte(bytes, i, get_byte(bytes, i) & get_byte(mask_bytes, i));
    END LOOP;
    RETURN to_jsonb(encode(bytes, 'hex')::uuid);
END
$$;

-- every test of one vector file run against the functions installed here: one row per test whose answer differs
-- from the file (an output other than the expected one under the mask, another SQLSTATE, or an error where an
-- output was expected and the other way round)
CREATE FUNCTION pg_temp.vector_mismatches(doc jsonb)
    RETURNS TABLE (family text, tc_id integer, expected jsonb, answered jsonb)
    LANGUAGE plpgsql
AS $$
DECLARE
    grp jsonb;
    test jsonb;
    answer jsonb;
    expected_output jsonb;
BEGIN
    family := doc ->> 'family';
    FOR grp IN SELECT jsonb_array_elements(doc -> 'testGroups') LOOP
        FOR test IN SELECT jsonb_array_elements(grp -> 'tests') LOOP
            answer := pg_temp.vector_run(grp ->> 'sql', test -> 'input');
            IF test ->> 'result' = 'valid' THEN
                expected_output := test -> 'output';
                IF answer ? 'output' AND pg_temp.vector_masked(answer -> 'output',
                                                               coalesce(test ->> 'mask', grp ->> 'mask'))
                                         = expected_output THEN
                    CONTINUE;
                END IF;
                expected := jsonb_build_object('output', expected_output);
            ELSE
                IF answer ->> 'sqlstate' = test #>> '{error,sqlstate}' THEN
                    CONTINUE;
                END IF;
                expected := jsonb_build_object('sqlstate', test #>> '{error,sqlstate}');
            END IF;
            tc_id := (test ->> 'tcId')::integer;
            answered := answer;
            RETURN NEXT;
        END LOOP;
    END LOOP;
END
$$;

-- the number of tests a file holds, counted from its groups (numberOfTests must agree)
CREATE FUNCTION pg_temp.vector_count(doc jsonb) RETURNS integer
    LANGUAGE sql IMMUTABLE
AS $$ SELECT sum(jsonb_array_length(g -> 'tests'))::integer FROM jsonb_array_elements(doc -> 'testGroups') g $$;
