-- Budgets, plans, runs and answers. The test seed makes the noise reproducible.
SET pap_release.test_seed = 42;
SET extra_float_digits = 0;

-- no budget yet: the run is refused before anything is charged
CALL pap.run_release('x_cdf', 1.0);
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT count(*) AS ledger_entries FROM pap.ledger;

-- budget rules
SELECT pap.set_budget('priv', 1.5);
SELECT pap.set_budget('priv', 0);
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT pap.set_budget('priv', -1);
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT pap.set_budget('priv', 'Infinity');
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT pap.set_budget('priv', 1, 1);
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT pap.set_budget('priv', 1, 0.9999999999999999);  -- below 1, but 1 at the ledger's 15 digits
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT pap.set_budget('priv', 1, -0.1);
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT private_table, epsilon_total, epsilon_spent, epsilon_remaining, delta_total FROM pap.budgets;

-- plan: free, and the same inputs give the same plan
SELECT chosen_mechanism, private_rows, public_rows, cover_size, cell_count, book_guarantee_holds, cutoff,
       accounting, max_passes, round(predicted_error::numeric, 4) AS predicted_error,
       round(public_only_error::numeric, 4) AS public_only_error, round(book_private_rows) AS book_private_rows
  FROM pap.plan('x_cdf', 1.0);
SELECT cutoff, accounting FROM pap.plan('x_cdf', 1.0, 1e-6);
-- the smallest delta documented, 1e-300: its double is just above the decimal, which the ledger's 15 digits round
-- down (refused as below 1e-300 before)
SELECT chosen_mechanism IS NOT NULL AS planned FROM pap.plan('x_cdf', 1.0, 1e-300);
-- the public prior is planned for its own sampling error, the uniform one for 1/2: fewer updates (a smaller
-- cut-off) from the public start
SELECT p.prior_error < u.prior_error AS public_prior_closer, p.cutoff < u.cutoff AS fewer_updates_planned
  FROM pap.plan('x_cdf', 1.0, mechanism => 'pmw') p, pap.plan('x_cdf', 1.0, mechanism => 'pmw', prior => 'uniform') u;
-- the predicted error's parts (docs/mechanisms.md §10): a full grid has nothing outside, identity starts from no
-- prior, and the total is the sum of the projection, the outside mass and the mechanism's error on the cover
SELECT chosen_mechanism, round(projection_error::numeric, 4) AS projection, outside_mass_error AS outside,
       round(noise_error::numeric, 4) AS noise, prior_error AS prior,
       abs(predicted_error - (projection_error + outside_mass_error + noise_error)) < 1e-12 AS parts_add_up,
       round((predictions->'pmw'->>'prior_error')::numeric, 4) AS pmw_prior
  FROM pap.plan('x_cdf', 1.0);
SELECT * FROM pap.plan('x_cdf', 0);
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT * FROM pap.plan('x_cdf', 1, 1);
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT * FROM pap.plan('x_cdf', 1, 0, 'laplace');
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT * FROM pap.plan('x_cdf', 1, prior => 'gaussian');
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT * FROM pap.plan('nope', 1);
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT count(*) AS ledger_entries FROM pap.ledger;

-- answering before the run
SELECT pap.answer('x_cdf', 'x <= 500');
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT * FROM pap.answers('x_cdf');
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT * FROM pap.synthetic('x_cdf');
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT pap.answer_count('x_cdf', 'x <= 500');
\echo SQLSTATE :LAST_ERROR_SQLSTATE

-- a run inside a transaction block is refused: its charge could not be committed first
BEGIN;
CALL pap.run_release('x_cdf', 1.0);
\echo SQLSTATE :LAST_ERROR_SQLSTATE
ROLLBACK;

-- bad run arguments are refused before any charge
CALL pap.run_release('x_cdf', 0);
\echo SQLSTATE :LAST_ERROR_SQLSTATE
CALL pap.run_release('x_cdf', 'NaN');
\echo SQLSTATE :LAST_ERROR_SQLSTATE
CALL pap.run_release('x_cdf', 1, 1.5);
\echo SQLSTATE :LAST_ERROR_SQLSTATE
CALL pap.run_release('x_cdf', 1, 0, 'mwem-ish');
\echo SQLSTATE :LAST_ERROR_SQLSTATE
CALL pap.run_release('nope', 1);
\echo SQLSTATE :LAST_ERROR_SQLSTATE
CALL pap.run_release('x_cdf', NULL);
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT count(*) AS ledger_entries FROM pap.ledger;

