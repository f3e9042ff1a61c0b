-- pap.answer_bounded and pap.answers_bounded (docs/mechanisms.md §18), and the warnings where an answer or a
-- plan may mislead, with pap_release.strict (docs/reference.md, "Warnings and pap_release.strict").
-- Self-contained: its own tables, budget and releases (seeded noise).
SET pap_release.test_seed = 11;
SET extra_float_digits = 0;
-- A case-insensitive collation: its equality is not the equality of the categories' texts.
CREATE COLLATION b_nocase (provider = icu, locale = 'und-u-ks-level2', deterministic = false);
-- One population, its rows split into a private and a public sample; 'X' occurs in the private rows only.
-- g = 'a' occurs with c = 'M' in private rows only (public rows are those with i % 5 = 0).
CREATE TABLE b_pop AS
SELECT x.*, CASE WHEN c = 'M' THEN CASE WHEN i % 5 <> 0 AND i % 3 = 0 THEN 'a' ELSE 'b' END
                 WHEN i % 2 = 0 THEN 'a' ELSE 'b' END AS g
  FROM (SELECT i, ((i * 7919) % 1009)::float8 / 10 AS v, ((i * 104729) % 997)::float8 / 10 AS w,
               CASE WHEN i % 500 = 1 THEN 'X' WHEN (i * 31) % 7 < 3 THEN 'F' ELSE 'M' END AS c
          FROM generate_series(1, 10000) i) x;
CREATE TABLE b_priv AS
SELECT v, w, c, g, c COLLATE b_nocase AS cn, c::char(2) AS cb FROM b_pop WHERE i % 5 <> 0;
CREATE TABLE b_pub AS
SELECT v, w, c, g, c COLLATE b_nocase AS cn, c::char(2) AS cb FROM b_pop WHERE i % 5 = 0;
SELECT pap.set_budget('b_priv', 10);
SELECT pap.define_release('b_cdf', 'b_priv', 'b_pub', 'thresholds(v)', alpha => 0.1, granularity => 'alpha');
SELECT pap.define_release('b_rng', 'b_priv', 'b_pub', 'ranges(v)', alpha => 0.1, granularity => 'alpha');
SELECT pap.define_release('b_box', 'b_priv', 'b_pub', 'boxes(v, w)', alpha => 0.2, granularity => 'alpha');
SELECT pap.define_release('b_marg', 'b_priv', 'b_pub', 'marginals(1; c)');
SELECT pap.define_release('b_marg2', 'b_priv', 'b_pub', 'marginals(2; c, g)');
SELECT pap.define_release('b_ci', 'b_priv', 'b_pub', 'marginals(1; cn, cb)');
SELECT pap.define_release('b_forced', 'b_priv', 'b_pub', 'thresholds(v)', alpha => 0.1, granularity => 'alpha');
CALL pap.run_release('b_cdf', 1.0);
CALL pap.run_release('b_rng', 1.0);
CALL pap.run_release('b_box', 1.0);
CALL pap.run_release('b_marg', 1.0);
CALL pap.run_release('b_marg2', 1.0);
CALL pap.run_release('b_ci', 1.0);

-- The exact answers, for the check that the bound holds (plain SQL, no pap function: kept out of the parallel-mode
-- run's workers, whose start per query made the suite 40 times slower there and tested nothing of pap's).
CREATE FUNCTION b_truth(query text) RETURNS float8 LANGUAGE plpgsql SET force_parallel_mode = off AS $$
DECLARE r float8;
BEGIN
	EXECUTE format('SELECT avg((%s)::int)::float8 FROM b_priv', query) INTO r;
	RETURN r;
END $$;
CREATE TABLE b_queries AS
SELECT format('v <= %s', t) AS q FROM generate_series(-5, 105, 0.5) t;
INSERT INTO b_queries SELECT format('v > %s AND v <= %s', a, a + w)
  FROM generate_series(0, 100, 7.3) a, (VALUES (0.4), (3.1), (25.7)) w(w);

