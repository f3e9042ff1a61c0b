-- IS [NOT] NULL in the ordered classes (thresholds, ranges, boxes, orthants) and the typed box answers of
-- pap.answer_box (docs/query-classes.md "NULL values", docs/reference.md "Answers for boxes"). "col IS NOT NULL"
-- is the class's query "col <= 'NaN'"; "col IS NULL" is TRUE minus it, bounded by the sum of its terms' bounds.
-- Answers are checked against the exact counts of the private table, and against the same query as text.
-- Self-contained: its own tables, budget and releases (seeded noise).
SET pap_release.test_seed = 25;
SET extra_float_digits = 0;
-- x and y have NULLs in both tables; w has NULLs in the private table only. The public rows (i % 7 = 3) show every
-- value of x, y and w, so at the finest granularity the projection is exact and the answers differ from the exact
-- counts by the noise, and where a bound falls between two public values (x <= 20: x is never a multiple of 10) by the
-- spread of that gap, as the releases refine by default (28_gap_spread).
CREATE TABLE nb_priv AS
SELECT i, CASE WHEN i % 10 = 0 THEN NULL ELSE (i % 50)::float8 END AS x,
       CASE WHEN i % 9 = 0 THEN NULL ELSE i % 30 END AS y,
       CASE WHEN i % 11 = 0 AND i % 7 <> 3 THEN NULL ELSE (i % 20)::numeric END AS w,
       CASE WHEN i % 13 = 0 THEN NULL ELSE chr(65 + i % 3) END AS s, DATE '2021-01-01' + i % 60 AS d
  FROM generate_series(1, 6000) i;
CREATE TABLE nb_pub AS SELECT * FROM nb_priv WHERE i % 7 = 3;
SELECT count(*) FILTER (WHERE x IS NULL) AS pub_x_null, count(*) FILTER (WHERE y IS NULL) AS pub_y_null,
       count(*) FILTER (WHERE w IS NULL) AS pub_w_null FROM nb_pub;
SELECT pap.set_budget('nb_priv', 150);
SELECT pap.define_release('nb_x', 'nb_priv', 'nb_pub', 'thresholds(x)', granularity => 'finest');
SELECT pap.define_release('nb_box', 'nb_priv', 'nb_pub', 'boxes(x, y)', granularity => 'finest');
SELECT pap.define_release('nb_orth', 'nb_priv', 'nb_pub', 'orthants(x, w)', granularity => 'finest');
SELECT pap.define_release('nb_s', 'nb_priv', 'nb_pub', 'marginals(1; s)');
SELECT pap.define_release('nb_dy', 'nb_priv', 'nb_pub', 'boxes(d, y)', granularity => 'finest');
CALL pap.run_release('nb_x', 20.0, mechanism => 'identity');
CALL pap.run_release('nb_box', 20.0, mechanism => 'identity');
CALL pap.run_release('nb_orth', 20.0, mechanism => 'identity');
CALL pap.run_release('nb_s', 1.0);
CALL pap.run_release('nb_dy', 20.0, mechanism => 'identity');

