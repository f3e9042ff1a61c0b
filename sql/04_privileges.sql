-- Privileges follow PostgreSQL's: running a release needs SELECT on the private table, setting its budget
-- needs ownership, reading released answers needs nothing on it, and the catalog is written only by pap.
SET pap_release.test_seed = 3;
CREATE ROLE regress_owner;
CREATE ROLE regress_curator;
CREATE ROLE regress_analyst;
CREATE TABLE secret AS SELECT x, k FROM priv WHERE x IS NOT NULL AND x = x;
CREATE TABLE sample AS SELECT x, k FROM pub;
ALTER TABLE secret OWNER TO regress_owner;
ALTER TABLE sample OWNER TO regress_owner;
GRANT SELECT ON secret, sample TO regress_curator;
GRANT SELECT ON sample TO regress_analyst;

-- the owner sets the budget; nobody else may
SET ROLE regress_curator;
SELECT pap.set_budget('secret', 5);
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SET ROLE regress_owner;
SELECT pap.set_budget('secret', 1);
SELECT pap.grant_spend('secret', 'regress_curator');  -- SELECT alone does not let it spend (21_spend_rights)

-- the curator (SELECT on the table) defines and runs within that budget
SET ROLE regress_curator;
SELECT pap.define_release('secret_cdf', 'secret', 'sample', 'thresholds(x)', granularity => 'alpha');
CALL pap.run_release('secret_cdf', 0.75);
CALL pap.run_release('secret_cdf', 0.5);
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT pap.define_release('secret_more', 'secret', 'sample', 'thresholds(x)', granularity => 'alpha');
CALL pap.run_release('secret_more', 0.5);
\echo SQLSTATE :LAST_ERROR_SQLSTATE

-- the analyst (no SELECT on secret) reads answers, synthetic data and views ...
SET ROLE regress_analyst;
SELECT pap.answer('secret_cdf', 'x <= 500') BETWEEN 0 AND 1 AS answered;
SELECT count(*) > 0 AS synthetic_readable FROM pap.synthetic('secret_cdf');
SELECT count(*) AS answers FROM pap.answers('secret_cdf');
SELECT name, state FROM pap.releases WHERE name LIKE 'secret%' ORDER BY name;
SELECT release_name, epsilon FROM pap.ledger WHERE release_name LIKE 'secret%';
-- ... and nothing else
SELECT count(*) FROM secret;
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT * FROM pap.plan('secret_more', 0.1);
\echo SQLSTATE :LAST_ERROR_SQLSTATE
CALL pap.run_release('secret_more', 0.1);
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT pap.define_release('analyst_try', 'secret', 'sample', 'thresholds(x)', granularity => 'alpha');
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT pap.set_budget('secret', 100);
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT pap.drop_release('secret_cdf');
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT * FROM pap.release_data;
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT * FROM pap.budget_data;
\echo SQLSTATE :LAST_ERROR_SQLSTATE
INSERT INTO pap.ledger_data (private_table, release_name, epsilon, delta, mechanism, charged_by, charged_at)
VALUES ('secret', 'forged', -1, 0, 'pmw', 'me', now());
\echo SQLSTATE :LAST_ERROR_SQLSTATE
UPDATE pap.budget_data SET epsilon_total = 100;
\echo SQLSTATE :LAST_ERROR_SQLSTATE
RESET ROLE;

-- a superuser-only setting: noise reproducible only where a superuser allows it
SET ROLE regress_analyst;
SET pap_release.test_seed = 1;
\echo SQLSTATE :LAST_ERROR_SQLSTATE
RESET ROLE;
SELECT epsilon_total, epsilon_spent FROM pap.budgets WHERE private_table = 'secret'::regclass;
SELECT name, is_private FROM pap.releases WHERE name LIKE 'secret%' ORDER BY name;
SELECT pap.drop_release('secret_cdf');
SELECT pap.drop_release('secret_more');
DROP TABLE secret, sample;
DROP ROLE regress_owner, regress_curator, regress_analyst;

-- No pap function runs with its owner's rights; those that write the catalog pin search_path; the catalog
-- tables grant nothing to PUBLIC, the views only SELECT.
SELECT p.proname, p.prosecdef, p.proconfig
  FROM pg_proc p WHERE p.pronamespace = 'pap'::regnamespace AND (p.prosecdef OR p.proconfig IS NOT NULL)
 ORDER BY 1;
SELECT c.relname, c.relacl FROM pg_class c
 WHERE c.relnamespace = 'pap'::regnamespace AND c.relkind IN ('r', 'v', 'S') ORDER BY 1;
