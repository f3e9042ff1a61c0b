-- The marginal_tables mechanism: forced by name and chosen by auto on a marginals release, its accounting in the
-- ledger, its answers against the exact marginals and the public sample's, a shifted public sample, the variant
-- without the prior where the public sample is too small to weigh, and the releases it does not apply to (refused
-- before the charge). Self-contained: its own tables, budget and releases
-- (seeded noise).
SET pap_release.test_seed = 11;
SET extra_float_digits = 0;
-- Six dependent categorical columns (each depends on the one before); the public sample is a pseudo-random sample
-- (by a hash of the row number) of one in ten of the rows with b <> 'y' but one in sixty of the others (a shifted
-- sample: b = 'y' is a third of the private rows, a twelfth of the public ones).
CREATE TABLE mt_priv AS
SELECT i AS id, (ARRAY['p', 'q', 'r'])[1 + i % 3] AS a,
       (ARRAY['x', 'y', 'z'])[1 + (i / 3 + i % 3) % 3] AS b,
       (ARRAY['u', 'v', 'w'])[1 + (i / 9 + (i / 3 + i % 3) % 3) % 3] AS c,
       (ARRAY['k', 'l', 'm'])[1 + (i / 27 + i / 9) % 3] AS d,
       (ARRAY['e', 'f'])[1 + (i / 81 + i / 27) % 2] AS e,
       (ARRAY['g', 'h'])[1 + (i / 162 + i % 2) % 2] AS f
  FROM generate_series(1, 30000) i;
CREATE TABLE mt_pub AS
SELECT a, b, c, d, e, f FROM (SELECT *, abs(hashint4(id)) AS h FROM mt_priv) s
 WHERE (b <> 'y' AND h % 10 = 0) OR (b = 'y' AND h % 60 = 0);
SELECT pap.set_budget('mt_priv', 10, 0.01);
SELECT pap.define_release('mt_forced', 'mt_priv', 'mt_pub', 'marginals(2; a, b, c, d, e, f)');
SELECT pap.define_release('mt_auto', 'mt_priv', 'mt_pub', 'marginals(2; a, b, c, d, e, f)');

-- the plan: marginal_tables applies with its fifteen 2-way tables, and auto takes it (the smallest prediction)
SELECT chosen_mechanism, predictions->'marginal_tables'->>'tables' AS tables,
       (predictions->'marginal_tables'->>'applies')::bool IS NOT FALSE AS applies,
       (predictions->'marginal_tables'->>'predicted_error')::float8 = predicted_error AS auto_takes_it
  FROM pap.plan('mt_auto', 1.0);
SELECT chosen_mechanism FROM pap.plan('mt_forced', 1.0, mechanism => 'marginal_tables');

CALL pap.run_release('mt_forced', 1.0, mechanism => 'marginal_tables');
CALL pap.run_release('mt_auto', 1.0);
SELECT name, mechanism, details->>'requested' AS requested FROM pap.releases WHERE name LIKE 'mt\_%' ORDER BY name;
SELECT release_name, mechanism, epsilon <= 1 AS within_epsilon, delta FROM pap.ledger
 WHERE release_name LIKE 'mt\_%' ORDER BY release_name;

-- every 2-way cell: the release against the exact private fractions and the public sample's own
CREATE TABLE mt_cells AS
WITH v(col, val) AS (
	SELECT DISTINCT 'a', a FROM mt_priv UNION ALL SELECT DISTINCT 'b', b FROM mt_priv
	UNION ALL SELECT DISTINCT 'c', c FROM mt_priv UNION ALL SELECT DISTINCT 'd', d FROM mt_priv
	UNION ALL SELECT DISTINCT 'e', e FROM mt_priv UNION ALL SELECT DISTINCT 'f', f FROM mt_priv)
SELECT format('%s = %L AND %s = %L', x.col, x.val, y.col, y.val) AS q,
       format('%I = %L AND %I = %L', x.col, x.val, y.col, y.val) AS cond
  FROM v x JOIN v y ON x.col < y.col;
