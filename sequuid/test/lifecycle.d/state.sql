-- sequuid/test/lifecycle.d/state.sql: what must come through an upgrade or a restore unchanged: every row, every
-- object of the application (not sequuid's own, which a restore across C and port replaces), which columns have
-- defaults.
SELECT 'rows ' || count(*) || ' ' || md5(string_agg(o::text, ',' ORDER BY id)) FROM orders o;
SELECT 'sequence at ' || last_value FROM order_numbers;
SELECT 'object ' || c.relkind::text || ' ' || c.relname FROM pg_class c
    WHERE c.relnamespace = 'public'::regnamespace AND c.relkind IN ('r', 'i', 'v', 'S') ORDER BY 1;
SELECT 'constraint ' || conname || ' ' || contype::text FROM pg_constraint
    WHERE conrelid = 'orders'::regclass AND contype <> 'n' ORDER BY 1;
SELECT 'default on ' || a.attname FROM pg_attrdef d
    JOIN pg_attribute a ON a.attrelid = d.adrelid AND a.attnum = d.adnum
    WHERE d.adrelid = 'orders'::regclass ORDER BY 1;
SELECT 'function ' || oid::regprocedure FROM pg_proc WHERE proname = 'next_order';
