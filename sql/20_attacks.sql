-- Attacks on a release by roles that should not be able to subvert it (docs/security.md, "Attacks the tests
-- try"). Three roles: a DBA who owns a private table, a reader with SELECT on it, and an analyst who may read only
-- a public table and owns a schema of their own. Every attack below worked before the threat model was enforced.
SET pap_release.test_seed = 11;
SET extra_float_digits = 0;
CREATE ROLE regress_dba;
CREATE ROLE regress_reader;
CREATE ROLE regress_an;
CREATE SCHEMA hosp AUTHORIZATION regress_dba;
CREATE SCHEMA an AUTHORIZATION regress_an;
GRANT USAGE ON SCHEMA hosp TO regress_reader, regress_an;
GRANT USAGE ON SCHEMA an TO regress_dba, regress_reader;

SET ROLE regress_dba;
CREATE TABLE hosp.patients AS
SELECT i AS id, (20 + (i * 37) % 60)::int AS age, ((i * 7) % 400)::numeric AS secret, (i % 3 = 0) AS smoker
  FROM generate_series(1, 2000) AS i;
CREATE TABLE hosp.sample AS
SELECT i AS id, (20 + (i * 41) % 60)::int AS age, ((i * 11) % 400)::numeric AS secret, (i % 4 = 0) AS smoker
  FROM generate_series(1, 300) AS i;
GRANT SELECT ON hosp.patients, hosp.sample TO regress_reader;
GRANT SELECT ON hosp.sample TO regress_an;
SELECT pap.set_budget('hosp.patients', 10, 1e-3);

-- The analyst's own tables and a log of whose rights their code ran with.
SET ROLE regress_an;
CREATE TABLE an.loot (who name, what text);
GRANT SELECT, INSERT ON an.loot TO PUBLIC;
CREATE TABLE an.t1 AS SELECT i AS x, (i % 2 = 0) AS smoker FROM generate_series(1, 200) AS i;
CREATE TABLE an.t2 AS SELECT i AS x, (i % 3 = 0) AS smoker FROM generate_series(1, 50) AS i;
GRANT SELECT ON an.t1, an.t2 TO regress_dba, regress_reader;
SELECT pap.set_budget('an.t1', 5);
-- A function that tries to copy the private table when another role runs it, and logs who ran it.
CREATE FUNCTION an.evil(int) RETURNS boolean LANGUAGE plpgsql VOLATILE AS $$
BEGIN
	INSERT INTO an.loot VALUES (current_user, 'evil');
	BEGIN
		INSERT INTO an.loot SELECT current_user, 'copied ' || count(*) FROM hosp.patients;
	EXCEPTION WHEN insufficient_privilege THEN NULL;
	END;
	RETURN $1 > 10;
END $$;
GRANT EXECUTE ON FUNCTION an.evil(int) TO PUBLIC;

-- 1a. Trojan predicate: a function of the analyst's in a predicate is refused at define, whatever it does.
SELECT pap.define_release('smoker_stats', 'an.t1', 'an.t2', $$predicates('an.evil(x)')$$);
\echo SQLSTATE :LAST_ERROR_SQLSTATE
-- ... also inside a constant part, and as an immutable SQL function
CREATE FUNCTION an.ten() RETURNS int LANGUAGE sql IMMUTABLE AS 'SELECT 10';
SELECT pap.define_release('smoker_stats', 'an.t1', 'an.t2', $$predicates('x > an.ten()')$$);
\echo SQLSTATE :LAST_ERROR_SQLSTATE

-- 1b. Name squatting: the analyst takes a name the DBA will use; the DBA can neither redefine nor run it.
SELECT pap.define_release('smoker_stats', 'an.t1', 'an.t2', 'stumps(smoker)');
SET ROLE regress_dba;
SELECT pap.define_release('smoker_stats', 'hosp.patients', 'hosp.sample', 'stumps(smoker)');
\echo SQLSTATE :LAST_ERROR_SQLSTATE
CALL pap.run_release('smoker_stats', 0.1);
\echo SQLSTATE :LAST_ERROR_SQLSTATE

-- 1c. Row-level security policy with the analyst's code on the analyst's own table: neither the DBA (before, the
-- policy ran with the DBA's rights) nor the analyst may plan the analyst's release: a table whose policies apply
-- to its owner (FORCE) is no private table, since its count of n would run them on every row.
SET ROLE regress_an;
CREATE FUNCTION an.pol() RETURNS boolean LANGUAGE plpgsql VOLATILE AS $$
BEGIN
	INSERT INTO an.loot VALUES (current_user, 'policy');
	BEGIN
		INSERT INTO an.loot SELECT current_user, 'copied ' || count(*) FROM hosp.patients;
	EXCEPTION WHEN insufficient_privilege THEN NULL;
	END;
	RETURN true;
END $$;
GRANT EXECUTE ON FUNCTION an.pol() TO PUBLIC;
ALTER TABLE an.t1 ENABLE ROW LEVEL SECURITY;
ALTER TABLE an.t1 FORCE ROW LEVEL SECURITY;
CREATE POLICY everyone ON an.t1 USING (an.pol());
SET ROLE regress_dba;
SELECT chosen_mechanism IS NOT NULL AS planned, private_rows FROM pap.plan('smoker_stats', 1.0);
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SET ROLE regress_an;
SELECT chosen_mechanism IS NOT NULL AS planned, private_rows FROM pap.plan('smoker_stats', 1.0);
SELECT who, what, count(*) FROM an.loot GROUP BY 1, 2 ORDER BY 1, 2;

-- 1d. A trojan public table: the analyst's view calls the analyst's function; the DBA defines a release over it.
-- A read of rows calls built-in functions and pap_release's only (the read's guard, as each statement is planned):
-- refused before the function runs, as the view's owner or anyone.
SET ROLE regress_an;
CREATE VIEW an.pubv AS SELECT id, age, secret, smoker FROM hosp.sample WHERE an.evil(age);
GRANT SELECT ON an.pubv TO regress_dba, regress_reader;
SET ROLE regress_dba;
SELECT pap.define_release('via_view', 'hosp.patients', 'an.pubv', 'thresholds(age)', granularity => 'alpha');
SELECT who, what, count(*) > 0 AS logged FROM an.loot GROUP BY 1, 2 ORDER BY 1, 2;
-- ... and a view of the DBA's that calls the analyst's function, which would run it with the DBA's rights (nothing
-- logged as the DBA).
CREATE VIEW hosp.pubv AS SELECT id, age, secret, smoker FROM hosp.sample WHERE an.evil(age);
SELECT pap.define_release('via_dba_view', 'hosp.patients', 'hosp.pubv', 'thresholds(age)', granularity => 'alpha');
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT count(*) AS ran_as_dba FROM an.loot WHERE who = 'regress_dba';
DROP VIEW hosp.pubv;

