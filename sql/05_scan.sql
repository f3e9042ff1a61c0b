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
