-- Private labels for public rows: pap.define_labelling, pap.plan_labelling, pap.run_labelling, pap.labels,
-- pap.predict, pap.drop_labelling and the views (docs/reference.md, "Labellings"). Self-contained: its own tables,
-- budget and role (seeded noise).
SET pap_release.test_seed = 11;
SET extra_float_digits = 0;
-- The label is a clean rule of the features: x above 49 (a public quartile of x: every cell of the cells learner
-- is pure, so the chunks' votes are unanimous), or colour red.
CREATE TABLE lab_all AS
SELECT i, ((i * 7919) % 100)::float8 AS x, (ARRAY['blue', 'green', 'red'])[1 + (i * 31) % 3] AS colour,
       DATE '2020-01-01' + (i % 50) AS d
  FROM generate_series(1, 9000) i;
ALTER TABLE lab_all ADD COLUMN flag boolean, ADD COLUMN kind text;
UPDATE lab_all SET flag = x > 49 OR colour = 'red', kind = CASE WHEN x > 49 OR colour = 'red' THEN 'yes' ELSE 'no' END;
CREATE TABLE lab_priv AS SELECT x, colour, d, flag, kind FROM lab_all WHERE i <= 8000;
CREATE TABLE lab_pub AS SELECT x, colour, d FROM lab_all WHERE i > 8000 AND i <= 8600;
CREATE TABLE lab_held AS SELECT x, colour, d, flag FROM lab_all WHERE i > 8600;
INSERT INTO lab_priv VALUES (NULL, NULL, NULL, NULL, NULL), (5, 'purple', NULL, true, 'maybe');

-- Definitions: a boolean label has its classes; any other label lists them.
SELECT pap.define_labelling('lab_cells', 'lab_priv', 'lab_pub', 'flag', '{x, colour}');
SELECT pap.define_labelling('lab_logit', 'lab_priv', 'lab_pub', 'kind', '{x, colour, d}', learner => 'logistic',
                            classes => '{no, yes}');
SELECT name, label_column, feature_columns, classes, learner, state, chunks, public_rows, defined_by = current_user
  FROM pap.labellings ORDER BY name;
-- What define refuses
SELECT pap.define_labelling('lab_bad', 'lab_priv', 'lab_pub', 'kind', '{x}');
SELECT pap.define_labelling('lab_bad', 'lab_priv', 'lab_pub', 'flag', '{x, flag}');
SELECT pap.define_labelling('lab_bad', 'lab_priv', 'lab_pub', 'flag', '{x, x}');
SELECT pap.define_labelling('lab_bad', 'lab_priv', 'lab_pub', 'flag', '{x, nope}');
SELECT pap.define_labelling('lab_bad', 'lab_priv', 'lab_pub', 'flag', '{}');
SELECT pap.define_labelling('lab_bad', 'lab_priv', 'lab_pub', 'flag', '{x}', learner => 'forest');
SELECT pap.define_labelling('lab_bad', 'lab_priv', 'lab_pub', 'flag', '{x}', chunks => 0);
SELECT pap.define_labelling('lab_bad', 'lab_priv', 'lab_priv', 'flag', '{x}');
SELECT pap.define_labelling('lab_bad', 'lab_priv', 'lab_pub', 'kind', '{x}', classes => '{yes}');
SELECT pap.define_labelling('lab_bad', 'lab_priv', 'lab_pub', 'kind', '{x}', classes => '{yes, NULL}');
-- Classes are read as values of the label column's type and stored as the read prints them: 't' would match no
-- private row of a boolean column, which prints true.
SELECT pap.define_labelling('lab_tf', 'lab_priv', 'lab_pub', 'flag', '{x}', classes => '{t, f}');
SELECT classes FROM pap.labellings WHERE name = 'lab_tf';
SELECT pap.drop_labelling('lab_tf');
SELECT pap.define_labelling('lab_bad', 'lab_priv', 'lab_pub', 'flag', '{x}', classes => '{t, true}');
SELECT pap.define_labelling('lab_bad', 'lab_priv', 'lab_pub', 'flag', '{x}', classes => '{yes, maybe}');
SELECT pap.define_labelling('lab_bad', 'lab_priv', 'lab_pub', 'flag', '{x}', classes => '{t, f, t}');
SELECT pap.define_labelling('lab_bad', 'lab_priv', 'lab_pub', 'flag',
                            (SELECT array_agg('c' || i) FROM generate_series(1, 200) i));
SELECT pap.define_labelling('lab_cells', 'lab_priv', 'lab_pub', 'flag', '{x}');
SELECT pap.define_labelling('lab_bad', NULL, 'lab_pub', 'flag', '{x}');
-- A run must fit in memory, checked at define and again before the charge: 4,000 public categories x 65,536
-- classes of counts per chunk.
CREATE TABLE lab_wide_pub AS SELECT x, 'c' || i AS colour FROM (SELECT i, (i % 100)::float8 AS x FROM generate_series(1, 4000) i) s;
SELECT pap.define_labelling('lab_bad', 'lab_priv', 'lab_wide_pub', 'kind', '{colour}',
                            classes => (SELECT array_agg(i::text) FROM generate_series(1, 65536) i));
DROP TABLE lab_wide_pub;
-- A categorical feature is read by its text in both tables: a char(n) column's text drops trailing blanks, a text
-- column's keeps them, so 'a ' would be one category in one table and another in the other (the same type, or
-- text and varchar, is needed).
CREATE TABLE lab_char_pub AS SELECT x, colour::char(8) AS colour FROM lab_pub;
SELECT pap.define_labelling('lab_bad', 'lab_priv', 'lab_char_pub', 'flag', '{x, colour}');
CREATE TABLE lab_varchar_pub AS SELECT x, colour::varchar AS colour FROM lab_pub;
SELECT pap.define_labelling('lab_varchar', 'lab_priv', 'lab_varchar_pub', 'flag', '{x, colour}');
SELECT pap.drop_labelling('lab_varchar');
DROP TABLE lab_char_pub, lab_varchar_pub;

