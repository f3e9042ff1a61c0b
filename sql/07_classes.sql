-- Every query class over several columns: defined, run and answered on small tables; malformed classes and
-- queries outside a class rejected; the cell limit and the public-support domain.
SET pap_release.test_seed = 7;
SET extra_float_digits = 0;

CREATE TABLE people AS
SELECT i AS id,
       (20 + (i * 37) % 50)::int AS age,
       (ARRAY['F', 'M'])[1 + (i * 13) % 2] AS sex,
       (ARRAY['north', 'south', 'east', 'west', 'O''Hara'])[1 + (i * 7) % 5] AS region,
       ((i * 11) % 3 = 0) AS smoker,
       ((i * 5) % 4 = 1) AS married,
       ((i * 7919) % 1000)::float8 AS income,
       ((i * 104729) % 97)::float8 AS hours
  FROM generate_series(1, 2000) AS i;
-- a disjoint public sample of about a fifth of the rows, by hash
CREATE TABLE people_pub AS SELECT * FROM people WHERE md5(id::text) < '3';
CREATE TABLE people_priv AS SELECT * FROM people WHERE md5(id::text) >= '3';
-- a private category never seen publicly, and NULLs
INSERT INTO people_priv (id, age, sex, region, smoker, married, income, hours)
VALUES (5001, 33, 'X', 'moon', NULL, true, NULL, 3), (5002, NULL, NULL, NULL, true, NULL, 10, NULL);
SELECT pap.set_budget('people_priv', 20);

-- boxes over two numeric columns: the full grid, cut points from public quantiles (alpha)
SELECT pap.define_release('b2', 'people_priv', 'people_pub', 'boxes(income, hours)', alpha => 0.5,
                          granularity => 'alpha');
SELECT query_class, domain, granularity, cover_size, cell_count FROM pap.releases WHERE name = 'b2';
CALL pap.run_release('b2', 1.0);
SELECT round(pap.answer('b2', 'income <= 500 AND hours <= 50')::numeric, 2) AS a,
       round(pap.answer('b2', 'income BETWEEN 100 AND 900')::numeric, 2) AS b,
       round(pap.answer('b2', 'hours > 10')::numeric, 2) AS c;
-- projection: a bound between cut points answers like a neighbouring cut (refined, it spreads the gap: 28_gap_spread)
SELECT pap.answer('b2', 'income <= 500.5', false) = pap.answer('b2', 'income <= 500', false) AS between_cuts;
-- every listed cover query projects back to itself
SELECT count(*) AS cover_queries, bool_and(pap.answer('b2', query) = answer) AS all_round_trip
  FROM pap.answers('b2');
SELECT sum(weight) BETWEEN 0.999999 AND 1.000001 AS weights_sum_to_one, count(*) > 0 AS has_cells
  FROM pap.synthetic('b2');
SELECT bounds, columns FROM pap.synthetic('b2') ORDER BY cell LIMIT 2;
-- an equality is a box of one value; it projects like any box
SELECT pap.answer('b2', 'income = 5') = pap.answer('b2', 'income >= 5 AND income <= 5') AS point_box;
SELECT pap.answer('b2', 'age <= 5');
\echo SQLSTATE :LAST_ERROR_SQLSTATE

-- orthants: only upper bounds; finest granularity keeps every public value
SELECT pap.define_release('o2', 'people_priv', 'people_pub', 'orthants(income, hours)', granularity => 'finest');
SELECT granularity, cover_size, cell_count FROM pap.releases WHERE name = 'o2';
CALL pap.run_release('o2', 1.0);
SELECT round(pap.answer('o2', 'income <= 300 AND hours < 40')::numeric, 2) AS a;
SELECT pap.answer('o2', 'income > 300');
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT pap.define_release('bad', 'people_priv', 'people_pub', 'boxes(income, hours)', granularity => 'coarse');
\echo SQLSTATE :LAST_ERROR_SQLSTATE

-- marginals over text, integer and boolean columns; a value never seen publicly falls in "other"
SELECT pap.define_release('m2', 'people_priv', 'people_pub', 'marginals(2; sex, region, smoker, age)');
SELECT query_class, domain, cover_size, cell_count FROM pap.releases WHERE name = 'm2';
CALL pap.run_release('m2', 1.0);
SELECT round(pap.answer('m2', 'sex = ''F'' AND region = ''north''')::numeric, 2) AS a,
       round(pap.answer('m2', 'smoker = true AND age = 37')::numeric, 3) AS b,
       round(pap.answer('m2', 'region = ''O''''Hara'' AND sex = ''M''')::numeric, 2) AS c;
