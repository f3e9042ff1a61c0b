-- Discrete columns (docs/mechanisms.md §10, "Discrete columns"): an integer column holds no value strictly between
-- two consecutive integers, and its type is public. The error model then bounds only the sets that can hold a
-- private row (the tails and the integers the public table never showed), so the same data predicts less on an
-- integer column than on a double precision one; a bound between two integers is the query at the integer below
-- it. A release stored without the steps keeps how it answered, and a run refuses a column that can now hold
-- values between the integers. Self-contained: its own tables, budget and releases (seeded noise).
SET pap_release.test_seed = 29;
SET extra_float_digits = 0;
-- Ages 20..59 (each 1 private row in 40 per value, and 30..34 twice as often); the public sample shows 25..54, all
-- of them: its only open sets are the tails.
CREATE TABLE di_priv AS SELECT 20 + i % 40 AS age FROM generate_series(1, 8000) i;
INSERT INTO di_priv SELECT 30 + i % 5 FROM generate_series(1, 1000) i;
CREATE TABLE di_pub AS SELECT 25 + i % 30 AS age FROM generate_series(1, 300) i;
CREATE TABLE di_priv_f AS SELECT age::float8 AS age FROM di_priv;
CREATE TABLE di_pub_f AS SELECT age::float8 AS age FROM di_pub;
SELECT pap.set_budget('di_priv', 10);
SELECT pap.define_release('di_int', 'di_priv', 'di_pub', 'ranges(age)', granularity => 'finest');
SELECT pap.define_release('di_float', 'di_priv_f', 'di_pub_f', 'ranges(age)', granularity => 'finest');
SELECT name, axis_value_steps FROM pap.release_data WHERE name LIKE 'di\_%' ORDER BY name;
-- The same public values and sizes: the integer axis's projection part is smaller (fewer sets on its event).
SELECT round(i.projection_error::numeric, 5) AS integer_part, round(f.projection_error::numeric, 5) AS float_part,
       i.projection_error < f.projection_error AS integer_smaller
  FROM pap.plan('di_int', 1, mechanism => 'identity') i, pap.plan('di_float', 1, mechanism => 'identity') f;
CALL pap.run_release('di_int', 1, mechanism => 'identity');

-- A bound between two integers selects what the integer below it selects: the same answer, and an exact edge
-- (its bound adds no projection part) where the integer is a cut.
SELECT q, round(pap.answer('di_int', q)::numeric, 6) AS answer, round(a.error_bound::numeric, 6) AS error_bound
  FROM unnest(ARRAY['age > 30 AND age <= 40', 'age > 30.5::numeric AND age <= 40.5::numeric',
                    'age >= 31 AND age < 41', 'age >= 30.5::numeric AND age < 40.5::numeric']) AS q,
       LATERAL pap.answer_bounded('di_int', q) AS a;
SELECT round(pap.answer_between('di_int', 30.5::numeric, 40.5::numeric)::numeric, 6) AS between_numeric,
       round(pap.answer_between('di_int', 31, 40)::numeric, 6) AS between_integers;
-- Below the public table's lowest value a bound still moves over private rows (ages 20..24): not exact.
SELECT a.error_bound > b.error_bound AS tail_not_exact
  FROM pap.answer_bounded('di_int', 'age > 22 AND age <= 40') a, pap.answer_bounded('di_int', 'age > 30 AND age <= 40') b;

-- A release stored without steps (defined before they were kept) plans as a continuous axis, as it did.
UPDATE pap.release_data SET axis_value_steps = NULL WHERE name = 'di_float';
SELECT pap.define_release('di_old', 'di_priv', 'di_pub', 'ranges(age)', granularity => 'finest');
UPDATE pap.release_data SET axis_value_steps = NULL WHERE name = 'di_old';
SELECT o.projection_error = f.projection_error AS old_is_continuous
  FROM pap.plan('di_old', 1, mechanism => 'identity') o, pap.plan('di_float', 1, mechanism => 'identity') f;

-- A column that can now hold values between the integers is refused before the charge.
SELECT pap.define_release('di_altered', 'di_priv', 'di_pub', 'ranges(age)', granularity => 'finest');
ALTER TABLE di_priv ALTER COLUMN age TYPE float8;
CALL pap.run_release('di_altered', 1, mechanism => 'identity');
SELECT count(*) AS charges FROM pap.ledger WHERE release_name = 'di_altered';