-- The plan is free and public: the threshold and noise do not depend on the chunks; a unanimous vote needs
-- chunks_needed chunks; the default takes twice that, within the private rows.
SELECT chunks, private_rows, public_rows, threshold, chunks_needed, chunks >= chunks_needed AS enough_chunks,
       labelled_share_if_unanimous > 0.9 AS unanimous_rows_labelled, round(rows_per_chunk) AS rows_per_chunk
  FROM pap.plan_labelling('lab_cells', 4, 1e-6, cutoff => 3);
SELECT threshold, chunks_needed FROM pap.plan_labelling('lab_cells', 1, 1e-6, cutoff => 3);
SELECT pap.plan_labelling('lab_cells', 1, 0);
SELECT pap.plan_labelling('lab_cells', 'NaN', 1e-6);
SELECT pap.plan_labelling('lab_cells', 1, 1e-6, cutoff => 0);
SELECT pap.plan_labelling('nope', 1, 1e-6);

-- Running: outside a transaction block, within the budget, once.
CALL pap.run_labelling('lab_cells', 4, 1e-6, 3);
SELECT pap.set_budget('lab_priv', 14, 1e-5);
BEGIN;
CALL pap.run_labelling('lab_cells', 4, 1e-6, 3);
ROLLBACK;
SELECT pap.predict('lab_cells', '{1, red}');
CALL pap.run_labelling('lab_cells', 4, 1e-6, 3);
CALL pap.run_labelling('lab_cells', 4, 1e-6, 3);
CALL pap.run_labelling('lab_logit', 20, 1e-6, 3);
CALL pap.run_labelling('lab_logit', 4, 1e-6, 3);
-- Private labels that match no class train nothing: a chunk without a labelled row abstains, so nothing is labelled
-- (a model of nothing once voted the first class for every public row, and every row came out 'maybe').
SELECT pap.define_labelling('lab_unlisted', 'lab_priv', 'lab_pub', 'kind', '{x, colour}', classes => '{maybe, other}');
CALL pap.run_labelling('lab_unlisted', 2, 1e-6, 3);
SELECT state, labelled_rows, model IS NULL AS no_model FROM pap.labelling_data WHERE name = 'lab_unlisted';
SELECT count(label) FROM pap.labels('lab_unlisted');
SELECT pap.drop_labelling('lab_unlisted');
SELECT release_name, epsilon, delta, mechanism FROM pap.ledger WHERE release_name LIKE 'lab_%' ORDER BY entry_id;
SELECT epsilon_spent, delta_spent FROM pap.budgets WHERE private_table = 'lab_priv'::regclass;
SELECT name, state, chunks, epsilon, delta, cutoff, private_rows, labelled_rows > 0 AS some_labelled, is_private,
       details ->> 'margin_sensitivity' AS sensitivity, (details ->> 'answered')::int8 =
       (details ->> 'labelled')::int8 + (details ->> 'unstable')::int8 AS answers_add_up
  FROM pap.labellings ORDER BY name;