SELECT pap.answer('m2', 'sex = ''X'' AND region = ''moon''') = pap.answer('m2', 'sex = ''Y'' AND region = ''mars''')
       AS unseen_values_share_other;
SELECT pap.answer('m2', 'age = 037 AND smoker = TRUE') = pap.answer('m2', 'age = 37 AND smoker = true') AS canonical;
SELECT count(*) AS cover_queries, bool_and(pap.answer('m2', query) = answer) AS all_round_trip
  FROM pap.answers('m2') WHERE query NOT LIKE '%NOT IN%';
SELECT pap.answer('m2', 'sex = ''F''');
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT pap.answer('m2', 'sex = ''F'' AND sex = ''M''');
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT pap.answer('m2', 'age = ''abc'' AND sex = ''F''');
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT pap.answer('m2', 'height = ''tall'' AND sex = ''F''');
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT bounds, columns FROM pap.synthetic('m2') ORDER BY weight DESC, cell LIMIT 1;

-- stumps over boolean columns
SELECT pap.define_release('s2', 'people_priv', 'people_pub', 'stumps(smoker, married)');
CALL pap.run_release('s2', 1.0);
SELECT query, round(answer::numeric, 2) AS answer FROM pap.answers('s2') ORDER BY cover_query;
SELECT round((pap.answer('s2', 'smoker = true') + pap.answer('s2', 'smoker = false'))::numeric, 1) AS about_one;
SELECT pap.define_release('bad', 'people_priv', 'people_pub', 'stumps(sex)');
\echo SQLSTATE :LAST_ERROR_SQLSTATE

-- halfspaces: fixed directions, free offsets
SELECT pap.define_release('h2', 'people_priv', 'people_pub', 'halfspaces(income, hours; [1, 2], [1, -1])',
                          alpha => 0.2);
SELECT domain, cover_size FROM pap.releases WHERE name = 'h2';
CALL pap.run_release('h2', 1.0);
SELECT round(pap.answer('h2', '1*income + 2*hours <= 600')::numeric, 2) AS a,
       pap.answer('h2', '2*income + 4*hours <= 1200') = pap.answer('h2', '1*income + 2*hours <= 600') AS scaled,
       round(pap.answer('h2', 'income - hours < 100')::numeric, 2) AS b;
SELECT count(*) AS cover_queries, bool_and(pap.answer('h2', query) = answer) AS all_round_trip
  FROM pap.answers('h2');
SELECT pap.answer('h2', '1*income + 3*hours <= 600');
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT pap.define_release('bad', 'people_priv', 'people_pub', 'halfspaces(income, sex; [1, 1])');
\echo SQLSTATE :LAST_ERROR_SQLSTATE

-- predicates: SQL conditions on one row (comparisons, IN, IS NULL, AND/OR/NOT, CASE, COALESCE), evaluated by
-- PostgreSQL on both tables; identical public labelings merge into one cover query (so with granularity 'finest';
-- the default, auto, also plans every predicate on an axis of its own and keeps the layout that predicts less)
SELECT pap.define_release('p3', 'people_priv', 'people_pub',
  $$predicates('age > 40 AND sex = ''F''', 'income < 100', 'income <= 99.5', 'region IN (''north'', ''south'')')$$,
  granularity => 'finest');
SELECT cover_size FROM pap.releases WHERE name = 'p3';
SELECT pap.define_release('p3u', 'people_priv', 'people_pub',
  $$predicates('age > 40 AND sex = ''F''', 'income < 100', 'income <= 99.5', 'region IN (''north'', ''south'')')$$);
SELECT cover_size, granularity FROM pap.releases WHERE name = 'p3u';
SELECT pap.drop_release('p3u');
CALL pap.run_release('p3', 1.0);
SELECT query, round(answer::numeric, 2) AS answer FROM pap.answers('p3') ORDER BY cover_query;
SELECT pap.answer('p3', '  income <= 99.5 ') = pap.answer('p3', 'income < 100') AS merged;
SELECT pap.answer('p3', 'income < 101');
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT pap.define_release('bad', 'people_priv', 'people_pub', $$predicates('true) FROM pg_class WHERE (true')$$);
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT pap.define_release('bad', 'people_priv', 'people_pub', $$predicates('age + 1')$$);
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT pap.define_release('bad', 'people_priv', 'people_pub', $$predicates('no_such_column > 1')$$);
\echo SQLSTATE :LAST_ERROR_SQLSTATE