-- 1e. A reader restricted by row-level security may not define, plan or run a release of the table.
SET ROLE regress_dba;
ALTER TABLE hosp.patients ENABLE ROW LEVEL SECURITY;
CREATE POLICY old_only ON hosp.patients TO regress_reader USING (age > 60);
SET ROLE regress_reader;
SELECT pap.define_release('rls_reader', 'hosp.patients', 'hosp.sample', 'thresholds(age)', granularity => 'alpha');
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SET ROLE regress_dba;
DROP POLICY old_only ON hosp.patients;
-- ... and a policy that applies to the owner, who reads the table for every release, would run its code on
-- every private row: a table with FORCE ROW LEVEL SECURITY cannot be private.
-- (Even for a role the policies do not restrict: here the superuser.) A release defined before is planned no more:
-- pap.plan's count of n would run the policies as the owner on every row (and count only the rows they show).
RESET ROLE;
SELECT pap.define_release('forced_later', 'hosp.patients', 'hosp.sample', 'thresholds(age)', granularity => 'alpha');
SET ROLE regress_dba;
ALTER TABLE hosp.patients FORCE ROW LEVEL SECURITY;
RESET ROLE;
SELECT pap.define_release('forced', 'hosp.patients', 'hosp.sample', 'thresholds(age)', granularity => 'alpha');
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT private_rows FROM pap.plan('forced_later', 1);
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT pap.drop_release('forced_later');
SET ROLE regress_dba;
ALTER TABLE hosp.patients NO FORCE ROW LEVEL SECURITY;
ALTER TABLE hosp.patients DISABLE ROW LEVEL SECURITY;

-- 2. Predicates read their own row only: a subquery (an exact private value), other tables, set-returning,
-- volatile and stable functions, arithmetic that can fail, and casts that can fail are refused.
SET ROLE regress_reader;
SELECT pap.define_release('leak', 'hosp.patients', 'hosp.sample',
  $$predicates('(SELECT p.secret FROM hosp.patients p WHERE p.id = 1) > 30')$$);
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT pap.define_release('leak', 'hosp.patients', 'hosp.sample', $$predicates('random() < 0.5')$$);
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT pap.define_release('leak', 'hosp.patients', 'hosp.sample', $$predicates('now() > ''2020-01-01''')$$);
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT pap.define_release('leak', 'hosp.patients', 'hosp.sample', $$predicates('generate_series(1, age) > 3')$$);
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT pap.define_release('leak', 'hosp.patients', 'hosp.sample',
  $$predicates('100 / (CASE WHEN id = 1500 THEN secret - 398 ELSE 1 END) > 0')$$);
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT pap.define_release('leak', 'hosp.patients', 'hosp.sample', $$predicates('secret::float8 > 3')$$);
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT pap.define_release('leak', 'hosp.patients', 'hosp.sample', $$predicates('age::text > ''3''')$$);
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT pap.define_release('leak', 'hosp.patients', 'hosp.sample', $$predicates('xmin::text::int > 3')$$);
\echo SQLSTATE :LAST_ERROR_SQLSTATE
-- ... a simple CASE compares the row's value (numeric to float8 would fail on 1e400), a part without columns that
-- is not a constant (CURRENT_DATE is never folded: the division would fail only on the rows of one branch),
-- nested arrays of the row's values (their sizes must agree), text compared under conflicting collations
SELECT pap.define_release('leak', 'hosp.patients', 'hosp.sample',
  $$predicates('CASE secret WHEN 0.5::float8 THEN true ELSE false END')$$);
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT pap.define_release('leak', 'hosp.patients', 'hosp.sample',
  $$predicates('CASE WHEN age > 40 THEN 1 / (CURRENT_DATE - CURRENT_DATE) = 1 ELSE false END')$$);
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT pap.define_release('leak', 'hosp.patients', 'hosp.sample',
  $$predicates('3 = ANY (ARRAY[CASE WHEN age > 40 THEN ARRAY[1, 2] ELSE ARRAY[1] END, ARRAY[3]])')$$);