-- The exact counts of the private table against the released ones, and whether answer_bounded's interval holds
-- them. Thresholds: x IS NULL and x IS NOT NULL; boxes: IS NULL combined with bounds and with another IS NULL;
-- orthants: w, which has NULLs in the private table but none in the public one.
CREATE TEMP TABLE nb_queries (release text, query text, exact bigint);
INSERT INTO nb_queries VALUES
  ('nb_x', 'x IS NULL', (SELECT count(*) FROM nb_priv WHERE x IS NULL)),
  ('nb_x', 'x IS NOT NULL', (SELECT count(*) FROM nb_priv WHERE x IS NOT NULL)),
  ('nb_x', 'x IS NOT NULL AND x <= 20', (SELECT count(*) FROM nb_priv WHERE x IS NOT NULL AND x <= 20)),
  ('nb_box', 'x IS NULL', (SELECT count(*) FROM nb_priv WHERE x IS NULL)),
  ('nb_box', 'x IS NULL AND y <= 10', (SELECT count(*) FROM nb_priv WHERE x IS NULL AND y <= 10)),
  ('nb_box', 'y BETWEEN 5 AND 9 AND x IS NULL', (SELECT count(*) FROM nb_priv WHERE y BETWEEN 5 AND 9 AND x IS NULL)),
  ('nb_box', 'x IS NULL AND y IS NULL', (SELECT count(*) FROM nb_priv WHERE x IS NULL AND y IS NULL)),
  ('nb_box', 'x IS NOT NULL AND y IS NULL', (SELECT count(*) FROM nb_priv WHERE x IS NOT NULL AND y IS NULL)),
  ('nb_box', 'x > 40 AND y IS NOT NULL', (SELECT count(*) FROM nb_priv WHERE x > 40 AND y IS NOT NULL)),
  ('nb_orth', 'w IS NULL', (SELECT count(*) FROM nb_priv WHERE w IS NULL)),
  ('nb_orth', 'w IS NULL AND x < 25', (SELECT count(*) FROM nb_priv WHERE w IS NULL AND x < 25)),
  ('nb_orth', 'w IS NOT NULL AND x IS NULL', (SELECT count(*) FROM nb_priv WHERE w IS NOT NULL AND x IS NULL));
SELECT q.release, q.query, q.exact, round(pap.answer_count(q.release, q.query)) AS released,
       abs(pap.answer_count(q.release, q.query) - q.exact) <= 60 AS close,
       q.exact BETWEEN b.lower * b.private_rows AND b.upper * b.private_rows AS bound_holds
  FROM nb_queries q CROSS JOIN LATERAL pap.answer_bounded(q.release, q.query) b;
-- IS NOT NULL is the class's query "col <= 'NaN'" (NaN is float8's highest value), and so is "col >= '-Infinity'"
-- on the same public values; IS NULL is exactly its complement, in both answer modes; a column that IS NULL and is
-- compared is the empty query.
SELECT pap.answer('nb_x', 'x IS NOT NULL') = pap.answer('nb_x', $$x <= 'NaN'$$) AS not_null_is_nan_bound,
       abs(pap.answer('nb_x', 'x IS NULL') + pap.answer('nb_x', 'x IS NOT NULL') - 1) < 1e-12 AS complement,
       abs(pap.answer('nb_x', 'x IS NULL', refine => true)
           + pap.answer('nb_x', 'x IS NOT NULL', refine => true) - 1) < 1e-12 AS complement_refined,
       pap.answer('nb_box', 'x IS NOT NULL') = pap.answer('nb_box', $$x >= '-Infinity'$$) AS not_null_is_infinity_bound,
       pap.answer('nb_x', 'x IS NULL AND x <= 20') AS null_and_bounded,
       pap.answer('nb_box', 'x IS NULL AND x IS NOT NULL') AS null_and_not_null,
       pap.answer('nb_x', 'x <= 20 AND x IS NOT NULL') = pap.answer('nb_x', 'x <= 20') AS redundant_not_null;
-- A box with IS NULL on x is the box without x minus the box with x IS NOT NULL: two queries of the class.
SELECT abs(pap.answer('nb_box', 'x IS NULL AND y <= 10')
           - (pap.answer('nb_box', 'y <= 10') - pap.answer('nb_box', 'x IS NOT NULL AND y <= 10'))) < 1e-12 AS difference,
       abs(pap.answer('nb_box', 'x IS NULL AND y IS NULL')
           - (1 - pap.answer('nb_box', 'x IS NOT NULL') - pap.answer('nb_box', 'y IS NOT NULL')
              + pap.answer('nb_box', 'x IS NOT NULL AND y IS NOT NULL'))) < 1e-12 AS inclusion_exclusion;
