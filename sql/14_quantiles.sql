-- pap.quantile and pap.quantiles: free post-processing of a thresholds or ranges release. Self-contained: its
-- own tables, budget and releases (seeded noise).
SET pap_release.test_seed = 7;
SET extra_float_digits = 0;
CREATE TABLE q_priv AS
SELECT (i % 200)::float8 AS v, DATE '2020-01-01' + (i % 300) AS d, CASE WHEN i % 10 = 0 THEN 'a' ELSE 'b' END AS c
  FROM generate_series(1, 4000) i;
INSERT INTO q_priv VALUES (NULL, NULL, NULL), (NULL, NULL, NULL);
CREATE TABLE q_pub AS SELECT * FROM q_priv WHERE (v::int % 7) = 0 OR v IS NULL;
SELECT pap.set_budget('q_priv', 10);
SELECT pap.define_release('q_cdf', 'q_priv', 'q_pub', 'thresholds(v)', alpha => 0.2, granularity => 'alpha');
SELECT pap.define_release('q_rng', 'q_priv', 'q_pub', 'ranges(v)', granularity => 'finest');
SELECT pap.define_release('q_date', 'q_priv', 'q_pub', 'thresholds(d)', granularity => 'alpha');
SELECT pap.define_release('q_marg', 'q_priv', 'q_pub', 'marginals(1; c)');

-- before the run
SELECT pap.quantile('q_cdf', 0.5);
\echo SQLSTATE :LAST_ERROR_SQLSTATE
CALL pap.run_release('q_cdf', 1.0, mechanism => 'identity');
CALL pap.run_release('q_rng', 1.0);
CALL pap.run_release('q_date', 1.0, mechanism => 'identity');
CALL pap.run_release('q_marg', 1.0);

-- The definition, checked with pap.answer and pap.synthetic: the smallest cut point t whose answer reaches q times
-- the released weight of the non-NULL cells (Infinity when none does).
CREATE FUNCTION q_expected(release text, q float8, col text) RETURNS float8 LANGUAGE sql AS $$
	WITH mass AS (SELECT sum(weight) AS m FROM pap.synthetic(release) WHERE bounds <> col || ' IS NULL'),
	     cuts AS (SELECT DISTINCT (columns -> col ->> 'upper')::float8 AS t FROM pap.synthetic(release)
	               WHERE columns -> col ->> 'upper' IS NOT NULL
	              UNION SELECT t FROM pap.answers(release), LATERAL (SELECT substring(query FROM '<= (.*)$')::float8 AS t) s
	               WHERE query ~ '^[a-z]+ <= [0-9.e+-]+$')
	SELECT coalesce(min(t), 'Infinity') FROM cuts, mass
	 WHERE pap.answer(release, col || ' <= ' || t) >= q * m - 1e-9 * m $$;
SELECT q, pap.quantile('q_cdf', q) = q_expected('q_cdf', q, 'v') AS thresholds_ok,
       pap.quantile('q_rng', q) = q_expected('q_rng', q, 'v') AS ranges_ok
  FROM unnest('{0, 0.1, 0.25, 0.5, 0.9, 1}'::float8[]) q;
-- the median lands near the private one (199/2); refine searches every public value
SELECT abs(pap.quantile('q_rng', 0.5) - 100) <= 10 AS median_close,
       pap.quantile('q_cdf', 0.5, refine => true) <= pap.quantile('q_cdf', 0.5) AS refined_not_above;
SELECT * FROM pap.quantiles('q_rng', '{0.5, 0.1, 0.9}');
-- Private values above the public maximum (196) weigh in the bin above the highest cut: the q = 1 quantile of the
-- refined answers lies beyond every cut (Infinity), while the projection's cover query up to the highest cut takes
-- that bin (the highest cut).
SELECT pap.quantile('q_rng', 1, refine => false) AS projected, pap.quantile('q_rng', 1, refine => true) AS refined;
-- dates as Unix epoch seconds
SELECT to_timestamp(pap.quantile('q_date', 0.5)) AT TIME ZONE 'UTC' BETWEEN '2020-04-01' AND '2020-07-01' AS date_median;
-- errors
SELECT pap.quantile('q_cdf', 1.5);
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT pap.quantile('q_cdf', 'NaN');
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT pap.quantile('q_marg', 0.5);
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT pap.quantile('nope', 0.5);
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT pap.quantile('q_cdf', NULL) IS NULL AS strict;
-- free: no charge beyond the four runs
SELECT count(*) AS charges FROM pap.ledger WHERE private_table = 'q_priv'::regclass;

SELECT pap.drop_release(name) FROM pap.releases WHERE name LIKE 'q\_%' ORDER BY name;
DROP FUNCTION q_expected(text, float8, text);
DROP TABLE q_priv, q_pub;
