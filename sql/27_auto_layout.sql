-- Granularity auto, the default of pap.define_release (docs/mechanisms.md §20): the definition plans alpha's cuts,
-- halves of their bin mass down to a cut at every public value, each on its full grid and on its public support,
-- at n = count(*) and epsilon pap_release.layout_epsilon, and keeps the finest granularity within 1.1 times the smallest
-- predicted error (a near tie: the projection part hardly falls with finer cuts where bins hold few public rows).
-- Self-contained: its own tables, budget and releases (seeded noise).
SET pap_release.test_seed = 29;
SET extra_float_digits = 0;
-- A skewed population (rounded to 0.1, many ties), 50,000 private rows and a public sample of 5,000: at epsilon 1
-- the noise of finer cells is small beside alpha's projection, so auto cuts finer than alpha and keeps the full
-- grid, whose prediction beats the public support's.
SELECT setseed(0.29);
CREATE TABLE al_pop AS
SELECT i, round(exp(3 + 1.5 * (random() + random() + random() - 1.5))::numeric, 1)::float8 AS x
  FROM generate_series(1, 60000) i;
CREATE TABLE al_skew_priv AS SELECT x FROM al_pop WHERE i % 6 <> 0;
CREATE TABLE al_skew_pub AS SELECT x FROM al_pop WHERE i % 12 = 0;
SELECT pap.set_budget('al_skew_priv', 10);
SELECT pap.define_release('al_auto', 'al_skew_priv', 'al_skew_pub', 'thresholds(x)');
SELECT pap.define_release('al_alpha', 'al_skew_priv', 'al_skew_pub', 'thresholds(x)', granularity => 'alpha');
SELECT pap.define_release('al_finest', 'al_skew_priv', 'al_skew_pub', 'thresholds(x)', granularity => 'finest');
SELECT pap.define_release('al_explicit', 'al_skew_priv', 'al_skew_pub', 'thresholds(x)', granularity => 'auto');
SELECT name, domain, cell_count, granularity, domain_reason FROM pap.releases WHERE name LIKE 'al\_%' ORDER BY name;
-- granularity => 'auto' is the default
SELECT (SELECT cuts FROM pap.release_data WHERE name = 'al_auto') =
       (SELECT cuts FROM pap.release_data WHERE name = 'al_explicit') AS same_cuts;
-- pap.plan of the stored layout predicts what the definition recorded
SELECT name, chosen_mechanism, round(predicted_error::numeric, 5) AS predicted
  FROM (VALUES ('al_auto'), ('al_alpha'), ('al_finest')) AS r(name), pap.plan(name, 1) ORDER BY name;
CALL pap.run_release('al_auto', 1);
CALL pap.run_release('al_alpha', 1);
CALL pap.run_release('al_finest', 1);
-- Measured against the exact private counts at 364 public thresholds: auto's max error is below alpha's, and
-- the finest's equals it (auto chose the finest's 804 cells, with hierarchical's exact prefix variance).
CREATE TEMP TABLE al_truth AS
SELECT t, (SELECT count(*) FROM al_skew_priv WHERE x <= t)::float8 / (SELECT count(*) FROM al_skew_priv) AS truth
  FROM (SELECT DISTINCT x AS t FROM al_pop WHERE i % 97 = 0) q;
SELECT count(*) AS thresholds,
       round(max(abs(pap.answer('al_auto', 'x <= ' || t) - truth))::numeric, 4) AS auto_max_error,
       round(max(abs(pap.answer('al_alpha', 'x <= ' || t) - truth))::numeric, 4) AS alpha_max_error,
       round(max(abs(pap.answer('al_finest', 'x <= ' || t) - truth))::numeric, 4) AS finest_max_error
  FROM al_truth;

-- Uniform tables for the cases below.
CREATE TABLE al_priv AS
SELECT ((i * 7919) % 100000)::float8 AS x, (i % 7) AS g, (i % 13)::text AS c FROM generate_series(1, 100000) i;
CREATE TABLE al_pub AS
SELECT ((i * 104729) % 100000)::float8 + 0.5 AS x, (i % 7) AS g, (i % 13)::text AS c FROM generate_series(1, 20000) i;