-- The estimate is pap.answer's; [lower, upper] holds it and lies in [0, 1]; no query's bound in the release's answer
-- mode exceeds the bound over the class on the same event (the projection part is this query's own, capped by the
-- class's that the run stored with the release; the others are the plan's). The plan's own projection part is its
-- median, not a bound (docs/mechanisms.md §10, "Confidence").
SELECT count(*) AS queries,
       bool_and(b.estimate = pap.answer(r.name, q.q)) AS estimate_is_answer,
       bool_and(0 <= b.lower AND b.lower <= b.estimate AND b.estimate <= b.upper AND b.upper <= 1) AS ordered,
       bool_and(b.error_bound = greatest(b.estimate - b.lower, b.upper - b.estimate)) AS bound_is_half_width,
       bool_and(b.error_bound <= (d.answer_facts ->> 'event_projection')::float8 + (p ->> 'outside_mass_error')::float8
                                 + (p ->> 'noise_error')::float8 + 1e-12) AS within_class_bound,
       bool_or(b.error_bound > (p ->> 'noise_error')::float8) AS some_above_noise,
       bool_and(b.estimate_count = b.estimate * b.private_rows AND b.private_rows = 8000) AS counts
  FROM b_queries q, pap.releases r, pap.release_data d, LATERAL (SELECT r.details -> 'predictions' -> r.mechanism) AS m(p),
       LATERAL pap.answer_bounded(r.name, q.q) b
 WHERE r.name = 'b_rng' AND d.name = r.name;
-- The bound holds for every query of both releases (beta = 0.05), refined or not.
SELECT r.name, refine, count(*) AS queries,
       count(*) FILTER (WHERE b_truth(q.q) BETWEEN b.lower AND b.upper) AS covered
  FROM b_queries q, (VALUES ('b_cdf'), ('b_rng')) r(name), (VALUES (false), (true)) f(refine),
       LATERAL pap.answer_bounded(r.name, q.q, refine) b
 WHERE r.name = 'b_rng' OR q.q NOT LIKE '%AND%'
 GROUP BY 1, 2 ORDER BY 1, 2;
SELECT count(*) AS box_queries,
       count(*) FILTER (WHERE b_truth(q) BETWEEN b.lower AND b.upper) AS covered,
       count(*) FILTER (WHERE b_truth(q) BETWEEN r.lower AND r.upper) AS refined_covered
  FROM (SELECT format('v > %s AND v <= %s AND w > %s AND w <= %s', a, a + 30, c, c + 45) AS q
          FROM generate_series(0, 90, 11.5) a, generate_series(0, 90, 13.7) c) x,
       pap.answer_bounded('b_box', q) b, pap.answer_bounded('b_box', q, true) r;
-- A bound on a cut point moves no edge: its bound is the noise alone, below that of a bound between cuts.
WITH cut AS (SELECT query FROM pap.answers('b_cdf') WHERE query ~ '^v <= [0-9.]+$' ORDER BY cover_query OFFSET 3 LIMIT 1)
SELECT e.error_bound < m.error_bound AS exact_edge_tighter,
       abs(e.error_bound - (SELECT (details -> 'predictions' -> (details ->> 'mechanism') ->> 'noise_error')::float8
                              FROM pap.releases WHERE name = 'b_cdf')) < 1e-12 AS noise_alone
  FROM cut, pap.answer_bounded('b_cdf', cut.query) e,
       pap.answer_bounded('b_cdf', replace(cut.query, '<=', '<')) m;
-- The set-returning form keeps the order of its array.
SELECT query, estimate = pap.answer('b_rng', query, true) AS same, lower <= estimate AND estimate <= upper AS ordered
  FROM pap.answers_bounded('b_rng', '{"v <= 50", "v > 10 AND v <= 20", "v <= 5"}', refine => true);
SELECT count(*) AS strict_nulls FROM pap.answers_bounded('b_rng', NULL);
SELECT pap.answer_bounded('b_rng', NULL) IS NULL AS strict_null;
-- Errors are pap.answer's.
SELECT * FROM pap.answer_bounded('b_rng', 'w <= 3');
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT * FROM pap.answer_bounded('b_forced', 'v <= 3');
\echo SQLSTATE :LAST_ERROR_SQLSTATE

