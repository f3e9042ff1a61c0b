-- Releases without a public table, over a declared domain (pap.define_private_release), pap.plan's comparison
-- with the public-assisted release and the guard rails of the lower bounds. Self-contained: its own tables,
-- budget and releases (seeded noise).
SET pap_release.test_seed = 11;
SET extra_float_digits = 0;
CREATE TABLE pr_priv AS
SELECT (i % 50)::float8 AS v, CASE WHEN i % 3 = 0 THEN 'a' WHEN i % 3 = 1 THEN 'b' ELSE 'c' END AS c,
       (i % 2 = 0) AS flag, DATE '2020-01-01' + (i % 30) AS d
  FROM generate_series(1, 3000) i;
CREATE TABLE pr_pub AS SELECT * FROM pr_priv WHERE v::int % 5 = 0 LIMIT 400;
SELECT pap.set_budget('pr_priv', 20);

-- Thresholds over a declared grid: the cuts are the declared values, the domain the full grid, no public table.
SELECT pap.define_private_release('pr_cdf', 'pr_priv', 'thresholds(v)',
                                  '{"v": {"min": 0, "max": 49, "step": 1}}', alpha => 0.1);
SELECT name, public_table, public_table_name, public_rows, cell_count, domain, granularity, declared_domain
  FROM pap.releases WHERE name = 'pr_cdf';
-- pap.plan: only the mechanisms that need no prior from a public sample compete on equal terms; the projection
-- part is 0 (the cover is exact at the declared resolution) and private_only_error is the prediction itself.
SELECT chosen_mechanism, public_rows, projection_error, outside_mass_error,
       private_only_error = noise_error AS private_only_is_noise
  FROM pap.plan('pr_cdf', 1.0);
CALL pap.run_release('pr_cdf', 1.0, mechanism => 'hierarchical');
-- The answer functions work unchanged.
SELECT round(pap.answer('pr_cdf', 'v <= 24')::numeric, 2) AS half,
       round(pap.answer('pr_cdf', 'v <= 49')::numeric, 2) AS all_rows,
       pap.quantile('pr_cdf', 0.5) BETWEEN 20 AND 29 AS median_near;

-- Ranges, and a histogram of two categorical columns (exact discrete noise, identity).
SELECT pap.define_private_release('pr_rng', 'pr_priv', 'ranges(v)', '{"v": {"min": 0, "max": 49, "step": 1}}');
CALL pap.run_release('pr_rng', 1.0);
SELECT round(pap.answer('pr_rng', 'v >= 10 AND v <= 19')::numeric, 1) AS a_fifth;
SELECT pap.define_private_release('pr_marg', 'pr_priv', 'marginals(2; c, flag)',
                                  '{"c": {"categories": ["a", "b", "c"]}}');
SELECT cell_count, granularity FROM pap.releases WHERE name = 'pr_marg';
CALL pap.run_release('pr_marg', 1.0, mechanism => 'identity');
SELECT round(pap.answer('pr_marg', 'c = ''a'' AND flag = true')::numeric, 2) AS a_and_flag;

-- pap.plan of a public-assisted release shows what the same request would predict without its public table.
SELECT pap.define_release('pr_assisted', 'pr_priv', 'pr_pub', 'thresholds(v)');
SELECT private_only_error >= noise_error AS public_table_helps_noise, private_only_error IS NOT NULL AS shown
  FROM pap.plan('pr_assisted', 1.0, mechanism => 'identity');

