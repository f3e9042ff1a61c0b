-- The error model's measured check (docs/experiments.md, "The planner's error model"): pap.plan's predicted max
-- error over the query class (auto, epsilon 1) against the measured max error over a random workload of the
-- class, for :runs runs of each release with secure noise. Coverage: the share of runs whose measured max is at
-- most the prediction; ratio: prediction / measured.
\pset footer off
SET client_min_messages = warning;

-- Reproducible disjoint splits: rows ordered by md5 of their number; the first 10% are public.
CREATE TABLE adult_split AS
SELECT id, row_number() OVER (ORDER BY md5('pap adult ' || id), id) <= (SELECT count(*) / 10 FROM adult) AS pub
  FROM adult;
CREATE TABLE adult_public AS SELECT a.* FROM adult a JOIN adult_split s USING (id) WHERE s.pub;
CREATE TABLE adult_private AS SELECT a.* FROM adult a JOIN adult_split s USING (id) WHERE NOT s.pub;
CREATE TABLE diamonds_split AS
SELECT id, row_number() OVER (ORDER BY md5('pap diamonds ' || id), id) <= (SELECT count(*) / 10 FROM diamonds) AS pub
  FROM diamonds;
CREATE TABLE diamonds_public AS SELECT d.* FROM diamonds d JOIN diamonds_split s USING (id) WHERE s.pub;
CREATE TABLE diamonds_private AS SELECT d.* FROM diamonds d JOIN diamonds_split s USING (id) WHERE NOT s.pub;
CREATE INDEX ON diamonds_private (price);
CREATE INDEX ON diamonds_private (carat, price);
ANALYZE;
SELECT pap.set_budget('adult_private', 1000) \gset
SELECT pap.set_budget('diamonds_private', 1000) \gset
SET pap_release.max_cover_queries = 5000000;

-- The releases: each run defines its own (a release runs once), all with the same public side and plan.
CREATE TABLE spec (release text, private text, public text, class text, options text);
INSERT INTO spec VALUES
  ('thr_alpha', 'diamonds_private', 'diamonds_public', 'thresholds(price)', ''),
  ('thr_finest', 'diamonds_private', 'diamonds_public', 'thresholds(price)', $o$, granularity => 'finest'$o$),
  ('boxes', 'diamonds_private', 'diamonds_public', 'boxes(carat, price)', ', alpha => 0.5'),
  ('marginals', 'adult_private', 'adult_public', 'marginals(2; age, "education-num", "hours-per-week")', '');
\o /dev/null
SELECT format('SELECT pap.define_release(%L, %L, %L, %L%s)', release || '_' || k, private, public, class, options)
  FROM spec, generate_series(1, :runs) k ORDER BY k, release \gexec
\o
\echo 'releases:'
SELECT name, query_class, granularity, domain, cover_size, cell_count FROM pap.releases WHERE name LIKE '%\_1'
 ORDER BY name;

-- The workloads: random queries of each class with their true answers (fractions of the private rows).
SELECT setseed(0.5);
CREATE TABLE workload (release text, query text, truth float8);
-- thresholds: half at a random private value, half at a uniform point of the range (between values)
WITH v AS (SELECT array_agg(price ORDER BY price) p, min(price) lo, max(price) hi FROM diamonds_private),
     t AS (SELECT CASE WHEN i % 2 = 0 THEN v.p[1 + floor(random() * cardinality(v.p))::int]::float8
                       ELSE v.lo + random() * (v.hi - v.lo) END AS t
             FROM generate_series(1, 400) i, v)
INSERT INTO workload
SELECT r, 'price <= ' || t, (SELECT count(*) FROM diamonds_private WHERE price <= t)::float8
                            / (SELECT count(*) FROM diamonds_private)
  FROM t, unnest(ARRAY['thr_alpha', 'thr_finest']) r;
-- boxes: each side open with probability 1/4, else at the value of a random private row
WITH v AS (SELECT array_agg(carat ORDER BY carat) c, array_agg(price ORDER BY price) p FROM diamonds_private),
     b AS (SELECT CASE WHEN random() < 0.25 THEN NULL ELSE v.c[1 + floor(random() * cardinality(v.c))::int] END c1,
                  CASE WHEN random() < 0.25 THEN NULL ELSE v.c[1 + floor(random() * cardinality(v.c))::int] END c2,
                  CASE WHEN random() < 0.25 THEN NULL ELSE v.p[1 + floor(random() * cardinality(v.p))::int] END p1,
                  CASE WHEN random() < 0.25 THEN NULL ELSE v.p[1 + floor(random() * cardinality(v.p))::int] END p2
             FROM generate_series(1, 300) i, v),
     s AS (SELECT least(c1, c2) c_lo, CASE WHEN c1 IS NULL OR c2 IS NULL THEN NULL ELSE greatest(c1, c2) END c_hi,
                  least(p1, p2) p_lo, CASE WHEN p1 IS NULL OR p2 IS NULL THEN NULL ELSE greatest(p1, p2) END p_hi
             FROM b)