-- the run (PMW, the paper's mechanism; 09_mechanisms runs the others and auto)
CALL pap.run_release('x_cdf', 1.0, mechanism => 'pmw');
SELECT name, state, mechanism, epsilon, delta, private_rows, is_private,
       details->>'accounting' AS accounting, (details->>'updates')::int <= (details->>'cutoff')::int AS within_cutoff
  FROM pap.releases WHERE name = 'x_cdf';
SELECT private_table, release_name, epsilon, delta, mechanism FROM pap.ledger ORDER BY entry_id;
SELECT epsilon_total, epsilon_spent, epsilon_remaining FROM pap.budgets;

-- exceeding the budget names what remains
CALL pap.run_release('x_ranges', 0.6);
\echo SQLSTATE :LAST_ERROR_SQLSTATE
-- running a released release again
CALL pap.run_release('x_cdf', 0.1);
\echo SQLSTATE :LAST_ERROR_SQLSTATE

-- answers: fractions in [0, 1], monotone in the threshold, counts are fractions times n
SELECT t, round(pap.answer('x_cdf', format('x <= %s', t))::numeric, 4) AS released,
       round((SELECT count(*) FROM priv WHERE x <= t)::numeric / (SELECT count(*) FROM priv), 4) AS exact
  FROM (VALUES (-1), (0), (99.5), (250), (500), (999), (5000)) AS v(t);
SELECT bool_and(a >= 0 AND a <= 1) AS in_range,
       bool_and(a >= lag_a) AS monotone
  FROM (SELECT a, lag(a, 1, 0.0) OVER (ORDER BY t) AS lag_a
          FROM (SELECT t, pap.answer('x_cdf', format('x <= %s', t)) AS a
                  FROM generate_series(-10, 1010, 7) AS t) s) s2;
SELECT abs(pap.answer_count('x_cdf', 'x <= 500') - pap.answer('x_cdf', 'x <= 500') * 2704) < 1e-6 AS count_is_fraction_times_n;
-- projection: a query between two public values gets the answer of the cover query below it (refined answers
-- spread the gap instead: 28_gap_spread)
SELECT pap.answer('x_cdf', 'x <= 505', false) = pap.answer('x_cdf', 'x <= 500', false) AS projected,
       pap.answer('x_cdf', 'x < 510', false) = pap.answer('x_cdf', 'x <= 500', false) AS strict_projected;
-- the worst error over every threshold, against plain SQL
SELECT max(abs(pap.answer('x_cdf', format('x <= %s', t))
               - (SELECT count(*) FROM priv WHERE x <= t)::float8 / 2704)) < 0.1 AS max_error_below_0_1
  FROM generate_series(0, 999) AS t;
-- literals: quoted numbers and infinities
SELECT pap.answer('x_cdf', 'x <= ''Infinity''') > 0.9 AS infinity_literal,
       pap.answer('x_cdf', 'x <= ''-Infinity''') AS minus_infinity,
       pap.answer('x_cdf', 'x <= 1e9') = pap.answer('x_cdf', 'x <= ''1e9''') AS quoted_number;

-- malformed queries and queries outside the class
SELECT pap.answer('x_cdf', 'x >= 500');
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT pap.answer('x_cdf', 'x BETWEEN 1 AND 2');
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT pap.answer('x_cdf', 'k <= 3');
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT pap.answer('x_cdf', 'x <== 3');
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT pap.answer('x_cdf', 'x <= ');
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT pap.answer('x_cdf', 'x <= abc');
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT pap.answer('x_cdf', 'x <= ''1e999''');
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT pap.answer('x_cdf', '');
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT pap.answer('nope', 'x <= 1');
\echo SQLSTATE :LAST_ERROR_SQLSTATE

-- every cover query, and the synthetic distribution
SELECT count(*) AS cover_queries, min(answer) AS smallest, round(max(answer)::numeric, 4) AS largest FROM pap.answers('x_cdf');
SELECT cover_query, query, round(answer::numeric, 4) AS answer FROM pap.answers('x_cdf') ORDER BY cover_query LIMIT 3;
SELECT count(*) AS cells, round(sum(weight)::numeric, 6) AS total_weight, round(sum(count)) AS total_count,
       bool_and(weight > 0) AS positive FROM pap.synthetic('x_cdf');
SELECT cell, bounds FROM pap.synthetic('x_cdf') WHERE cell IN (0, 1, 101, 102, 103) ORDER BY cell;
-- answering many queries of two releases in one statement
SELECT pap.set_budget('priv', 3);
CALL pap.run_release('x_ranges', 0.5);
SELECT name, count(*) AS answered
  FROM (VALUES ('x_cdf'), ('x_ranges')) AS r(name) CROSS JOIN generate_series(1, 300) AS t
 WHERE pap.answer(name, format('x <= %s', t)) BETWEEN 0 AND 1 GROUP BY name ORDER BY name;

-- ranges: intervals of every form; complements add up
SELECT round((pap.answer('x_ranges', 'x <= 300') + pap.answer('x_ranges', 'x > 300'))::numeric, 3) AS both_sides,
       pap.answer('x_ranges', 'x BETWEEN 200 AND 300') = pap.answer('x_ranges', 'x >= 200 AND x <= 300') AS same_interval,
       pap.answer('x_ranges', 'x BETWEEN 300 AND 200') AS empty_interval,
       pap.answer('x_ranges', 'x = 500') >= 0 AS equality;
SELECT query FROM pap.answers('x_ranges') ORDER BY cover_query LIMIT 4;

-- dropping: the charge stays
SELECT pap.drop_release('x_ranges');
SELECT pap.drop_release('x_ranges');
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT release_name, epsilon FROM pap.ledger ORDER BY entry_id;
SELECT epsilon_spent FROM pap.budgets;
