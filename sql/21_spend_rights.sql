-- The right to spend a private table's budget is separate from SELECT: the owner holds it, another role holds it
-- by the owner's pap.grant_spend, optionally up to an epsilon limit that is checked in the charge's transaction.
SET pap_release.test_seed = 5;
SET client_min_messages = warning;  -- the runs' progress NOTICEs are 02_run's business
CREATE ROLE regress_sp_owner;
CREATE ROLE regress_sp_reader;
CREATE ROLE regress_sp_other;
CREATE TABLE sp_priv AS SELECT x FROM priv WHERE x IS NOT NULL AND x = x;
CREATE TABLE sp_pub AS SELECT x FROM pub;
ALTER TABLE sp_priv OWNER TO regress_sp_owner;
ALTER TABLE sp_pub OWNER TO regress_sp_owner;
GRANT SELECT ON sp_priv, sp_pub TO regress_sp_reader, regress_sp_other;

-- grants need a budget, and only the owner grants
SET ROLE regress_sp_owner;
SELECT pap.grant_spend('sp_priv', 'regress_sp_reader');
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT pap.set_budget('sp_priv', 2);
SET ROLE regress_sp_reader;
SELECT pap.grant_spend('sp_priv', 'regress_sp_reader');
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT pap.revoke_spend('sp_priv', 'regress_sp_other');
\echo SQLSTATE :LAST_ERROR_SQLSTATE

-- SELECT alone: the reader defines and plans (free), but may not spend; nothing is charged
SELECT pap.define_release('sp_a', 'sp_priv', 'sp_pub', 'thresholds(x)');
SELECT pap.define_release('sp_b', 'sp_priv', 'sp_pub', 'thresholds(x)');
SELECT pap.define_release('sp_c', 'sp_priv', 'sp_pub', 'thresholds(x)');
SELECT pap.define_release('sp_d', 'sp_priv', 'sp_pub', 'thresholds(x)');
SELECT chosen_mechanism IS NOT NULL AS planned FROM pap.plan('sp_a', 0.3);
CALL pap.run_release('sp_a', 0.3);
SELECT epsilon_spent FROM pap.budgets WHERE private_table = 'sp_priv'::regclass;
SELECT count(*) AS charges FROM pap.ledger WHERE private_table = 'sp_priv'::regclass;

-- bad grants: NULLs, limits that are not finite and positive, the owner itself
SET ROLE regress_sp_owner;
SELECT pap.grant_spend(NULL, 'regress_sp_reader');
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT pap.grant_spend('sp_priv', NULL);
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT pap.grant_spend('sp_priv', 'regress_sp_reader', 'NaN');
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT pap.grant_spend('sp_priv', 'regress_sp_reader', 'Infinity');
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT pap.grant_spend('sp_priv', 'regress_sp_reader', 0);
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT pap.grant_spend('sp_priv', 'regress_sp_reader', -1);
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT pap.grant_spend('sp_priv', 'regress_sp_owner');
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT count(*) AS grants FROM pap.spenders WHERE table_name = 'public.sp_priv';

-- a limit of 0.5: a run of 0.3 fits, a second one does not (refused before the count, nothing charged)
SELECT pap.grant_spend('sp_priv', 'regress_sp_reader', 0.5);
SET ROLE regress_sp_reader;
CALL pap.run_release('sp_a', 0.3);
CALL pap.run_release('sp_b', 0.3);
SELECT table_name, grantee, epsilon_limit, epsilon_spent, epsilon_remaining, granted_by FROM pap.spenders
 WHERE table_name = 'public.sp_priv';
SELECT epsilon_spent FROM pap.budgets WHERE private_table = 'sp_priv'::regclass;

-- granting again changes the limit and keeps what was spent; the limit is a total, up to the boundary
SET ROLE regress_sp_owner;
SELECT pap.grant_spend('sp_priv', 'regress_sp_reader', 0.6);
SET ROLE regress_sp_reader;
CALL pap.run_release('sp_b', 0.3);
SELECT epsilon_limit, epsilon_spent, epsilon_remaining FROM pap.spenders WHERE table_name = 'public.sp_priv';
SET ROLE regress_sp_owner;
SELECT pap.grant_spend('sp_priv', 'regress_sp_reader');  -- NULL: no limit but the table's budget
SET ROLE regress_sp_reader;
CALL pap.run_release('sp_c', 0.2);
SELECT epsilon_limit, epsilon_spent, epsilon_remaining FROM pap.spenders WHERE table_name = 'public.sp_priv';

-- revoked: refused again (nothing refunded); revoking a right that is not held warns, as REVOKE does
SET ROLE regress_sp_owner;
SELECT pap.revoke_spend('sp_priv', 'regress_sp_reader');
SELECT pap.revoke_spend('sp_priv', 'regress_sp_reader');
SET ROLE regress_sp_reader;
CALL pap.run_release('sp_d', 0.1);
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT count(*) AS grants FROM pap.spenders WHERE table_name = 'public.sp_priv';

-- the owner spends without a grant, beyond any grantee's limit; the ledger names who charged
SET ROLE regress_sp_owner;
SELECT pap.define_release('sp_owner', 'sp_priv', 'sp_pub', 'thresholds(x)');
CALL pap.run_release('sp_owner', 0.7);
SELECT release_name, epsilon, charged_by FROM pap.ledger WHERE private_table = 'sp_priv'::regclass ORDER BY entry_id;
SELECT epsilon_total, epsilon_spent FROM pap.budgets WHERE private_table = 'sp_priv'::regclass;

-- the catalog is written only by pap
SET ROLE regress_sp_reader;
INSERT INTO pap.spender_data (budget_id, grantee, granted_by, granted_at) VALUES (1, 'me', 'me', now());
\echo SQLSTATE :LAST_ERROR_SQLSTATE

-- a dropped role's grant stays (PostgreSQL does not know of it) until the owner revokes it by name
RESET ROLE;
CREATE ROLE regress_sp_gone;
SELECT pap.grant_spend('sp_priv', 'regress_sp_gone');
DROP ROLE regress_sp_gone;
SELECT grantee FROM pap.spenders WHERE table_name = 'public.sp_priv';
SELECT pap.revoke_spend('sp_priv', 'regress_sp_gone');
SELECT count(*) AS grants FROM pap.spenders WHERE table_name = 'public.sp_priv';

-- a dropped table's grants go with it (its budget row stays, detached)
SELECT pap.grant_spend('sp_priv', 'regress_sp_other', 0.1);
SELECT pap.drop_release(r) FROM unnest(ARRAY['sp_a', 'sp_b', 'sp_c', 'sp_d', 'sp_owner']) AS r;
DROP TABLE sp_priv, sp_pub;
SELECT count(*) AS grants_left FROM pap.spender_data;
DROP ROLE regress_sp_owner, regress_sp_reader, regress_sp_other;
RESET client_min_messages;