INSERT INTO workload
SELECT 'boxes',
       coalesce(nullif(concat_ws(' AND ', 'carat > ' || c_lo, 'carat <= ' || c_hi, 'price > ' || p_lo,
                                 'price <= ' || p_hi), ''), 'carat <= ''Infinity'''),
       (SELECT count(*) FROM diamonds_private d
         WHERE (c_lo IS NULL OR d.carat > c_lo) AND (c_hi IS NULL OR d.carat <= c_hi)
           AND (p_lo IS NULL OR d.price > p_lo) AND (p_hi IS NULL OR d.price <= p_hi))::float8
       / (SELECT count(*) FROM diamonds_private)
  FROM s;
-- marginals: every 2-way cell holding a private or a public row (the rest of the class has true answer 0)
INSERT INTO workload
SELECT 'marginals', format('%I = %s AND %I = %s', c.a, x.va, c.b, x.vb), x.n / (SELECT count(*) FROM adult_private)
  FROM (VALUES ('age', 'education-num'), ('age', 'hours-per-week'), ('education-num', 'hours-per-week')) c(a, b),
       LATERAL (SELECT va, vb, sum(priv)::float8 AS n
                  FROM (SELECT to_jsonb(p) ->> c.a AS va, to_jsonb(p) ->> c.b AS vb, 1 AS priv FROM adult_private p
                        UNION ALL
                        SELECT to_jsonb(q) ->> c.a, to_jsonb(q) ->> c.b, 0 FROM adult_public q) u
                 GROUP BY 1, 2) x;
\echo 'workload queries per release:'
SELECT release, count(*) AS queries FROM workload GROUP BY 1 ORDER BY 1;

CREATE TABLE measured (run int, release text, mechanism text, predicted float8, measured float8,
                       projection float8, outside float8, noise float8, prior float8, public_only float8,
                       public_measured float8);
-- The public sample's own answers, for comparison.
CREATE TABLE public_answers AS
SELECT w.release, max(abs(w.truth - CASE
         WHEN w.release LIKE 'thr%' THEN (SELECT count(*) FROM diamonds_public WHERE price <= substr(w.query, 10)::float8)::float8
                                         / (SELECT count(*) FROM diamonds_public)
         ELSE NULL END)) AS public_measured
  FROM workload w GROUP BY 1;

SELECT format('CALL pap.run_release(%L, 1.0)', r || '_' || k),
       format($q$INSERT INTO measured
                 SELECT %s, %L, p.chosen_mechanism, p.predicted_error,
                        (SELECT max(abs(pap.answer(%L, w.query) - w.truth)) FROM workload w WHERE w.release = %L),
                        p.projection_error, p.outside_mass_error, p.noise_error, p.prior_error, p.public_only_error,
                        (SELECT public_measured FROM public_answers WHERE release = %L)
                   FROM pap.plan(%L, 1.0) p$q$, k, r, r || '_' || k, r, r, r || '_' || k)
  FROM generate_series(1, :runs) k, unnest(ARRAY['thr_alpha', 'thr_finest', 'boxes', 'marginals']) r
 ORDER BY k, r \gexec

\echo 'per release: the prediction and its parts, the measured max error over the workload, coverage and ratio'
SELECT release, min(mechanism) AS mechanism, round(min(predicted)::numeric, 4) AS predicted,
       round(min(projection)::numeric, 4) AS projection, round(min(outside)::numeric, 4) AS outside,
       round(min(noise)::numeric, 4) AS noise, round(min(prior)::numeric, 4) AS prior,
       count(*) AS runs, round(max(measured)::numeric, 4) AS measured_max,
       round((percentile_cont(0.5) WITHIN GROUP (ORDER BY measured))::numeric, 4) AS measured_median,
       round(avg((predicted >= measured)::int)::numeric, 2) AS coverage,
       round((percentile_cont(0.5) WITHIN GROUP (ORDER BY predicted / measured))::numeric, 2) AS median_ratio,
       round(min(public_only)::numeric, 4) AS public_only_predicted, round(min(public_measured)::numeric, 4) AS public_measured
  FROM measured GROUP BY release ORDER BY release;
\echo 'all releases:'
SELECT count(*) AS runs, round(avg((predicted >= measured)::int)::numeric, 2) AS coverage,
       round((percentile_cont(0.5) WITHIN GROUP (ORDER BY predicted / measured))::numeric, 2) AS median_ratio
  FROM measured;
