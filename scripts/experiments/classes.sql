-- The query-class experiment (docs/experiments.md): two classes over several columns on real data, released with epsilon = 1 (secure
-- noise, no test seed), errors measured against the private table and against the public sample alone.
\pset footer off
SET client_min_messages = warning;

-- Reproducible disjoint splits: rows ordered by md5 of their number; the first 10% are public.
CREATE TABLE adult_split AS
SELECT id, row_number() OVER (ORDER BY md5('pap adult ' || id), id) <= (SELECT count(*) / 10 FROM adult) AS pub
  FROM adult;
CREATE TABLE adult_public AS SELECT a.* FROM adult a JOIN adult_split s USING (id) WHERE s.pub;
CREATE TABLE adult_private AS SELECT a.* FROM adult a JOIN adult_split s USING (id) WHERE NOT s.pub;
ALTER TABLE adult_public DROP COLUMN id;
ALTER TABLE adult_private DROP COLUMN id;
CREATE TABLE diamonds_split AS
SELECT id, row_number() OVER (ORDER BY md5('pap diamonds ' || id), id) <= (SELECT count(*) / 10 FROM diamonds) AS pub
  FROM diamonds;
CREATE TABLE diamonds_public AS SELECT d.* FROM diamonds d JOIN diamonds_split s USING (id) WHERE s.pub;
CREATE TABLE diamonds_private AS SELECT d.* FROM diamonds d JOIN diamonds_split s USING (id) WHERE NOT s.pub;
CREATE INDEX ON diamonds_private (carat, price);
ANALYZE;
SELECT pap.set_budget('adult_private', 1);
SELECT pap.set_budget('diamonds_private', 1);

\echo
\echo '== ADULT: marginals(3; all 14 columns), 10% public, epsilon = 1, default limits'
\timing on
SELECT pap.define_release('adult3', 'adult_private', 'adult_public',
  'marginals(3; age, workclass, fnlwgt, "education-num", "marital-status", occupation, relationship, race, sex, '
  '"capital-gain", "capital-loss", "hours-per-week", "native-country", "income>50K")');
\timing off
SELECT domain, cover_size, cell_count, public_rows, domain_reason FROM pap.releases WHERE name = 'adult3';
\timing on
CALL pap.run_release('adult3', 1.0);
\timing off
SELECT details->>'updates' AS updates, details->>'passes' AS passes, details->>'cutoff' AS cutoff
  FROM pap.releases WHERE name = 'adult3';

-- Error over the whole class: every 3-way cell holding a public or a private row is evaluated; every other
-- query of the class has true answer 0 and projects onto the cover query of the empty public pattern, whose
-- answer is that of any combination never seen publicly (the value -1 is in no column).
CREATE FUNCTION pg_temp.adult_errors(OUT cells int8, OUT max_error float8, OUT mean_error float8,
                                     OUT public_max_error float8, OUT public_mean_error float8)
LANGUAGE plpgsql AS $fn$
DECLARE
  cols text[] := ARRAY['age', 'workclass', 'fnlwgt', 'education-num', 'marital-status', 'occupation',
                       'relationship', 'race', 'sex', 'capital-gain', 'capital-loss', 'hours-per-week',
                       'native-country', 'income>50K'];
  n float8 := (SELECT count(*) FROM adult_private);
  m float8 := (SELECT count(*) FROM adult_public);
  r record;
  sum_error float8 := 0; sum_public float8 := 0;
BEGIN
  cells := 0; max_error := 0; public_max_error := 0;
  FOR i IN 1..14 LOOP FOR j IN i + 1..14 LOOP FOR k IN j + 1..14 LOOP
    FOR r IN EXECUTE format(
      'SELECT coalesce(p.n, 0)::float8 AS priv, coalesce(q.n, 0)::float8 AS pub,
              pap.answer(''adult3'', format(''%%I = %%s AND %%I = %%s AND %%I = %%s'', %L, a, %L, b, %L, c)) AS ans
         FROM (SELECT %I a, %I b, %I c, count(*) n FROM adult_private GROUP BY 1, 2, 3) p
         FULL JOIN (SELECT %I a, %I b, %I c, count(*) n FROM adult_public GROUP BY 1, 2, 3) q USING (a, b, c)',
      cols[i], cols[j], cols[k], cols[i], cols[j], cols[k], cols[i], cols[j], cols[k])
    LOOP
      cells := cells + 1;
      max_error := greatest(max_error, abs(r.priv / n - r.ans));
      sum_error := sum_error + abs(r.priv / n - r.ans);
      public_max_error := greatest(public_max_error, abs(r.priv / n - r.pub / m));
      sum_public := sum_public + abs(r.priv / n - r.pub / m);
    END LOOP;
  END LOOP; END LOOP; END LOOP;
  max_error := greatest(max_error, pap.answer('adult3', 'age = -1 AND workclass = -1 AND fnlwgt = -1'));
  mean_error := sum_error / cells;
  public_mean_error := sum_public / cells;
