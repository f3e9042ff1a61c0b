-- A class whose cover is too large to list (docs/query-classes.md, "Covers too large to list"): boxes over two
-- columns of a public table of 5000 rows at the default alpha have about 5.6 x 10^9 cover queries. The release is
-- defined, planned without the mechanisms that read every cover query, run (seeded) and answered.
SET pap_release.test_seed = 11;
SET extra_float_digits = 0;

CREATE TABLE lc_population AS
SELECT i AS id, ((i * 7919) % 6000)::float8 AS a, ((i * 104729) % 5000)::float8 AS b
  FROM generate_series(1, 20000) AS i;
CREATE TABLE lc_pub AS SELECT * FROM lc_population WHERE id % 4 = 0;
CREATE TABLE lc_priv AS SELECT * FROM lc_population WHERE id % 4 <> 0;
SELECT pap.set_budget('lc_priv', 10);

SHOW pap_release.max_cover_queries;
SELECT pap.define_release('lc_boxes', 'lc_priv', 'lc_pub', 'boxes(a, b)', granularity => 'alpha');
SELECT query_class, domain, cover_size, cell_count,
       cover_size > current_setting('pap_release.max_cover_queries')::int8 AS over_the_setting
  FROM pap.releases WHERE name = 'lc_boxes';
-- pmw and mwem do not apply, with the reason; auto plans among the others
SELECT chosen_mechanism IN ('identity', 'hierarchical') AS plans_without_the_list, cover_size,
       predictions->'pmw' AS pmw, predictions->'mwem' AS mwem,
       (predictions->'identity') ? 'predicted_error' AS identity_planned,
       (predictions->'hierarchical') ? 'predicted_error' AS hierarchical_planned
  FROM pap.plan('lc_boxes', 1.0);
-- pmw requested: refused before anything is charged
CALL pap.run_release('lc_boxes', 1.0, mechanism => 'pmw');
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT count(*) AS charges FROM pap.ledger WHERE private_table = 'lc_priv'::regclass;
CALL pap.run_release('lc_boxes', 1.0);
SELECT state, mechanism IN ('identity', 'hierarchical') AS ran_without_the_list FROM pap.releases
 WHERE name = 'lc_boxes';

-- Every box whose bounds are cut points is answered as the released cells say: the weight of the cells inside it
-- (bounds from pap.synthetic, which lists the cells of positive weight; lower bounds exclusive, upper inclusive;
-- cells off the NULL bins only).
CREATE TEMP TABLE lc_cells AS
SELECT weight, coalesce((columns->'a'->>'lower')::float8, '-Infinity') AS a_lo,
       coalesce((columns->'a'->>'upper')::float8, 'Infinity') AS a_hi,
       coalesce((columns->'b'->>'lower')::float8, '-Infinity') AS b_lo,
       coalesce((columns->'b'->>'upper')::float8, 'Infinity') AS b_hi
  FROM pap.synthetic('lc_boxes')
 WHERE columns->'a' <> 'null'::jsonb AND columns->'b' <> 'null'::jsonb;
SELECT count(*) > 1000 AS many_cells FROM lc_cells;
CREATE TEMP TABLE lc_cuts AS
SELECT 'a' AS col, a_hi AS cut, row_number() OVER (ORDER BY a_hi) AS i
  FROM (SELECT DISTINCT a_hi FROM lc_cells WHERE a_hi < 'Infinity') s
UNION ALL
SELECT 'b', b_hi, row_number() OVER (ORDER BY b_hi)
  FROM (SELECT DISTINCT b_hi FROM lc_cells WHERE b_hi < 'Infinity') s;
WITH boxes AS (
  SELECT least(a1.cut, a2.cut) AS a_lo, greatest(a1.cut, a2.cut) AS a_hi,
         least(b1.cut, b2.cut) AS b_lo, greatest(b1.cut, b2.cut) AS b_hi
    FROM generate_series(1, 40) AS g(j)
    JOIN lc_cuts a1 ON a1.col = 'a' AND a1.i = 1 + (g.j * 37) % 300
    JOIN lc_cuts a2 ON a2.col = 'a' AND a2.i = 1 + (g.j * 101) % 300
    JOIN lc_cuts b1 ON b1.col = 'b' AND b1.i = 1 + (g.j * 53) % 300
    JOIN lc_cuts b2 ON b2.col = 'b' AND b2.i = 1 + (g.j * 211) % 300
   WHERE a1.cut <> a2.cut AND b1.cut <> b2.cut)
SELECT count(*) AS boxes,
       bool_and(abs(pap.answer('lc_boxes', format('a > %s AND a <= %s AND b > %s AND b <= %s',
                                                  x.a_lo, x.a_hi, x.b_lo, x.b_hi))
                    - (SELECT coalesce(sum(weight), 0) FROM lc_cells c
                        WHERE c.a_lo >= x.a_lo AND c.a_hi <= x.a_hi AND c.b_lo >= x.b_lo AND c.b_hi <= x.b_hi))
                < 1e-9) AS answered_as_the_cells_say
  FROM boxes x;
-- a box without lower bounds; answer_count is the answer in rows
SELECT abs(pap.answer('lc_boxes', format('a <= %s AND b <= %s', ca.cut, cb.cut))
           - (SELECT sum(weight) FROM lc_cells WHERE a_hi <= ca.cut AND b_hi <= cb.cut)) < 1e-9 AS no_lower_bounds,
       pap.answer_count('lc_boxes', 'a > -1') = pap.answer('lc_boxes', 'a > -1') * (SELECT count(*) FROM lc_priv)
       AS counts
  FROM lc_cuts ca, lc_cuts cb WHERE ca.col = 'a' AND ca.i = 200 AND cb.col = 'b' AND cb.i = 150;
-- pap.answers would list every cover query: refused with a hint
SELECT count(*) FROM pap.answers('lc_boxes');
\echo SQLSTATE :LAST_ERROR_SQLSTATE

-- A listed cover over pap_release.max_cover_queries is refused while it is counted, at granularity auto too: the
-- plans of auto's candidates built each candidate's cover without the limit, and marginals(10) over 30 columns
-- (30,045,015 column sets) grew to gigabytes before the check that followed the choice.
SELECT format('CREATE TABLE %I (%s)', t, string_agg(format('b%s boolean', i), ', ' ORDER BY i))
  FROM unnest(ARRAY['lc_wide_priv', 'lc_wide_pub']) AS t, generate_series(1, 30) AS i GROUP BY t ORDER BY t \gexec
INSERT INTO lc_wide_priv SELECT i % 2 = 0 FROM generate_series(1, 50) AS i;
INSERT INTO lc_wide_pub SELECT i % 3 = 0 FROM generate_series(1, 50) AS i;
SELECT pap.set_budget('lc_wide_priv', 1);
SET statement_timeout = '60s';
SELECT format('SELECT pap.define_release(%L, %L, %L, %L)', 'lc_wide', 'lc_wide_priv', 'lc_wide_pub',
              'marginals(10; ' || string_agg(format('b%s', i), ', ' ORDER BY i) || ')')
  FROM generate_series(1, 30) AS i \gexec
RESET statement_timeout;