-- A value the public table never showed is answered from the "other" bin: a warning, and a bound from 0.
SELECT pap.answer('b_marg', 'c = ''F''') > 0.3 AS seen_category_silent;
SELECT pap.answer('b_marg', 'c = ''X''') < 0.05 AS other_bin;
SELECT lower = 0 AS lower_zero, upper >= b_truth('c = ''X''') AS covers_truth
  FROM pap.answer_bounded('b_marg', 'c = ''X''');
-- Values seen one by one but never together in the public table: by projection, answered like every such query, a
-- warning. (Here the public table is no sample of the private rows' population on purpose: a sixth of the private
-- rows have values no public row has together, which only the warning can tell.)
SELECT pap.answer('b_marg2', 'c = ''F'' AND g = ''a''') > 0.1 AS seen_together_silent;
SELECT pap.answer('b_marg2', 'c = ''M'' AND g = ''a''', refine => false)
       = pap.answer('b_marg2', 'c = ''X'' AND g = ''b''', refine => false)
       AS answered_alike, b_truth('c = ''M'' AND g = ''a''') > 0.1 AS truth_is_large;
-- Read from its own cells of the full grid (the release's answer mode when its mechanism measures every cell,
-- docs/mechanisms.md §10): an estimate of its own, within its bound, without a warning.
SELECT details->>'mechanism' AS mechanism, details->>'answer_mode' AS answer_mode
  FROM pap.releases WHERE name = 'b_marg2';
SELECT abs(estimate - b_truth('c = ''M'' AND g = ''a''')) < 0.05 AS own_estimate,
       b_truth('c = ''M'' AND g = ''a''') BETWEEN lower AND upper AS within_bound
  FROM pap.answer_bounded('b_marg2', 'c = ''M'' AND g = ''a''', refine => true);