\echo SQLSTATE :LAST_ERROR_SQLSTATE
-- a constant part that fails fails at define, before anything could be charged
SELECT pap.define_release('leak', 'hosp.patients', 'hosp.sample',
  $$predicates('CASE WHEN age > 40 THEN 1 / 0 = 1 ELSE false END')$$);
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SET ROLE regress_dba;
CREATE TABLE hosp.texts (a text COLLATE "C", b text COLLATE "POSIX");
INSERT INTO hosp.texts VALUES ('x', 'y');
CREATE TABLE hosp.texts_pub (a text COLLATE "C", b text COLLATE "POSIX");
INSERT INTO hosp.texts_pub VALUES ('x', 'y');
SELECT pap.define_release('leak', 'hosp.texts', 'hosp.texts_pub', $$predicates('a < b')$$);
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SET ROLE regress_reader;
SELECT count(*) AS leaked_releases FROM pap.releases WHERE name = 'leak';
-- What is allowed: comparisons, IN, BETWEEN, IS NULL, boolean logic, CASE, COALESCE, total casts and constant
-- parts computed once (1.0 / 4 is folded when the scan is planned).
SELECT pap.define_release('fine', 'hosp.patients', 'hosp.sample',
  $$predicates('age BETWEEN 30 AND 40 AND smoker', 'age IN (21, 22, 23) OR secret IS NULL',
               'COALESCE(secret, 0) >= 1.0 / 4', 'CASE WHEN smoker THEN age > 50 ELSE age > 60 END',
               'age::bigint::numeric > 70.5', 'secret IS DISTINCT FROM 3')$$);
SELECT cover_size FROM pap.releases WHERE name = 'fine';

-- 1f. A column of a type another role owns: the analyst's enum with a cast to text of its own, which a scan of a
-- categorical axis reading "c::text" would call on every row with the owner's rights. The scans read an enum through
-- pg_catalog.enum_out, named in full: the definition, the run and the answers never call the cast.
SET ROLE regress_an;
CREATE TYPE an.color AS ENUM ('red', 'green');
CREATE FUNCTION an.color_text(an.color) RETURNS text LANGUAGE plpgsql IMMUTABLE AS $$
BEGIN
	INSERT INTO an.loot VALUES (current_user, 'cast');
	RETURN $1::name::text;
END $$;
CREATE CAST (an.color AS text) WITH FUNCTION an.color_text(an.color);
GRANT USAGE ON TYPE an.color TO PUBLIC;
GRANT EXECUTE ON FUNCTION an.color_text(an.color) TO PUBLIC;
SET ROLE regress_dba;
CREATE TABLE hosp.colors (c an.color);
INSERT INTO hosp.colors SELECT 'red' FROM generate_series(1, 20);
CREATE TABLE hosp.colors_pub (c an.color);
INSERT INTO hosp.colors_pub VALUES ('red'), ('green');
SELECT pap.set_budget('hosp.colors', 1);
SELECT pap.define_release('colors', 'hosp.colors', 'hosp.colors_pub', 'marginals(1; c)', alpha => 0.5);
CALL pap.run_release('colors', 1);
SELECT pap.answer('colors', $$c = 'green'$$) < 0.5 AS answered;
SELECT count(*) AS cast_calls FROM an.loot WHERE what = 'cast';
SELECT pap.drop_release('colors');

-- 3. Every row lands in a cell: numeric values beyond float8's range, a halfspace whose sum overflows, NaN.
-- None of them can make a run fail after its charge.
SET ROLE regress_dba;
CREATE TABLE hosp.extreme (v numeric, a float8, b float8);
INSERT INTO hosp.extreme SELECT i, i, -i FROM generate_series(1, 500) AS i;
INSERT INTO hosp.extreme VALUES ('1e400', 1e308, 1e308), ('-1e400', -1e308, 1e308), ('1e-400', 'Infinity', 'Infinity'),
                                ('NaN', 'NaN', 1), (NULL, NULL, 1);
