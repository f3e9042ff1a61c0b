-- The C++ exception boundary (docs/robustness.md): no C++ exception may reach PostgreSQL. The test-only,
-- superuser-only setting pap_release.debug_inject_error makes every PAP_CORE call (src/pg/error_bridge.hpp)
-- throw before its body runs: 1 std::runtime_error, 2 std::bad_alloc, 3 pap::core::Error(Internal), 4 an int.
-- Every SQL entry point that calls the core must then fail with a clean ERROR of the right SQLSTATE
-- (XX000, or 53200 for std::bad_alloc), and the backend must survive (SELECT 1 right after).
SET pap_release.test_seed = 1;
SET extra_float_digits = 0;

-- setting off: a private and a public table of their own, a budget, one released and one pending release
CREATE TABLE eb_priv AS SELECT (i % 100)::float8 AS x FROM generate_series(1, 500) AS i;
CREATE TABLE eb_pub AS SELECT (i % 100)::float8 AS x FROM generate_series(1, 500, 7) AS i;
SELECT pap.set_budget('eb_priv', 5);
SELECT pap.define_release('eb_done', 'eb_priv', 'eb_pub', 'thresholds(x)', granularity => 'alpha');
SELECT pap.define_release('eb_pending', 'eb_priv', 'eb_pub', 'thresholds(x)', granularity => 'alpha');
CALL pap.run_release('eb_done', 1.0);
SELECT count(*) AS ledger_entries FROM pap.ledger WHERE release_name LIKE 'eb\_%';
SELECT pap.answer('eb_done', 'x <= 50') > 0 AS answered;

-- only a superuser may set the hook
CREATE ROLE regress_eb_analyst;
SET ROLE regress_eb_analyst;
SET pap_release.debug_inject_error = 1;
\echo SQLSTATE :LAST_ERROR_SQLSTATE
RESET ROLE;
DROP ROLE regress_eb_analyst;
-- out of range
SET pap_release.debug_inject_error = 5;
\echo SQLSTATE :LAST_ERROR_SQLSTATE

-- 1: std::runtime_error: every entry point raises XX000, and the backend survives
SET pap_release.debug_inject_error = 1;
SELECT pap.set_budget('eb_priv', 5);
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT 1 AS alive;
SELECT pap.define_release('eb_new', 'eb_priv', 'eb_pub', 'thresholds(x)', granularity => 'alpha');
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT 1 AS alive;
SELECT cutoff FROM pap.plan('eb_done', 1.0);
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT 1 AS alive;
CALL pap.run_release('eb_pending', 1.0);
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT 1 AS alive;
SELECT pap.answer('eb_done', 'x <= 50');
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT 1 AS alive;
SELECT pap.answer_count('eb_done', 'x <= 50');
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT 1 AS alive;
SELECT count(*) FROM pap.answers('eb_done');
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT 1 AS alive;
SELECT count(*) FROM pap.synthetic('eb_done');
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT 1 AS alive;

-- 2: std::bad_alloc: every entry point raises 53200, and the backend survives
SET pap_release.debug_inject_error = 2;
SELECT pap.set_budget('eb_priv', 5);
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT 1 AS alive;
SELECT pap.define_release('eb_new', 'eb_priv', 'eb_pub', 'thresholds(x)', granularity => 'alpha');
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT 1 AS alive;
SELECT cutoff FROM pap.plan('eb_done', 1.0);
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT 1 AS alive;
CALL pap.run_release('eb_pending', 1.0);
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT 1 AS alive;
SELECT pap.answer('eb_done', 'x <= 50');
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT 1 AS alive;
SELECT pap.answer_count('eb_done', 'x <= 50');
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT 1 AS alive;
SELECT count(*) FROM pap.answers('eb_done');
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT 1 AS alive;
SELECT count(*) FROM pap.synthetic('eb_done');
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT 1 AS alive;

-- 3: pap::core::Error(Internal): every entry point raises XX000, and the backend survives
SET pap_release.debug_inject_error = 3;
SELECT pap.set_budget('eb_priv', 5);
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT 1 AS alive;
SELECT pap.define_release('eb_new', 'eb_priv', 'eb_pub', 'thresholds(x)', granularity => 'alpha');
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT 1 AS alive;
SELECT cutoff FROM pap.plan('eb_done', 1.0);
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT 1 AS alive;
CALL pap.run_release('eb_pending', 1.0);
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT 1 AS alive;
SELECT pap.answer('eb_done', 'x <= 50');
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT 1 AS alive;
SELECT pap.answer_count('eb_done', 'x <= 50');
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT 1 AS alive;
SELECT count(*) FROM pap.answers('eb_done');
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT 1 AS alive;
SELECT count(*) FROM pap.synthetic('eb_done');
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT 1 AS alive;

-- 4: throw 42 (not an exception class): every entry point raises XX000, and the backend survives
SET pap_release.debug_inject_error = 4;
SELECT pap.set_budget('eb_priv', 5);
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT 1 AS alive;
SELECT pap.define_release('eb_new', 'eb_priv', 'eb_pub', 'thresholds(x)', granularity => 'alpha');
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT 1 AS alive;
SELECT cutoff FROM pap.plan('eb_done', 1.0);
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT 1 AS alive;
CALL pap.run_release('eb_pending', 1.0);
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT 1 AS alive;
SELECT pap.answer('eb_done', 'x <= 50');
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT 1 AS alive;
SELECT pap.answer_count('eb_done', 'x <= 50');
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT 1 AS alive;
SELECT count(*) FROM pap.answers('eb_done');
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT 1 AS alive;
SELECT count(*) FROM pap.synthetic('eb_done');
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT 1 AS alive;

-- setting off again: everything works, and nothing was left half done
RESET pap_release.debug_inject_error;
SELECT pap.answer('eb_done', 'x <= 50') > 0 AS answered;
-- The injected error hits run_release's first PAP_CORE call (the check of mechanism, prior, epsilon and
-- delta), which runs before the charge: none of the four failed runs was charged, and eb_pending is still
-- only defined. (A core failure after the charge, in the mechanism itself, would keep the committed charge.)
SELECT count(*) AS ledger_entries FROM pap.ledger WHERE release_name LIKE 'eb\_%';
SELECT name, state FROM pap.releases WHERE name LIKE 'eb\_%' ORDER BY name;
SELECT private_table, epsilon_total, epsilon_spent FROM pap.budgets WHERE private_table = 'eb_priv'::regclass;
-- and the pending release still runs
CALL pap.run_release('eb_pending', 1.0);
SELECT count(*) AS ledger_entries FROM pap.ledger WHERE release_name LIKE 'eb\_%';
