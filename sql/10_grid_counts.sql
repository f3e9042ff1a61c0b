-- pap.grid_counts(radices, VARIADIC axes), the aggregate of the private scan: the same counts as a GROUP BY over
-- the same bins, serially and in parallel, for cut pairs binned inside the aggregate and int4 bins computed outside
CREATE TABLE gc_rows AS
SELECT CASE WHEN i % 101 = 0 THEN NULL WHEN i % 103 = 0 THEN 'NaN' WHEN i % 107 = 0 THEN '-Infinity'
            WHEN i % 109 = 0 THEN 'Infinity' WHEN i % 7 = 0 THEN (i % 50)::float8 / 2  -- on and between cuts
            ELSE (hashint4(i) % 6000) / 200.0 END::float8 AS x,
       CASE WHEN i % 97 = 0 THEN NULL ELSE ((hashint4(i + 1) % 1000) / 31.0) ^ 2 END::float8 AS y,  -- skewed
       abs(hashint4(i + 2)) % 7 AS k,
       abs(hashint4(i + 3)) % 1000 AS kk
  FROM generate_series(1, 60000) AS i;
ANALYZE gc_rows;
-- x: duplicates, a cut on -0 and a trailing NaN (the binary search); y: 61 cuts, dense at 0 (the buckets)
SELECT '{-3,-0,0,0,1.5,2,7.25,10,20,24.5,NaN}' AS cx \gset
SELECT array_agg(i * i / 3.5 ORDER BY i)::text AS cy FROM generate_series(0, 60) AS i \gset
-- The reference bin: the cuts below v in float8 order, counted one by one (NULL: the NULL bin M + 1).
CREATE FUNCTION gc_bin(cuts float8[], v float8) RETURNS int8 LANGUAGE sql IMMUTABLE AS $$
	SELECT CASE WHEN v IS NULL THEN cardinality(cuts) + 1 ELSE (SELECT count(*) FROM unnest(cuts) c WHERE c < v) END $$;
-- [key, rows, ...] sorted by key of a GROUP BY key
CREATE FUNCTION gc_flat(keys int8[], rows int8[]) RETURNS int8[] LANGUAGE sql IMMUTABLE AS $$
	SELECT coalesce(array_agg(x ORDER BY k, o), '{}')
	  FROM unnest(keys, rows) AS g(k, c), LATERAL (VALUES (g.k, 0), (g.c, 1)) AS v(x, o) $$;
CREATE TABLE gc_expected AS
SELECT (SELECT gc_flat(array_agg(key), array_agg(n))
          FROM (SELECT gc_bin(:'cx', x) * 63 + gc_bin(:'cy', y) AS key, count(*) AS n FROM gc_rows GROUP BY 1) g) AS dense,
       (SELECT gc_flat(array_agg(key), array_agg(n))
          FROM (SELECT (k * 13 + gc_bin(:'cx', x)) * 63000 + gc_bin(:'cy', y) * 1000 + kk AS key, count(*) AS n
                  FROM gc_rows GROUP BY 1) g) AS hashed;
SELECT cardinality(dense) / 2 AS dense_points, cardinality(hashed) / 2 AS hashed_points FROM gc_expected;
SET max_parallel_workers_per_gather = 0;
-- 13 * 63 = 819 grid points: a dense state; 7 * 13 * 63 * 1000 > 2^18: a hash table
SELECT pap.grid_counts('{13,63}', :'cx'::float8[], x, :'cy'::float8[], y) = (SELECT dense FROM gc_expected)
           AS serial_dense,
       pap.grid_counts('{7,13,63,1000}', k, :'cx'::float8[], x, :'cy'::float8[], y, kk) = (SELECT hashed FROM gc_expected)
           AS serial_hashed
  FROM gc_rows;
-- the same as the GROUP BY form of the scan over pap.cell_index
SELECT pap.grid_counts('{13,63}', :'cx'::float8[], x, :'cy'::float8[], y) =
       (SELECT gc_flat(array_agg(key), array_agg(n))
          FROM (SELECT pap.cell_index(:'cx', x)::int8 * 63 + pap.cell_index(:'cy', y) AS key, count(*) AS n
                  FROM gc_rows GROUP BY 1) g) AS cell_index_equal
  FROM gc_rows;
-- pap.cell_index's lookup (a constant array) and its binary search (an array that is not) agree on every row
SELECT count(*) FILTER (WHERE pap.cell_index(:'cy', y) <> pap.cell_index((SELECT :'cy'::float8[]), y)) AS y_differ,
       count(*) FILTER (WHERE pap.cell_index(:'cx', x) <> pap.cell_index((SELECT :'cx'::float8[]), x)) AS x_differ
  FROM gc_rows;
