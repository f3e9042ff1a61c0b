-- Queries written as PostgreSQL writes them (IN lists, IS [NOT] NULL, casts of literals, parentheses, conjuncts
-- in any order), errors with a caret, and the typed set-based answers pap.answers_at and pap.answer_between.
-- Every native form is checked against the form accepted before, which must give the very same answer.
-- Self-contained: its own tables, budget and releases (seeded noise).
SET pap_release.test_seed = 16;
SET extra_float_digits = 0;
CREATE TABLE ns_priv AS
SELECT i % 90 AS age, DATE '2021-01-01' + (i % 365) AS visit,
       CASE WHEN i % 97 = 0 THEN NULL WHEN i % 3 = 0 THEN 'F' WHEN i % 3 = 1 THEN 'M' ELSE 'U' END AS sex,
       i % 4 = 0 AS smoker
  FROM generate_series(1, 6000) i;
CREATE TABLE ns_pub AS SELECT * FROM ns_priv WHERE age % 5 = 0;
SELECT pap.set_budget('ns_priv', 10);
SELECT pap.define_release('ns_age', 'ns_priv', 'ns_pub', 'thresholds(age)', granularity => 'finest');
SELECT pap.define_release('ns_visit', 'ns_priv', 'ns_pub', 'ranges(visit)', granularity => 'finest');
SELECT pap.define_release('ns_marg', 'ns_priv', 'ns_pub', 'marginals(2; sex, smoker, age)');
SELECT pap.define_release('ns_pred', 'ns_priv', 'ns_pub',
  $$predicates('smoker AND age < 40', 'sex = ''F'' AND (age BETWEEN 20 AND 30 OR age > 80)')$$);
CALL pap.run_release('ns_age', 1.0, mechanism => 'identity');
CALL pap.run_release('ns_visit', 1.0, mechanism => 'identity');
CALL pap.run_release('ns_marg', 1.0);
CALL pap.run_release('ns_pred', 1.0);

-- Casts of literals, in the three spellings, equal the plain literal; '5.7'::numeric::int is 6 as in SQL.
SELECT pap.answer('ns_visit', $$visit <= '2021-03-01'::date$$) = pap.answer('ns_visit', $$visit <= '2021-03-01'$$) AS colon_cast,
       pap.answer('ns_visit', $$visit <= CAST('2021-03-01' AS date)$$) = pap.answer('ns_visit', $$visit <= '2021-03-01'$$) AS cast_call,
       pap.answer('ns_visit', $$visit <= date '2021-03-01'$$) = pap.answer('ns_visit', $$visit <= '2021-03-01'$$) AS typed_string,
       pap.answer('ns_visit', $$visit <= '2021-03-01 18:00'::timestamp$$) = pap.answer('ns_visit', $$visit <= '2021-03-01'$$) AS timestamp_on_dates,
       pap.answer('ns_age', $$age <= '5.7'::numeric::int$$) = pap.answer('ns_age', 'age <= 6') AS chained,
       pap.answer('ns_age', 'age < 40::bigint') = pap.answer('ns_age', 'age < 40') AS number_cast,
       pap.answer('ns_age', $$age <= 39.5::float8$$) = pap.answer('ns_age', 'age <= 39.5') AS float_cast,
       pap.answer('ns_marg', $$sex = 'F'::text AND smoker = 'yes'::boolean$$)
         = pap.answer('ns_marg', $$sex = 'F' AND smoker = true$$) AS categorical_casts;
-- BETWEEN, and parentheses around single conditions and around conjunctions, to any depth.
SELECT pap.answer('ns_visit', $$(visit >= '2021-02-01') AND (visit <= '2021-03-01')$$)
         = pap.answer('ns_visit', $$visit >= '2021-02-01' AND visit <= '2021-03-01'$$) AS around_conditions,
       pap.answer('ns_visit', $$((visit BETWEEN date '2021-02-01' AND '2021-03-01'::date))$$)
         = pap.answer('ns_visit', $$visit BETWEEN '2021-02-01' AND '2021-03-01'$$) AS around_between,
       pap.answer('ns_marg', $$(sex = 'F' AND (smoker = true))$$) = pap.answer('ns_marg', $$sex = 'F' AND smoker = true$$) AS nested;