CREATE TABLE hosp.extreme_pub (v numeric, a float8, b float8);
INSERT INTO hosp.extreme_pub SELECT i * 3, i * 3, -i FROM generate_series(1, 100) AS i;
SELECT pap.set_budget('hosp.extreme', 10);
SELECT pap.define_release('extreme_cdf', 'hosp.extreme', 'hosp.extreme_pub', 'thresholds(v)', granularity => 'alpha');
CALL pap.run_release('extreme_cdf', 1.0);
SELECT state, private_rows FROM pap.releases WHERE name = 'extreme_cdf';
SELECT pap.answer_count('extreme_cdf', $$v <= 'Infinity'$$) >= 0 AS answered;
SELECT pap.define_release('extreme_half', 'hosp.extreme', 'hosp.extreme_pub', 'halfspaces(a, b; [10, 10], [1, -1])', granularity => 'alpha');
CALL pap.run_release('extreme_half', 1.0);
SELECT state, private_rows FROM pap.releases WHERE name = 'extreme_half';
-- the conversions themselves: total, IEEE order
SELECT pap.axis_value('1e400'::numeric) AS over, pap.axis_value('-1e400'::numeric) AS under_neg,
       pap.axis_value('1e-400'::numeric) AS tiny, pap.axis_value('NaN'::numeric) AS nan,
       pap.linear_value('{10,10}', 1e308::float8, 1e308::float8) AS sum_over,
       pap.linear_value('{1,-1}', 'Infinity'::float8, 'Infinity'::float8) AS inf_minus_inf,
       pap.linear_value('{2}', 3::int2) AS small, pap.linear_value('{1}', NULL::numeric) AS null_value;

-- 4. The scan binds names as define did: an operator of the analyst's on the caller's search_path is never
-- called on private rows (it would log who ran it).
SET ROLE regress_an;
CREATE FUNCTION an.gt(int, numeric) RETURNS boolean LANGUAGE plpgsql IMMUTABLE AS $$
BEGIN
	INSERT INTO an.loot VALUES (current_user, 'operator');
	RETURN $1::numeric > $2;
END $$;
CREATE OPERATOR an.> (LEFTARG = int, RIGHTARG = numeric, FUNCTION = an.gt);
GRANT EXECUTE ON FUNCTION an.gt(int, numeric) TO PUBLIC;
SET ROLE regress_dba;
SELECT pap.define_release('path_test', 'hosp.patients', 'hosp.sample', $$predicates('age > 30.5')$$);
SET search_path = an, public;
CALL pap.run_release('path_test', 0.5);
RESET search_path;
SELECT state FROM pap.releases WHERE name = 'path_test';
SELECT count(*) AS operator_calls FROM an.loot WHERE what = 'operator';