-- The bound of x IS NULL is the bound of x IS NOT NULL (one term with an error: TRUE is exact); a box with IS NULL
-- on one column has two terms, so twice the noise and outside-mass parts.
SELECT abs((SELECT error_bound FROM pap.answer_bounded('nb_x', 'x IS NULL'))
           - (SELECT error_bound FROM pap.answer_bounded('nb_x', 'x IS NOT NULL'))) < 1e-12 AS same_bound,
       (SELECT error_bound FROM pap.answer_bounded('nb_box', 'x IS NULL AND y <= 10'))
         > (SELECT error_bound FROM pap.answer_bounded('nb_box', 'x IS NOT NULL AND y <= 10')) AS wider_bound,
       (SELECT error_bound FROM pap.answer_bounded('nb_x', 'x IS NULL AND x < 3')) AS empty_query_bound;
-- Thresholds and orthants accept IS [NOT] NULL beside their upper bounds, and still refuse lower bounds.
SELECT pap.answer('nb_orth', 'x <= 10 AND w IS NOT NULL') = pap.answer('nb_orth', $$x <= 10 AND w <= 'NaN'$$) AS orthant_not_null;
SELECT pap.answer('nb_orth', 'x >= 10 AND w IS NULL');
\echo SQLSTATE :LAST_ERROR_SQLSTATE
-- Marginals: NULL is no value of the class's cover, so a projected answer refuses "col IS NULL" (the error points
-- at the condition); a release over a full grid whose mechanism measured every cell (answer mode refine) answers
-- it from the NULL bin's own cells, as many as any value's. "col IS NOT NULL" is no query of the class.
SELECT pap.answer('nb_s', $$s IS NULL$$, refine => false);
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT pap.answer('nb_s', $$s IS NOT NULL$$);
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT pap.define_release('nb_m', 'nb_priv', 'nb_pub', 'marginals(2; s, y)');
SELECT pap.define_release('nb_m_pmw', 'nb_priv', 'nb_pub', 'marginals(2; s, y)');
CALL pap.run_release('nb_m', 20.0, mechanism => 'identity');
CALL pap.run_release('nb_m_pmw', 1.0, mechanism => 'pmw');
SELECT name, domain, mechanism, details ->> 'answer_mode' AS answer_mode FROM pap.releases WHERE name IN ('nb_m', 'nb_m_pmw') ORDER BY name;
SELECT q.query, q.exact, round(pap.answer_count('nb_m', q.query)) AS released,
       abs(pap.answer_count('nb_m', q.query) - q.exact) <= 0.01 * 6000 AS close,
       CASE WHEN q.query NOT LIKE '%IN (%' THEN
         (SELECT b.lower * 6000 <= q.exact AND q.exact <= b.upper * 6000 FROM pap.answer_bounded('nb_m', q.query) b)
       END AS within_bound
  FROM (VALUES ('s IS NULL AND y = 4', (SELECT count(*) FROM nb_priv WHERE s IS NULL AND y = 4)),
               ('s IS NULL AND y IS NULL', (SELECT count(*) FROM nb_priv WHERE s IS NULL AND y IS NULL)),
               ('s = ''B'' AND y IS NULL', (SELECT count(*) FROM nb_priv WHERE s = 'B' AND y IS NULL)),
               ('s IS NULL AND y IN (4, 5)', (SELECT count(*) FROM nb_priv WHERE s IS NULL AND y IN (4, 5))))
         AS q(query, exact)
 ORDER BY q.query;
SELECT pap.answer('nb_m_pmw', $$s IS NULL AND y = 4$$);
\echo SQLSTATE :LAST_ERROR_SQLSTATE

