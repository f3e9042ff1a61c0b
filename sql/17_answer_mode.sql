-- The answer mode (docs/mechanisms.md §10, "The answer mode"): without refine, pap.answer, pap.answer_count and
-- pap.quantile answer in the mode the run's plan predicted better: within-cell refinement for coarse bins of many
-- public rows; at the finest granularity the two predict the same and refinement, which spreads the gaps between
-- public values (28_gap_spread), is kept. refine => true / false still chooses per call.
-- Self-contained: its own tables, budget and releases (seeded noise).
SET pap_release.test_seed = 11;
SET extra_float_digits = 0;
CREATE TABLE am_priv AS SELECT ((i * 7919) % 100000)::float8 AS x FROM generate_series(1, 100000) i;
CREATE TABLE am_pub AS SELECT ((i * 104729) % 100000)::float8 + 0.5 AS x FROM generate_series(1, 20000) i;
SELECT pap.set_budget('am_priv', 10);
-- bins of at most alpha/4 = 5% of the 20,000 public rows: 1,000 rows each
SELECT pap.define_release('am_coarse', 'am_priv', 'am_pub', 'thresholds(x)', alpha => 0.2,
                          granularity => 'alpha');
SELECT pap.define_release('am_finest', 'am_priv', 'am_pub', 'thresholds(x)', granularity => 'finest');
SELECT pap.define_release('am_boxes', 'am_priv', 'am_pub', 'boxes(x)', alpha => 0.4,
                          granularity => 'alpha');

SELECT answer_mode FROM pap.plan('am_coarse', 1);
SELECT answer_mode FROM pap.plan('am_finest', 1);
SELECT answer_mode FROM pap.plan('am_boxes', 1);
CALL pap.run_release('am_coarse', 1);
CALL pap.run_release('am_finest', 1);
CALL pap.run_release('am_boxes', 1);
SELECT name, details->>'answer_mode' AS answer_mode FROM pap.releases WHERE name LIKE 'am\_%' ORDER BY name;

-- Without refine (or with NULL) each release answers in its mode; true and false still choose.
CREATE TABLE am_queries AS SELECT 'x <= ' || (i * 997 % 100000) AS q FROM generate_series(1, 50) i;
SELECT count(*) FILTER (WHERE pap.answer('am_coarse', q) = pap.answer('am_coarse', q, true)) AS coarse_refines,
       count(*) FILTER (WHERE pap.answer('am_coarse', q, NULL) = pap.answer('am_coarse', q, true)) AS null_refines,
       count(*) FILTER (WHERE pap.answer('am_coarse', q, false) <> pap.answer('am_coarse', q, true)) AS modes_differ,
       count(*) FILTER (WHERE pap.answer('am_finest', q) = pap.answer('am_finest', q, false)) AS finest_projects,
       count(*) FILTER (WHERE pap.answer_count('am_coarse', q) = pap.answer_count('am_coarse', q, true)) AS count_refines,
       count(*) AS queries
  FROM am_queries;
SELECT count(*) FILTER (WHERE pap.answer('am_boxes', 'x > ' || (i * 211 % 50000) || ' AND x <= ' || (50000 + i * 331 % 50000)) =
                              pap.answer('am_boxes', 'x > ' || (i * 211 % 50000) || ' AND x <= ' || (50000 + i * 331 % 50000), true)) AS boxes_refine
  FROM generate_series(1, 20) i;
-- The refined answers are closer to the private table's on these queries (the prediction says so over the class).
SELECT max(abs(pap.answer('am_coarse', q) - (SELECT count(*) FILTER (WHERE x <= substring(q FROM 6)::float8) / 100000.0 FROM am_priv)))
     < max(abs(pap.answer('am_coarse', q, false) - (SELECT count(*) FILTER (WHERE x <= substring(q FROM 6)::float8) / 100000.0 FROM am_priv)))
       AS refined_closer
  FROM am_queries;
-- quantiles follow the same mode
SELECT pap.quantile('am_coarse', 0.5) = pap.quantile('am_coarse', 0.5, true) AS quantile_refines,
       pap.quantile('am_finest', 0.5) = pap.quantile('am_finest', 0.5, false) AS quantile_projects,
       (SELECT array_agg(value) FROM pap.quantiles('am_coarse', '{0.25, 0.75}')) =
       (SELECT array_agg(value) FROM pap.quantiles('am_coarse', '{0.25, 0.75}', true)) AS quantiles_refine;

-- NULL arguments other than refine give NULL (no rows for pap.quantiles), as the strict functions did.
SELECT pap.answer(NULL, 'x <= 5') IS NULL AS a, pap.answer('am_coarse', NULL) IS NULL AS b,
       pap.answer_count(NULL, 'x <= 5') IS NULL AS c, pap.quantile('am_coarse', NULL) IS NULL AS d,
       pap.quantile(NULL, 0.5) IS NULL AS e, (SELECT count(*) FROM pap.quantiles(NULL, '{0.5}')) AS f,
       (SELECT count(*) FROM pap.quantiles('am_coarse', NULL)) AS g;

-- A release whose run recorded no mode (run before 0.2) answers by projection.
UPDATE pap.release_data SET details = details - 'answer_mode' WHERE name = 'am_coarse';
SELECT count(*) FILTER (WHERE pap.answer('am_coarse', q) = pap.answer('am_coarse', q, false)) AS projects
  FROM am_queries;

SELECT pap.drop_release(name) FROM pap.releases WHERE name LIKE 'am\_%' ORDER BY name;
DROP TABLE am_priv, am_pub, am_queries;
RESET pap_release.test_seed;