-- the cell limit: a grid larger than pap_release.max_cells runs on the public support, reported with the reason
SET pap_release.max_cells = 100;
SELECT pap.define_release('m4', 'people_priv', 'people_pub', 'marginals(2; sex, region, smoker, age)');
SELECT domain, domain_reason, cell_count FROM pap.releases WHERE name = 'm4';
CALL pap.run_release('m4', 1.0);
-- the same answers' totals: every private row still counts in the true answers
SELECT count(*) > 0 AS answered FROM pap.answers('m4');
SELECT bounds FROM pap.synthetic('m4') WHERE columns IS NULL;
-- even the public support too large: a clear error with a hint
SET pap_release.max_cells = 10;
SELECT pap.define_release('m5', 'people_priv', 'people_pub', 'marginals(2; sex, region, smoker, age)');
\echo SQLSTATE :LAST_ERROR_SQLSTATE
RESET pap_release.max_cells;
-- a class that lists its cover as it is defined (marginals) still has the cover limit; an ordered one
-- (15_large_covers) does not
SET pap_release.max_cover_queries = 50;
SELECT pap.define_release('m5', 'people_priv', 'people_pub', 'marginals(2; sex, region, smoker, age)');
\echo SQLSTATE :LAST_ERROR_SQLSTATE
RESET pap_release.max_cover_queries;

-- malformed class texts
SELECT pap.define_release('bad', 'people_priv', 'people_pub', 'marginals(5; sex, region)');
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT pap.define_release('bad', 'people_priv', 'people_pub', 'boxes(income, income)');
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT pap.define_release('bad', 'people_priv', 'people_pub', 'cubes(income)');
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT pap.define_release('bad', 'people_priv', 'people_pub', 'boxes(income, nope)');
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT count(*) AS releases FROM pap.releases WHERE name = 'bad';

-- a predicate that could fail on some private row (a division) is refused at define: after a charge, no single
-- row may decide whether a run succeeds (docs/security.md); nothing is charged
SELECT pap.define_release('p_fail', 'people_priv', 'people_pub',
  $$predicates('1 / (CASE WHEN sex = ''X'' THEN 0 ELSE 1 END) = 1')$$);
SELECT count(*) AS charges_before FROM pap.ledger WHERE private_table = 'people_priv'::regclass;
CALL pap.run_release('p_fail', 0.5);
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT count(*) AS charges_after FROM pap.ledger WHERE private_table = 'people_priv'::regclass;
-- a predicate over a column the private table lacks fails at define (both tables are checked)
CREATE TABLE people_pub_wide AS SELECT *, 1 AS extra FROM people_pub;
SELECT pap.define_release('p_wide', 'people_priv', 'people_pub_wide', $$predicates('extra = 1')$$);
CALL pap.run_release('p_wide', 0.5);
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT count(*) AS charges_unchanged FROM pap.ledger WHERE private_table = 'people_priv'::regclass;
-- categories read in a session with other output settings print the same
SET DateStyle = 'SQL, DMY';
SET extra_float_digits = -3;
SELECT pap.define_release('m_settings', 'people_priv', 'people_pub', 'marginals(1; hours)');
RESET DateStyle;
RESET extra_float_digits;
SET extra_float_digits = 0;
CALL pap.run_release('m_settings', 0.5);
SELECT pap.answer('m_settings', 'hours = 42') = pap.answer('m_settings', 'hours = 42.0') AS same_category;
-- a predicate's string literals are read with standard_conforming_strings on, whatever the session set: 'x\y' is
-- the three characters x, \ and y at define and at run (off, it would read 'xy', the other half of the rows)
CREATE TABLE bs_pub AS SELECT g AS id, CASE WHEN g % 2 = 0 THEN 'x\y' ELSE 'xy' END AS s
  FROM generate_series(1, 40) g;
CREATE TABLE bs_priv AS SELECT g AS id, CASE WHEN g % 4 = 0 THEN 'x\y' ELSE 'xy' END AS s
  FROM generate_series(1, 400) g;
SELECT pap.set_budget('bs_priv', 100);
SET standard_conforming_strings = off;
SELECT pap.define_release('bs', 'bs_priv', 'bs_pub', $$predicates('s = ''x\y''')$$);
CALL pap.run_release('bs', 50, mechanism => 'identity');
SELECT abs(pap.answer('bs', $$s = 'x\y'$$) - 0.25) < 0.02 AS backslash_is_a_character;
RESET standard_conforming_strings;

-- the synthetic data as a private summary others can query with plain SQL
CREATE MATERIALIZED VIEW m2_summary AS SELECT * FROM pap.synthetic('m2');
SELECT columns->>'sex' AS sex, round(sum(count)) AS estimated_rows
  FROM m2_summary GROUP BY 1 ORDER BY 1;
SELECT pap.define_release('bad', 'people_priv', 'people_pub', 'halfspaces(income, hours; [1, 0], [8, -0])');
\echo SQLSTATE :LAST_ERROR_SQLSTATE