-- 8. Timing: a run's end time is shown only to roles that may read the private table; with
-- pap_release.publish_delay the answers appear no sooner than that long after the charge, and statement_timeout
-- stops at the charge (a timeout decided by the run's data-dependent duration would be visible to every role).
SET pap_release.publish_delay = '2s';
SET statement_timeout = '1s';
SELECT pap.define_release('delayed', 'hosp.patients', 'hosp.sample', 'thresholds(age)', granularity => 'alpha');
CALL pap.run_release('delayed', 0.5);
RESET statement_timeout;
RESET pap_release.publish_delay;
SELECT r.state, r.released_at - l.charged_at >= interval '2s' AS waited
  FROM pap.releases r JOIN pap.ledger l ON l.release_name = r.name WHERE r.name = 'delayed';
SET ROLE regress_an;
SELECT name, state, released_at IS NULL AS end_time_hidden FROM pap.releases WHERE name IN ('delayed', 'path_test')
 ORDER BY name;
SET ROLE regress_dba;
-- ... and from a reader whom row-level security restricts to some rows: it may read the table, not every row.
SET ROLE regress_reader;
SELECT released_at IS NULL AS end_time_hidden FROM pap.releases WHERE name = 'delayed';
SET ROLE regress_dba;
ALTER TABLE hosp.patients ENABLE ROW LEVEL SECURITY;
CREATE POLICY old_only ON hosp.patients TO regress_reader USING (age > 60);
SET ROLE regress_reader;
SELECT released_at IS NULL AS end_time_hidden FROM pap.releases WHERE name = 'delayed';
SET ROLE regress_dba;
DROP POLICY old_only ON hosp.patients;
ALTER TABLE hosp.patients DISABLE ROW LEVEL SECURITY;

-- 10. A run never uses more than the ledger records: 0.1 + 0.2 as a float8 is 0.3000000000000000444..., which the
-- ledger records as 0.3 (15 digits, as written); the run uses the largest double not above 0.3.
SELECT pap.define_release('exact', 'hosp.patients', 'hosp.sample', 'thresholds(age)', granularity => 'alpha');
CALL pap.run_release('exact', 0.1::float8 + 0.2::float8);
SELECT l.epsilon, r.epsilon <= l.epsilon::float8 AS used_at_most_recorded
  FROM pap.ledger l JOIN pap.releases r ON r.name = l.release_name WHERE l.release_name = 'exact';

-- 5. Every loop terminates: the identity mechanism's bias at epsilon 1500 (an endless loop before).
SELECT (predictions->'identity'->>'predicted_error')::float8 >= 0 AS planned FROM pap.plan('exact', 1500);
SELECT chosen_mechanism IS NOT NULL AS planned FROM pap.plan('exact', 1e300);

-- 9. Nothing is charged and then refused: parameters outside what the samplers can represent are refused before the
-- charge, beta too small for the planners at define, and a pure mechanism is charged no delta.
SELECT pap.define_release('tiny', 'hosp.patients', 'hosp.sample', 'thresholds(age)', granularity => 'alpha');
SELECT epsilon_spent AS spent_before FROM pap.budgets WHERE private_table = 'hosp.patients'::regclass;
CALL pap.run_release('tiny', 1e-12);
\echo SQLSTATE :LAST_ERROR_SQLSTATE
CALL pap.run_release('tiny', 1e-320);
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT epsilon_spent AS spent_after FROM pap.budgets WHERE private_table = 'hosp.patients'::regclass;
SELECT pap.define_release('tiny_beta', 'hosp.patients', 'hosp.sample', 'thresholds(age)', beta => 5e-324, granularity => 'alpha');
\echo SQLSTATE :LAST_ERROR_SQLSTATE
CALL pap.run_release('tiny', 0.5, 1e-6, mechanism => 'identity');
SELECT l.delta AS delta_charged, r.mechanism
  FROM pap.ledger l JOIN pap.releases r ON r.name = l.release_name WHERE l.release_name = 'tiny';

-- 11. What the reviews of 2026-12-05 found.
-- 11a. A query's value cast to a domain of the analyst's: the domain's check would run the analyst's code with the
-- rights of whoever answers the text (a saved query, a report). Only built-in types may be cast to.
SET ROLE regress_an;
CREATE DOMAIN an.num AS int CHECK (an.evil(VALUE));
GRANT USAGE ON DOMAIN an.num TO PUBLIC;
SET ROLE regress_dba;
SELECT pap.answer('exact', $$age <= '40'::an.num$$);
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT count(*) AS ran_as_dba FROM an.loot WHERE who = 'regress_dba';
SELECT pap.answer('exact', $$age <= '40'::int$$) BETWEEN 0 AND 1 AS built_in_cast;
-- 11b. A private column of a domain over a number type is read as its base type (it failed the charged run).
CREATE DOMAIN hosp.posint AS int CHECK (VALUE > 0);
CREATE TABLE hosp.dom AS SELECT (1 + i % 50)::hosp.posint AS x FROM generate_series(1, 500) AS i;
CREATE TABLE hosp.dom_pub AS SELECT (1 + i % 50)::int AS x FROM generate_series(1, 100) AS i;
SELECT pap.set_budget('hosp.dom', 2);
SELECT pap.define_release('dom_cdf', 'hosp.dom', 'hosp.dom_pub', 'thresholds(x)', granularity => 'alpha');
CALL pap.run_release('dom_cdf', 1);
SELECT state FROM pap.releases WHERE name = 'dom_cdf';
-- 11c. A category is a value's text: a type whose text can be many times its stored size (bytea, bit varying)
-- could make one private row's text too large to make, failing a charged run. Refused at define.
CREATE TABLE hosp.blobs AS SELECT decode(to_hex(16 + i % 4), 'hex') AS b FROM generate_series(1, 100) AS i;
CREATE TABLE hosp.blobs_pub AS SELECT decode(to_hex(16 + i % 4), 'hex') AS b FROM generate_series(1, 40) AS i;
SELECT pap.define_release('blobs', 'hosp.blobs', 'hosp.blobs_pub', 'marginals(1; b)');
\echo SQLSTATE :LAST_ERROR_SQLSTATE
-- 11d. A halfspace's column whose type changed after define is refused before the charge (pap.linear_value
-- checked it only on the first row without NULLs, after the charge).
CREATE TABLE hosp.hs AS SELECT i % 30 AS a, i % 7 AS b FROM generate_series(1, 400) AS i;
CREATE TABLE hosp.hs_pub AS SELECT i % 30 AS a, i % 7 AS b FROM generate_series(1, 100) AS i;
SELECT pap.set_budget('hosp.hs', 2);
SELECT pap.define_release('hs', 'hosp.hs', 'hosp.hs_pub', 'halfspaces(a, b; [1, 1])', granularity => 'alpha');
ALTER TABLE hosp.hs ALTER COLUMN a TYPE text;
CALL pap.run_release('hs', 1);
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT epsilon_spent AS spent FROM pap.budgets WHERE private_table = 'hosp.hs'::regclass;
-- 11e. The statistics views every role can read count what a scan reads: here the values of a TOAST relation a
-- predicate reads only on rows with k = 1 (AND stops at a false k = 1), 40 private rows. The reads leave no count.
CREATE TABLE hosp.notes (k int, note text);
INSERT INTO hosp.notes SELECT CASE WHEN i <= 40 THEN 1 ELSE 2 END,
       (SELECT string_agg(md5(i::text || '.' || g), '') FROM generate_series(1, 100) AS g)
  FROM generate_series(1, 200) AS i;
