-- pap.grid_counts, the aggregate of the private scan: the same counts as a GROUP BY, serially and in parallel
CREATE TABLE gc_keys AS
SELECT CASE WHEN i % 97 = 0 THEN NULL
            WHEN i % 89 = 0 THEN -9223372036854775808
            WHEN i % 83 = 0 THEN 9223372036854775807
            ELSE (hashint4(i) % 5000)::int8 * 1000003 END AS key
  FROM generate_series(1, 200000) AS i;
ANALYZE gc_keys;
-- the GROUP BY's rows as [key, rows, ...] sorted by key
CREATE FUNCTION gc_expected(lo int8, hi int8) RETURNS int8[] LANGUAGE sql AS $$
	SELECT coalesce(array_agg(x ORDER BY k, o), '{}')
	  FROM (SELECT key AS k, count(*) AS c FROM gc_keys WHERE key BETWEEN lo AND hi GROUP BY key) g,
	       LATERAL (VALUES (g.k, 0), (g.c, 1)) AS v(x, o) $$;
SET max_parallel_workers_per_gather = 0;
SELECT pap.grid_counts(key) = gc_expected(-9223372036854775808, 9223372036854775807) AS serial_equal,
       cardinality(pap.grid_counts(key)) AS values
  FROM gc_keys;
SELECT pap.grid_counts(key) = gc_expected(0, 5000000000) AS serial_range_equal
  FROM gc_keys WHERE key BETWEEN 0 AND 5000000000;
-- in parallel: Partial Aggregate in the workers, their states serialised and combined
SET max_parallel_workers_per_gather = 2;
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
EXPLAIN (COSTS OFF) SELECT pap.grid_counts(key) FROM gc_keys;
SELECT pap.grid_counts(key) = gc_expected(-9223372036854775808, 9223372036854775807) AS parallel_equal
  FROM gc_keys;
RESET max_parallel_workers_per_gather;
RESET parallel_setup_cost;
RESET parallel_tuple_cost;
RESET min_parallel_table_scan_size;
-- no row, or only NULL keys: an empty array
SELECT pap.grid_counts(key) AS no_rows FROM gc_keys WHERE false;
SELECT pap.grid_counts(NULL::int8) AS null_keys FROM generate_series(1, 3);
-- one key per group of an outer GROUP BY (the executor may reuse the final function's state)
SELECT g, pap.grid_counts(i::int8 % 3) FROM generate_series(1, 7) i, (VALUES (1), (2)) AS gs(g) GROUP BY g ORDER BY g;
DROP FUNCTION gc_expected(int8, int8);
DROP TABLE gc_keys;