-- A value never seen publicly, read from its own cells: its cell is the "other" bin's, which holds every unseen value
-- together, so the answer is the middle of [0, the cell's weight] and the bound reaches the whole weight.
SELECT abs(2 * b.estimate - s.weight) < 1e-12 AS half_the_other_bin, s.weight > 0 AS bin_has_weight,
       b.lower = 0 AS lower_zero, b.upper >= s.weight AS upper_reaches_the_bin,
       b_truth('c = ''X'' AND g = ''b''') <= b.upper AS covers_truth
  FROM pap.answer_bounded('b_marg2', 'c = ''X'' AND g = ''b''', refine => true) b,
       (SELECT coalesce(sum(weight), 0) AS weight FROM pap.synthetic('b_marg2')
         WHERE columns->'c' ? 'other' AND columns->>'g' = 'b') s;
-- Equality that differs from the category's text: under the case-insensitive collation 'f' equals 'F', and is
-- answered by its text (an unseen category). A char(2) column's categories are its values without their padding,
-- as its equality compares them: no warning.
SELECT pap.answer('b_ci', 'cn = ''F''') > 0.3 AS exact_text_silent;
SELECT pap.answer('b_ci', 'cn = ''f''') < 0.05 AS collation_text;
-- One warning for a list, however long, naming its first such value and how many others there are (one per value
-- before, 150,000 of them for a list of 150,000 numbers: a review).
SELECT pap.answer('b_ci', 'cn IN (''f'', ''m'', ''F'')') >= 0 AS one_warning_for_two;
SELECT pap.answer('b_ci', 'cn IN (''f'', ''m'', ''f'', ''m'')') >= 0 AS one_warning_for_four;
SELECT pap.answer('b_ci', 'cb = ''F''') > 0.3 AS padded_read_as_text;
-- ... and a literal with trailing blanks, or cast to the column's char(2) (which pads it), is the same category, as
-- 'F ' = 'F' in SQL (both were answered from the "other" bin with a warning before: a review).
SELECT pap.answer('b_ci', 'cb = ''F ''') = pap.answer('b_ci', 'cb = ''F''') AS trailing_blank,
       pap.answer('b_ci', 'cb = ''F''::char(2)') = pap.answer('b_ci', 'cb = ''F''') AS cast_pads,
       pap.answer('b_ci', 'cb IN (''F '', ''M'')') = pap.answer('b_ci', 'cb IN (''F'', ''M'')') AS in_list;
-- A requested mechanism predicted worse than the public table alone: pap.plan and pap.run_release warn.
SELECT chosen_mechanism, predicted_error > public_only_error AS worse
  FROM pap.plan('b_forced', 0.001, mechanism => 'identity');
SELECT chosen_mechanism FROM pap.plan('b_forced', 0.001);
-- auto's choice predicted worse than the public table alone warns too (the run of b_box above did).
SELECT chosen_mechanism, predicted_error > public_only_error AS worse FROM pap.plan('b_box', 1.0);

-- pap_release.strict turns each warning into an error; the run is refused before its charge.
SET pap_release.strict = on;
SELECT pap.answer('b_marg', 'c = ''F''') > 0.3 AS seen_category_allowed;
SELECT pap.answer('b_marg', 'c = ''X''');
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT * FROM pap.answer_bounded('b_marg', 'c = ''X''');
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT pap.answer('b_ci', 'cn = ''f''');
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT pap.answer('b_marg2', 'c = ''M'' AND g = ''a''', refine => false);
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT chosen_mechanism FROM pap.plan('b_forced', 0.001, mechanism => 'identity');
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT chosen_mechanism FROM pap.plan('b_box', 1.0);
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT count(*) AS charges_before FROM pap.ledger WHERE private_table = 'b_priv'::regclass;
CALL pap.run_release('b_forced', 0.001, mechanism => 'identity');
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT count(*) AS charges_after, (SELECT state FROM pap.releases WHERE name = 'b_forced') AS state
  FROM pap.ledger WHERE private_table = 'b_priv'::regclass;
RESET pap_release.strict;

-- A release whose run stored no error parts (an older version's) answers, but without a bound.
UPDATE pap.release_data SET details = details - 'predictions' WHERE name = 'b_marg';
SELECT pap.answer('b_marg', 'c = ''M''') > 0.3 AS answers;
SELECT * FROM pap.answer_bounded('b_marg', 'c = ''M''');
\echo SQLSTATE :LAST_ERROR_SQLSTATE

-- An IN list is answered as a sum of queries: no bound of its own (each value's query has one).
SELECT abs(pap.answer('b_marg2', 'c IN (''F'', ''M'') AND g = ''a''')
           - pap.answer('b_marg2', 'c = ''F'' AND g = ''a''') - pap.answer('b_marg2', 'c = ''M'' AND g = ''a''')) < 1e-12
       AS in_list_is_sum;
SELECT * FROM pap.answer_bounded('b_marg2', 'c IN (''F'', ''M'') AND g = ''a''');
\echo SQLSTATE :LAST_ERROR_SQLSTATE

-- PMW's noise part is its run's own (docs/mechanisms.md §18): (threshold + noise quantile + 1) / n after a run that
-- converged, whatever the public sample; 1 (the interval [0, 1]) after a run stopped by its cut-off. The bound's
-- half-width holds it.
SELECT pap.define_release('b_pmw', 'b_priv', 'b_pub', 'thresholds(v)', alpha => 0.1);
CALL pap.run_release('b_pmw', 1.0, mechanism => 'pmw');
SELECT (details->>'bound_noise_error')::float8 > 0 AND (details->>'bound_noise_error')::float8 <= 1 AS own_noise_part,
       NOT (details->>'cutoff_reached')::bool OR (details->>'bound_noise_error')::float8 = 1 AS one_when_stopped
  FROM pap.releases WHERE name = 'b_pmw';
SELECT (b.lower = 0 OR b.estimate - b.lower >= r.noise - 1e-12)
       AND (b.upper = 1 OR b.upper - b.estimate >= r.noise - 1e-12) AS holds_run_noise_part
  FROM pap.answer_bounded('b_pmw', 'v <= 3') b,
       (SELECT (details->>'bound_noise_error')::float8 AS noise FROM pap.releases WHERE name = 'b_pmw') r;

-- A box restricts its other axis, so an edge's refined error counts only the rows of its bin inside the box there
-- (docs/mechanisms.md §18, proof, case 2). On the diagonal x = y a bin's rows below a split all have y below it:
-- "x <= s AND y > s" holds no row, while the refined answer places a share of the bin's cell on the diagonal there.
-- The bounds once subtracted the whole bin's lower bound and missed it (2 of these 8 at epsilon 1000).
CREATE TABLE b_diag_priv AS SELECT i / 100000.0 AS x, i / 100000.0 AS y FROM generate_series(1, 100000) i;
CREATE TABLE b_diag_pub AS SELECT i / 20000.0 AS x, i / 20000.0 AS y FROM generate_series(1, 20000) i;
SELECT pap.set_budget('b_diag_priv', 1000);
SELECT pap.define_release('b_diag', 'b_diag_priv', 'b_diag_pub', 'boxes(x, y)', alpha => 0.9, granularity => 'alpha');
CALL pap.run_release('b_diag', 1000);
SELECT count(*) AS queries, count(*) FILTER (WHERE abs(b.estimate - 0) <= b.error_bound) AS within,
       max(b.estimate) > 0.01 AS the_cells_split
  FROM unnest(ARRAY[0.025, 0.075, 0.125, 0.275, 0.475, 0.525, 0.725, 0.975]) s,
       pap.answer_bounded('b_diag', format('x <= %s AND y > %s', s, s)) b;
SELECT count(*) AS rows_in_those_boxes FROM b_diag_priv, unnest(ARRAY[0.025, 0.075, 0.125, 0.275, 0.475, 0.525, 0.725, 0.975]) s
 WHERE x <= s AND y > s;
SELECT pap.drop_release('b_diag');
DROP TABLE b_diag_priv, b_diag_pub;

-- An edge on the highest cut: a ranges cover's run to that cut also takes the top bin, so "x <= max" is answered with
-- the private rows above the public maximum, and "x > max" by the empty query; the unrefined bounds count the top
-- bin's share (they claimed an exact projection: [1 - 1e-14, 1] and [0, 4e-14] for true answers 0.99875 and 0.00125).
-- Refined answers take none of the top bin under an upper edge at the highest cut and all of it above its lower
-- edge there (they followed the projection, with the same claims).
CREATE TABLE b_top_pub AS SELECT (i + 0.5) / 400 AS x FROM generate_series(0, 399) i;
CREATE TABLE b_top_priv AS SELECT (i + 0.5) / 12000 AS x FROM generate_series(0, 11999) i;
SELECT pap.set_budget('b_top_priv', 1000);
SELECT pap.define_release('b_top', 'b_top_priv', 'b_top_pub', 'ranges(x)', granularity => 'finest');
CALL pap.run_release('b_top', 1000, mechanism => 'identity');
SELECT q, r AS refine, round(t.truth::numeric, 5) AS truth, t.truth BETWEEN b.lower AND b.upper AS within
  FROM unnest(ARRAY['x <= 0.99875', 'x > 0.99875', 'x > 0.5 AND x <= 0.99875']) q, unnest(ARRAY[false, true]) r,
       LATERAL (SELECT count(*) FILTER (WHERE CASE q WHEN 'x <= 0.99875' THEN x <= 0.99875 WHEN 'x > 0.99875'
                                                 THEN x > 0.99875 ELSE x > 0.5 AND x <= 0.99875 END)::float8 / count(*)
                  FROM b_top_priv) AS t(truth),
       LATERAL pap.answer_bounded('b_top', q, r) b
 ORDER BY q, r;
SELECT pap.drop_release('b_top');
DROP TABLE b_top_priv, b_top_pub;

SELECT pap.drop_release(name) FROM pap.releases WHERE name LIKE 'b\_%' ORDER BY name;
DROP FUNCTION b_truth(text);
DROP TABLE b_pop, b_priv, b_pub, b_queries;
DROP COLLATION b_nocase;
