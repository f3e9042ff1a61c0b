-- The SQL of docs/tutorial.md, written by bash scripts/tutorial.sh --write: edit the md, not this file.
-- Run from the repository root, in an empty database of a scratch cluster (it creates the role analyst):
-- psql -X -f docs/tutorial.sql

-- 1. Install the extension

CREATE EXTENSION pap_release;
SELECT extversion FROM pg_extension WHERE extname = 'pap_release';


-- 2. A private table and a public table

CREATE TABLE diamonds (
	id      int8 GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
	carat   float8,
	cut     text,
	color   text,
	clarity text,
	depth   float8,
	"table" float8,
	price   int4,
	x       float8,
	y       float8,
	z       float8
);
\copy diamonds (carat, cut, color, clarity, depth, "table", price, x, y, z) FROM PROGRAM 'gzip -dc data/diamonds.csv.gz' WITH (FORMAT csv, HEADER true)
SELECT count(*) AS rows, min(price) AS min_price, max(price) AS max_price FROM diamonds;

CREATE TABLE diamonds_public AS
SELECT carat, cut, color, clarity, depth, "table", price, x, y, z
  FROM (SELECT d.*, row_number() OVER (ORDER BY md5('pap_release demo ' || id::text), id) AS rank
          FROM diamonds d) AS ranked
 WHERE rank <= (SELECT count(*) / 100 FROM diamonds);
CREATE TABLE diamonds_private AS
SELECT carat, cut, color, clarity, depth, "table", price, x, y, z
  FROM (SELECT d.*, row_number() OVER (ORDER BY md5('pap_release demo ' || id::text), id) AS rank
          FROM diamonds d) AS ranked
 WHERE rank > (SELECT count(*) / 100 FROM diamonds);
SELECT (SELECT count(*) FROM diamonds_private) AS private_rows,
       (SELECT count(*) FROM diamonds_public) AS public_rows;


-- 3. A privacy budget

SELECT pap.set_budget('diamonds_private', 2.0);
SELECT private_table, epsilon_total, epsilon_spent, epsilon_remaining, delta_total FROM pap.budgets;


-- 4. Define releases

SELECT pap.define_release('price_cdf', 'diamonds_private', 'diamonds_public', 'thresholds(price)');
SELECT pap.define_release('carat_price', 'diamonds_private', 'diamonds_public', 'boxes(carat, price)',
                          alpha => 0.5);
SELECT name, query_class, state, public_rows, cover_size, cell_count, domain FROM pap.releases ORDER BY name;
SELECT name, split_part(granularity, ' at epsilon', 1) AS granularity FROM pap.releases ORDER BY name;


-- 5. Read the plan before spending

\x on
SELECT * FROM pap.plan('price_cdf', 1.0);
\x off

SELECT e AS epsilon, p.chosen_mechanism, round(p.predicted_error::numeric, 4) AS predicted_error,
       round(p.public_only_error::numeric, 4) AS public_only_error
  FROM unnest(ARRAY[0.1, 0.5, 1, 2]) AS e, LATERAL pap.plan('price_cdf', e) AS p;
SELECT e AS epsilon, p.chosen_mechanism, round(p.predicted_error::numeric, 4) AS predicted_error,
       round(p.public_only_error::numeric, 4) AS public_only_error
  FROM unnest(ARRAY[0.1, 0.5, 1, 2]) AS e, LATERAL pap.plan('carat_price', e) AS p;


-- 6. Run the releases

CALL pap.run_release('price_cdf', 1.0);
CALL pap.run_release('carat_price', 0.5);
SELECT name, state, mechanism, epsilon, delta, private_rows, is_private FROM pap.releases ORDER BY name;


-- 7. Read answers

SELECT t AS "price <= t",
       round(pap.answer('price_cdf', format('price <= %s', t))::numeric, 4) AS released,
       round(pap.answer('price_cdf', format('price <= %s', t), refine => false)::numeric, 4) AS projected,
       round((SELECT avg((price <= t)::int) FROM diamonds_private), 4) AS exact,
       round((SELECT avg((price <= t)::int) FROM diamonds_public), 4) AS public_only
  FROM unnest(ARRAY[500, 1000, 2000, 5000, 10000]) AS t;

