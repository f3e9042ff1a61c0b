-- pap_release demo: a differentially private CDF of diamond prices, made accurate by a small public sample.
-- Run by scripts/demo-inner.sh after it loaded table diamonds; psql -X -q -v ON_ERROR_STOP=1 -f scripts/demo.sql.
-- A real private release: the test seed setting (pap_release.test_seed) is not used.
\pset footer off

\echo
\echo '=================================================================================================='
\echo ' pap_release demo: what fraction of diamonds cost at most t dollars, for EVERY t?'
\echo '=================================================================================================='
\echo 'A curator holds a private table and wants every analyst to read the CDF of price, P(price <= t) for'
\echo 'any t, without ever seeing a private row, under a hard cap on privacy loss (differential privacy).'
\echo 'She also has a small public sample drawn from the same population.'
\echo

\echo '== 1. Split the 53,940 diamonds reproducibly (rows ordered by md5 of their number): 1% public, 99% private'
-- Disjoint split, reproducible on every machine: rows ordered by md5 of their id, the first 1% are public.
CREATE TEMP TABLE demo_split AS
SELECT id,
       row_number() OVER (ORDER BY md5('pap_release demo ' || id::text), id)
           <= (SELECT count(*) / 100 FROM diamonds) AS is_public
  FROM diamonds;
CREATE TABLE diamonds_public AS
SELECT d.carat, d.cut, d.color, d.clarity, d.depth, d."table", d.price, d.x, d.y, d.z
  FROM diamonds d JOIN demo_split s USING (id) WHERE s.is_public;
CREATE TABLE diamonds_private AS
SELECT d.carat, d.cut, d.color, d.clarity, d.depth, d."table", d.price, d.x, d.y, d.z
  FROM diamonds d JOIN demo_split s USING (id) WHERE NOT s.is_public;
ANALYZE diamonds_public;
ANALYZE diamonds_private;
SELECT (SELECT count(*) FROM diamonds_private) AS private_rows,
       (SELECT count(*) FROM diamonds_public) AS public_rows,
       (SELECT count(DISTINCT price) FROM diamonds_private) AS distinct_private_prices,
       (SELECT count(DISTINCT price) FROM diamonds_public) AS distinct_public_prices;

\echo '== 2. The owner of the private table gives it a privacy budget: epsilon = 2 in total, for all releases'
\echo '  CREATE EXTENSION pap_release;'
\echo '  SELECT pap.set_budget(''diamonds_private'', 2.0);'
CREATE EXTENSION pap_release;
\o /dev/null
SELECT pap.set_budget('diamonds_private', 2.0);
\o
\echo

\echo '== 3. Define a release of the class thresholds(price) = { price <= t : every t }'
\echo 'Built from the public table only, so it spends nothing: every distinct public price is a cut point;'
\echo 'the cover is one threshold query per cut, the cells are the price intervals between cuts.'
\echo '  SELECT pap.define_release(''price_cdf'', ''diamonds_private'', ''diamonds_public'', ''thresholds(price)'');'
\o /dev/null
SELECT pap.define_release('price_cdf', 'diamonds_private', 'diamonds_public', 'thresholds(price)');
\o
SELECT name, query_class, state, public_rows, cover_size, cell_count FROM pap.releases;

\echo '== 4. Plan a run with epsilon = 1 (free: reads no private row)'
\echo 'predictions: every mechanism''s predicted maximum error over the cover (fraction of rows), from public'
\echo 'information only; chosen_mechanism: what auto takes (the smallest; on a near tie, within 1.1 times it, one'
\echo 'whose prediction does not rest on the public sample: rests_on_public_sample); public_only_error: the public'
\echo 'sample alone; book_* what the paper''s theorem needs for PMW.'
\echo '  SELECT * FROM pap.plan(''price_cdf'', 1.0);'
\x on
SELECT * FROM pap.plan('price_cdf', 1.0);
\x off

\echo '== 5. Run it with epsilon = 1'
\echo 'The charge is committed to the ledger before any private row is read (never refunded). Then one scan'
\echo 'maps every private row to its cell, and the mechanism auto chose (pmw, mwem, identity or hierarchical)'
\echo 'releases the cells with exact integer noise from a cryptographically secure source.'
\echo '  CALL pap.run_release(''price_cdf'', 1.0);'
CALL pap.run_release('price_cdf', 1.0);
SELECT name, state, mechanism, epsilon, delta, private_rows, is_private FROM pap.releases;

