-- The value of the public table (docs/experiments.md, "Releases without a public table"): thresholds(price) with
-- the public table (auto) and over a declared domain without it (auto), at epsilon 0.5, 1 and 2, :runs runs each
-- with secure noise. The error is the largest |released - true| share over the thresholds price <= v for v on a
-- common grid (0 to 20000 by 10), the same for both. The declared domain is 0 to 20000 dollars by 10 (and by 1),
-- a range a curator states without looking at the rows.
\pset footer off
SET client_min_messages = warning;
CREATE TABLE diamonds_split AS
SELECT id, row_number() OVER (ORDER BY md5('pap diamonds ' || id), id) <= (SELECT count(*) / 10 FROM diamonds) AS pub
  FROM diamonds;
CREATE TABLE diamonds_public AS SELECT d.* FROM diamonds d JOIN diamonds_split s USING (id) WHERE s.pub;
CREATE TABLE diamonds_private AS SELECT d.* FROM diamonds d JOIN diamonds_split s USING (id) WHERE NOT s.pub;
ANALYZE;
SELECT pap.set_budget('diamonds_private', 1000) \gset
CREATE TABLE grid AS SELECT v::float8 AS v FROM generate_series(0, 20000, 10) v;
CREATE TABLE truth AS
SELECT g.v, (SELECT count(*) FROM diamonds_private p WHERE p.price <= g.v)::float8
            / (SELECT count(*) FROM diamonds_private) AS share
  FROM grid g;

CREATE TABLE result (setting text, epsilon float8, run int, mechanism text, predicted float8,
                     private_only_predicted float8, measured float8);
CREATE PROCEDURE measure(setting text, eps float8, run int, define text) LANGUAGE plpgsql AS $$
DECLARE
	name text := format('%s_%s_%s', setting, replace(eps::text, '.', '_'), run);
	p record;
BEGIN
	EXECUTE format(define, name);
	SELECT * INTO p FROM pap.plan(name, eps);
	COMMIT;
	CALL pap.run_release(name, eps);
	INSERT INTO result
	SELECT setting, eps, run, p.chosen_mechanism, p.predicted_error, p.private_only_error,
	       max(abs(pap.answer(name, format('price <= %s', t.v)) - t.share))
	  FROM truth t;
	COMMIT;
END $$;

SELECT format($c$CALL measure('assisted', %s, %s, %L)$c$, e, r,
              $d$SELECT pap.define_release(%L, 'diamonds_private', 'diamonds_public', 'thresholds(price)')$d$)
  FROM unnest(ARRAY[0.5, 1, 2]) e, generate_series(1, :runs) r \gexec
SELECT format($c$CALL measure('declared_step10', %s, %s, %L)$c$, e, r,
              $d$SELECT pap.define_private_release(%L, 'diamonds_private', 'thresholds(price)', '{"price": {"min": 0, "max": 20000, "step": 10}}')$d$)
  FROM unnest(ARRAY[0.5, 1, 2]) e, generate_series(1, :runs) r \gexec
SELECT format($c$CALL measure('declared_step1', %s, %s, %L)$c$, e, r,
              $d$SELECT pap.define_private_release(%L, 'diamonds_private', 'thresholds(price)', '{"price": {"min": 0, "max": 20000, "step": 1}}')$d$)
  FROM unnest(ARRAY[0.5, 1, 2]) e, generate_series(1, :runs) r \gexec

SELECT setting, epsilon, string_agg(DISTINCT mechanism, ',') AS mechanism, count(*) AS runs,
       round(avg(predicted)::numeric, 5) AS predicted, round(avg(private_only_predicted)::numeric, 5) AS private_only_predicted,
       round(avg(measured)::numeric, 5) AS measured_mean, round(max(measured)::numeric, 5) AS measured_max
  FROM result GROUP BY setting, epsilon ORDER BY epsilon, setting;
\copy (SELECT setting, epsilon, avg(measured) AS measured, avg(predicted) AS predicted FROM result GROUP BY 1, 2 ORDER BY 1, 2) TO 'build/private_only.csv' WITH (FORMAT csv, HEADER true)