-- The labels: a row per public row, NULL where the vote was not stable; the labelled ones follow the rule.
SELECT labelling, count(*) AS public_rows, count(label) AS labelled,
       count(*) FILTER (WHERE label IS NOT NULL AND
                        label <> CASE WHEN features[1]::float8 > 49 OR features[2] = 'red'
                                      THEN (CASE labelling WHEN 'lab_cells' THEN 'true' ELSE 'yes' END)
                                      ELSE (CASE labelling WHEN 'lab_cells' THEN 'false' ELSE 'no' END) END) AS wrong
  FROM pap.labelled_rows GROUP BY labelling ORDER BY labelling;
SELECT count(*) = (SELECT labelled_rows FROM pap.labellings WHERE name = 'lab_cells') AS labels_match_view
  FROM pap.labels('lab_cells') WHERE label IS NOT NULL;
SELECT * FROM pap.labels('lab_cells') ORDER BY public_row LIMIT 3;

-- The final model predicts for any values, NULLs and unseen categories included.
SELECT avg((pap.predict('lab_cells', ARRAY[x::text, colour]) = flag::text)::int) > 0.9 AS cells_accurate,
       avg((pap.predict('lab_logit', ARRAY[x::text, colour, d::text]) = CASE WHEN flag THEN 'yes' ELSE 'no' END)::int) > 0.8
       AS logistic_accurate
  FROM lab_held;
SELECT pap.predict('lab_cells', '{NULL, purple}') IS NOT NULL AS total, pap.predict('lab_cells', '{Infinity, red}');
SELECT pap.predict('lab_cells', '{1}');
SELECT pap.predict('lab_cells', '{abc, red}');
SELECT pap.predict('lab_logit', '{1, red, not-a-date}');
SELECT pap.predict('nope', '{1}');
-- A call site reads its labelling again in each statement (PL/pgSQL keeps its state across statements): dropped and
-- defined again under its name, not run, the labelling is refused, never answered from the old model.
BEGIN;
DO $$
DECLARE
	i int;
BEGIN
	FOR i IN 1..2 LOOP
		BEGIN
			RAISE NOTICE 'iteration %: %', i, pap.predict('lab_cells', '{1, red}') IS NOT NULL;
		EXCEPTION WHEN object_not_in_prerequisite_state THEN
			RAISE NOTICE 'iteration %: %', i, SQLERRM;
		END;
		PERFORM pap.drop_labelling('lab_cells');
		PERFORM pap.define_labelling('lab_cells', 'lab_priv', 'lab_pub', 'flag', '{x}');
	END LOOP;