-- Few private rows: identity's noise grows with the cells and PMW's public prior is far off, so cuts coarser than
-- alpha's win (bins of twice its public mass).
CREATE TABLE al_few AS SELECT x FROM al_priv WHERE x < 2000;
CREATE TABLE al_few_pub AS SELECT (i % 1000)::float8 AS x FROM generate_series(1, 20000) i;
SELECT count(*) AS private_rows FROM al_few;
SELECT pap.define_release('al_few', 'al_few', 'al_few_pub', 'thresholds(x)');
SELECT split_part(granularity, ';', 1) AS chosen, cell_count FROM pap.releases WHERE name = 'al_few';
-- The same public table with ten times the epsilon: finer cuts.
SET pap_release.layout_epsilon = 10;
SELECT pap.define_release('al_few_e10', 'al_few', 'al_few_pub', 'thresholds(x)');
RESET pap_release.layout_epsilon;
SELECT split_part(granularity, ';', 1) AS chosen, granularity ~ 'at epsilon 10[ ,]' AS at_epsilon_10,
       cell_count > (SELECT cell_count FROM pap.releases WHERE name = 'al_few') AS finer
  FROM pap.releases WHERE name = 'al_few_e10';

-- The domain: a marginals grid over the limit whose counts no fold threshold separates (every category of g and c
-- holds about as many public rows) keeps the public support, and says why.
SET pap_release.max_cells = 100;
SELECT pap.define_release('al_marg', 'al_priv', 'al_pub', 'marginals(2; g, c)');
RESET pap_release.max_cells;
SELECT pap.define_release('al_marg_full', 'al_priv', 'al_pub', 'marginals(2; g, c)');
SELECT name, domain, cell_count, granularity, domain_reason FROM pap.releases WHERE name LIKE 'al\_marg%' ORDER BY name;
-- Folded categories: the full grid (9 x 154 cells) and the public support (about 1,060 points) both exceed the
-- limit; the 120 rare categories of c (about 33 public rows each, the 32 others 500) fold into its "other" bin, so
-- the full grid fits and every private row lands in a cell a query reads.
CREATE TABLE al_fold_priv AS
SELECT (i % 7) AS g, CASE WHEN i % 5 > 0 THEN 'k' || (i % 40) ELSE 'r' || (i / 5 % 120) END AS c
  FROM generate_series(1, 100000) i;
CREATE TABLE al_fold_pub AS
SELECT (i % 7) AS g, CASE WHEN i % 5 > 0 THEN 'k' || (i % 40) ELSE 'r' || (i / 5 % 120) END AS c
  FROM generate_series(7, 20006) i;
SET pap_release.max_cells = 400;
SELECT pap.define_release('al_fold', 'al_fold_priv', 'al_fold_pub', 'marginals(2; g, c)');
RESET pap_release.max_cells;
SELECT domain, cell_count, granularity, domain_reason FROM pap.releases WHERE name = 'al_fold';
SELECT pap.set_budget('al_fold_priv', 10);
CALL pap.run_release('al_fold', 1.0);
-- The plan prices the folded categories: a query naming one is answered from its own cells with half the "other"
-- bin's weight, capped at what one value of the bin can hold, so the part is below half the rare values' 20%.
SELECT chosen_mechanism, projection_error > 0 AND projection_error < 0.05 AS priced_capped
  FROM pap.plan('al_fold', 1.0);
-- A kept category is answered as before; a folded one warns, is answered with half the bin (g = 1: about 2.9%)
-- capped (about 0.8%), and its bound holds.
SELECT abs(pap.answer('al_fold', $$g = 1 AND c = 'k3'$$)
           - (SELECT count(*) FILTER (WHERE g = 1 AND c = 'k3') / count(*)::float8 FROM al_fold_priv)) < 0.01 AS close;
SELECT estimate < 0.0286 / 2 AS capped, lower = 0 AS from_zero,
       (SELECT count(*) FILTER (WHERE g = 1 AND c = 'r17') / count(*)::float8 FROM al_fold_priv)
         BETWEEN lower AND upper AS covered
  FROM pap.answer_bounded('al_fold', $$g = 1 AND c = 'r17'$$);
