-- Refined answers spread the gaps between public values (docs/mechanisms.md §10, "Spreading the gaps"): each
-- public value but the lowest spreads a share of one of its rows evenly over the gap below it, as far as keeps
-- every refined answer within the plan's refinement part, so a bound inside a gap moves the answer linearly
-- instead of leaving it at the public value below. The plan, its projection part and the answers' bounds are
-- unchanged; a bound at a public value counts that value's rows exactly, and a value seen many times keeps all
-- but one of its rows at itself. At the finest granularity the two modes tie, and the release refines.
-- Self-contained: its own tables, budget and releases (seeded noise).
SET pap_release.test_seed = 31;
SET extra_float_digits = 0;
-- A uniform population on [0, 10000) with a point of a fifth of its mass at 7000: 25,000 private rows; 250 public
-- ones, 200 evenly spaced values seen once (the gaps are 50 wide) and 50 rows at 7000.
CREATE TABLE gs_priv AS SELECT (i % 10000)::float8 + 0.25 AS x FROM generate_series(1, 20000) i;
INSERT INTO gs_priv SELECT 7000 FROM generate_series(1, 5000);
CREATE TABLE gs_pub AS SELECT (i * 50)::float8 + 25 AS x FROM generate_series(0, 199) i;
INSERT INTO gs_pub SELECT 7000 FROM generate_series(1, 50);
SELECT pap.set_budget('gs_priv', 10);
SELECT pap.define_release('gs_finest', 'gs_priv', 'gs_pub', 'thresholds(x)', granularity => 'finest');
SELECT pap.define_release('gs_ranges', 'gs_priv', 'gs_pub', 'ranges(x)', alpha => 0.2, granularity => 'alpha');
-- At the finest granularity refinement and projection predict the same part: the release refines.
SELECT answer_mode FROM pap.plan('gs_finest', 4);
CALL pap.run_release('gs_finest', 4);
CALL pap.run_release('gs_ranges', 4);
SELECT name, details->>'answer_mode' AS answer_mode FROM pap.releases WHERE name LIKE 'gs\_%' ORDER BY name;

-- Across the gap (2075, 2125): the projection stays at the public value below; refinement rises in equal steps
-- and reaches the next value's answer only there (the part of its row not spread stays at 2125).
SELECT b, round(pap.answer('gs_finest', 'x <= ' || b, false)::numeric, 5) AS projected,
       round(pap.answer('gs_finest', 'x <= ' || b)::numeric, 5) AS refined,
       round((SELECT count(*) FILTER (WHERE x <= b) FROM gs_priv) / 25000.0, 5) AS exact
  FROM unnest('{2075, 2087.5, 2100, 2112.5, 2124.9, 2125}'::float8[]) AS b;
SELECT round((pap.answer('gs_finest', 'x <= 2100') - pap.answer('gs_finest', 'x <= 2087.5'))::numeric, 9) =
       round((pap.answer('gs_finest', 'x <= 2112.5') - pap.answer('gs_finest', 'x <= 2100'))::numeric, 9) AS linear;
-- "x < 2125" counts the spread part of 2125's row, not the rest of it; at a public value "<=" is exact.
SELECT pap.answer('gs_finest', 'x < 2125') < pap.answer('gs_finest', 'x <= 2125') AS strict_below,
       pap.answer('gs_finest', 'x <= 2125') = pap.answer('gs_finest', 'x <= 2125', false) AS exact_at_value;
-- 7000's 50 public rows: up to just below it the answer moves by one of them at most, the rest is at 7000.
SELECT round((pap.answer('gs_finest', 'x < 7000') - pap.answer('gs_finest', 'x <= 6975'))::numeric, 5) AS below_point,
       round((pap.answer('gs_finest', 'x <= 7000') - pap.answer('gs_finest', 'x < 7000'))::numeric, 5) AS at_point;

-- Over many bounds inside the gaps the spread answers are closer to the private table's.
CREATE TABLE gs_bounds AS SELECT (i * 37 % 10000)::float8 + 0.5 AS b FROM generate_series(1, 300) i;
SELECT max(abs(pap.answer('gs_finest', 'x <= ' || b) - e)) < max(abs(pap.answer('gs_finest', 'x <= ' || b, false) - e))
       AS refined_closer
  FROM gs_bounds, LATERAL (SELECT count(*) FILTER (WHERE x <= b) / 25000.0 AS e FROM gs_priv) AS t;
