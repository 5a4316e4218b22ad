-- install_c: the C implementation; every shared test after this one runs against it.
CREATE EXTENSION sequuid;
SELECT extname, extversion FROM pg_extension WHERE extname = 'sequuid';
