-- The private table is read by one GROUP BY over the cell function, which PostgreSQL may run in parallel:
-- the cell function is IMMUTABLE PARALLEL SAFE and count(*) has a combine function.
CREATE TABLE big AS SELECT (i % 1000)::float8 AS x FROM generate_series(1, 200000) AS i;
ANALYZE big;
SET max_parallel_workers_per_gather = 2;
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
SET enable_hashagg = on;
EXPLAIN (COSTS OFF)
SELECT pap.cell_index('{0,10,20}'::pg_catalog.float8[], pap.axis_value((x)::pg_catalog.float8)) AS cell,
       pg_catalog.count(*) AS rows
  FROM public.big GROUP BY 1;
-- the same histogram, computed in parallel or not, is the same
SELECT pap.cell_index('{0,10,20}'::pg_catalog.float8[], pap.axis_value((x)::pg_catalog.float8)) AS cell,
       pg_catalog.count(*) AS rows
  FROM public.big GROUP BY 1 ORDER BY 1;
SET max_parallel_workers_per_gather = 0;
SELECT pap.cell_index('{0,10,20}'::pg_catalog.float8[], pap.axis_value((x)::pg_catalog.float8)) AS cell,
       pg_catalog.count(*) AS rows
  FROM public.big GROUP BY 1 ORDER BY 1;
RESET max_parallel_workers_per_gather;
RESET parallel_setup_cost;
RESET parallel_tuple_cost;
RESET min_parallel_table_scan_size;
RESET enable_hashagg;
DROP TABLE big;
-- A public-support domain over a grid of more than 2^18 points (602 x 602 bins at the finest granularity, a full
-- grid over pap_release.max_cells): the run passes pap.grid_counts the support's keys, and the scan counts every
-- private row outside the support under one key of the outside cell, in a state of one count per support point
-- (docs/security.md, "What errors and messages may say"). At epsilon 1000 identity's noise is far below a row: the
-- outside cell holds the private rows at the points the public table never shows, the support the others.
SET pap_release.test_seed = 5;
SET pap_release.max_cells = 1000;
CREATE TABLE fold_pub AS SELECT i::float8 AS x, (i * 7 % 600)::float8 AS y FROM generate_series(0, 599) i;
CREATE TABLE fold_priv AS
SELECT (i % 600)::float8 AS x, (CASE WHEN i % 3 = 0 THEN i % 600 * 7 % 600 ELSE i * 11 % 600 END)::float8 AS y
  FROM generate_series(0, 5999) i;
SELECT pap.set_budget('fold_priv', 1000);
SELECT pap.define_release('fold', 'fold_priv', 'fold_pub', 'boxes(x, y)', granularity => 'finest');
SELECT domain, cell_count FROM pap.releases WHERE name = 'fold';
CALL pap.run_release('fold', 1000, mechanism => 'identity');
SELECT (SELECT round(count) FROM pap.synthetic('fold') WHERE columns IS NULL) AS outside_rows,
       (SELECT count(*) FROM fold_priv v WHERE NOT EXISTS (SELECT FROM fold_pub p WHERE p.x = v.x AND p.y = v.y))
           AS outside_rows_exact,
       (SELECT round(sum(count)) FROM pap.synthetic('fold') WHERE columns IS NOT NULL) AS support_rows;
SELECT pap.drop_release('fold');
RESET pap_release.max_cells;
RESET pap_release.test_seed;
DROP TABLE fold_priv, fold_pub;