SELECT pap.drop_release(name) FROM pap.releases WHERE name LIKE 'di\_%' ORDER BY name;
DROP TABLE di_priv, di_pub, di_priv_f, di_pub_f;

-- Every whole value (docs/mechanisms.md §20): the public sample shows every other age from 24 to 56, so each of
-- finest's bins holds an age no public row shows, and an edge there may move over its private rows. Granularity
-- auto also plans a cut at every age from 24 to 56, the 16 unseen ones stored with 0 public rows, and takes it: an
-- edge inside the public range is then a cut, and only the tails (below 24, above 56) keep a projection part.
CREATE TABLE wv_priv AS SELECT 24 + i % 33 AS age FROM generate_series(1, 8000) i;
CREATE TABLE wv_pub AS SELECT 24 + 2 * (i % 17) AS age FROM generate_series(1, 300) i;
SELECT pap.set_budget('wv_priv', 10);
SELECT pap.define_release('wv_whole', 'wv_priv', 'wv_pub', 'ranges(age)');
SELECT pap.define_release('wv_finest', 'wv_priv', 'wv_pub', 'ranges(age)', granularity => 'finest');
SELECT name, granularity LIKE 'auto: every whole value, %' AS every_whole_value, cell_count
  FROM pap.releases WHERE name LIKE 'wv\_%' ORDER BY name;
SELECT public_values, public_value_rows, cuts = public_values AS a_cut_at_each
  FROM pap.release_data WHERE name = 'wv_whole';
SELECT round(w.projection_error::numeric, 5) AS whole_part, round(f.projection_error::numeric, 5) AS finest_part
  FROM pap.plan('wv_whole', 1, mechanism => 'identity') w, pap.plan('wv_finest', 1, mechanism => 'identity') f;
CALL pap.run_release('wv_whole', 1, mechanism => 'identity');
CALL pap.run_release('wv_finest', 1, mechanism => 'identity');
-- Inside the public range the bound is the noise part alone, in both answer modes, and an unseen age is answered
-- from its own cell; finest moves its edges over unseen ages. A tail edge (22.5) keeps its part.
SELECT q, r, round(w.estimate::numeric, 4) AS whole, round(f.estimate::numeric, 4) AS finest,
       round((SELECT count(*) FROM wv_priv WHERE age BETWEEN lo AND hi) / 8000.0, 4) AS truth,
       round(w.error_bound::numeric, 5) AS whole_bound, round(f.error_bound::numeric, 5) AS finest_bound
  FROM (VALUES ('age = 31', 31, 31), ('age >= 31 AND age <= 45', 31, 45), ('age > 30 AND age < 46', 31, 45),
               ('age > 22.5 AND age <= 40', 23, 40)) AS t(q, lo, hi),
       unnest(ARRAY[false, true]) r,
       LATERAL pap.answer_bounded('wv_whole', q, r) AS w, LATERAL pap.answer_bounded('wv_finest', q, r) AS f
 ORDER BY q, r;
-- Dates: a cut at every day the public sample's range holds.
CREATE TABLE wd_priv AS SELECT DATE '2020-01-01' + i % 60 AS day FROM generate_series(1, 6000) i;
CREATE TABLE wd_pub AS SELECT DATE '2020-01-01' + 2 * (i % 30) AS day FROM generate_series(1, 400) i;
SELECT pap.set_budget('wd_priv', 10);
SELECT pap.define_release('wd_whole', 'wd_priv', 'wd_pub', 'ranges(day)');
SELECT r.granularity LIKE 'auto: every whole value, %' AS every_whole_value, r.cell_count,
       cardinality(public_values) AS days, (SELECT count(*) FROM unnest(public_value_rows) k WHERE k = 0) AS unseen
  FROM pap.releases r JOIN pap.release_data d USING (name) WHERE name = 'wd_whole';
CALL pap.run_release('wd_whole', 1, mechanism => 'identity');
SELECT round(a.estimate::numeric, 4) AS estimate, round(a.error_bound::numeric, 5) AS error_bound,
       round((SELECT count(*) FROM wd_priv WHERE day = '2020-01-04') / 6000.0, 4) AS truth
  FROM pap.answer_bounded('wd_whole', 'day = ''2020-01-04''') a;
SELECT pap.drop_release(name) FROM pap.releases WHERE name LIKE 'w_\_%' ORDER BY name;
DROP TABLE wv_priv, wv_pub, wd_priv, wd_pub;
