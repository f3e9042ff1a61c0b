-- Date and timestamp columns: cut points, literals and readable bounds in the column's own type.
SET pap_release.test_seed = 7;
SET extra_float_digits = 0;
SELECT pap.set_budget('pub', 1);   -- any table can be private for a test
SELECT pap.set_budget('priv', 10);
SELECT pap.define_release('d_cdf', 'priv', 'pub', 'thresholds(d)', granularity => 'alpha');
SELECT pap.define_release('ts_ranges', 'priv', 'pub', 'ranges(ts)', granularity => 'alpha');
CALL pap.run_release('d_cdf', 1, prior => 'uniform');
SELECT details->>'prior' AS prior FROM pap.releases WHERE name = 'd_cdf';
CALL pap.run_release('ts_ranges', 1);
SELECT pap.answer('d_cdf', 'd <= ''2020-06-30''') BETWEEN 0 AND 1 AS date_literal,
       pap.answer('d_cdf', 'd <= ''2020-06-30''') <= pap.answer('d_cdf', 'd <= ''2020-12-31''') AS monotone,
       pap.answer('d_cdf', 'd <= ''infinity''') > 0.5 AS infinity;
SELECT query FROM pap.answers('d_cdf') ORDER BY cover_query LIMIT 3;
SELECT bounds FROM pap.synthetic('ts_ranges') ORDER BY cell LIMIT 2;
SELECT round((pap.answer('ts_ranges', 'ts BETWEEN ''2020-01-05'' AND ''2020-01-20''')
        + pap.answer('ts_ranges', 'ts < ''2020-01-05''') + pap.answer('ts_ranges', 'ts > ''2020-01-20'''))::numeric, 3) AS partition;
SELECT pap.answer('d_cdf', 'd <= ''not a date''');
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT pap.answer('d_cdf', 'd <= 5');
\echo SQLSTATE :LAST_ERROR_SQLSTATE
-- the cell function maps NULL, NaN and infinities deliberately (PostgreSQL's float8 order: NaN last)
SELECT pap.cell_index('{1,2,3}', NULL) AS null_cell, pap.cell_index('{1,2,3}', 'NaN') AS nan_cell,
       pap.cell_index('{1,2,3}', '-Infinity') AS minus_infinity_cell, pap.cell_index('{1,2,3}', 2) AS two,
       pap.cell_index('{1,2,3}', 2.5) AS two_and_a_half, pap.cell_index('{1,2,3,NaN}', 'NaN') AS nan_as_cut;
SELECT pap.cell_index(NULL, 1);
\echo SQLSTATE :LAST_ERROR_SQLSTATE
-- a NaN in the public table is its column's highest value: every granularity defines, plans and runs (the error
-- model failed with an internal error on it before: a review)
CREATE TABLE nan_pub AS SELECT CASE WHEN g % 50 = 7 THEN 'NaN'::float8 ELSE g % 50 END AS v FROM generate_series(1, 400) g;
CREATE TABLE nan_priv AS SELECT CASE WHEN g % 60 = 7 THEN 'NaN'::float8 ELSE g % 60 END AS v FROM generate_series(1, 3000) g;
SELECT pap.set_budget('nan_priv', 10);
SELECT pap.define_release('nan_' || g, 'nan_priv', 'nan_pub', 'ranges(v)', granularity => g) FROM unnest('{finest,alpha,auto}'::text[]) g;
SELECT r.name, p.predicted_error BETWEEN 0 AND 1 AS planned FROM pap.releases r, pap.plan(r.name, 1) p
 WHERE r.name LIKE 'nan\_%' ORDER BY 1;
CALL pap.run_release('nan_auto', 1);
SELECT pap.answer('nan_auto', 'v > 3 AND v <= ''NaN''') BETWEEN 0 AND 1 AS answered;
-- a categorical axis bins by the value's text, the public column's at define and the private column's at run: the
-- same type in both tables (text and varchar, or integer types, may mix). numeric(6,2) under int binned every private
-- row into "other" before (1.00 is not 1); ordered axes read numbers and may mix.
CREATE TABLE cat_priv AS SELECT (g % 3)::numeric(6,2) AS x, (g % 3)::bigint AS k, (g % 3)::text AS t FROM generate_series(1, 300) g;
CREATE TABLE cat_pub AS SELECT (g % 3)::int AS x, (g % 3)::int AS k, (g % 3)::varchar AS t FROM generate_series(1, 400) g;
SELECT pap.set_budget('cat_priv', 1);
SELECT pap.define_release('cat_x', 'cat_priv', 'cat_pub', 'marginals(1; x)');
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT pap.define_release('cat_kt', 'cat_priv', 'cat_pub', 'marginals(1; k, t)');
SELECT pap.define_release('cat_x_cdf', 'cat_priv', 'cat_pub', 'thresholds(x)');
SELECT name FROM pap.releases WHERE name LIKE 'cat\_%' ORDER BY 1;
SELECT pap.axis_value(date '2000-01-02') AS one_day_in_microseconds, pap.axis_value('infinity'::date) AS end_of_time;
-- the private scan is one aggregate the planner may parallelise (the cell functions and pap.grid_counts are parallel safe)
SELECT proname, provolatile, proparallel FROM pg_proc
 WHERE pronamespace = 'pap'::regnamespace ORDER BY proname, provolatile;
