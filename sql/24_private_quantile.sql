-- pap.run_private_quantile: a DP quantile of a number column over a declared domain, without a public table and
-- without a release (docs/mechanisms.md §16). One charge through the ledger, then free to read by every role.
-- Self-contained: its own tables, budget and roles (seeded noise).
SET pap_release.test_seed = 7;
SET client_min_messages = warning;
CREATE ROLE regress_pq_owner;
CREATE ROLE regress_pq_reader;
-- 2000 rows between 100 and 299 (and NULLs, which rank above every candidate), over a domain 0..1000 step 1.
CREATE TABLE pq_priv AS
SELECT CASE WHEN i % 100 = 0 THEN NULL ELSE 100 + (i * 37) % 200 END::int AS v, 'x' || i AS t
  FROM generate_series(1, 2000) i;
ALTER TABLE pq_priv OWNER TO regress_pq_owner;
GRANT SELECT ON pq_priv TO regress_pq_reader;
CREATE TABLE pq_small AS SELECT i::float8 AS v FROM generate_series(1, 10) i;
ALTER TABLE pq_small OWNER TO regress_pq_owner;
-- The size limits are a superuser's to set (13_settings), and to grant: the owner may raise max_cells below.
GRANT SET ON PARAMETER pap_release.max_cells TO regress_pq_owner;
SET ROLE regress_pq_owner;
SELECT pap.set_budget('pq_priv', 5);

-- The median lies between the private minimum and maximum (n = 2000 is far above (4/epsilon) ln(|X|/beta) = 28).
CALL pap.run_private_quantile('pq_med', 'pq_priv', 'v', 0.5, 1.0, '{"min": 0, "max": 1000, "step": 1}');
SELECT name, private_table, column_name, q, epsilon, domain, candidates, private_rows, is_private, run_by
  FROM pap.private_quantiles;
SELECT value BETWEEN (SELECT min(v) FROM pq_priv) AND (SELECT max(v) FROM pq_priv) AS interior,
       abs(value - (SELECT percentile_disc(0.5) WITHIN GROUP (ORDER BY v) FROM pq_priv)) <= 20 AS near_median
  FROM pap.private_quantiles WHERE name = 'pq_med';
-- Charged once, in the ledger; the budget shows it.
SELECT release_name, epsilon, delta, mechanism, charged_by FROM pap.ledger WHERE release_name LIKE 'pq_%';
SELECT epsilon_spent FROM pap.budgets WHERE private_table = 'pq_priv'::regclass;
-- Other quantiles over a coarser grid: within a step or two of the true ones (NULLs rank above every value, so
-- the target rank counts them).
CALL pap.run_private_quantile('pq_q1', 'pq_priv', 'v', 0.25, 1.0, '{"min": 0, "max": 1000, "step": 10}');
CALL pap.run_private_quantile('pq_q3', 'pq_priv', 'v', 0.75, 1.0, '{"min": 0, "max": 1000, "step": 10}');
SELECT name, abs(value - (SELECT percentile_disc(q) WITHIN GROUP (ORDER BY v) FROM pq_priv)) <= 20 AS near
  FROM pap.private_quantiles WHERE name IN ('pq_q1', 'pq_q3') ORDER BY name;

-- Free to read for every role, including one without SELECT on the table.
SET ROLE regress_pq_reader;
SELECT count(*) FROM pap.private_quantiles WHERE value IS NOT NULL;
-- SELECT alone is not the right to spend (docs/security.md, "Who may spend"): nothing is charged.
CALL pap.run_private_quantile('pq_reader', 'pq_priv', 'v', 0.5, 0.5, '{"min": 0, "max": 1000, "step": 1}');
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SET ROLE regress_pq_owner;