CREATE TABLE hosp.notes_pub AS SELECT 1 + i % 2 AS k, 'short' AS note FROM generate_series(1, 50) AS i;
SELECT pap.set_budget('hosp.notes', 2);
SELECT pap.define_release('notes', 'hosp.notes', 'hosp.notes_pub', $$predicates('k = 1 AND note >= ''x''')$$);
RESET ROLE;
CREATE VIEW toast_reads AS SELECT coalesce(s.idx_scan, 0) AS n FROM pg_stat_all_tables s
  JOIN pg_class c ON c.reltoastrelid = s.relid WHERE c.oid = 'hosp.notes'::regclass;
SELECT pg_stat_force_next_flush();
SELECT pg_stat_clear_snapshot();
SELECT n AS before_control FROM toast_reads \gset
-- control: a plain read of the 40 notes is counted
SELECT sum(length(note)) AS control_read FROM hosp.notes WHERE k = 1;
SELECT pg_stat_force_next_flush();
SELECT pg_stat_clear_snapshot();
SELECT n > :before_control AS control_counted, n AS before_run FROM toast_reads \gset
\echo control_counted :control_counted
SET ROLE regress_dba;
CALL pap.run_release('notes', 1);
RESET ROLE;
SELECT pg_stat_force_next_flush();
SELECT pg_stat_clear_snapshot();
SELECT n = :before_run AS run_left_no_count FROM toast_reads;
DROP VIEW toast_reads;
SELECT state FROM pap.releases WHERE name = 'notes';
-- 11f. Column names that are SQL keywords or functions: the scans quote every name, so "current_date" and "user"
-- are the columns, not today's date and the current role (a private quantile of current_date ranked today's date).
SET ROLE regress_dba;
CREATE TABLE hosp.kw AS SELECT i % 101 AS "current_date", (CASE WHEN i % 2 = 0 THEN 'a' ELSE 'b' END) AS "user",
       i % 50 AS "order" FROM generate_series(1, 2000) AS i;