-- pap.answer_box: "lower[i] <= column_i AND column_i <= upper[i]" per class column, the same answer as the text.
SELECT pap.answer_box('nb_box', ARRAY[10, 5], ARRAY[30, 20])
         = pap.answer('nb_box', 'x >= 10 AND x <= 30 AND y >= 5 AND y <= 20') AS closed_box,
       pap.answer_box('nb_box', ARRAY[10.5, 5], ARRAY[30.5, 20], refine => true)
         = pap.answer('nb_box', 'x BETWEEN 10.5 AND 30.5 AND y BETWEEN 5 AND 20', refine => true) AS refined,
       pap.answer_box('nb_box', ARRAY[NULL, 5], ARRAY[30, NULL]) = pap.answer('nb_box', 'x <= 30 AND y >= 5') AS open_sides,
       pap.answer_box('nb_box', ARRAY[NULL, 5], ARRAY[NULL, 20]) = pap.answer('nb_box', 'y BETWEEN 5 AND 20') AS free_column,
       pap.answer_box('nb_box', ARRAY[NULL, NULL]::int[], ARRAY[NULL, NULL]::int[]) AS everything,
       pap.answer_box('nb_box', '{10, 5}'::text[], '{30, 20}'::text[])
         = pap.answer_box('nb_box', ARRAY[10, 5], ARRAY[30, 20]) AS text_elements,
       pap.answer_box('nb_box', ARRAY[10, 5]::numeric[], ARRAY[30, 20]::numeric[])
         = pap.answer_box('nb_box', ARRAY[10, 5], ARRAY[30, 20]) AS numeric_elements,
       pap.answer_box('nb_orth', ARRAY[NULL, NULL]::float8[], ARRAY[20, 10]::float8[])
         = pap.answer('nb_orth', 'x <= 20 AND w <= 10') AS orthant;
-- Columns of different types: a text[] is read as literals of each column's type; a date[] fits the date column
-- only.
SELECT pap.answer_box('nb_dy', ARRAY['2021-01-10', '5'], ARRAY['2021-02-01', NULL])
         = pap.answer('nb_dy', $$d BETWEEN '2021-01-10' AND '2021-02-01' AND y >= 5$$) AS mixed_types_as_text,
       pap.answer_box('nb_dy', ARRAY[date '2021-01-10', NULL], ARRAY[date '2021-02-01', NULL])
         = pap.answer('nb_dy', $$d BETWEEN '2021-01-10' AND '2021-02-01'$$) AS dates;
SELECT pap.answer_box('nb_dy', ARRAY[date '2021-01-10', NULL], ARRAY[NULL, date '2021-02-01']);
\echo SQLSTATE :LAST_ERROR_SQLSTATE
-- Extremes: NaN is the highest value (so "<= NaN" is IS NOT NULL), infinities are ordinary bounds, an empty box
-- (lower above upper) answers 0, NULL arguments answer NULL.
SELECT pap.answer_box('nb_box', ARRAY[NULL, NULL]::float8[], ARRAY['NaN', 'NaN']::float8[])
         = pap.answer('nb_box', 'x IS NOT NULL AND y IS NOT NULL') AS nan_is_not_null,
       pap.answer_box('nb_box', ARRAY['-Infinity', NULL]::float8[], ARRAY['Infinity', NULL]::float8[])
         = pap.answer('nb_box', $$x BETWEEN '-Infinity' AND 'Infinity'$$) AS infinities,
       pap.answer_box('nb_box', ARRAY['NaN', NULL]::float8[], ARRAY[NULL, NULL]::float8[]) AS only_nan,
       pap.answer_box('nb_box', ARRAY[30, 5], ARRAY[10, 20]) AS lower_above_upper,
       pap.answer_box('nb_box', NULL::int[], ARRAY[1, 2]) IS NULL AS null_lower,
       pap.answer_box(NULL, ARRAY[1, 2], ARRAY[1, 2]) IS NULL AS null_name;
-- Over a table of bounds with LATERAL: one answer per row, from one load of the release; each near the exact count.
CREATE TEMP TABLE nb_bounds (id int, x_lo float8, y_lo int, x_hi float8, y_hi int);
INSERT INTO nb_bounds VALUES (1, 0, 0, 9, 9), (2, 10, NULL, 19, NULL), (3, NULL, 20, NULL, NULL),
                             (4, 40, 25, 49, 29), (5, NULL, NULL, NULL, NULL);