END
$fn$;
\echo 'errors (fractions of the private rows); mean over the 3-way cells holding a public or private row:'
-- Most of these cells hold no public row: each answer would warn so (about 350,000 warnings in a run), which says nothing
-- the errors below do not.
SET client_min_messages = error;
SELECT cells, round(max_error::numeric, 4) AS max_error, round(mean_error::numeric, 6) AS mean_error,
       round(public_max_error::numeric, 4) AS public_only_max, round(public_mean_error::numeric, 6) AS public_only_mean
  FROM pg_temp.adult_errors();
RESET client_min_messages;

\echo
\echo '== diamonds: boxes(carat, price), 10% public, epsilon = 1, full grid; alpha 0.25, max_cover_queries 5e6'
SET pap_release.max_cover_queries = 5000000;
\timing on
SELECT pap.define_release('diamonds_boxes', 'diamonds_private', 'diamonds_public', 'boxes(carat, price)',
                          alpha => 0.25);
\timing off
SELECT domain, granularity, cover_size, cell_count FROM pap.releases WHERE name = 'diamonds_boxes';
\timing on
CALL pap.run_release('diamonds_boxes', 1.0);
\timing off
SELECT details->>'updates' AS updates, details->>'passes' AS passes, details->>'cutoff' AS cutoff
  FROM pap.releases WHERE name = 'diamonds_boxes';
-- Random boxes: each side open with probability 1/4, else at the value of a random private row.
SELECT setseed(0.25);
CREATE TEMP TABLE boxes AS
WITH v AS (SELECT array_agg(carat ORDER BY carat) c, array_agg(price ORDER BY price) p FROM diamonds_private),
     n AS (SELECT cardinality(c) AS k FROM v),
     raw AS (SELECT i, random() < 0.25 AS c_open_lo, random() < 0.25 AS c_open_hi,
                    random() < 0.25 AS p_open_lo, random() < 0.25 AS p_open_hi,
                    1 + floor(random() * n.k)::int AS c1, 1 + floor(random() * n.k)::int AS c2,
                    1 + floor(random() * n.k)::int AS p1, 1 + floor(random() * n.k)::int AS p2
               FROM generate_series(1, :boxes) i, n)
SELECT i,
       CASE WHEN c_open_lo THEN NULL ELSE v.c[least(c1, c2)] END AS c_lo,
       CASE WHEN c_open_hi THEN NULL ELSE v.c[greatest(c1, c2)] END AS c_hi,
       CASE WHEN p_open_lo THEN NULL ELSE v.p[least(p1, p2)] END AS p_lo,
       CASE WHEN p_open_hi THEN NULL ELSE v.p[greatest(p1, p2)] END AS p_hi
  FROM raw, v;
CREATE TEMP TABLE box_errors AS
SELECT i,
       (SELECT count(*) FROM diamonds_private d
         WHERE (c_lo IS NULL OR d.carat > c_lo) AND (c_hi IS NULL OR d.carat <= c_hi)
           AND (p_lo IS NULL OR d.price > p_lo) AND (p_hi IS NULL OR d.price <= p_hi))::float8
         / (SELECT count(*) FROM diamonds_private) AS truth,
       (SELECT count(*) FROM diamonds_public d
         WHERE (c_lo IS NULL OR d.carat > c_lo) AND (c_hi IS NULL OR d.carat <= c_hi)
           AND (p_lo IS NULL OR d.price > p_lo) AND (p_hi IS NULL OR d.price <= p_hi))::float8
         / (SELECT count(*) FROM diamonds_public) AS public_only,
       pap.answer('diamonds_boxes', concat_ws(' AND ',
         CASE WHEN c_lo IS NOT NULL THEN 'carat > ' || c_lo END, CASE WHEN c_hi IS NOT NULL THEN 'carat <= ' || c_hi END,
         CASE WHEN p_lo IS NOT NULL THEN 'price > ' || p_lo END, CASE WHEN p_hi IS NOT NULL THEN 'price <= ' || p_hi END,
         CASE WHEN c_lo IS NULL AND c_hi IS NULL AND p_lo IS NULL AND p_hi IS NULL THEN 'carat <= ''Infinity''' END))
         AS released
  FROM boxes;
\echo 'errors over the random boxes (fractions of the private rows):'
SELECT count(*) AS boxes, round(max(abs(released - truth))::numeric, 4) AS max_error,
       round(avg(abs(released - truth))::numeric, 5) AS mean_error,
       round(max(abs(public_only - truth))::numeric, 4) AS public_only_max,
       round(avg(abs(public_only - truth))::numeric, 5) AS public_only_mean
  FROM box_errors;