-- IN lists on categorical columns: the sum of the disjoint equalities they expand to, each category once.
SELECT abs(pap.answer('ns_marg', $$sex IN ('F', 'M') AND smoker = true$$)
           - (pap.answer('ns_marg', $$sex = 'F' AND smoker = true$$) + pap.answer('ns_marg', $$sex = 'M' AND smoker = true$$))) < 1e-12 AS in_is_sum,
       pap.answer('ns_marg', $$sex IN ('F', 'F') AND smoker = true$$) = pap.answer('ns_marg', $$sex = 'F' AND smoker = true$$) AS duplicates_once,
       pap.answer('ns_marg', $$sex IN ('X', 'Y') AND smoker IN (true)$$) = pap.answer('ns_marg', $$sex = 'X' AND smoker = true$$) AS unseen_share_other,
       abs(pap.answer('ns_marg', $$sex IN ('F', 'M', 'U') AND smoker IN (true, false)$$)
           - (SELECT sum(pap.answer('ns_marg', format('sex = %L AND smoker = %L', s, b)))
                FROM unnest('{F,M,U}'::text[]) s, unnest('{true,false}'::bool[]) b)) < 1e-12 AS product_of_lists;
-- IN on a numeric column is refused with the reason; IS NULL on a marginal is answered from the NULL bin's own cells
-- (identity measured every cell of its full grid) and refused by projection; IS NOT NULL is a query of the ordered
-- classes (25_nulls_and_boxes).
SELECT pap.answer('ns_age', 'age IN (1, 2)');
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT pap.answer('ns_marg', $$sex IS NULL AND smoker = true$$);
SELECT pap.answer('ns_marg', $$sex IS NULL AND smoker = true$$, refine => false);
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT pap.answer('ns_age', 'age IS NOT NULL');
\echo SQLSTATE :LAST_ERROR_SQLSTATE
-- A predicate matches whatever the order, case and parentheses of its conjuncts; a different one does not.
SELECT pap.answer('ns_pred', 'age < 40 AND smoker') = pap.answer('ns_pred', 'smoker AND age < 40') AS reordered,
       pap.answer('ns_pred', '(AGE < 40) and (smoker)') = pap.answer('ns_pred', 'smoker AND age < 40') AS folded,
       pap.answer('ns_pred', $$(age BETWEEN 20 AND 30 OR age > 80) AND sex = 'F'$$)
         = pap.answer('ns_pred', $$sex = 'F' AND (age BETWEEN 20 AND 30 OR age > 80)$$) AS disjunction_conjunct;
SELECT pap.answer('ns_pred', $$sex = 'F' AND age BETWEEN 20 AND 30 OR age > 80$$);
\echo SQLSTATE :LAST_ERROR_SQLSTATE

-- Errors point into the query text: a caret in the statement's literal, else the text as the internal query.
SELECT pap.answer('ns_age', 'age <= ');
SELECT pap.answer('ns_age',
                  'age <== 3');
SELECT pap.answer('ns_age', 'age <= 1 AND (age > ''it''''s'' AND');
-- from the same statement's VALUES, the caret goes there; from a table, the text is shown as the internal query
SELECT pap.answer('ns_age', q) FROM (VALUES ('age <= 1 AND (age > 2')) t(q);
CREATE TABLE ns_texts (q text);
INSERT INTO ns_texts VALUES ('age <= 1 AND (age > 2');
SELECT pap.answer('ns_age', q) FROM ns_texts;
SELECT pap.answer('ns_visit', $$visit <= '2021-02-30'::date$$);
SELECT pap.answer('ns_visit', 'visit <= ''2021-02-30''');
SELECT pap.answer('ns_visit', $$visit <= '1'::no_such_type$$);
SELECT pap.answer('ns_visit', $$visit <= '1'::int$$);
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT pap.answer('ns_marg', $$sex = 1::int AND smoker = true$$);
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT pap.answer('ns_age', $$age <= 'x'::point$$);
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT pap.answer('ns_age', 'age <= 1e999');
SELECT pap.define_release('bad', 'ns_priv', 'ns_pub', 'boxes(age, visit, AGE)');