-- Refusals: no domain, an unbounded or incomplete declaration, a misspelt column or member, bad numbers, a class
-- whose axes need public rows, a domain too large for pap_release.max_cells, temporal and boolean columns.
SELECT pap.define_private_release('pr_bad', 'pr_priv', 'thresholds(v)', NULL);
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT pap.define_private_release('pr_bad', 'pr_priv', 'thresholds(v)', '{"v": {"min": 0, "step": 1}}');
SELECT pap.define_private_release('pr_bad', 'pr_priv', 'thresholds(v)', '{"v": {"min": 0, "max": "Infinity", "step": 1}}');
SELECT pap.define_private_release('pr_bad', 'pr_priv', 'thresholds(v)', '{"w": {"min": 0, "max": 1, "step": 1}}');
SELECT pap.define_private_release('pr_bad', 'pr_priv', 'thresholds(v)', '{"v": {"min": 0, "max": 1, "setp": 1}}');
SELECT pap.define_private_release('pr_bad', 'pr_priv', 'thresholds(v)', '{"v": {"min": 0, "max": 1, "step": 0}}');
SELECT pap.define_private_release('pr_bad', 'pr_priv', 'thresholds(v)', '{"v": {"min": 2, "max": 1, "step": 1}}');
SELECT pap.define_private_release('pr_bad', 'pr_priv', 'thresholds(v)', '{"v": {"min": -1e300, "max": 1e300, "step": 1}}');
SELECT pap.define_private_release('pr_bad', 'pr_priv', 'thresholds(v)', '[1, 2]');
SELECT pap.define_private_release('pr_bad', 'pr_priv', 'marginals(1; c)', '{"c": {"min": 0, "max": 1, "step": 1}}');
SELECT pap.define_private_release('pr_bad', 'pr_priv', 'marginals(1; c)', '{"c": {"categories": []}}');
SELECT pap.define_private_release('pr_bad', 'pr_priv', 'marginals(1; c)', '{"c": {"categories": ["a", null]}}');
SELECT pap.define_private_release('pr_bad', 'pr_priv', 'marginals(1; flag)', '{"flag": {"categories": [true, false]}}');
SELECT pap.define_private_release('pr_bad', 'pr_priv', 'thresholds(d)', '{"d": {"min": 0, "max": 1, "step": 1}}');
SELECT pap.define_private_release('pr_bad', 'pr_priv', 'halfspaces(v; [1])', '{"v": {"min": 0, "max": 1, "step": 1}}');
SELECT pap.define_private_release('pr_bad', 'pr_priv', 'predicates(''v > 1'')', '{}');
SELECT pap.define_private_release('pr_bad', 'pr_priv', 'thresholds(v)', '{"v": {"min": 0, "max": 1, "step": 1}}', alpha => 0);
SELECT pap.define_private_release(NULL, 'pr_priv', 'thresholds(v)', '{"v": {"min": 0, "max": 1, "step": 1}}');
SET pap_release.max_cells = 51;  -- 50 declared values fit, their 52 cells (one above, one NULL) do not
SELECT pap.define_private_release('pr_bad', 'pr_priv', 'thresholds(v)', '{"v": {"min": 0, "max": 49, "step": 1}}');
SELECT pap.define_private_release('pr_bad', 'pr_priv', 'thresholds(v)', '{"v": {"min": 0, "max": 5000, "step": 1}}');
RESET pap_release.max_cells;
SELECT pap.define_private_release('pr_cdf', 'pr_priv', 'thresholds(v)', '{"v": {"min": 0, "max": 1, "step": 1}}');
SELECT count(*) AS nothing_half_written FROM pap.releases WHERE name = 'pr_bad';
-- Declared categories are read by the column's type under the definer's settings and stored as the scan prints the
-- value: "Jan 3 2001" is the category 2001-01-03 (it binned nothing before, its rows fell into "other"); a text the
-- type cannot read is refused at define (it failed every answer on the column after the charge before).
CREATE TABLE pr_dates AS SELECT date '2001-01-01' + g % 3 AS d FROM generate_series(1, 300) g;
SELECT pap.set_budget('pr_dates', 1000);
SELECT pap.define_private_release('pr_bad', 'pr_dates', 'marginals(1; d)', '{"d": {"categories": ["2001-01-01", "not a date"]}}');
SELECT pap.define_private_release('pr_days', 'pr_dates', 'marginals(1; d)',
                                  '{"d": {"categories": ["2001-01-01", "2001-1-2", "Jan 3 2001"]}}');
SELECT categories FROM pap.release_data WHERE name = 'pr_days';
CALL pap.run_release('pr_days', 1000, mechanism => 'identity');
SELECT round(pap.answer('pr_days', 'd = ''2001-01-03''')::numeric, 2) AS third_day,
       round(pap.answer('pr_days', 'd = ''2001-01-02''')::numeric, 2) AS second_day;

-- Guard rails (warnings, not errors): a public table smaller than its cover needs, a private table smaller than
-- decision stumps need, a private-only request over a domain larger than its rows allow.
CREATE TABLE pr_small_pub AS SELECT * FROM pr_pub LIMIT 40;
SELECT pap.define_release('pr_thin', 'pr_priv', 'pr_small_pub', 'thresholds(v)', alpha => 0.05);
CREATE TABLE pr_stump_priv AS SELECT (i % 2 = 0) AS b1, (i % 3 = 0) AS b2, (i % 5 = 0) AS b3, (i % 7 = 0) AS b4
  FROM generate_series(1, 30) i;
CREATE TABLE pr_stump_pub AS SELECT (i % 2 = 0) AS b1, (i % 3 = 0) AS b2, (i % 5 = 0) AS b3, (i % 7 = 0) AS b4
  FROM generate_series(1, 300) i;
SELECT pap.set_budget('pr_stump_priv', 1);
SELECT pap.define_release('pr_stumps', 'pr_stump_priv', 'pr_stump_pub', 'stumps(b1, b2, b3, b4)', alpha => 0.05);
SELECT chosen_mechanism IS NOT NULL AS planned FROM pap.plan('pr_stumps', 1.0);
SELECT pap.define_private_release('pr_wide', 'pr_stump_priv', 'marginals(1; b1)', '{}');
SELECT pap.define_private_release('pr_wide2', 'pr_priv', 'thresholds(v)', '{"v": {"min": 0, "max": 99999, "step": 1}}', alpha => 0.01);
SELECT chosen_mechanism IS NOT NULL AS planned FROM pap.plan('pr_wide2', 0.1);
-- Enough rows: no warning.
SELECT chosen_mechanism IS NOT NULL AS planned FROM pap.plan('pr_cdf', 1.0);