-- A small table: the interior-point guard rail warns with the numbers, and the run goes on.
SET client_min_messages = notice;
SELECT pap.set_budget('pq_small', 1);
CALL pap.run_private_quantile('pq_small', 'pq_small', 'v', 0.5, 0.5, '{"min": 0, "max": 100, "step": 1}');
SET client_min_messages = warning;

-- Refusals, all before the charge: nothing more in the ledger.
CALL pap.run_private_quantile('pq_x', 'pq_priv', 'v', 0.5, 1.0, NULL);
CALL pap.run_private_quantile(NULL, 'pq_priv', 'v', 0.5, 1.0, '{"min": 0, "max": 10, "step": 1}');
CALL pap.run_private_quantile('', 'pq_priv', 'v', 0.5, 1.0, '{"min": 0, "max": 10, "step": 1}');
CALL pap.run_private_quantile('pq_x', 'pq_priv', 'v', 1.5, 1.0, '{"min": 0, "max": 10, "step": 1}');
CALL pap.run_private_quantile('pq_x', 'pq_priv', 'v', 'NaN', 1.0, '{"min": 0, "max": 10, "step": 1}');
CALL pap.run_private_quantile('pq_x', 'pq_priv', 'v', 0.5, 0, '{"min": 0, "max": 10, "step": 1}');
CALL pap.run_private_quantile('pq_x', 'pq_priv', 'v', 0.5, 'Infinity', '{"min": 0, "max": 10, "step": 1}');
CALL pap.run_private_quantile('pq_x', 'pq_priv', 'v', 0.5, 'NaN', '{"min": 0, "max": 10, "step": 1}');
CALL pap.run_private_quantile('pq_x', 'pq_priv', 'v', 0.5, 1.0, '{"min": 0, "max": 10, "step": 1}', beta => 0);
CALL pap.run_private_quantile('pq_x', 'pq_priv', 'v', 0.5, 1.0, '{"min": 0, "max": 10, "step": 1}', beta => 1e-320);
-- At most 2^18 - 2 candidates, whatever max_cells allows: the scan's counts stay one dense array, whatever the rows.
SET pap_release.max_cells = 10000000;
CALL pap.run_private_quantile('pq_x', 'pq_priv', 'v', 0.5, 1.0, '{"min": 0, "max": 262142, "step": 1}');
RESET pap_release.max_cells;
CALL pap.run_private_quantile('pq_x', 'pq_priv', 't', 0.5, 1.0, '{"min": 0, "max": 10, "step": 1}');
CALL pap.run_private_quantile('pq_x', 'pq_priv', 'nope', 0.5, 1.0, '{"min": 0, "max": 10, "step": 1}');
-- An unbounded or invalid domain: the refusal says why (no DP point between the minimum and the maximum).
CALL pap.run_private_quantile('pq_x', 'pq_priv', 'v', 0.5, 1.0, '{}');
CALL pap.run_private_quantile('pq_x', 'pq_priv', 'v', 0.5, 1.0, '{"min": 0, "step": 1}');
CALL pap.run_private_quantile('pq_x', 'pq_priv', 'v', 0.5, 1.0, '[1, 2]');
CALL pap.run_private_quantile('pq_x', 'pq_priv', 'v', 0.5, 1.0, '{"min": 0, "max": 10, "step": 1, "by": 2}');
CALL pap.run_private_quantile('pq_x', 'pq_priv', 'v', 0.5, 1.0, '{"categories": [1, 2]}');
CALL pap.run_private_quantile('pq_x', 'pq_priv', 'v', 0.5, 1.0, '{"min": 10, "max": 0, "step": 1}');
CALL pap.run_private_quantile('pq_x', 'pq_priv', 'v', 0.5, 1.0, '{"min": 0, "max": 10, "step": 0}');
CALL pap.run_private_quantile('pq_x', 'pq_priv', 'v', 0.5, 1.0, '{"min": 0, "max": 1e300, "step": 1}');
-- A name in use, a budget too small, a transaction block.
CALL pap.run_private_quantile('pq_med', 'pq_priv', 'v', 0.5, 1.0, '{"min": 0, "max": 10, "step": 1}');
CALL pap.run_private_quantile('pq_x', 'pq_priv', 'v', 0.5, 100, '{"min": 0, "max": 10, "step": 1}');
BEGIN;
CALL pap.run_private_quantile('pq_x', 'pq_priv', 'v', 0.5, 1.0, '{"min": 0, "max": 10, "step": 1}');
ROLLBACK;
SELECT count(*) AS charges FROM pap.ledger WHERE release_name LIKE 'pq_%';