END $$;
ROLLBACK;
-- A query that names another labelling on every row holds one model at a time: the executor's memory is read from
-- inside the query after 20,000 rows (each row's model was kept before, about 2.4 kB a row).
CREATE FUNCTION lab_executor_bytes() RETURNS bigint LANGUAGE sql VOLATILE AS $$
	SELECT sum(total_bytes)::bigint FROM pg_backend_memory_contexts WHERE name IN ('ExecutorState', 'pap.predict')
$$;
WITH predicted AS MATERIALIZED (
  SELECT count(pap.predict(CASE WHEN g % 2 = 0 THEN 'lab_cells' ELSE 'lab_logit' END,
                           CASE WHEN g % 2 = 0 THEN '{1, red}' ELSE '{1, red, 2026-01-01}' END::text[])) AS rows
    FROM generate_series(1, 20000) AS g)
SELECT rows, lab_executor_bytes() < 8 * 1024 * 1024 AS memory_bounded FROM predicted;
DROP FUNCTION lab_executor_bytes();

-- Another role: reads every label and prediction; runs, drops and defines nothing it may not.
CREATE ROLE regress_label_analyst;
GRANT SELECT ON lab_pub TO regress_label_analyst;
SELECT pap.define_labelling('lab_again', 'lab_priv', 'lab_pub', 'flag', '{x}');
SET ROLE regress_label_analyst;
SELECT count(*) FROM pap.labels('lab_cells');
SELECT pap.predict('lab_cells', '{70, blue}');
CALL pap.run_labelling('lab_again', 1, 1e-6);
SELECT pap.drop_labelling('lab_again');
SELECT pap.define_labelling('lab_mine', 'lab_priv', 'lab_pub', 'flag', '{x}');
SELECT pap.plan_labelling('lab_again', 1, 1e-6);
SELECT count(*) FROM pap.labelled_row_data;
RESET ROLE;

-- A run that would label no row even if every chunk agreed is refused before the charge (public numbers only).
CALL pap.run_labelling('lab_again', 0.1, 1e-6);
SELECT count(*) FROM pap.ledger WHERE release_name = 'lab_again';
-- A failure after the charge keeps the charge; the labelling shows as failed and can be run again.
SET pap_release.debug_fail_after_charge = on;
CALL pap.run_labelling('lab_again', 2, 1e-6);
RESET pap_release.debug_fail_after_charge;
SELECT name, state FROM pap.labellings WHERE name = 'lab_again';
SELECT count(*) FROM pap.ledger WHERE release_name = 'lab_again';

-- Dropping: a table keeps its labellings (detached); drop_labelling deletes the labels, never the charge.
SELECT pap.drop_labelling('lab_again');
DROP TABLE lab_held;
CREATE TABLE lab_pub2 AS SELECT * FROM lab_pub;
SELECT pap.define_labelling('lab_gone', 'lab_priv', 'lab_pub2', 'flag', '{x}');
DROP TABLE lab_pub2;
SELECT name, public_table, public_table_name FROM pap.labellings WHERE name = 'lab_gone';
CALL pap.run_labelling('lab_gone', 1, 1e-6);
CREATE TABLE lab_priv2 AS SELECT * FROM lab_priv;
SELECT pap.define_labelling('lab_gone2', 'lab_priv2', 'lab_pub', 'flag', '{x}');
DROP TABLE lab_priv2;
SELECT name, private_table, private_table_name FROM pap.labellings WHERE name = 'lab_gone2';
CALL pap.run_labelling('lab_gone2', 1, 1e-6);
SELECT pap.drop_labelling('lab_gone2');
SELECT pap.drop_labelling('lab_cells');
SELECT count(*) FROM pap.labels('lab_cells');
SELECT count(*) FROM pap.ledger WHERE release_name = 'lab_cells';
SELECT pap.drop_labelling('lab_cells');
SELECT pap.drop_labelling('lab_gone');
SELECT pap.drop_labelling('lab_logit');
-- Reading the private table is not the right to spend its budget (docs/security.md, "Who may spend"): a labelling
-- is charged like a release, against the owner's grant and its limit.
SELECT pap.set_budget('lab_priv', 15, 1e-5);
GRANT SELECT ON lab_priv TO regress_label_analyst;
SET ROLE regress_label_analyst;
SELECT pap.define_labelling('lab_spend', 'lab_priv', 'lab_pub', 'flag', '{x}');
CALL pap.run_labelling('lab_spend', 2, 1e-6);
\echo SQLSTATE :LAST_ERROR_SQLSTATE
RESET ROLE;
SELECT pap.grant_spend('lab_priv', 'regress_label_analyst', 2);
SET ROLE regress_label_analyst;
CALL pap.run_labelling('lab_spend', 2, 1e-6);
SELECT state FROM pap.labellings WHERE name = 'lab_spend';
SELECT epsilon_spent FROM pap.spenders WHERE grantee = 'regress_label_analyst';
SELECT pap.drop_labelling('lab_spend');
RESET ROLE;
SELECT pap.revoke_spend('lab_priv', 'regress_label_analyst');
REVOKE SELECT ON lab_priv FROM regress_label_analyst;
REVOKE SELECT ON lab_pub FROM regress_label_analyst;
DROP ROLE regress_label_analyst;

-- A label column with a typmod: the classes are stored as the private read prints a label (a numeric(10,2) column
-- prints 1 as 1.00; stored as written, no private row matched them and the charged run labelled nothing).
CREATE TABLE lab_num AS SELECT x, colour, (CASE WHEN flag THEN 1 ELSE 0 END)::numeric(10,2) AS score FROM lab_priv;
SELECT pap.set_budget('lab_num', 10, 1e-5);
SELECT pap.define_labelling('lab_numeric', 'lab_num', 'lab_pub', 'score', '{x, colour}', classes => '{0, 1}');
SELECT classes FROM pap.labellings WHERE name = 'lab_numeric';
CALL pap.run_labelling('lab_numeric', 4, 1e-6, 3);
SELECT state, labelled_rows > 0 AS some_labelled FROM pap.labellings WHERE name = 'lab_numeric';
-- The same under a domain, whose typmod is the domain's, not the column's.
CREATE DOMAIN lab_score AS numeric(10,2);
CREATE TABLE lab_dom AS SELECT x, colour, score::lab_score AS score FROM lab_num;
SELECT pap.define_labelling('lab_domain', 'lab_dom', 'lab_pub', 'score', '{x, colour}', classes => '{0, 1}');
SELECT classes FROM pap.labellings WHERE name = 'lab_domain';
SELECT pap.drop_labelling('lab_domain');
DROP TABLE lab_dom;
DROP DOMAIN lab_score;
-- The label column's type changed since define: refused before the charge where the classes no longer print as
-- stored (or no longer read), run where they do.
CREATE TABLE lab_int AS SELECT x, colour, (CASE WHEN flag THEN 1 ELSE 0 END)::int AS score FROM lab_priv;
SELECT pap.set_budget('lab_int', 10, 1e-5);
SELECT pap.define_labelling('lab_retyped', 'lab_int', 'lab_pub', 'score', '{x, colour}', classes => '{0, 1}');
ALTER TABLE lab_int ALTER COLUMN score TYPE numeric(10,2);
CALL pap.run_labelling('lab_retyped', 4, 1e-6, 3);
ALTER TABLE lab_int ALTER COLUMN score TYPE date USING DATE '2020-01-01' + score::int;
CALL pap.run_labelling('lab_retyped', 4, 1e-6, 3);
SELECT count(*) AS charges FROM pap.ledger WHERE release_name = 'lab_retyped';
ALTER TABLE lab_int ALTER COLUMN score TYPE bigint USING score - DATE '2020-01-01';
CALL pap.run_labelling('lab_retyped', 4, 1e-6, 3);
SELECT state, labelled_rows > 0 AS some_labelled FROM pap.labellings WHERE name = 'lab_retyped';
SELECT pap.drop_labelling('lab_numeric');
SELECT pap.drop_labelling('lab_retyped');
DROP TABLE lab_num, lab_int;
RESET pap_release.test_seed;