SELECT b.id, (SELECT count(*) FROM nb_priv p
                WHERE (b.x_lo IS NULL OR p.x >= b.x_lo) AND (b.x_hi IS NULL OR p.x <= b.x_hi)
                  AND (b.y_lo IS NULL OR p.y >= b.y_lo) AND (b.y_hi IS NULL OR p.y <= b.y_hi)) AS exact,
       round(a.answer * 6000) AS released
  FROM nb_bounds b
  CROSS JOIN LATERAL pap.answer_box('nb_box', ARRAY[b.x_lo, b.y_lo], ARRAY[b.x_hi, b.y_hi]) AS a(answer)
 ORDER BY b.id;
-- Errors: the class, the number of elements, the shape and the type of the arrays, an orthant's lower bound.
SELECT pap.answer_box('nb_x', ARRAY[1], ARRAY[2]);
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT pap.answer_box('nb_box', ARRAY[1, 2, 3], ARRAY[4, 5, 6]);
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT pap.answer_box('nb_box', '{}'::int[], '{}'::int[]);
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT pap.answer_box('nb_box', ARRAY[1, 2], ARRAY[3]);
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT pap.answer_box('nb_box', ARRAY[[1, 2]], ARRAY[[3, 4]]);
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT pap.answer_box('nb_box', ARRAY[true, false], ARRAY[true, true]);
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT pap.answer_box('nb_box', '{1, abc}'::text[], '{2, 3}'::text[]);
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT pap.answer_box('nb_orth', ARRAY[1, NULL], ARRAY[2, 3]);
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT pap.answer_box('nb_s', ARRAY['A'], ARRAY['B']);
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT pap.answer_box('no_such_release', ARRAY[1], ARRAY[2]);
\echo SQLSTATE :LAST_ERROR_SQLSTATE

-- A refined box over 24 columns of a public support is a sum over up to 3^24 products of per-column terms: summed
-- box by box, one answer ran for hours and no cancel or termination stopped it. It is summed point by point now
-- (the same sum, regrouped), and polls for a cancel. The timeout only keeps a regression from hanging the suite.
DO $$
DECLARE sel text := '';
BEGIN
  FOR i IN 1..24 LOOP
    sel := sel || format('((g * %s + %s) %% 997)::float8 AS c%s, ', 7919 + i * 104729 % 1000, i, i);
  END LOOP;
  EXECUTE format('CREATE TABLE nb_wide_pub AS SELECT %s 0 AS z FROM generate_series(1, 2000) g', sel);
  EXECUTE format('CREATE TABLE nb_wide_priv AS SELECT %s 0 AS z FROM generate_series(2001, 4000) g', sel);
END $$;
SELECT pap.set_budget('nb_wide_priv', 10);
SELECT pap.define_release('nb_wide', 'nb_wide_priv', 'nb_wide_pub',
  'boxes(c1, c2, c3, c4, c5, c6, c7, c8, c9, c10, c11, c12, c13, c14, c15, c16, c17, c18, c19, c20, c21, c22, c23, c24)',
  alpha => 0.9, granularity => 'alpha');
CALL pap.run_release('nb_wide', 1.0, mechanism => 'identity');
SELECT domain FROM pap.releases WHERE name = 'nb_wide';
SET statement_timeout = '60s';
SELECT a > 0 AND a < 1 AS answered,
       a = pap.answer('nb_wide', (SELECT string_agg(format('c%s BETWEEN 100.5 AND 900.5', i), ' AND ')
                                    FROM generate_series(1, 24) i), refine => true) AS equals_its_text
  FROM pap.answer_box('nb_wide', array_fill(100.5::float8, ARRAY[24]), array_fill(900.5::float8, ARRAY[24]),
                      refine => true) a;
RESET statement_timeout;
