-- The answer cache (docs/reference.md, "Answer cache"): a release is loaded once per backend and checked once
-- per statement against its catalog row, so answers follow every define_release, run_release and drop_release,
-- inside the transaction that makes them and after a ROLLBACK; and the refine option of pap.answer.
SET pap_release.test_seed = 8;
SET extra_float_digits = 0;
SELECT pap.set_budget('priv', 100);

SELECT pap.define_release('cache_t', 'priv', 'pub', 'thresholds(x)', alpha => 0.2, granularity => 'alpha');
CALL pap.run_release('cache_t', 1.0);
CREATE TEMP TABLE first_answer AS SELECT pap.answer('cache_t', 'x <= 500') AS a;
-- the same answer from the cache, in many calls of one statement and in later statements
SELECT count(*) AS calls, bool_and(pap.answer('cache_t', 'x <= 500') = (SELECT a FROM first_answer)) AS same
  FROM generate_series(1, 1000);
SELECT pap.answer('cache_t', 'x <= 500') = a AS same FROM first_answer;

-- dropped inside a transaction: gone for the transaction's next statement; back after ROLLBACK
BEGIN;
SELECT pap.drop_release('cache_t');
SELECT pap.answer('cache_t', 'x <= 500');
ROLLBACK;
SELECT pap.answer('cache_t', 'x <= 500') = a AS same_after_rollback FROM first_answer;

-- redefined inside a transaction: not run yet in it; the released answers again after ROLLBACK
BEGIN;
SELECT pap.drop_release('cache_t');
SELECT pap.define_release('cache_t', 'priv', 'pub', 'thresholds(x)', alpha => 0.2, granularity => 'alpha');
SELECT pap.answer('cache_t', 'x <= 500');
ROLLBACK;
SELECT pap.answer('cache_t', 'x <= 500') = a AS same_after_rollback FROM first_answer;

-- run again under another seed: the next statement answers from the new release
SELECT pap.drop_release('cache_t');
SELECT pap.define_release('cache_t', 'priv', 'pub', 'thresholds(x)', alpha => 0.2, granularity => 'alpha');
SET pap_release.test_seed = 9;
CALL pap.run_release('cache_t', 1.0);
SELECT pap.answer('cache_t', 'x <= 500') <> a AS changed FROM first_answer;
SET pap_release.test_seed = 8;

-- PL/pgSQL keeps an expression's state across the statements of a loop: each statement still checks the catalog
CREATE FUNCTION answer_twice() RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  a float8;
BEGIN
  FOR i IN 1..2 LOOP
    a := pap.answer('cache_t', 'x <= 500');
    RAISE NOTICE 'answered in iteration %', i;
    PERFORM pap.drop_release('cache_t');
    PERFORM pap.define_release('cache_t', 'priv', 'pub', 'thresholds(x)', alpha => 0.2, granularity => 'alpha');
  END LOOP;
END
$$;
BEGIN;
SELECT answer_twice();
ROLLBACK;
DROP FUNCTION answer_twice();
SELECT pap.answer('cache_t', 'x <= 500') <> a AS released_again FROM first_answer;

-- several releases in one statement, alternating
SELECT pap.define_release('cache_b', 'priv', 'pub', 'boxes(x, k)', alpha => 0.5, granularity => 'alpha');
CALL pap.run_release('cache_b', 1.0);
SELECT n, round(pap.answer(n, 'x <= 500')::numeric, 4) AS answer
  FROM (VALUES (1, 'cache_t'), (2, 'cache_b'), (3, 'cache_t'), (4, 'cache_b')) AS v(i, n) ORDER BY i;
-- a release not run and a missing one
SELECT pap.define_release('cache_new', 'priv', 'pub', 'thresholds(x)');
SELECT pap.answer('cache_new', 'x <= 500');
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT pap.answer('cache_none', 'x <= 500');
\echo SQLSTATE :LAST_ERROR_SQLSTATE

-- a role without any privilege answers from the same cache (answers are free), and sees drops
CREATE ROLE pap_cache_reader;
SET ROLE pap_cache_reader;
SELECT round(pap.answer('cache_b', 'x <= 500')::numeric, 4) AS answer;
RESET ROLE;
DROP ROLE pap_cache_reader;