-- A failure after the charge keeps it: the value stays NULL, the ledger has the row.
RESET ROLE;
SET pap_release.debug_fail_after_charge = on;
CALL pap.run_private_quantile('pq_fail', 'pq_priv', 'v', 0.5, 0.5, '{"min": 0, "max": 10, "step": 1}');
RESET pap_release.debug_fail_after_charge;
SELECT name, value FROM pap.private_quantiles WHERE name = 'pq_fail';
SELECT release_name, epsilon FROM pap.ledger WHERE release_name = 'pq_fail';
SELECT pap.drop_private_quantile('pq_fail');

-- Dropping: only the role that ran it; the charge stays.
SET ROLE regress_pq_reader;
SELECT pap.drop_private_quantile('pq_med');
SET ROLE regress_pq_owner;
SELECT pap.drop_private_quantile('pq_med');
SELECT pap.drop_private_quantile('pq_med');
SELECT count(*) AS charges FROM pap.ledger WHERE release_name LIKE 'pq_%';

-- Rows above the declared max count at the max, as rows below the min count at the min: every value above the
-- domain gives the max (at a large epsilon), not a uniform draw over the domain.
RESET ROLE;
CREATE TABLE pq_high AS SELECT 200::float8 AS v FROM generate_series(1, 500);
ALTER TABLE pq_high OWNER TO regress_pq_owner;
SET ROLE regress_pq_owner;
SELECT pap.set_budget('pq_high', 200);
CALL pap.run_private_quantile('pq_high', 'pq_high', 'v', 0.5, 100, '{"min": 0, "max": 100, "step": 1}');
CALL pap.run_private_quantile('pq_high2', 'pq_high', 'v', 0.5, 100, '{"min": 150, "max": 250, "step": 1}');
SELECT name, value FROM pap.private_quantiles WHERE name LIKE 'pq_high%' ORDER BY name;

-- No temporary file: the scan is one aggregate whose counts stay in memory, so a charged run cannot fail on how
-- many distinct values the rows hold (a GROUP BY scan spilled them under a small work_mem, and temp_file_limit
-- failed the run after its charge where a column of equal values released).
RESET ROLE;
CREATE TABLE pq_spread AS SELECT i::float8 AS v FROM generate_series(0, 49999) i;
ANALYZE pq_spread;
ALTER TABLE pq_spread OWNER TO regress_pq_owner;
SET temp_file_limit = 0;
SET ROLE regress_pq_owner;
SET work_mem = '64kB';
SELECT pap.set_budget('pq_spread', 10);
CALL pap.run_private_quantile('pq_spread', 'pq_spread', 'v', 0.5, 1, '{"min": 0, "max": 49999, "step": 1}');
SELECT name, value BETWEEN 0 AND 49999 AS released FROM pap.private_quantiles WHERE name = 'pq_spread';
RESET work_mem;
RESET ROLE;
RESET temp_file_limit;
SET ROLE regress_pq_owner;

SELECT pap.drop_private_quantile(name) FROM pap.private_quantiles WHERE name LIKE 'pq_%';
RESET ROLE;
DROP TABLE pq_priv, pq_small, pq_high, pq_spread;
REVOKE SET ON PARAMETER pap_release.max_cells FROM regress_pq_owner;
DROP ROLE regress_pq_owner, regress_pq_reader;
