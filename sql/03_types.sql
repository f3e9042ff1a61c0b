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
SELECT pap.axis_value(date '2000-01-02') AS one_day_in_microseconds, pap.axis_value('infinity'::date) AS end_of_time;
-- the private scan is one aggregate the planner may parallelise (the cell functions and pap.grid_counts are parallel safe)
SELECT proname, provolatile, proparallel FROM pg_proc
 WHERE pronamespace = 'pap'::regnamespace ORDER BY proname, provolatile;