-- cut arrays and radices as parameters of a generic plan (the scan's $1, $2 ...)
SET plan_cache_mode = force_generic_plan;
PREPARE gc_scan(int8[], float8[], float8[]) AS SELECT pap.grid_counts($1, k, $2, x, $3, y, kk) FROM gc_rows;
EXPLAIN (COSTS OFF, VERBOSE) EXECUTE gc_scan('{7,13,63,1000}', :'cx', :'cy');
EXECUTE gc_scan('{7,13,63,1000}', :'cx', :'cy') \gset gc_generic_
SELECT :'gc_generic_grid_counts'::int8[] = hashed AS generic_plan_equal FROM gc_expected;
DEALLOCATE gc_scan;
RESET plan_cache_mode;
-- in parallel: Partial Aggregate in the workers, their states serialised and combined
SET max_parallel_workers_per_gather = 2;
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
EXPLAIN (COSTS OFF)
SELECT pap.grid_counts('{13,63}', :'cx'::float8[], x, :'cy'::float8[], y) = (SELECT dense FROM gc_expected)
           AS parallel_dense,
       pap.grid_counts('{7,13,63,1000}', k, :'cx'::float8[], x, :'cy'::float8[], y, kk) = (SELECT hashed FROM gc_expected)
           AS parallel_hashed
  FROM gc_rows;
SELECT pap.grid_counts('{13,63}', :'cx'::float8[], x, :'cy'::float8[], y) = (SELECT dense FROM gc_expected)
           AS parallel_dense,
       pap.grid_counts('{7,13,63,1000}', k, :'cx'::float8[], x, :'cy'::float8[], y, kk) = (SELECT hashed FROM gc_expected)
           AS parallel_hashed
  FROM gc_rows;
RESET max_parallel_workers_per_gather;
RESET parallel_setup_cost;
RESET parallel_tuple_cost;
RESET min_parallel_table_scan_size;
-- no row: an empty array; NULL values count in the NULL bin
SELECT pap.grid_counts('{13}', :'cx'::float8[], x) AS no_rows FROM gc_rows WHERE false;
SELECT pap.grid_counts('{4,3}', '{1,2}'::float8[], NULL::float8, 2) AS null_values FROM generate_series(1, 3);
-- int4 bins only, and the largest grid (2^62 points): keys 0 .. 2^62 - 1
SELECT pap.grid_counts('{2147483648,2147483648}', i, j) AS corners
  FROM (VALUES (0, 0), (0, 2147483647), (2147483647, 2147483647), (2147483647, 2147483647)) AS v(i, j);
-- one result per group of an outer GROUP BY (the executor may reuse the final function's state)
SELECT g, pap.grid_counts('{3}', i % 3) FROM generate_series(1, 7) i, (VALUES (1), (2)) AS gs(g) GROUP BY g ORDER BY g;
-- errors: argument types and count
SELECT pap.grid_counts('{3}', 1.5::float8) FROM generate_series(1, 2);
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT pap.grid_counts('{4}', '{1,2}'::float8[], 1) FROM generate_series(1, 2);
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT pap.grid_counts('{4}', '{1,2}'::float8[]) FROM generate_series(1, 2);
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT pap.grid_counts('{3}', 'a'::text) FROM generate_series(1, 2);
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT pap.grid_counts('{3}', VARIADIC ARRAY[1]) FROM generate_series(1, 2);
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT pap.grid_counts('{3,3}', 1) FROM generate_series(1, 2);
\echo SQLSTATE :LAST_ERROR_SQLSTATE
-- radices that do not match the axes, or too many grid points
SELECT pap.grid_counts('{3}', '{1,2}'::float8[], 1.0::float8) FROM generate_series(1, 2);
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT pap.grid_counts('{0}', 0) FROM generate_series(1, 2);
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT pap.grid_counts('{2147483649}', 0) FROM generate_series(1, 2);
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT pap.grid_counts('{2147483648,2147483648,2}', 0, 0, 0) FROM generate_series(1, 2);
\echo SQLSTATE :LAST_ERROR_SQLSTATE
-- NULL or out-of-range int4 bins
SELECT pap.grid_counts('{3}', CASE WHEN i = 2 THEN NULL ELSE 1 END) FROM generate_series(1, 2) i;
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT pap.grid_counts('{3}', i) FROM generate_series(1, 3) i;
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT pap.grid_counts('{3}', -i) FROM generate_series(1, 3) i;
\echo SQLSTATE :LAST_ERROR_SQLSTATE
-- NULL and malformed arrays
SELECT pap.grid_counts(NULL, 1) FROM generate_series(1, 2);
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT pap.grid_counts('{3}', NULL::float8[], 1.0::float8) FROM generate_series(1, 2);
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT pap.grid_counts('{{3}}', 1) FROM generate_series(1, 2);
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT pap.grid_counts('{3,NULL}', 1, 1) FROM generate_series(1, 2);
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT pap.grid_counts('{4}', '{{1,2}}'::float8[], 1.0::float8) FROM generate_series(1, 2);
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT pap.grid_counts('{4}', '{1,NULL}'::float8[], 1.0::float8) FROM generate_series(1, 2);
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT pap.grid_counts('{4}', '{2,1}'::float8[], 1.0::float8) FROM generate_series(1, 2);
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT pap.grid_counts('{4}', '{NaN,1}'::float8[], 1.0::float8) FROM generate_series(1, 2);
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT pap.cell_index('{2,1}', 1);
\echo SQLSTATE :LAST_ERROR_SQLSTATE
-- radices and cut points must be the same for every row: a constant or a parameter
SELECT pap.grid_counts('{4}', ARRAY[1, i]::float8[], 1.0::float8) FROM generate_series(1, 2) i;
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT pap.grid_counts((SELECT '{4}'::int8[]), '{1,2}'::float8[], 1.0::float8) FROM generate_series(1, 2) i;
\echo SQLSTATE :LAST_ERROR_SQLSTATE
-- as a window function: refused with a clear error (it reads its constant arguments from its aggregate call)
SELECT pap.grid_counts('{3}', i % 3) OVER () FROM generate_series(1, 4) i;
\echo SQLSTATE :LAST_ERROR_SQLSTATE
DROP TABLE gc_expected;
DROP FUNCTION gc_flat(int8[], int8[]);
DROP FUNCTION gc_bin(float8[], float8);
DROP TABLE gc_rows;