-- pap.answers_at: one row per element, in order, each the answer pap.answer gives to "column <= element".
SELECT a.upper_bound, a.answer = pap.answer('ns_age', 'age <= ' || a.upper_bound) AS same_as_text,
       a.answer_count = pap.answer_count('ns_age', 'age <= ' || a.upper_bound) AS same_count
  FROM pap.answers_at('ns_age', ARRAY[30, 0, 89, NULL, -5]) a;
SELECT a.upper_bound, a.answer = pap.answer('ns_age', format('age <= %s', a.upper_bound), true) AS refined_same
  FROM pap.answers_at('ns_age', ARRAY[12.5, 40.25]::numeric[], refine => true) a;
SELECT a.upper_bound, a.answer = pap.answer('ns_visit', format('visit <= %L', a.upper_bound)) AS same_as_text
  FROM pap.answers_at('ns_visit', ARRAY[date '2021-02-01', '2021-06-30', 'infinity']) a;
-- the element type is resolved against the column: text reads as a literal of it, timestamps compare with dates
SELECT count(*) FILTER (WHERE a.answer = pap.answer('ns_visit', format('visit <= %L', a.upper_bound))) AS same
  FROM pap.answers_at('ns_visit', '{2021-02-01,2021-06-30}'::text[]) a;
SELECT pg_typeof(upper_bound) FROM pap.answers_at('ns_visit', ARRAY['2021-02-01 12:00'::timestamp]) LIMIT 1;
SELECT count(*) AS no_rows FROM pap.answers_at('ns_age', '{}'::int[]);
SELECT count(*) AS strict FROM pap.answers_at('ns_age', NULL::int[]);
SELECT * FROM pap.answers_at('ns_visit', ARRAY[1, 2]);
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT * FROM pap.answers_at('ns_marg', ARRAY[1]);
\echo SQLSTATE :LAST_ERROR_SQLSTATE
-- a numeric beyond float8's range is placed where the scan bins such a private value (+-Infinity, or 0 below the
-- smallest double), as pap.axis_value places it; types of PostgreSQL's numeric category that are not numbers of an
-- axis (money, oid) cannot be compared with the column
SELECT a.answer = b.answer AS placed_as_axis_value
  FROM pap.answers_at('ns_age', ARRAY[1e400, -1e400, 1e-400]::numeric[]) WITH ORDINALITY a(u, answer, c, i)
  JOIN pap.answers_at('ns_age', ARRAY['Infinity', '-Infinity', 0]::float8[]) WITH ORDINALITY b(u, answer, c, i)
    USING (i) ORDER BY i;
SELECT * FROM pap.answers_at('ns_age', ARRAY[30::money]);
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT * FROM pap.answers_at('ns_age', ARRAY[30::oid]);
\echo SQLSTATE :LAST_ERROR_SQLSTATE
-- pap.answer_between over a table of bounds with LATERAL; a NULL bound leaves its side open.
CREATE TABLE ns_bounds (lo date, hi date);
INSERT INTO ns_bounds VALUES ('2021-01-15', '2021-02-15'), (NULL, '2021-05-01'), ('2021-11-01', NULL), (NULL, NULL);
SELECT b.lo, b.hi, a.answer IS NULL AS is_null,
       a.answer = pap.answer('ns_visit', nullif(concat_ws(' AND ', 'visit >= ' || quote_literal(b.lo),
                                                          'visit <= ' || quote_literal(b.hi)), '')) AS same_as_text
  FROM ns_bounds b, LATERAL (SELECT pap.answer_between('ns_visit', b.lo, b.hi) AS answer) a ORDER BY b.lo, b.hi;
SELECT pap.answer_between('ns_age', NULL, 30) = pap.answer('ns_age', 'age <= 30') AS thresholds_upper;
SELECT pap.answer_between('ns_age', 10, 30);
\echo SQLSTATE :LAST_ERROR_SQLSTATE
-- free: no charge beyond the four runs
SELECT count(*) AS charges FROM pap.ledger WHERE private_table = 'ns_priv'::regclass;

SELECT pap.drop_release(name) FROM pap.releases WHERE name LIKE 'ns\_%' ORDER BY name;
DROP TABLE ns_priv, ns_pub, ns_bounds, ns_texts;