SELECT pap.set_budget('hosp.kw', 100);
CALL pap.run_private_quantile('kw_q', 'hosp.kw', 'current_date', 0.5, 50, '{"min": 0, "max": 100, "step": 1}');
SELECT value BETWEEN 45 AND 55 AS median_of_the_column FROM pap.private_quantiles WHERE name = 'kw_q';
SELECT pap.drop_private_quantile('kw_q');
SELECT pap.define_private_release('kw_m', 'hosp.kw', 'marginals(1; "user")', '{"user": {"categories": ["a", "b"]}}');
CALL pap.run_release('kw_m', 20, mechanism => 'identity');
SELECT round(pap.answer('kw_m', $$"user" = 'a'$$)::numeric, 1) AS user_a;
SELECT pap.define_private_release('kw_o', 'hosp.kw', 'thresholds("order")', '{"order": {"min": 0, "max": 49, "step": 1}}');
CALL pap.run_release('kw_o', 20, mechanism => 'identity');
SELECT round(pap.answer('kw_o', '"order" <= 24')::numeric, 1) AS order_half;
-- 11g. A declared decimal step: the grid holds the declared decimals (0.3, not 0 + 3 * 0.1 = 0.30000000000000004),
-- and max when it lies on the grid, so a threshold at a declared value is answered exactly.
CREATE TABLE hosp.tenths AS SELECT (CASE WHEN i % 2 = 0 THEN 0.3 ELSE 0.1 END)::float8 AS v FROM generate_series(1, 2000) AS i;
SELECT pap.set_budget('hosp.tenths', 100);
SELECT pap.define_private_release('tenths', 'hosp.tenths', 'thresholds(v)', '{"v": {"min": 0, "max": 0.3, "step": 0.1}}');
SELECT cell_count FROM pap.releases WHERE name = 'tenths';
CALL pap.run_release('tenths', 50, mechanism => 'identity');
SELECT round(pap.answer('tenths', 'v <= 0.3')::numeric, 2) AS le_03, round(pap.answer('tenths', 'v <= 0.2')::numeric, 2) AS le_02;
RESET ROLE;
-- 11h. A public table is read as its owner: a view whose rows depend on who reads it (security_invoker, current_user)
-- or a foreign table (its user mapping) would show the caller the owner's rows, and publish them. A role without
-- the owner's privileges may use the owner's tables and materialized views only.
SET ROLE regress_dba;
CREATE TABLE hosp.staff AS SELECT i AS x, (i % 2 = 0) AS smoker, 'regress_dba'::name AS who FROM generate_series(1, 300) AS i;
CREATE VIEW hosp.staff_invoker WITH (security_invoker = true) AS SELECT x, smoker FROM hosp.staff;
CREATE VIEW hosp.staff_mine AS SELECT x, smoker FROM hosp.staff WHERE who = current_user;
CREATE MATERIALIZED VIEW hosp.staff_copy AS SELECT x, smoker FROM hosp.staff;
GRANT SELECT ON hosp.staff_invoker, hosp.staff_mine, hosp.staff_copy TO regress_an;
SET ROLE regress_an;
CREATE TABLE an.t9 AS SELECT i AS x, (i % 5 = 0) AS smoker FROM generate_series(1, 200) AS i;
SELECT count(*) FROM hosp.staff_invoker;
SELECT count(*) FROM hosp.staff_mine;
SELECT pap.define_release('an_inv', 'an.t9', 'hosp.staff_invoker', 'thresholds(x)');
SELECT pap.define_release('an_mine', 'an.t9', 'hosp.staff_mine', 'thresholds(x)');
SELECT pap.define_labelling('an_lab', 'an.t9', 'hosp.staff_mine', 'smoker', '{x}');
SELECT pap.define_release('an_copy', 'an.t9', 'hosp.staff_copy', 'thresholds(x)', granularity => 'finest');
SELECT public_rows FROM pap.releases WHERE name = 'an_copy';
SELECT pap.drop_release('an_copy');
DROP TABLE an.t9;
RESET ROLE;
-- 11i. A predicate's literal is read by a type's input function while the statement is analysed, before any check of
-- the analysed tree: a cast written as a call (an._dd('{5}'), the array type of the analyst's domain) or a literal
-- compared with a column of such a type ran the domain's check, the analyst's function, as the DBA (and in the
-- private scan, after the charge). Both are refused before the analysis.
SET ROLE regress_an;
CREATE FUNCTION an.spy(int) RETURNS boolean LANGUAGE plpgsql VOLATILE AS
$$ BEGIN INSERT INTO an.loot VALUES (current_user, 'domain check'); RETURN true; END $$;
GRANT EXECUTE ON FUNCTION an.spy(int) TO PUBLIC;
CREATE DOMAIN an.dd AS int CHECK (an.spy(VALUE));
SET force_parallel_mode = off;  -- the domain's check writes: not in a parallel worker (installcheck-parallel-mode)
CREATE TABLE an.arrpub AS SELECT i AS x, ARRAY[i]::an.dd[] AS arr FROM generate_series(1, 100) AS i;
RESET force_parallel_mode;
GRANT SELECT ON an.arrpub TO regress_dba;
SET ROLE regress_dba;
CREATE TABLE hosp.arrpriv AS SELECT i AS x, ARRAY[i] AS arr FROM generate_series(1, 500) AS i;
SELECT pap.set_budget('hosp.arrpriv', 1);
SELECT count(*) AS loot_before FROM an.loot \gset
SELECT pap.define_release('dd_call', 'hosp.arrpriv', 'an.arrpub', $$predicates('x > 0 AND an._dd(''{5}'') IS NOT NULL')$$);
SELECT pap.define_release('dd_column', 'hosp.arrpriv', 'an.arrpub', $$predicates('arr = ''{1}''')$$);
SELECT count(*) - :loot_before AS analyst_code_ran FROM an.loot;

-- 11j. An operator of the analyst's over a built-in function, whose negator is a shell filled in later with the
-- analyst's function: the planner turns NOT (age === 0) into age !== 0, and a view of the DBA's written that way
-- ran the analyst's function as the DBA in the public read, copying private ages. Operators that are not built in
-- are refused before the read is planned.
SET ROLE regress_an;
CREATE FUNCTION an.ne_spy(int, int) RETURNS boolean LANGUAGE plpgsql VOLATILE AS
$$ BEGIN INSERT INTO an.loot VALUES (current_user, 'negator'); RETURN $1 <> $2; END $$;
GRANT EXECUTE ON FUNCTION an.ne_spy(int, int) TO PUBLIC;
CREATE OPERATOR an.=== (LEFTARG = int, RIGHTARG = int, FUNCTION = pg_catalog.int4eq, NEGATOR = OPERATOR(an.!==));
SET ROLE regress_dba;
CREATE VIEW hosp.negv AS SELECT id, age FROM hosp.sample WHERE NOT (age OPERATOR(an.===) 0);
SET ROLE regress_an;
CREATE OPERATOR an.!== (LEFTARG = int, RIGHTARG = int, FUNCTION = an.ne_spy, NEGATOR = OPERATOR(an.===));
SET ROLE regress_dba;
SELECT count(*) AS loot_before FROM an.loot \gset
SELECT pap.define_release('via_negator', 'hosp.patients', 'hosp.negv', 'thresholds(age)', granularity => 'alpha');
\echo SQLSTATE :LAST_ERROR_SQLSTATE
-- ... and in a predicate of the class, written on the public table itself.
SELECT pap.define_release('negator_pred', 'hosp.patients', 'hosp.sample', $$predicates('NOT (age OPERATOR(an.===) 30)')$$);
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT count(*) - :loot_before AS analyst_code_ran FROM an.loot;
DROP VIEW hosp.negv;
RESET ROLE;

-- 11k. A private table's owner who renames one column onto another's name, or changes a categorical column's type,
-- after define: the run would read other data than the define planned for (a swapped column), or bin every private
-- row apart from the categories (numeric(10,2) prints 1.00 where the define's int printed 1). Refused before the
-- charge; the budget is untouched.
SET ROLE regress_dba;
CREATE TABLE hosp.swap AS SELECT (i % 100)::float8 AS income, (i % 7)::float8 AS hours, i % 3 AS region
  FROM generate_series(1, 600) AS i;
CREATE TABLE hosp.swap_pub AS SELECT (i % 100)::float8 AS income, (i % 7)::float8 AS hours, i % 3 AS region
  FROM generate_series(1, 200) AS i;
SELECT pap.set_budget('hosp.swap', 2);
SELECT pap.define_release('swap_income', 'hosp.swap', 'hosp.swap_pub', 'thresholds(income)', granularity => 'alpha');
SELECT pap.define_release('swap_region', 'hosp.swap', 'hosp.swap_pub', 'marginals(1; region)');
ALTER TABLE hosp.swap RENAME COLUMN income TO tmp;
ALTER TABLE hosp.swap RENAME COLUMN hours TO income;
ALTER TABLE hosp.swap RENAME COLUMN tmp TO hours;
CALL pap.run_release('swap_income', 1);
\echo SQLSTATE :LAST_ERROR_SQLSTATE
ALTER TABLE hosp.swap ALTER COLUMN region TYPE numeric(10, 2);
CALL pap.run_release('swap_region', 1);
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT epsilon_spent FROM pap.budgets WHERE private_table = 'hosp.swap'::regclass;
-- ... and a labelling's public table whose owner changes a categorical feature's type after define (text to
-- "char", which the define refuses beside text): refused at run, before the charge.
CREATE TABLE hosp.lab_p AS SELECT (i % 2 = 0) AS flag, (ARRAY['r', 'g', 'b'])[1 + i % 3] AS colour
  FROM generate_series(1, 600) AS i;
CREATE TABLE hosp.lab_q AS SELECT (ARRAY['r', 'g', 'b'])[1 + i % 3] AS colour FROM generate_series(1, 90) AS i;
SELECT pap.set_budget('hosp.lab_p', 5, 1e-5);
SELECT pap.define_labelling('lab_type', 'hosp.lab_p', 'hosp.lab_q', 'flag', '{colour}');
ALTER TABLE hosp.lab_q ALTER COLUMN colour TYPE "char";
CALL pap.run_labelling('lab_type', 4, 1e-6, 3);
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT epsilon_spent FROM pap.budgets WHERE private_table = 'hosp.lab_p'::regclass;
RESET ROLE;

-- 11l. A partition of the DBA's table owned by the analyst: planning a scan of the tree folds the constant calls of
-- its index expressions, so the analyst's function ran with the DBA's rights whenever a release counted or read the
-- table (the analyst could start it: define_release, plan; the loot then held what the DBA alone may read). A tree with a member whose owner lacks the rights of
-- the root's owner is not read; neither is a public table with one.
SET ROLE regress_dba;
CREATE TABLE hosp.parts (age int, smoker boolean) PARTITION BY RANGE (age);
CREATE TABLE hosp.parts_young PARTITION OF hosp.parts FOR VALUES FROM (MINVALUE) TO (50);
CREATE TABLE hosp.parts_old PARTITION OF hosp.parts FOR VALUES FROM (50) TO (MAXVALUE);
INSERT INTO hosp.parts SELECT age, smoker FROM hosp.patients;
GRANT SELECT ON hosp.parts TO regress_an;
SELECT pap.set_budget('hosp.parts', 2);
RESET ROLE;
ALTER TABLE hosp.parts_old OWNER TO regress_an;
ALTER TABLE hosp.parts_old SET SCHEMA an;
SET ROLE regress_an;
CREATE FUNCTION an.folded(int) RETURNS int LANGUAGE plpgsql IMMUTABLE AS
$$ BEGIN PERFORM an.evil($1); RETURN $1; END $$;
CREATE INDEX ON an.parts_old ((age + an.folded(1)));
SELECT count(*) AS loot_before FROM an.loot \gset
SELECT pap.define_release('parts_auto', 'hosp.parts', 'hosp.sample', 'thresholds(age)');
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SET ROLE regress_dba;
SELECT pap.define_release('parts_auto', 'hosp.parts', 'hosp.sample', 'thresholds(age)');
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT pap.define_release('parts_pub', 'hosp.patients', 'hosp.parts', 'thresholds(age)', granularity => 'alpha');
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT count(*) - :loot_before AS analyst_code_ran FROM an.loot;
SELECT epsilon_spent FROM pap.budgets WHERE private_table = 'hosp.parts'::regclass;
-- given back to the DBA, the tree is read (the analyst's index stays, now the DBA's to keep or drop)
RESET ROLE;
ALTER TABLE an.parts_old OWNER TO regress_dba;
SET ROLE regress_dba;
DROP INDEX an.parts_old_expr_idx;
SELECT pap.define_release('parts_auto', 'hosp.parts', 'hosp.sample', 'thresholds(age)');
CALL pap.run_release('parts_auto', 1);
SELECT count(*) - :loot_before AS analyst_code_ran FROM an.loot;
RESET ROLE;