-- refine: a bound inside a bin counts the bin by the share of its public rows below the bound
SELECT round(pap.answer('cache_b', 'x <= 487.5', refine => false)::numeric, 4) AS plain,
       round(pap.answer('cache_b', 'x <= 487.5', refine => true)::numeric, 4) AS refined,
       round(pap.answer('cache_b', 'x <= 487.5 AND k > 20.5', refine => false)::numeric, 4) AS plain_box,
       round(pap.answer('cache_b', 'x <= 487.5 AND k > 20.5', refine => true)::numeric, 4) AS refined_box;
-- without refine: the release's answer mode (17_answer_mode)
SELECT pap.answer('cache_b', 'x <= 500', refine => (details->>'answer_mode' = 'refine')) = pap.answer('cache_b', 'x <= 500')
       AS default_is_release_mode
  FROM pap.releases WHERE name = 'cache_b';
SELECT abs(pap.answer_count('cache_b', 'x > 100 AND k <= 50', refine => true)
           - pap.answer('cache_b', 'x > 100 AND k <= 50', refine => true) * private_rows) < 1e-6 AS count_is_fraction_times_n
  FROM pap.releases WHERE name = 'cache_b';
-- refined answers move monotonically with the bound, plain ones in steps at the cuts
SELECT count(DISTINCT round(pap.answer('cache_b', format('x <= %s', v), refine => true)::numeric, 9)) >
       count(DISTINCT round(pap.answer('cache_b', format('x <= %s', v), refine => false)::numeric, 9)) AS finer,
       bool_and(r_next >= r - 1e-12) AS monotone
  FROM (SELECT v, pap.answer('cache_b', format('x <= %s', v), refine => true) AS r,
               lead(pap.answer('cache_b', format('x <= %s', v), refine => true)) OVER (ORDER BY v) AS r_next
          FROM generate_series(0, 1000, 7) AS v) s
 WHERE r_next IS NOT NULL;
-- at the finest granularity every bin holds one public value: refine changes nothing
SELECT pap.define_release('cache_f', 'priv', 'pub', 'ranges(x)', granularity => 'finest');
CALL pap.run_release('cache_f', 1.0);
SELECT bool_and(abs(pap.answer('cache_f', format('x > %s AND x <= %s', v, v + 250.5), refine => true)
                    - pap.answer('cache_f', format('x > %s AND x <= %s', v, v + 250.5))) < 1e-12) AS refine_is_plain
  FROM generate_series(-10, 1000, 13) AS v;
-- classes without numeric bins ignore it
SELECT pap.define_release('cache_m', 'priv', 'pub', 'marginals(1; k)');
CALL pap.run_release('cache_m', 1.0);
SELECT pap.answer('cache_m', 'k = 3', refine => true) = pap.answer('cache_m', 'k = 3') AS ignored;
-- refine => NULL is the release's answer mode (17_answer_mode), not a NULL answer
SELECT pap.answer('cache_b', 'x <= 500', refine => NULL) = pap.answer('cache_b', 'x <= 500') AS release_mode;

-- The cache's bound counts all a model holds, its category texts too: a release of 2,000 categories of about
-- 1,000 characters holds megabytes (its arrays, which were all the bound counted, about 100 kB). Under a 1 MB
-- setting it is kept only for the statement that loaded it, and the next statement loads it again; under the
-- default the next statement finds it cached. DEBUG1 reports each load.
CREATE TABLE long_pub(c text);
CREATE TABLE long_priv(c text);
INSERT INTO long_pub SELECT repeat(md5(i::text), 31) || i FROM generate_series(1, 2000) AS i;
INSERT INTO long_priv SELECT c FROM long_pub;
SELECT pap.set_budget('long_priv', 1);
SELECT pap.define_release('cache_long', 'long_priv', 'long_pub', 'marginals(1; c)');
CALL pap.run_release('cache_long', 1.0);
\set VERBOSITY terse
SET max_parallel_workers_per_gather = 0;  -- one backend's cache (a parallel worker starts with an empty one)
SET client_min_messages = debug1;
SET pap_release.answer_cache_mb = 1;
SELECT pap.answer('cache_long', format('c = %L', c)) >= 0 AS answered FROM long_pub LIMIT 1;
SELECT pap.answer('cache_long', format('c = %L', c)) >= 0 AS answered FROM long_pub LIMIT 1;
RESET pap_release.answer_cache_mb;
SELECT pap.answer('cache_long', format('c = %L', c)) >= 0 AS answered FROM long_pub LIMIT 1;
SELECT pap.answer('cache_long', format('c = %L', c)) >= 0 AS answered FROM long_pub LIMIT 1;
RESET client_min_messages;
RESET max_parallel_workers_per_gather;
\set VERBOSITY default