SELECT round(pap.answer('al_fold', $$g = 1 AND c = 'r17'$$)::numeric, 3) AS folded_answer;
-- Nothing fits (the coarsest grid has 4 cells, its support 3): the coarsest candidate's error.
SET pap_release.max_cells = 2;
SELECT pap.define_release('al_none', 'al_priv', 'al_pub', 'thresholds(x)');
\echo SQLSTATE :LAST_ERROR_SQLSTATE
RESET pap_release.max_cells;

-- Extremes: one public row, one public value, an empty private table.
CREATE TABLE al_one_pub AS SELECT 5.0::float8 AS x;
CREATE TABLE al_same_pub AS SELECT 7.0::float8 AS x FROM generate_series(1, 1000);
CREATE TABLE al_empty (x float8);
SELECT pap.define_release('al_one', 'al_priv', 'al_one_pub', 'ranges(x)');
SELECT pap.define_release('al_same', 'al_priv', 'al_same_pub', 'ranges(x)');
SELECT pap.define_release('al_empty', 'al_empty', 'al_pub', 'thresholds(x)', alpha => 0.2);
SELECT name, cell_count, granularity FROM pap.releases WHERE name IN ('al_one', 'al_same', 'al_empty') ORDER BY name;

-- A NOT NULL private column: the definition plans its candidates with the column's NULL bin closed, as pap.plan of
-- the stored layout then does (docs/mechanisms.md §9), so the prediction it states is pap.plan's (to its 3 digits);
-- on a copy without the constraint, pap.plan predicts more.
CREATE TABLE al_box_pop AS
SELECT i, x, round((x + 10 * (random() - 0.5))::numeric, 1)::float8 AS y FROM al_pop;
CREATE TABLE al_nn_priv (x float8 NOT NULL, y float8 NOT NULL);
INSERT INTO al_nn_priv SELECT x, y FROM al_box_pop WHERE i % 6 <> 0;
CREATE TABLE al_nn_pub AS SELECT x, y FROM al_box_pop WHERE i % 12 = 0;
CREATE TABLE al_null_priv AS SELECT x, y FROM al_nn_priv;
SELECT pap.set_budget('al_nn_priv', 1), pap.set_budget('al_null_priv', 1);
SELECT pap.define_release('al_nn', 'al_nn_priv', 'al_nn_pub', 'boxes(x, y)'),
       pap.define_release('al_null', 'al_null_priv', 'al_nn_pub', 'boxes(x, y)');
SELECT r.name, (regexp_match(r.domain_reason, 'predicts ([0-9.e+-]+)'))[1]::float8
                 = round(p.predicted_error::numeric, 2 - floor(log(p.predicted_error))::int)::float8
         AS states_what_plan_predicts
  FROM pap.releases r, pap.plan(r.name, 1) p WHERE r.name IN ('al_nn', 'al_null') ORDER BY r.name;
SELECT nn.predicted_error < nb.predicted_error AS not_null_predicts_less
  FROM pap.plan('al_nn', 1) nn, pap.plan('al_null', 1) nb;

-- The setting's range is the plans' epsilon range.
SET pap_release.layout_epsilon = 0;
SET pap_release.layout_epsilon = 'NaN';
SET pap_release.layout_epsilon = 1e-9;
RESET pap_release.layout_epsilon;
SELECT pap.define_release('al_bad', 'al_priv', 'al_pub', 'thresholds(x)', granularity => 'Auto');
\echo SQLSTATE :LAST_ERROR_SQLSTATE

SELECT pap.drop_release(name) FROM pap.releases WHERE name LIKE 'al\_%' ORDER BY name;
DROP TABLE al_pop, al_skew_priv, al_skew_pub, al_priv, al_pub, al_fold_priv, al_fold_pub, al_few, al_few_pub, al_one_pub, al_same_pub, al_empty;
DROP TABLE al_box_pop, al_nn_priv, al_nn_pub, al_null_priv;