-- ranges at alpha: both edges spread; every refined answer's bound holds (its consistency with the plan's
-- refinement part on the same event is a unit test's: answer_bound_test.cpp).
SELECT count(*) FILTER (WHERE e BETWEEN a.lower AND a.upper) AS within_bound,
       count(*) FILTER (WHERE a.error_bound > p.noise_error) AS above_noise, count(*) AS queries
  FROM gs_bounds, pap.plan('gs_ranges', 4) p,
       LATERAL pap.answer_bounded('gs_ranges', 'x > ' || b || ' AND x <= ' || (b + 1234.5), true) a,
       LATERAL (SELECT count(*) FILTER (WHERE x > b AND x <= b + 1234.5) / 25000.0 AS e FROM gs_priv) AS t;

-- The run stored what these answers read (docs/mechanisms.md §18, "Stored with the release"): one spread per public
-- value, and the projection part, the unseen points' mass and the caps, so that a later library whose bounds differ
-- does not change them. The answers follow what is stored, not what the loading library would compute: with every
-- spread at 0 (as the owner of schema pap could write; here the superuser running the test) the bound inside the
-- gap stays at the public value below; without stored facts (a release run by an earlier library) the library
-- computes them again, the same here; facts that do not fit the release are refused, by answers only (the release
-- can still be dropped).
SELECT cardinality(answer_gap_spreads) AS spreads, (SELECT count(DISTINCT x) FROM gs_pub) AS public_values,
       answer_gap_spreads[1] AS lowest, jsonb_typeof(answer_facts -> 'event_projection') AS projection,
       answer_facts -> 'other_bin_caps' AS caps
  FROM pap.release_data WHERE name = 'gs_finest';
CREATE TABLE gs_stored AS
SELECT pap.answer('gs_finest', 'x <= 2100') AS refined, answer_facts, answer_gap_spreads
  FROM pap.release_data WHERE name = 'gs_finest';
UPDATE pap.release_data SET answer_gap_spreads = array_fill(0::float8, ARRAY[cardinality(answer_gap_spreads)])
 WHERE name = 'gs_finest';
SELECT pap.answer('gs_finest', 'x <= 2100') = pap.answer('gs_finest', 'x <= 2075') AS spread_gone,
       pap.answer('gs_finest', 'x <= 2100') < (SELECT refined FROM gs_stored) AS below_stored;
UPDATE pap.release_data SET answer_facts = NULL, answer_gap_spreads = NULL WHERE name = 'gs_finest';
SELECT pap.answer('gs_finest', 'x <= 2100') = (SELECT refined FROM gs_stored) AS recomputed_same;
UPDATE pap.release_data SET answer_facts = (SELECT answer_facts FROM gs_stored),
       answer_gap_spreads = (SELECT answer_gap_spreads[1:100] || 2::float8 || answer_gap_spreads[102:] FROM gs_stored)
 WHERE name = 'gs_finest';
SELECT pap.answer('gs_finest', 'x <= 2100');
UPDATE pap.release_data SET answer_gap_spreads = (SELECT answer_gap_spreads[2:] FROM gs_stored)
 WHERE name = 'gs_finest';
SELECT pap.answer('gs_finest', 'x <= 2100');
UPDATE pap.release_data SET answer_gap_spreads = (SELECT answer_gap_spreads FROM gs_stored),
       answer_facts = '{"event_projection": "0.1", "unseen_points_mass": 0, "other_bin_caps": []}'
 WHERE name = 'gs_finest';
SELECT pap.answer('gs_finest', 'x <= 2100');
SELECT plan.chosen_mechanism IS NOT NULL AS still_planned FROM pap.plan('gs_finest', 1) AS plan;
UPDATE pap.release_data SET answer_facts = (SELECT answer_facts FROM gs_stored) WHERE name = 'gs_finest';
SELECT pap.answer('gs_finest', 'x <= 2100') = (SELECT refined FROM gs_stored) AS restored;
DROP TABLE gs_stored;

SELECT pap.drop_release(name) FROM pap.releases WHERE name LIKE 'gs\_%' ORDER BY name;
DROP TABLE gs_priv, gs_pub, gs_bounds;
