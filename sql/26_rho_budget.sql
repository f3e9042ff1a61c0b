-- Budgets in rho (zero-concentrated DP): pap.set_budget_rho, a run's cost rho = epsilon^2 / 2, Gaussian noise chosen
-- where it is better, the ledger in both units (the tight conversion at the budget's delta), limits of grantees in
-- rho, one unit per budget once anything is spent, the columns pg_dump keeps (docs/mechanisms.md, "zCDP budgets").
SET pap_release.test_seed = 11;
SET client_min_messages = warning;  -- the runs' progress NOTICEs are 02_run's business
SET extra_float_digits = 0;
CREATE ROLE regress_rho_owner;
CREATE ROLE regress_rho_reader;
CREATE TABLE rho_priv AS SELECT x, k, k % 2 = 0 AS flag FROM priv
 WHERE x IS NOT NULL AND x = x AND x < 'Infinity' AND x > '-Infinity';
CREATE TABLE rho_pub AS SELECT x, k, k % 2 = 0 AS flag FROM pub;
CREATE TABLE rho_other AS SELECT x FROM rho_priv;
ALTER TABLE rho_priv OWNER TO regress_rho_owner;
ALTER TABLE rho_pub OWNER TO regress_rho_owner;
ALTER TABLE rho_other OWNER TO regress_rho_owner;
GRANT SELECT ON rho_priv, rho_pub TO regress_rho_reader;

-- the conversion: CKS20 Corollary 13 solved for epsilon (5.2215344445 for rho 0.5, delta 1e-6, computed
-- independently), 0 for rho 0 and below about delta^2, below the classic rho + 2 sqrt(rho ln(1/delta))
SELECT round(pap.zcdp_epsilon(0.5, 1e-6)::numeric, 9) AS tight,
       round((0.5 + 2 * sqrt(0.5 * ln(1e6)))::numeric, 9) AS classic;
SELECT pap.zcdp_epsilon(0, 1e-6) AS zero, pap.zcdp_epsilon(1e-14, 1e-6) AS tiny,
       pap.zcdp_epsilon('Infinity', 1e-6) AS infinite, pap.zcdp_epsilon(NULL, 1e-6) AS null_rho;
SELECT pap.zcdp_epsilon(0.01, 1e-3) < pap.zcdp_epsilon(0.01, 1e-9) AS smaller_delta_costs_more,
       pap.zcdp_epsilon(0.01, 1e-6) < pap.zcdp_epsilon(0.02, 1e-6) AS larger_rho_costs_more;
SELECT pap.zcdp_epsilon(-1, 1e-6);
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT pap.zcdp_epsilon('NaN', 1e-6);
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT pap.zcdp_epsilon(0.5, 0);
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT pap.zcdp_epsilon(0.5, 1);
\echo SQLSTATE :LAST_ERROR_SQLSTATE

-- set_budget_rho: bad values, only the owner
SET ROLE regress_rho_owner;
SELECT pap.set_budget_rho('rho_priv', 0, 1e-6);
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT pap.set_budget_rho('rho_priv', 'NaN', 1e-6);
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT pap.set_budget_rho('rho_priv', 'Infinity', 1e-6);
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT pap.set_budget_rho('rho_priv', 1, 0);
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT pap.set_budget_rho('rho_priv', 1, 1);
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SET ROLE regress_rho_reader;
SELECT pap.set_budget_rho('rho_priv', 1, 1e-6);
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SET ROLE regress_rho_owner;
SELECT pap.set_budget_rho('rho_priv', 0.5, 1e-6);
SELECT table_name, unit, rho_total, rho_spent, rho_remaining, epsilon_total, epsilon_spent, epsilon_remaining,
       delta_total, delta_spent, delta_remaining
  FROM pap.budgets WHERE private_table = 'rho_priv'::regclass;

-- the unit changes freely while nothing is spent
SELECT pap.set_budget('rho_other', 1);
SELECT pap.set_budget_rho('rho_other', 0.1, 1e-9);
SELECT unit, rho_total, epsilon_total, delta_total FROM pap.budgets WHERE private_table = 'rho_other'::regclass;
SELECT pap.set_budget('rho_other', 2, 1e-6);
SELECT unit, rho_total, epsilon_total, delta_total FROM pap.budgets WHERE private_table = 'rho_other'::regclass;

-- a run on a budget in rho is asked for with epsilon alone (its delta is the budget's) and costs epsilon^2 / 2
SELECT pap.define_release('rho_a', 'rho_priv', 'rho_pub', 'thresholds(x)');
SELECT pap.define_release('rho_b', 'rho_priv', 'rho_pub', 'marginals(1; k)');
SELECT pap.define_release('rho_c', 'rho_priv', 'rho_pub', 'thresholds(x)');
SELECT pap.define_release('rho_d', 'rho_priv', 'rho_pub', 'thresholds(x)');
SELECT * FROM pap.plan('rho_a', 0.5, 1e-6);
\echo SQLSTATE :LAST_ERROR_SQLSTATE
CALL pap.run_release('rho_a', 0.5, 1e-6);
\echo SQLSTATE :LAST_ERROR_SQLSTATE
-- identity on the k-way table: under rho 0.125 the discrete Gaussian (sigma^2 = 2 / (2 rho) = 8) beats the
-- discrete Laplace (variance 2 (2 / 0.5)^2 = 32), so the plan takes it: its charge reports a delta, the budget's
SELECT chosen_mechanism FROM pap.plan('rho_b', 0.5, mechanism => 'identity');
CALL pap.run_release('rho_b', 0.5, mechanism => 'identity');
CALL pap.run_release('rho_a', 0.5);
SELECT release_name, mechanism, rho, epsilon, delta FROM pap.ledger
 WHERE private_table = 'rho_priv'::regclass ORDER BY entry_id;
-- a zCDP run's guarantee is the tight conversion of its exact rho (at most the 0.125 charged) at the budget's delta
SELECT l.release_name, round(l.epsilon, 9) = round(pap.zcdp_epsilon((r.details ->> 'rho_used')::float8, 1e-6)::numeric, 9)
       AS converted, l.epsilon <= pap.zcdp_epsilon(0.125, 1e-6)::numeric AS within_charge
  FROM pap.ledger l JOIN pap.releases r ON r.name = l.release_name
 WHERE l.release_name IN ('rho_a', 'rho_b') ORDER BY l.entry_id;
SELECT name, mechanism, epsilon > 0 AS has_epsilon, delta, (details ->> 'rho_used')::float8 <= 0.125 AS within_rho
  FROM pap.releases WHERE name IN ('rho_a', 'rho_b') ORDER BY name;
SELECT unit, rho_total, rho_spent, rho_remaining, epsilon_spent = round(pap.zcdp_epsilon(0.25, 1e-6)::numeric, 13)
       OR abs(epsilon_spent - pap.zcdp_epsilon(0.25, 1e-6)::numeric) < 1e-12 AS spent_is_converted,
       delta_spent
  FROM pap.budgets WHERE private_table = 'rho_priv'::regclass;

-- PMW on a budget in rho: pure at epsilon 0.5 or its zCDP sparse vector at rho 0.125, whichever predicts less
CALL pap.run_release('rho_d', 0.5, mechanism => 'pmw');
SELECT l.rho, l.delta > 0 AS zcdp_plan, r.details ->> 'accounting' AS accounting
  FROM pap.ledger l JOIN pap.releases r ON r.name = l.release_name WHERE l.release_name = 'rho_d';

-- a run that would exceed is refused before anything is read or charged: 0.8^2 / 2 = 0.32 > 0.5 - 0.375
CALL pap.run_release('rho_c', 0.8);
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT count(*) AS charges, max(rho_spent) AS rho_spent
  FROM pap.ledger, pap.budgets WHERE pap.ledger.private_table = 'rho_priv'::regclass
   AND pap.budgets.private_table = 'rho_priv'::regclass;

-- once something is spent the unit stays: set_budget is refused; the total in rho may grow, never below the spent
SELECT pap.set_budget('rho_priv', 10);
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT pap.set_budget_rho('rho_priv', 0.2, 1e-6);
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT pap.set_budget_rho('rho_priv', 2, 1e-9);
-- a new delta reports what is spent at that delta
SELECT rho_total, rho_spent, delta_total, delta_spent,
       round(epsilon_spent, 9) = round(pap.zcdp_epsilon(0.375, 1e-9)::numeric, 9) AS spent_is_converted
  FROM pap.budgets WHERE private_table = 'rho_priv'::regclass;
-- and the other way: an epsilon budget with a charge does not become a rho budget
SELECT pap.set_budget('rho_other', 2);
SELECT pap.define_release('rho_e', 'rho_other', 'rho_pub', 'thresholds(x)');
CALL pap.run_release('rho_e', 0.1);
SELECT pap.set_budget_rho('rho_other', 1, 1e-6);
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT release_name, rho, epsilon FROM pap.ledger WHERE release_name = 'rho_e';

-- grants on a budget in rho: limits in rho (pap.grant_spend_rho), never a limit in epsilon
SELECT pap.grant_spend('rho_priv', 'regress_rho_reader', 0.5);
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT pap.grant_spend_rho('rho_other', 'regress_rho_reader', 0.5);
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT pap.grant_spend_rho('rho_priv', 'regress_rho_reader', 0);
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT pap.grant_spend_rho('rho_priv', 'regress_rho_reader', 0.2);
SET ROLE regress_rho_reader;
SELECT pap.define_release('rho_r1', 'rho_priv', 'rho_pub', 'thresholds(x)');
SELECT pap.define_release('rho_r2', 'rho_priv', 'rho_pub', 'thresholds(x)');
CALL pap.run_release('rho_r1', 0.5);
CALL pap.run_release('rho_r2', 0.5);
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT table_name, grantee, epsilon_limit, epsilon_spent, rho_limit, rho_spent, rho_remaining FROM pap.spenders
 WHERE table_name = 'public.rho_priv';
-- granting again without a limit keeps what the role spent
SET ROLE regress_rho_owner;
SELECT pap.grant_spend_rho('rho_priv', 'regress_rho_reader');
SELECT rho_limit, rho_spent FROM pap.spenders WHERE table_name = 'public.rho_priv';

-- a labelling's stable vote is (epsilon, delta)-DP without a zCDP guarantee: refused on a budget in rho
SELECT pap.define_labelling('rho_l', 'rho_priv', 'rho_pub', 'flag', '{x}');
CALL pap.run_labelling('rho_l', 1, 1e-6);
\echo SQLSTATE :LAST_ERROR_SQLSTATE

-- the exponential mechanism's quantile, epsilon-bounded-range, costs epsilon^2 / 8: 0.2^2 / 8 = 0.005
CALL pap.run_private_quantile('rho_q', 'rho_priv', 'x', 0.5, 0.2, '{"min": 0, "max": 1000, "step": 10}');
SELECT release_name, mechanism, rho, epsilon, delta FROM pap.ledger WHERE release_name = 'rho_q';
SELECT rho_spent FROM pap.budgets WHERE private_table = 'rho_priv'::regclass;

-- what pg_dump keeps: the catalog tables are configuration tables, and their new columns are plain columns of them
RESET ROLE;
SELECT c.relname, array_agg(a.attname ORDER BY a.attnum) AS rho_columns
  FROM pg_extension e, unnest(e.extconfig) AS t(oid) JOIN pg_class c ON c.oid = t.oid
  JOIN pg_attribute a ON a.attrelid = c.oid AND a.attname LIKE 'rho%' AND NOT a.attisdropped
 WHERE e.extname = 'pap_release' GROUP BY c.relname ORDER BY c.relname;

-- clean up (the budgets and the ledger stay, detached, as for every dropped table)
DROP TABLE rho_priv, rho_pub, rho_other;
DROP OWNED BY regress_rho_owner, regress_rho_reader;
DROP ROLE regress_rho_owner, regress_rho_reader;