\echo '== 6. Released answers: anyone can read them, for any threshold, at no further privacy cost'
\echo 'released    = pap.answer(''price_cdf'', ''price <= t'')   (differentially private)'
\echo 'exact       = the true private fraction (plain SQL on the private table: what must stay hidden)'
\echo 'public_only = the fraction in the public sample alone (no privacy cost, but sampling error)'
SELECT t AS "price <= t",
       round(released::numeric, 4) AS released,
       round(exact, 4) AS exact,
       round(public_only, 4) AS public_only,
       round(abs(released::numeric - exact), 4) AS released_error,
       round(abs(public_only - exact), 4) AS public_only_error
  FROM (SELECT t,
               pap.answer('price_cdf', format('price <= %s', t)) AS released,
               (SELECT count(*) FILTER (WHERE price <= t)::numeric / count(*) FROM diamonds_private) AS exact,
               (SELECT count(*) FILTER (WHERE price <= t)::numeric / count(*) FROM diamonds_public) AS public_only
          FROM unnest(ARRAY[500, 1000, 2000, 5000, 10000, 15000]) AS t) AS a
 ORDER BY t;
SELECT round(pap.answer_count('price_cdf', 'price <= 1000')::numeric) AS released_count_price_le_1000,
       (SELECT count(*) FROM diamonds_private WHERE price <= 1000) AS exact_count_price_le_1000;

\echo '== 7. Maximum error over ALL thresholds t'
\echo 'Every curve is a step function that only moves at a price seen in one of the tables, so the maximum'
\echo 'over all t is reached at one of those prices: we check each of them.'
CREATE TEMP TABLE demo_curve AS
WITH ts AS (SELECT DISTINCT price AS t FROM diamonds_private
            UNION
            SELECT DISTINCT price FROM diamonds_public),
     priv AS (SELECT price, count(*) AS c FROM diamonds_private GROUP BY price),
     pub AS (SELECT price, count(*) AS c FROM diamonds_public GROUP BY price),
     n AS (SELECT (SELECT count(*) FROM diamonds_private) AS n_private,
                  (SELECT count(*) FROM diamonds_public) AS n_public)
SELECT ts.t,
       pap.answer('price_cdf', format('price <= %s', ts.t)) AS released,
       (sum(coalesce(priv.c, 0)) OVER w)::float8 / n.n_private AS exact,
       (sum(coalesce(pub.c, 0)) OVER w)::float8 / n.n_public AS public_only
  FROM ts CROSS JOIN n
  LEFT JOIN priv ON priv.price = ts.t
  LEFT JOIN pub ON pub.price = ts.t
WINDOW w AS (ORDER BY ts.t);
CREATE TEMP TABLE demo_max AS
SELECT count(*) AS thresholds_checked,
       max(abs(released - exact)) AS released_max_error,
       max(abs(public_only - exact)) AS public_only_max_error
  FROM demo_curve;
SELECT thresholds_checked,
       round(released_max_error::numeric, 4) AS released_max_error,
       round(public_only_max_error::numeric, 4) AS public_only_max_error,
       round((public_only_max_error / nullif(released_max_error, 0))::numeric, 2) AS public_only_over_released
  FROM demo_max;

-- The demo's picture: scripts/demo-inner.sh names a file for the curves in PAP_DEMO_CURVES, and
-- scripts/demo-plot.sh draws them into docs/demo-cdf.png (without it, as with psql -f scripts/demo.sql, no picture).
\getenv curve_file PAP_DEMO_CURVES
\if :{?curve_file}
SELECT t, released, exact, public_only FROM demo_curve ORDER BY t
\g (format=unaligned tuples_only=on fieldsep=' ') :curve_file
\! bash scripts/demo-plot.sh
\endif

\echo 'Why both tables are needed:'
\echo ' - the public sample alone is free but small: its sampling error is the public_only column above;'
\echo ' - the private table alone cannot release every threshold: over an unbounded price line no'
\echo '   differentially private algorithm answers all thresholds accurately; the public sample supplies'
\echo '   the finite grid (the cover) that the private table then corrects;'
\echo ' - together, with epsilon = 1, every threshold is answered, privately, from one release.'
\echo

\echo '== 8. The privacy accounting: budget and ledger (every charge, never refunded)'
SELECT * FROM pap.budgets;
SELECT entry_id, private_table, release_name, epsilon, delta, mechanism, charged_by FROM pap.ledger;

\echo '== 9. The released cover queries (first lines of pap.answers; SELECT * FROM pap.answers(''price_cdf'') lists all)'
SELECT cover_query, query, round(answer::numeric, 4) AS answer, round(answer_count::numeric, 1) AS answer_count
  FROM pap.answers('price_cdf') ORDER BY cover_query LIMIT 4;

-- The demo's verdict: exit non-zero unless the release beats the public sample and is within 0.05 everywhere.
SELECT released_max_error < public_only_max_error AND released_max_error < 0.05 AS demo_pass,
       round(released_max_error::numeric, 4) AS demo_released,
       round(public_only_max_error::numeric, 4) AS demo_public_only
  FROM demo_max \gset
\echo
\if :demo_pass
\echo 'PASS: released max error' :demo_released '< public-only max error' :demo_public_only 'and < 0.05'
\else
\echo 'FAIL: released max error' :demo_released 'must be below the public-only max error' :demo_public_only 'and below 0.05'
DO $$ BEGIN RAISE EXCEPTION 'demo failed: the release is not more accurate than the public sample alone'; END $$;
\endif