SELECT round(pap.answer_count('price_cdf', 'price <= 1234', refine => false)) AS projected_count,
       round(pap.answer_count('price_cdf', 'price <= 1234')) AS released_count,
       (SELECT count(*) FROM diamonds_private WHERE price <= 1234) AS exact_count;
SELECT round(pap.answer('carat_price', 'carat <= 1 AND price <= 2000')::numeric, 4) AS released,
       round(pap.answer('carat_price', 'carat <= 1 AND price <= 2000', refine => false)::numeric, 4) AS projected,
       round((SELECT avg((carat <= 1 AND price <= 2000)::int) FROM diamonds_private), 4) AS exact;

SELECT q, value AS price FROM pap.quantiles('price_cdf', ARRAY[0.1, 0.25, 0.5, 0.75, 0.9]);
SELECT pap.quantile('price_cdf', 0.5) AS released_median,
       percentile_disc(0.5) WITHIN GROUP (ORDER BY price) AS exact_median
  FROM diamonds_private;

SELECT cover_query, query, round(answer::numeric, 4) AS answer FROM pap.answers('price_cdf') LIMIT 5;
SELECT cell, bounds, round(weight::numeric, 5) AS weight, round(count) AS count
  FROM pap.synthetic('carat_price')
 WHERE columns->'carat'->>'upper' = '0.91'
   AND (columns->'price'->>'lower')::float8 >= 2500 AND (columns->'price'->>'upper')::float8 <= 5500
 ORDER BY weight DESC, cell LIMIT 5;
SELECT count(*) AS cells_with_weight, round(sum(weight)::numeric, 6) AS total_weight FROM pap.synthetic('carat_price');


-- 8. A dashboard view for an analyst

CREATE VIEW price_cdf_dashboard AS
SELECT t AS price,
       round(pap.answer('price_cdf', format('price <= %s', t))::numeric, 4) AS share_at_most,
       round(pap.answer_count('price_cdf', format('price <= %s', t))) AS diamonds_at_most
  FROM generate_series(1000, 18000, 1000) AS t;

CREATE MATERIALIZED VIEW carat_price_grid AS
SELECT c - 0.5 AS carat_above, c AS carat_up_to, p - 5000 AS price_above, p AS price_up_to,
       round(pap.answer('carat_price', format('carat > %s AND carat <= %s AND price > %s AND price <= %s',
                                              c - 0.5, c, p - 5000, p))::numeric, 4) AS share
  FROM generate_series(0.5, 2.5, 0.5) AS c, generate_series(5000, 20000, 5000) AS p;
SELECT * FROM carat_price_grid WHERE carat_up_to <= 1.5 ORDER BY carat_up_to, price_up_to;

CREATE ROLE analyst;
GRANT SELECT ON price_cdf_dashboard, carat_price_grid TO analyst;
SET ROLE analyst;
SELECT * FROM price_cdf_dashboard WHERE price IN (1000, 2000, 5000, 10000, 18000);
SELECT round(pap.answer('price_cdf', 'price <= 3000')::numeric, 4) AS share_at_most_3000;
SELECT count(*) FROM diamonds_private;
SELECT * FROM pap.plan('price_cdf', 1.0);
RESET ROLE;


-- 9. The accounting: budgets and ledger

SELECT private_table, epsilon_total, epsilon_spent, epsilon_remaining FROM pap.budgets;
SELECT entry_id, release_name, epsilon, delta, mechanism FROM pap.ledger ORDER BY entry_id;


-- 10. When the budget runs out

SELECT pap.define_release('price_ranges', 'diamonds_private', 'diamonds_public', 'ranges(price)');
SELECT chosen_mechanism, round(predicted_error::numeric, 4) AS predicted_error FROM pap.plan('price_ranges', 1.0);
CALL pap.run_release('price_ranges', 1.0);
SELECT name, state FROM pap.releases WHERE name = 'price_ranges';

CALL pap.run_release('price_ranges', 0.5);
SELECT round(pap.answer('price_ranges', 'price BETWEEN 1000 AND 2000')::numeric, 4) AS released,
       round((SELECT avg((price BETWEEN 1000 AND 2000)::int) FROM diamonds_private), 4) AS exact;
SELECT epsilon_spent, epsilon_remaining FROM pap.budgets;

SELECT pap.define_release('carat_cdf', 'diamonds_private', 'diamonds_public', 'thresholds(carat)');
CALL pap.run_release('carat_cdf', 0.01);


-- Glossary


-- How this page is made