-- Plain SQL on the test's own tables, no pap function: its queries stay out of the parallel-mode run's workers (one
-- worker started per query made the suite 40 times slower there and tested nothing of pap's).
CREATE FUNCTION mt_fraction(tbl text, cond text) RETURNS float8 LANGUAGE plpgsql SET force_parallel_mode = off AS $$
DECLARE f float8;
BEGIN
	EXECUTE format('SELECT avg((%s)::int) FROM %I', cond, tbl) INTO f;
	RETURN f;
END $$;
CREATE TABLE mt_errors AS
SELECT q, mt_fraction('mt_priv', cond) AS truth, mt_fraction('mt_pub', cond) AS public,
       pap.answer('mt_forced', q) AS forced, pap.answer('mt_auto', q) AS auto
  FROM mt_cells;
SELECT count(*) AS cells, round(max(abs(public - truth))::numeric, 3) AS public_error,
       round(max(abs(forced - truth))::numeric, 3) AS forced_error, round(max(abs(auto - truth))::numeric, 3) AS auto_error,
       max(abs(forced - truth)) < max(abs(public - truth)) / 3 AS corrects_the_shift
  FROM mt_errors;
SELECT round(sum(weight)::numeric, 12) AS total, bool_and(weight >= 0) AS non_negative FROM pap.synthetic('mt_forced');

-- delta > 0: zCDP accounting (the discrete Gaussian where its variance is the smaller), charged within delta
SELECT pap.define_release('mt_zcdp', 'mt_priv', 'mt_pub', 'marginals(3; a, b, c, d, e, f)');
CALL pap.run_release('mt_zcdp', 1.0, 1e-3, mechanism => 'marginal_tables');
SELECT mechanism, epsilon, delta > 0 AND delta <= 1e-3 AS within_delta FROM pap.ledger WHERE release_name = 'mt_zcdp';

-- A sparse 3-way class on its full grid: four skewed columns of five values, and a public sample of about one row
-- in a hundred (by a hash of the row number), so that many 3-way tuples have private rows but no public one.
-- marginal_tables measures every table, so the release answers a query from its own cells (the answer mode refine,
-- with no projection part); by projection, the tuples the public sample never shows share the cover's empty
-- pattern. Exact fractions against both modes, and the bounds of the refined answers (docs/mechanisms.md §18).
CREATE TABLE mt_sparse AS
SELECT i AS id, (ARRAY[0, 0, 0, 0, 0, 0, 1, 1, 1, 2, 2, 3, 4])[1 + (hashint4(4 * i)::int8 % 13 + 13) % 13] AS a,
       (ARRAY[0, 0, 0, 0, 0, 0, 1, 1, 1, 2, 2, 3, 4])[1 + (hashint4(4 * i + 1)::int8 % 13 + 13) % 13] AS b,
       (ARRAY[0, 0, 0, 0, 0, 0, 1, 1, 1, 2, 2, 3, 4])[1 + (hashint4(4 * i + 2)::int8 % 13 + 13) % 13] AS c,
       (ARRAY[0, 0, 0, 0, 0, 0, 1, 1, 1, 2, 2, 3, 4])[1 + (hashint4(4 * i + 3)::int8 % 13 + 13) % 13] AS d
  FROM generate_series(1, 20000) i;
CREATE TABLE mt_sparse_pub AS SELECT a, b, c, d FROM mt_sparse WHERE (hashint4(-id)::int8 % 100 + 100) % 100 = 0;
SELECT pap.set_budget('mt_sparse', 10);
SELECT pap.define_release('mt_sparse3', 'mt_sparse', 'mt_sparse_pub', 'marginals(3; a, b, c, d)');
SELECT domain FROM pap.releases WHERE name = 'mt_sparse3';
CALL pap.run_release('mt_sparse3', 2.0, mechanism => 'marginal_tables');
SELECT details->>'answer_mode' AS answer_mode,
       (details->'predictions'->'marginal_tables'->>'projection_error')::float8 AS projection_error
  FROM pap.releases WHERE name = 'mt_sparse3';
CREATE TABLE mt_cells3 AS
WITH v(col, val) AS (
	SELECT DISTINCT 'a', a FROM mt_sparse UNION ALL SELECT DISTINCT 'b', b FROM mt_sparse
	UNION ALL SELECT DISTINCT 'c', c FROM mt_sparse UNION ALL SELECT DISTINCT 'd', d FROM mt_sparse)
SELECT format('%s = %s AND %s = %s AND %s = %s', x.col, x.val, y.col, y.val, z.col, z.val) AS q
  FROM v x JOIN v y ON x.col < y.col JOIN v z ON y.col < z.col;
SET client_min_messages = error;  -- by projection, each publicly unseen tuple warns (23_answer_bounds)
CREATE TABLE mt_errors3 AS
SELECT q, mt_fraction('mt_sparse', q) AS truth, mt_fraction('mt_sparse_pub', q) AS public,
       pap.answer('mt_sparse3', q) AS by_default, pap.answer('mt_sparse3', q, refine => true) AS refined,
       pap.answer('mt_sparse3', q, refine => false) AS projected, b.lower, b.upper
  FROM mt_cells3, pap.answer_bounded('mt_sparse3', q, refine => true) b;
RESET client_min_messages;
SELECT count(*) AS queries, count(*) FILTER (WHERE public = 0 AND truth > 0) AS publicly_unseen,
       round(max(abs(refined - truth))::numeric, 4) AS refined_error,
       round(max(abs(projected - truth))::numeric, 4) AS projected_error,
       max(abs(refined - truth)) < max(abs(projected - truth)) AS refine_is_better,
       bool_and(by_default = refined) AS default_is_refine, bool_and(truth BETWEEN lower AND upper) AS bounds_hold
  FROM mt_errors3;

-- the variant without the prior (docs/mechanisms.md §13): for the 2-way tables of a, b and c, with the public sample
-- of about 2,200 rows the plan weighs the prior (a prior part above 0); with one of 33 rows, whose sampling error is
-- far above the noise, it measures the 2-way tables alone at the whole budget, whose answers do not read the public
-- sample (no prior part)
CREATE TABLE mt_tiny_pub AS
SELECT a, b, c, d, e, f FROM (SELECT *, abs(hashint4(id)) AS h FROM mt_priv) s WHERE h % 857 = 0;
SELECT count(*) AS public_rows FROM mt_tiny_pub;
SELECT pap.define_release('mt_abc', 'mt_priv', 'mt_pub', 'marginals(2; a, b, c)');
SELECT pap.define_release('mt_tiny', 'mt_priv', 'mt_tiny_pub', 'marginals(2; a, b, c)');
SELECT r.name, (p.predictions->'marginal_tables'->>'prior_error')::float8 > 0 AS weighs_prior
  FROM (VALUES ('mt_abc'), ('mt_tiny')) r(name), LATERAL pap.plan(r.name, 1.0) p ORDER BY r.name;

-- not a marginal class: refused by name before the charge, and not applicable in the plan
CREATE TABLE mt_num AS SELECT i % 50 AS v FROM generate_series(1, 1000) i;
CREATE TABLE mt_num_pub AS SELECT i % 50 AS v FROM generate_series(1, 100) i;
SELECT pap.set_budget('mt_num', 10);
SELECT pap.define_release('mt_cdf', 'mt_num', 'mt_num_pub', 'thresholds(v)');
SELECT predictions->'marginal_tables' AS marginal_tables FROM pap.plan('mt_cdf', 1.0);
CALL pap.run_release('mt_cdf', 1.0, mechanism => 'marginal_tables');
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT epsilon_spent FROM pap.budgets WHERE private_table = 'mt_num'::regclass;
-- a public-support domain (the full grid above pap_release.max_cells): refused, auto takes another
SET pap_release.max_cells = 5000;
SELECT pap.define_release('mt_support', 'mt_priv', 'mt_pub', 'marginals(2; a, b, c, d, e, f)');
RESET pap_release.max_cells;
SELECT domain FROM pap.releases WHERE name = 'mt_support';
SELECT * FROM pap.plan('mt_support', 1.0, mechanism => 'marginal_tables');
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT chosen_mechanism <> 'marginal_tables' AS other FROM pap.plan('mt_support', 1.0);

SELECT pap.drop_release(name) FROM pap.releases WHERE name LIKE 'mt\_%' ORDER BY name;
DROP TABLE mt_priv, mt_pub, mt_tiny_pub, mt_cells, mt_errors, mt_sparse, mt_sparse_pub, mt_cells3, mt_errors3, mt_num, mt_num_pub;
DROP FUNCTION mt_fraction(text, text);
RESET pap_release.test_seed;
RESET extra_float_digits;
