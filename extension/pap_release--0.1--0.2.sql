/* pap_release 0.1 -> 0.2 (docs/reference.md, "Upgrading"). Brings a 0.1 database to the objects a fresh install
 * of 0.2 creates (extension/pap_release.sql); test/upgrade/run_upgrade_test.sh compares the two. */
\echo Use "ALTER EXTENSION pap_release UPDATE TO '0.2'" to load this file. \quit

-- The checks of 0.1 on the budgets compared a numeric with an integer by an unqualified operator, which CREATE
-- EXTENSION resolved on its search_path: pg_catalog has no numeric > integer, so a role that could create in the
-- first schema of that path (public, the database owner's) could bind them to its own operator, which then ran as
-- the catalog owner on every write of a budget. Created again with pg_catalog's operators (as a fresh 0.2 has them).
-- DROP SCHEMA public CASCADE dropped the extension, and its ledger, past the guard of DROP EXTENSION: the guard
-- fires on DROP SCHEMA too (src/pg/fmgr_events.cpp).
DROP EVENT TRIGGER pap_release_drop_extension;
CREATE EVENT TRIGGER pap_release_drop_extension ON ddl_command_start
	WHEN TAG IN ('DROP EXTENSION', 'DROP OWNED', 'DROP SCHEMA')
	EXECUTE FUNCTION pap.on_drop_extension();

ALTER TABLE pap.budget_data
	DROP CONSTRAINT budget_data_epsilon_total_check,
	ADD CONSTRAINT budget_data_epsilon_total_check CHECK (epsilon_total OPERATOR(pg_catalog.>) 0),
	DROP CONSTRAINT budget_data_delta_total_check,
	ADD CONSTRAINT budget_data_delta_total_check
		CHECK (delta_total OPERATOR(pg_catalog.>=) 0 AND delta_total OPERATOR(pg_catalog.<) 1),
	DROP CONSTRAINT budget_data_epsilon_spent_check,
	ADD CONSTRAINT budget_data_epsilon_spent_check CHECK (epsilon_spent OPERATOR(pg_catalog.>=) 0),
	DROP CONSTRAINT budget_data_delta_spent_check,
	ADD CONSTRAINT budget_data_delta_spent_check CHECK (delta_spent OPERATOR(pg_catalog.>=) 0);

-- Every release of 0.1 is in catalog layout 1: the default fills the existing rows (and the rows of a 0.1 dump
-- restored into 0.2).
ALTER TABLE pap.release_data
	ADD COLUMN layout_version pg_catalog.int4 NOT NULL DEFAULT 1 CHECK (layout_version OPERATOR(pg_catalog.>=) 1);
COMMENT ON COLUMN pap.release_data.layout_version IS 'how the axis and cell arrays of the row are laid out (docs/query-classes.md): 1 for every release so far; the library refuses a layout it does not know';

-- Answers without refine use the release's answer mode (docs/mechanisms.md §10, "The answer mode"): refine's
-- default becomes NULL and NULL is no longer strict. Replaced in place, not dropped, so that a user's views over
-- them survive the update; the functions are the extension's own (an extension script replaces only its members).
CREATE OR REPLACE FUNCTION pap.answer(name pg_catalog.text, query pg_catalog.text, refine pg_catalog.bool DEFAULT NULL)
	RETURNS pg_catalog.float8 AS 'MODULE_PATHNAME', 'pap_answer' LANGUAGE C STABLE PARALLEL SAFE;
COMMENT ON FUNCTION pap.answer(pg_catalog.text, pg_catalog.text, pg_catalog.bool) IS
	'released answer to a query of the release''s class, as a fraction of the private rows (refine: a bin a bound cuts through counts with the share of its public rows on the query''s side; NULL: the release''s answer mode); free';

CREATE OR REPLACE FUNCTION pap.answer_count(name pg_catalog.text, query pg_catalog.text, refine pg_catalog.bool DEFAULT NULL)
	RETURNS pg_catalog.float8 AS 'MODULE_PATHNAME', 'pap_answer_count' LANGUAGE C STABLE PARALLEL SAFE;
COMMENT ON FUNCTION pap.answer_count(pg_catalog.text, pg_catalog.text, pg_catalog.bool) IS
	'released answer to a query of the release''s class, as an estimated number of private rows; free';

-- Quantiles of a thresholds or ranges release: free post-processing (docs/reference.md, pap.quantile).
CREATE FUNCTION pap.quantile(name pg_catalog.text, q pg_catalog.float8, refine pg_catalog.bool DEFAULT NULL)
	RETURNS pg_catalog.float8 AS 'MODULE_PATHNAME', 'pap_quantile' LANGUAGE C STABLE PARALLEL SAFE;
COMMENT ON FUNCTION pap.quantile(pg_catalog.text, pg_catalog.float8, pg_catalog.bool) IS
	'q-quantile of the released distribution of a thresholds or ranges release''s column (dates and timestamps as Unix epoch seconds); free';

CREATE FUNCTION pap.quantiles(name pg_catalog.text, qs pg_catalog.float8[], refine pg_catalog.bool DEFAULT NULL)
	RETURNS TABLE (q pg_catalog.float8, value pg_catalog.float8) LANGUAGE sql STABLE PARALLEL SAFE
BEGIN ATOMIC
	SELECT x.q, pap.quantile(name, x.q, refine) FROM pg_catalog.unnest(qs) WITH ORDINALITY AS x(q, i)
	 WHERE name IS NOT NULL ORDER BY x.i;
END;
COMMENT ON FUNCTION pap.quantiles(pg_catalog.text, pg_catalog.float8[], pg_catalog.bool) IS
	'pap.quantile for every element of qs, in order; free';

-- pap.plan shows the parts of its predicted error (docs/mechanisms.md §10): new OUT columns change its row type,
-- so it is dropped and created again (no object of the extension depends on it).
DROP FUNCTION pap.plan(pg_catalog.text, pg_catalog.float8, pg_catalog.float8, pg_catalog.text, pg_catalog.text);
CREATE FUNCTION pap.plan(name pg_catalog.text, epsilon pg_catalog.float8, delta pg_catalog.float8 DEFAULT 0,
                         mechanism pg_catalog.text DEFAULT 'auto', prior pg_catalog.text DEFAULT 'public',
                         OUT chosen_mechanism pg_catalog.text, OUT private_rows pg_catalog.int8,
                         OUT public_rows pg_catalog.int8, OUT cover_size pg_catalog.int8,
                         OUT cell_count pg_catalog.int8, OUT alpha pg_catalog.float8, OUT beta pg_catalog.float8,
                         OUT predicted_error pg_catalog.float8, OUT public_only_error pg_catalog.float8,
                         OUT book_private_rows pg_catalog.float8, OUT book_public_rows pg_catalog.float8,
                         OUT book_guarantee_holds pg_catalog.bool, OUT book_cutoff pg_catalog.float8,
                         OUT cutoff pg_catalog.int8, OUT cutoff_suffices pg_catalog.bool,
                         OUT threshold pg_catalog.float8,
                         OUT accounting pg_catalog.text, OUT epsilon_split pg_catalog.float8[],
                         OUT noise_scales pg_catalog.float8[], OUT max_passes pg_catalog.int4,
                         OUT predictions pg_catalog.jsonb, OUT projection_error pg_catalog.float8,
                         OUT outside_mass_error pg_catalog.float8, OUT noise_error pg_catalog.float8,
                         OUT prior_error pg_catalog.float8, OUT private_only_error pg_catalog.float8,
                         OUT answer_mode pg_catalog.text)
	AS 'MODULE_PATHNAME', 'pap_plan' LANGUAGE C STABLE PARALLEL RESTRICTED
	SET search_path = pg_catalog, pg_temp;
COMMENT ON FUNCTION pap.plan(pg_catalog.text, pg_catalog.float8, pg_catalog.float8, pg_catalog.text, pg_catalog.text) IS
	'the mechanism a run would use (auto: the smallest predicted error, from public information only), every mechanism''s predicted max error over the query class with its parts (projection onto the cover, mass outside the domain, noise, the prior''s error), the error of the same request without the public table, PMW''s parameters beside the sizes the source papers require, and the answer mode (projection or refine) with the smaller predicted error; warns when the lower bounds say alpha is out of reach; free: reads no private row';

-- Releases without a public table, over a declared domain (docs/mechanisms.md §14): the declaration is kept in a
-- new column, which the check on the public table's columns admits in place of a public table; pap.releases shows
-- it (a column added at the end of the view, so CREATE OR REPLACE keeps the view and its grants).
ALTER TABLE pap.release_data ADD COLUMN declared_domain pg_catalog.jsonb;
COMMENT ON COLUMN pap.release_data.declared_domain IS 'the declared domain of a release without a public table (pap.define_private_release), as given; NULL for a release over a public table';
ALTER TABLE pap.release_data DROP CONSTRAINT release_data_check1,
	ADD CONSTRAINT release_data_check1 CHECK (CASE WHEN declared_domain IS NULL
	                                               THEN (public_table IS NULL) = (public_table_name IS NOT NULL)
	                                               ELSE public_table IS NULL AND public_table_name IS NULL END);
CREATE OR REPLACE VIEW pap.releases AS
SELECT r.name, r.private_table, r.public_table, r.query_class, r.alpha, r.beta, r.granularity,
       r.domain, r.domain_reason,
       CASE WHEN r.state OPERATOR(pg_catalog.=) 'running' AND NOT pap.run_in_progress(r.release_id)
            THEN 'failed' ELSE r.state END AS state,
       r.mechanism, r.epsilon, r.delta, r.private_rows, r.public_rows, r.cover_size, r.cell_count,
       r.is_private, r.defined_by, r.defined_at,
       -- A run's duration depends on the private data: its end time is shown only to roles that may read the
       -- private table, every row of it (docs/security.md, "Timing").
       CASE WHEN pg_catalog.has_table_privilege(r.private_table, 'SELECT')
                 AND NOT pg_catalog.row_security_active(r.private_table) THEN r.released_at END AS released_at,
       r.details,
       pap.table_name(r.private_table, r.private_table_name) AS private_table_name,
       pap.table_name(r.public_table, r.public_table_name) AS public_table_name,
       r.declared_domain
  FROM pap.release_data r;

CREATE FUNCTION pap.define_private_release(name pg_catalog.text, private_table pg_catalog.regclass,
                                           query_class pg_catalog.text, domain pg_catalog.jsonb,
                                           alpha pg_catalog.float8 DEFAULT 0.05, beta pg_catalog.float8 DEFAULT 0.05)
	RETURNS void
	AS 'MODULE_PATHNAME', 'pap_define_private_release' LANGUAGE C VOLATILE PARALLEL UNSAFE
	SET search_path = pg_catalog, pg_temp;
COMMENT ON FUNCTION pap.define_private_release(pg_catalog.text, pg_catalog.regclass, pg_catalog.text, pg_catalog.jsonb, pg_catalog.float8, pg_catalog.float8) IS
	'defines a release without a public table: its axes, cover and cells come from a declared domain (bounds and a step per ordered column, categories per categorical one); reads no table; spends nothing';

--------------------------------------------------------------------------------------------------------------
-- Private labels for public rows (docs/mechanisms.md §17, docs/reference.md "Labellings"): a labelling trains one
-- learner per chunk of the private rows and releases each public row's majority label through the sparse vector
-- on the vote margin, then trains a final model on the labelled public rows. Same rules as releases: the catalog
-- is written only by the C functions as the owner of schema pap; every role reads the views.
--------------------------------------------------------------------------------------------------------------
CREATE TABLE pap.labelling_data (
	name               pg_catalog.text PRIMARY KEY,
	labelling_id       pg_catalog.int8 GENERATED ALWAYS AS IDENTITY UNIQUE,  -- key of the run's lock
	private_table      pg_catalog.regclass,              -- NULL once the table is dropped, and then
	private_table_name pg_catalog.text,                  -- its qualified name
	public_table       pg_catalog.regclass,              -- likewise
	public_table_name  pg_catalog.text,
	label_column       pg_catalog.text NOT NULL,
	feature_columns    pg_catalog.text[] NOT NULL,
	feature_value_types pg_catalog.text[] NOT NULL,      -- number, date, timestamp, timestamptz, text, boolean
	classes            pg_catalog.text[] NOT NULL,       -- the labels a row may get, as text
	learner            pg_catalog.text NOT NULL CHECK (learner IN ('cells', 'logistic')),
	chunks             pg_catalog.int4 CHECK (chunks OPERATOR(pg_catalog.>) 0),  -- NULL: chosen by the plan
	public_rows        pg_catalog.int8 NOT NULL,
	-- The features as the learners see them, from the public table (src/core/api/labelling_api.hpp).
	centers            pg_catalog.float8[] NOT NULL,
	spreads            pg_catalog.float8[] NOT NULL,
	cut_counts         pg_catalog.int4[] NOT NULL,
	cuts               pg_catalog.float8[] NOT NULL,
	category_counts    pg_catalog.int4[] NOT NULL,
	categories         pg_catalog.text[] NOT NULL,
	cell_count         pg_catalog.int8 NOT NULL,
	defined_by         pg_catalog.name NOT NULL,
	defined_at         pg_catalog.timestamptz NOT NULL,
	state              pg_catalog.text NOT NULL DEFAULT 'defined' CHECK (state IN ('defined', 'running', 'labelled')),
	run_pid            pg_catalog.int4,
	run_started_at     pg_catalog.timestamptz,
	epsilon            pg_catalog.float8,
	delta              pg_catalog.float8,
	cutoff             pg_catalog.int4,
	private_rows       pg_catalog.int8,
	labelled_rows      pg_catalog.int8,
	model              pg_catalog.float8[],               -- the final model's parameters (NULL: no row labelled)
	details            pg_catalog.jsonb,                  -- parameters and counts of the run (public)
	is_private         pg_catalog.bool,                   -- false when made with pap_release.test_seed
	labelled_at        pg_catalog.timestamptz,
	CHECK ((private_table IS NULL) = (private_table_name IS NOT NULL)),
	CHECK ((public_table IS NULL) = (public_table_name IS NOT NULL))
);

-- One row per public row a run read: its feature values as text and its released class (NULL: unstable, or not
-- reached before the cut-off).
CREATE TABLE pap.labelled_row_data (
	labelling_id  pg_catalog.int8 NOT NULL REFERENCES pap.labelling_data (labelling_id) ON DELETE CASCADE,
	public_row    pg_catalog.int8 NOT NULL,
	features      pg_catalog.text[] NOT NULL,
	class         pg_catalog.int4,
	PRIMARY KEY (labelling_id, public_row)
);

SELECT pg_catalog.pg_extension_config_dump('pap.labelling_data', '');
SELECT pg_catalog.pg_extension_config_dump('pap.labelling_data_labelling_id_seq', '');
SELECT pg_catalog.pg_extension_config_dump('pap.labelled_row_data', '');
REVOKE ALL ON pap.labelling_data, pap.labelled_row_data FROM PUBLIC;

-- A labelling's run holds a session-level lock on the object (pap.labelling_data, labelling id), as a release's
-- run does on pap.release_data (pap.run_in_progress).
CREATE FUNCTION pap.labelling_in_progress(labelling_id pg_catalog.int8) RETURNS pg_catalog.bool
	LANGUAGE sql STABLE PARALLEL RESTRICTED
BEGIN ATOMIC
	SELECT EXISTS (
	  SELECT 1 FROM pg_catalog.pg_locks l
	   WHERE l.locktype OPERATOR(pg_catalog.=) 'object' AND l.granted AND l.objsubid OPERATOR(pg_catalog.=) 0
	     AND l.database OPERATOR(pg_catalog.=) (SELECT d.oid FROM pg_catalog.pg_database d
	                                             WHERE d.datname OPERATOR(pg_catalog.=) pg_catalog.current_database())
	     AND l.classid OPERATOR(pg_catalog.=) 'pap.labelling_data'::pg_catalog.regclass::pg_catalog.oid
	     AND l.objid OPERATOR(pg_catalog.=) (labelling_id OPERATOR(pg_catalog.%) 4294967296)::pg_catalog.oid);
END;
COMMENT ON FUNCTION pap.labelling_in_progress(pg_catalog.int8) IS 'whether a run of the labelling with this id is in progress (its run lock is held)';

CREATE VIEW pap.labellings AS
SELECT l.name, l.private_table, l.public_table, l.label_column, l.feature_columns, l.classes, l.learner,
       CASE WHEN l.state OPERATOR(pg_catalog.=) 'running' AND NOT pap.labelling_in_progress(l.labelling_id)
            THEN 'failed' ELSE l.state END AS state,
       l.chunks, l.epsilon, l.delta, l.cutoff, l.private_rows, l.public_rows, l.labelled_rows, l.is_private,
       l.defined_by, l.defined_at,
       -- A run's duration depends on the private data (docs/security.md, "Timing").
       CASE WHEN pg_catalog.has_table_privilege(l.private_table, 'SELECT')
                 AND NOT pg_catalog.row_security_active(l.private_table) THEN l.labelled_at END AS labelled_at,
       l.details,
       pap.table_name(l.private_table, l.private_table_name) AS private_table_name,
       pap.table_name(l.public_table, l.public_table_name) AS public_table_name
  FROM pap.labelling_data l;
COMMENT ON VIEW pap.labellings IS 'every defined labelling: tables, columns, learner, state (defined, running, failed, labelled), budget spent and run details';

CREATE VIEW pap.labelled_rows AS
SELECT l.name AS labelling, r.public_row, r.features, l.classes[r.class OPERATOR(pg_catalog.+) 1] AS label
  FROM pap.labelled_row_data r JOIN pap.labelling_data l ON l.labelling_id OPERATOR(pg_catalog.=) r.labelling_id;
COMMENT ON VIEW pap.labelled_rows IS 'the public rows of every run labelling with their released labels (NULL where the chunks'' vote was not stable); differentially private, free';

GRANT SELECT ON pap.labellings, pap.labelled_rows TO PUBLIC;

CREATE FUNCTION pap.define_labelling(name pg_catalog.text, private_table pg_catalog.regclass,
                                     public_table pg_catalog.regclass, label_column pg_catalog.text,
                                     feature_columns pg_catalog.text[], learner pg_catalog.text DEFAULT 'cells',
                                     chunks pg_catalog.int4 DEFAULT NULL, classes pg_catalog.text[] DEFAULT NULL)
	RETURNS void
	AS 'MODULE_PATHNAME', 'pap_define_labelling' LANGUAGE C VOLATILE PARALLEL UNSAFE
	SET search_path = pg_catalog, pg_temp;
COMMENT ON FUNCTION pap.define_labelling(pg_catalog.text, pg_catalog.regclass, pg_catalog.regclass, pg_catalog.text, pg_catalog.text[], pg_catalog.text, pg_catalog.int4, pg_catalog.text[]) IS
	'defines a labelling: the public rows of public_table get labels learned from the labelled rows of private_table (learner cells or logistic, chunks k or NULL for the plan''s choice, classes the labels, NULL for a boolean label column); reads only the public table; spends nothing';

CREATE FUNCTION pap.plan_labelling(name pg_catalog.text, epsilon pg_catalog.float8, delta pg_catalog.float8,
                                   cutoff pg_catalog.int4 DEFAULT 10,
                                   OUT chunks pg_catalog.int8, OUT private_rows pg_catalog.int8,
                                   OUT public_rows pg_catalog.int8, OUT rows_per_chunk pg_catalog.float8,
                                   OUT threshold pg_catalog.int8, OUT epsilon_split pg_catalog.float8[],
                                   OUT noise_scales pg_catalog.float8[], OUT chunks_needed pg_catalog.int8,
                                   OUT private_rows_needed pg_catalog.float8,
                                   OUT labelled_share_if_unanimous pg_catalog.float8)
	AS 'MODULE_PATHNAME', 'pap_plan_labelling' LANGUAGE C STABLE PARALLEL RESTRICTED
	SET search_path = pg_catalog, pg_temp;
COMMENT ON FUNCTION pap.plan_labelling(pg_catalog.text, pg_catalog.float8, pg_catalog.float8, pg_catalog.int4) IS
	'what a run of the labelling would do, from public information only: chunks, the sparse vector''s threshold and noise, the chunks and private rows a unanimous vote needs, and the share of public rows labelled if the chunks vote alike; free';

CREATE PROCEDURE pap.run_labelling(name pg_catalog.text, epsilon pg_catalog.float8, delta pg_catalog.float8,
                                   cutoff pg_catalog.int4 DEFAULT 10)
	AS 'MODULE_PATHNAME', 'pap_run_labelling' LANGUAGE C;
COMMENT ON PROCEDURE pap.run_labelling(pg_catalog.text, pg_catalog.float8, pg_catalog.float8, pg_catalog.int4) IS
	'runs a labelling: commits the budget charge, then reads the private table once, labels the public rows whose vote is stable and trains the final model';

CREATE FUNCTION pap.labels(name pg_catalog.text)
	RETURNS TABLE (public_row pg_catalog.int8, features pg_catalog.text[], label pg_catalog.text)
	LANGUAGE sql STABLE STRICT PARALLEL SAFE
BEGIN ATOMIC
	SELECT r.public_row, r.features, r.label FROM pap.labelled_rows r
	 WHERE r.labelling OPERATOR(pg_catalog.=) name ORDER BY r.public_row;
END;
COMMENT ON FUNCTION pap.labels(pg_catalog.text) IS
	'the public rows of a run labelling, their feature values as text and their released labels (NULL where the vote was not stable); free';

CREATE FUNCTION pap.predict(name pg_catalog.text, features pg_catalog.text[]) RETURNS pg_catalog.text
	AS 'MODULE_PATHNAME', 'pap_predict' LANGUAGE C STABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION pap.predict(pg_catalog.text, pg_catalog.text[]) IS
	'the label the final model of a run labelling predicts for feature values given as text, in the order of its feature columns (NULL elements for NULL values); free';

CREATE FUNCTION pap.drop_labelling(name pg_catalog.text) RETURNS void
	AS 'MODULE_PATHNAME', 'pap_drop_labelling' LANGUAGE C VOLATILE STRICT PARALLEL UNSAFE
	SET search_path = pg_catalog, pg_temp;
COMMENT ON FUNCTION pap.drop_labelling(pg_catalog.text) IS
	'drops a labelling, its labels and its model; its charge stays in the ledger (nothing is refunded)';


-- The right to spend a budget, separate from SELECT (docs/reference.md, "Upgrading": after the update only the
-- owner of a private table may spend its budget until it grants the right with pap.grant_spend).
CREATE TABLE pap.spender_data (
	budget_id      pg_catalog.int8 NOT NULL,                     -- pap.budget_data.budget_id
	grantee        pg_catalog.name NOT NULL,                     -- the role that may spend (not its members)
	epsilon_limit  pg_catalog.numeric CHECK (epsilon_limit OPERATOR(pg_catalog.>) 0), -- NULL: up to the table's budget
	epsilon_spent  pg_catalog.numeric NOT NULL DEFAULT 0 CHECK (epsilon_spent OPERATOR(pg_catalog.>=) 0),  -- since the grant
	granted_by     pg_catalog.name NOT NULL,
	granted_at     pg_catalog.timestamptz NOT NULL,
	PRIMARY KEY (budget_id, grantee),
	-- On a budget in rho (pap.grant_spend_rho): the limit and the spending in rho, the epsilon ones unused.
	rho_limit      pg_catalog.numeric CHECK (rho_limit OPERATOR(pg_catalog.>) 0),     -- NULL: up to the table's budget
	rho_spent      pg_catalog.numeric NOT NULL DEFAULT 0 CHECK (rho_spent OPERATOR(pg_catalog.>=) 0)
);
SELECT pg_catalog.pg_extension_config_dump('pap.spender_data', '');
REVOKE ALL ON pap.spender_data FROM PUBLIC;

CREATE VIEW pap.spenders AS
SELECT b.private_table, pap.table_name(b.private_table, b.table_name) AS table_name,
       s.grantee, s.epsilon_limit, s.epsilon_spent,
       s.epsilon_limit OPERATOR(pg_catalog.-) s.epsilon_spent AS epsilon_remaining, s.granted_by, s.granted_at,
       s.rho_limit, s.rho_spent, s.rho_limit OPERATOR(pg_catalog.-) s.rho_spent AS rho_remaining
  FROM pap.spender_data s JOIN pap.budget_data b ON b.budget_id OPERATOR(pg_catalog.=) s.budget_id;
COMMENT ON VIEW pap.spenders IS 'roles granted the right to spend a private table''s budget (pap.grant_spend), with their limit and what they spent since the grant, in epsilon or, on a budget in rho, in rho; the table''s owner spends without a grant';
GRANT SELECT ON pap.spenders TO PUBLIC;

CREATE FUNCTION pap.grant_spend(private_table pg_catalog.regclass, grantee pg_catalog.regrole,
                                epsilon_limit pg_catalog.float8 DEFAULT NULL) RETURNS void
	AS 'MODULE_PATHNAME', 'pap_grant_spend' LANGUAGE C VOLATILE PARALLEL UNSAFE
	SET search_path = pg_catalog, pg_temp;
COMMENT ON FUNCTION pap.grant_spend(pg_catalog.regclass, pg_catalog.regrole, pg_catalog.float8) IS
	'lets a role run releases that spend a private table''s budget, at most epsilon_limit of it in total (NULL: no limit but the budget); only the table''s owner may; granting again changes the limit and keeps what the role spent';

CREATE FUNCTION pap.revoke_spend(private_table pg_catalog.regclass, grantee pg_catalog.name) RETURNS void
	AS 'MODULE_PATHNAME', 'pap_revoke_spend' LANGUAGE C VOLATILE STRICT PARALLEL UNSAFE
	SET search_path = pg_catalog, pg_temp;
COMMENT ON FUNCTION pap.revoke_spend(pg_catalog.regclass, pg_catalog.name) IS
	'takes back a role''s right to spend a private table''s budget (nothing is refunded); the role by name, so that a dropped role''s grant can be revoked too; only the table''s owner may';

-- Typed, set-based answers of one-column releases (docs/reference.md, "Answers for many bounds"): no query text to
-- build. The bounds' type is resolved against the release's column when the call runs.
CREATE FUNCTION pap.answers_at(name pg_catalog.text, upper_bounds anyarray, refine pg_catalog.bool DEFAULT NULL)
	RETURNS TABLE (upper_bound anyelement, answer pg_catalog.float8, answer_count pg_catalog.float8)
	AS 'MODULE_PATHNAME', 'pap_answers_at' LANGUAGE C STABLE PARALLEL SAFE;
COMMENT ON FUNCTION pap.answers_at(pg_catalog.text, anyarray, pg_catalog.bool) IS
	'for every element b of upper_bounds, in order, the released answer to "column <= b" of a thresholds or ranges release, as pap.answer gives it; free';

CREATE FUNCTION pap.answer_between(name pg_catalog.text, lower anyelement, upper anyelement,
                                   refine pg_catalog.bool DEFAULT NULL)
	RETURNS pg_catalog.float8 AS 'MODULE_PATHNAME', 'pap_answer_between' LANGUAGE C STABLE PARALLEL SAFE;
COMMENT ON FUNCTION pap.answer_between(pg_catalog.text, anyelement, anyelement, pg_catalog.bool) IS
	'released answer to "column BETWEEN lower AND upper" of a thresholds or ranges release (a NULL bound leaves its side open), as pap.answer gives it; free';

CREATE FUNCTION pap.answer_box(name pg_catalog.text, lower anyarray, upper anyarray, refine pg_catalog.bool DEFAULT NULL)
	RETURNS pg_catalog.float8 AS 'MODULE_PATHNAME', 'pap_answer_box' LANGUAGE C STABLE PARALLEL SAFE;
COMMENT ON FUNCTION pap.answer_box(pg_catalog.text, anyarray, anyarray, pg_catalog.bool) IS
	'released answer to the box "lower[i] <= column_i AND column_i <= upper[i]" of a boxes or orthants release, one element per class column (a NULL element leaves its side open, a column with neither bound is free), as pap.answer gives it; free';

-- Answers with their (1 - beta) error bound (docs/mechanisms.md §18): free, like pap.answer.
CREATE FUNCTION pap.answer_bounded(name pg_catalog.text, query pg_catalog.text, refine pg_catalog.bool DEFAULT NULL,
                                   OUT estimate pg_catalog.float8, OUT error_bound pg_catalog.float8,
                                   OUT lower pg_catalog.float8, OUT upper pg_catalog.float8,
                                   OUT estimate_count pg_catalog.float8, OUT private_rows pg_catalog.int8)
	AS 'MODULE_PATHNAME', 'pap_answer_bounded' LANGUAGE C STABLE PARALLEL SAFE;
COMMENT ON FUNCTION pap.answer_bounded(pg_catalog.text, pg_catalog.text, pg_catalog.bool) IS
	'pap.answer with its error bound: the true answer lies in [lower, upper] for every query of the class at once with probability at least 1 - beta (the release''s beta), from public information only; free';

CREATE FUNCTION pap.answers_bounded(name pg_catalog.text, queries pg_catalog.text[],
                                    refine pg_catalog.bool DEFAULT NULL)
	RETURNS TABLE (query pg_catalog.text, estimate pg_catalog.float8, error_bound pg_catalog.float8,
	               lower pg_catalog.float8, upper pg_catalog.float8)
	LANGUAGE sql STABLE PARALLEL SAFE
BEGIN ATOMIC
	SELECT x.q, b.estimate, b.error_bound, b.lower, b.upper
	  FROM pg_catalog.unnest(queries) WITH ORDINALITY AS x(q, i),
	       LATERAL pap.answer_bounded(name, x.q, refine) AS b
	 WHERE name IS NOT NULL
	 ORDER BY x.i;
END;
COMMENT ON FUNCTION pap.answers_bounded(pg_catalog.text, pg_catalog.text[], pg_catalog.bool) IS
	'pap.answer_bounded for every element of queries, in order; free';

--------------------------------------------------------------------------------------------------------------
-- Private quantiles over a declared domain (docs/mechanisms.md §16, docs/reference.md "Private quantiles"): the
-- exponential mechanism over the values of a declared grid, without a public table and without a release. Same
-- rules as releases: one charge through the ledger before the private table is read, the catalog written only by
-- the C functions as the owner of schema pap, the released value free for every role.
--------------------------------------------------------------------------------------------------------------
CREATE TABLE pap.private_quantile_data (
	name               pg_catalog.text PRIMARY KEY,
	private_table_name pg_catalog.text NOT NULL,    -- qualified, as it was named when the quantile was run
	column_name        pg_catalog.text NOT NULL,
	q                  pg_catalog.float8 NOT NULL CHECK (q OPERATOR(pg_catalog.>=) 0 AND q OPERATOR(pg_catalog.<=) 1),
	epsilon            pg_catalog.float8 NOT NULL CHECK (epsilon OPERATOR(pg_catalog.>) 0),
	domain             pg_catalog.jsonb NOT NULL,   -- the declaration, as given
	candidates         pg_catalog.int8 NOT NULL CHECK (candidates OPERATOR(pg_catalog.>) 0),  -- the declared grid's values
	private_rows       pg_catalog.int8 NOT NULL,    -- n, counted before the charge (public under replace-one)
	value              pg_catalog.float8,           -- NULL until stored, and for good if the run failed after its charge
	is_private         pg_catalog.bool NOT NULL,    -- false when made with pap_release.test_seed
	run_by             pg_catalog.name NOT NULL,
	run_at             pg_catalog.timestamptz NOT NULL
);
SELECT pg_catalog.pg_extension_config_dump('pap.private_quantile_data', '');
REVOKE ALL ON pap.private_quantile_data FROM PUBLIC;

CREATE VIEW pap.private_quantiles AS
SELECT name, private_table_name AS private_table, column_name, q, epsilon, domain, candidates, private_rows, value,
       is_private, run_by, run_at
  FROM pap.private_quantile_data;
COMMENT ON VIEW pap.private_quantiles IS 'every private quantile run: table, column, q, epsilon, declared domain and the released value (NULL if its run failed after the charge); differentially private, free';
GRANT SELECT ON pap.private_quantiles TO PUBLIC;

CREATE PROCEDURE pap.run_private_quantile(name pg_catalog.text, private_table pg_catalog.regclass,
                                          column_name pg_catalog.text, q pg_catalog.float8,
                                          epsilon pg_catalog.float8, domain pg_catalog.jsonb,
                                          beta pg_catalog.float8 DEFAULT 0.05)
	AS 'MODULE_PATHNAME', 'pap_run_private_quantile' LANGUAGE C;
COMMENT ON PROCEDURE pap.run_private_quantile(pg_catalog.text, pg_catalog.regclass, pg_catalog.text, pg_catalog.float8, pg_catalog.float8, pg_catalog.jsonb, pg_catalog.float8) IS
	'releases the q-quantile of a number column over a declared domain {"min", "max", "step"} (the exponential mechanism, epsilon-DP): commits the budget charge, then reads the private table once; warns when n is below (4/epsilon) ln(|X|/beta), the rows the interior-point guarantee needs';

CREATE FUNCTION pap.drop_private_quantile(name pg_catalog.text) RETURNS void
	AS 'MODULE_PATHNAME', 'pap_drop_private_quantile' LANGUAGE C VOLATILE STRICT PARALLEL UNSAFE
	SET search_path = pg_catalog, pg_temp;
COMMENT ON FUNCTION pap.drop_private_quantile(pg_catalog.text) IS
	'drops a private quantile; its charge stays in the ledger (nothing is refunded); only the role that ran it may';

--------------------------------------------------------------------------------------------------------------
-- zCDP budgets (docs/mechanisms.md, "zCDP budgets"): the columns of a budget in rho, the views that show them
-- (dropped and created again: their column lists change), and the functions.
--------------------------------------------------------------------------------------------------------------
ALTER TABLE pap.budget_data
	ADD COLUMN rho_total pg_catalog.numeric CHECK (rho_total OPERATOR(pg_catalog.>) 0),
	ADD COLUMN rho_spent pg_catalog.numeric NOT NULL DEFAULT 0 CHECK (rho_spent OPERATOR(pg_catalog.>=) 0);
ALTER TABLE pap.ledger_data ADD COLUMN rho pg_catalog.numeric CHECK (rho OPERATOR(pg_catalog.>) 0);
COMMENT ON COLUMN pap.budget_data.rho_total IS 'a zCDP budget''s total rho (pap.set_budget_rho), NULL for a budget in (epsilon, delta); epsilon_total and epsilon_spent are then the tight conversions of rho_total and rho_spent at delta_total';
COMMENT ON COLUMN pap.budget_data.rho_spent IS 'the rho charged to a zCDP budget so far (0 for a budget in (epsilon, delta))';
COMMENT ON COLUMN pap.ledger_data.rho IS 'a charge of a zCDP budget in rho (epsilon and delta are then what the run guarantees); NULL on a budget in (epsilon, delta)';

DROP VIEW pap.budgets;
CREATE VIEW pap.budgets AS
SELECT b.private_table, b.epsilon_total, b.epsilon_spent,
       -- A zCDP budget's (epsilon, delta) are conversions of rho, which do not subtract: only rho remains.
       CASE WHEN b.rho_total IS NULL THEN b.epsilon_total OPERATOR(pg_catalog.-) b.epsilon_spent END
         AS epsilon_remaining,
       b.delta_total, b.delta_spent,
       CASE WHEN b.rho_total IS NULL THEN b.delta_total OPERATOR(pg_catalog.-) b.delta_spent END AS delta_remaining,
       b.set_by, b.set_at, pap.table_name(b.private_table, b.table_name) AS table_name, b.dropped_at, b.budget_id,
       CASE WHEN b.rho_total IS NULL THEN 'epsilon' ELSE 'rho' END AS unit, b.rho_total, b.rho_spent,
       b.rho_total OPERATOR(pg_catalog.-) b.rho_spent AS rho_remaining
  FROM pap.budget_data b;
COMMENT ON VIEW pap.budgets IS 'privacy budget of every private table: total, spent and remaining (epsilon, delta), or for a budget in rho (unit rho) its rho and the tight conversion of its total and spent rho to (epsilon, delta); a dropped table keeps its row, with private_table NULL';

DROP VIEW pap.ledger;
CREATE VIEW pap.ledger AS
SELECT l.entry_id, l.private_table, l.release_name, l.epsilon, l.delta, l.mechanism, l.charged_by, l.charged_at,
       pap.table_name(l.private_table, l.table_name) AS table_name, l.dropped_at, l.rho
  FROM pap.ledger_data l;
COMMENT ON VIEW pap.ledger IS 'every privacy charge ever made, never refunded: one row per run of a release, with the rho charged to a budget in rho; kept when the table is dropped';
GRANT SELECT ON pap.budgets, pap.ledger TO PUBLIC;

--------------------------------------------------------------------------------------------------------------
-- zCDP budgets (docs/mechanisms.md, "zCDP budgets"): a private table's budget in rho instead of (epsilon, delta).
-- A run on it is asked for with epsilon as on any budget and costs rho = epsilon^2 / 2 (what a pure run at epsilon
-- costs; a private quantile, an exponential mechanism, epsilon^2 / 8), which its mechanism may spend on Gaussian
-- noise instead; the ledger reports every charge and total in
-- (epsilon, delta) too, by the tight conversion at the budget's delta.
--------------------------------------------------------------------------------------------------------------
CREATE FUNCTION pap.zcdp_epsilon(rho pg_catalog.float8, delta pg_catalog.float8) RETURNS pg_catalog.float8
	AS 'MODULE_PATHNAME', 'pap_zcdp_epsilon' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION pap.zcdp_epsilon(pg_catalog.float8, pg_catalog.float8) IS
	'the epsilon with which rho-zCDP implies (epsilon, delta)-DP, by the tight conversion (Canonne, Kamath and Steinke 2020, Corollary 13); never below the exact value';

CREATE FUNCTION pap.set_budget_rho(private_table pg_catalog.regclass, rho pg_catalog.float8,
                                   delta pg_catalog.float8) RETURNS void
	AS 'MODULE_PATHNAME', 'pap_set_budget_rho' LANGUAGE C VOLATILE STRICT PARALLEL UNSAFE
	SET search_path = pg_catalog, pg_temp;
COMMENT ON FUNCTION pap.set_budget_rho(pg_catalog.regclass, pg_catalog.float8, pg_catalog.float8) IS
	'sets the total privacy budget of a private table in rho (zero-concentrated DP), reported in (epsilon, delta) at this delta; only its owner may; never below what is spent, and its unit changes only while nothing is spent';

CREATE FUNCTION pap.grant_spend_rho(private_table pg_catalog.regclass, grantee pg_catalog.regrole,
                                    rho_limit pg_catalog.float8 DEFAULT NULL) RETURNS void
	AS 'MODULE_PATHNAME', 'pap_grant_spend_rho' LANGUAGE C VOLATILE PARALLEL UNSAFE
	SET search_path = pg_catalog, pg_temp;
COMMENT ON FUNCTION pap.grant_spend_rho(pg_catalog.regclass, pg_catalog.regrole, pg_catalog.float8) IS
	'pap.grant_spend on a budget in rho: lets a role spend at most rho_limit of it in total (NULL: no limit but the budget); only the table''s owner may';
-- Granularity auto becomes define_release's default (docs/mechanisms.md §20): the error model chooses the cuts of
-- the ordered axes and the domain. Only the default changes (CREATE OR REPLACE keeps the grants); releases defined
-- before keep the layout and the granularity text they were defined with.
CREATE OR REPLACE FUNCTION pap.define_release(name pg_catalog.text, private_table pg_catalog.regclass,
                                   public_table pg_catalog.regclass, query_class pg_catalog.text,
                                   alpha pg_catalog.float8 DEFAULT 0.05, beta pg_catalog.float8 DEFAULT 0.05,
                                   granularity pg_catalog.text DEFAULT 'auto')
	RETURNS void
	AS 'MODULE_PATHNAME', 'pap_define_release' LANGUAGE C VOLATILE STRICT PARALLEL UNSAFE
	SET search_path = pg_catalog, pg_temp;
COMMENT ON FUNCTION pap.define_release(pg_catalog.text, pg_catalog.regclass, pg_catalog.regclass, pg_catalog.text, pg_catalog.float8, pg_catalog.float8, pg_catalog.text) IS
	'defines a release: builds the axes, cover and cells of a query class from the public table only (granularity auto: the cuts and domain with the smallest predicted error at pap_release.layout_epsilon, planned with count(*) of the private table; alpha: public quantiles as coarse as alpha allows; finest: every public value); spends nothing';

-- Discrete columns (docs/mechanisms.md §10): the step between the values of each axis's column. The releases of 0.1
-- keep NULL, and with it how they answered (their value types' steps: a date's day, 0 for numbers).
ALTER TABLE pap.release_data ADD COLUMN axis_value_steps pg_catalog.float8[];
COMMENT ON COLUMN pap.release_data.axis_value_steps IS 'per axis, the distance between consecutive values its column can hold, in axis units (1 for an integer column, a day for a date, 0 for any other; docs/mechanisms.md §10, "Discrete columns"); NULL for a release defined before, whose axes take their value types'' steps';

-- Answers fixed at the run (docs/mechanisms.md §18, "Stored with the release"): the error model's facts answers read
-- (the projection part, the unseen points' mass and the caps as jsonb, the gap spreads as a float8[] used in place
-- like the other large arrays), stored by the run instead of recomputed by whichever library loads the release. The
-- releases run before keep NULL, and the loading library computes theirs.
ALTER TABLE pap.release_data ADD COLUMN answer_facts pg_catalog.jsonb;
ALTER TABLE pap.release_data ADD COLUMN answer_gap_spreads pg_catalog.float8[];
ALTER TABLE pap.release_data ALTER COLUMN answer_gap_spreads SET STORAGE EXTERNAL;
COMMENT ON COLUMN pap.release_data.answer_facts IS 'what answers read from the error model beside the plan''s parts, computed by the run from public numbers (the layout, the public and private row counts, beta) and stored so that a later library does not change a released answer (docs/mechanisms.md §18, "Stored with the release"): event_projection, unseen_points_mass and other_bin_caps (per axis), with the spreads in answer_gap_spreads; NULL for a release run before, whose facts the loading library computes';
COMMENT ON COLUMN pap.release_data.answer_gap_spreads IS 'per public value of the layout (public_values, axes concatenated), the share of its first row that refined answers spread over the gap below it, computed and stored by the run with answer_facts (0 on an axis without spreads; empty where answers do not spread); NULL for a release run before';

-- The private columns a release was defined over (fmgr_run.cpp's RequireColumnTypes): a run refuses a column renamed
-- onto another one, or changed type, since the define, or whose CHECK constraint's list of values, which closed its
-- axis, changed. The releases of 0.1 keep NULL and the checks they had.
ALTER TABLE pap.release_data ADD COLUMN axis_column_positions pg_catalog.int4[];
ALTER TABLE pap.release_data ADD COLUMN axis_column_types pg_catalog.text[];
ALTER TABLE pap.release_data ADD COLUMN axis_check_lists pg_catalog.bool[];
COMMENT ON COLUMN pap.release_data.axis_column_positions IS 'per axis, the position of the private table''s column a numeric or categorical axis reads among the table''s columns (dropped columns not counted, so that a dump and restore keeps it), 0 for the other axes: a run refuses a release whose column name now names another column (a rename, a column dropped and added again, or an earlier column dropped); NULL for a release defined before';
COMMENT ON COLUMN pap.release_data.axis_column_types IS 'per axis, the type (with its modifier, schema-qualified) of that column when the release was defined, empty for the other axes: a run refuses a release whose column has changed type since, even to a wider one; NULL for a release defined before';
COMMENT ON COLUMN pap.release_data.axis_check_lists IS 'per axis, whether its categories are the list of values the private table''s validated CHECK constraints allowed its column when the release was defined (docs/mechanisms.md §10, "Closed columns"): a run refuses a release whose list has changed since; NULL for a release defined before, none of whose axes is so closed';


-- What default privileges allowed under 0.1 may already have been used: a trigger, rule or policy on a catalog
-- table runs as the catalog owner on every write, and an object another role made in schema pap is found by the
-- catalog's readers. Revoking the grant (below) would not remove them, so the update stops and names them.
DO $$
DECLARE
	found pg_catalog.text;
BEGIN
	SELECT pg_catalog.string_agg(what, '; ') INTO found FROM (
		SELECT pg_catalog.format('trigger %I on %s', t.tgname, t.tgrelid::pg_catalog.regclass) AS what
		  FROM pg_catalog.pg_trigger t JOIN pg_catalog.pg_class c ON c.oid OPERATOR(pg_catalog.=) t.tgrelid
		 WHERE c.relnamespace OPERATOR(pg_catalog.=) 'pap'::pg_catalog.regnamespace AND NOT t.tgisinternal
		UNION ALL
		SELECT pg_catalog.format('rule %I on %s', r.rulename, r.ev_class::pg_catalog.regclass)
		  FROM pg_catalog.pg_rewrite r JOIN pg_catalog.pg_class c ON c.oid OPERATOR(pg_catalog.=) r.ev_class
		 WHERE c.relnamespace OPERATOR(pg_catalog.=) 'pap'::pg_catalog.regnamespace
		   AND r.rulename OPERATOR(pg_catalog.<>) '_RETURN'
		UNION ALL
		SELECT pg_catalog.format('policy %I on %s', p.polname, p.polrelid::pg_catalog.regclass)
		  FROM pg_catalog.pg_policy p JOIN pg_catalog.pg_class c ON c.oid OPERATOR(pg_catalog.=) p.polrelid
		 WHERE c.relnamespace OPERATOR(pg_catalog.=) 'pap'::pg_catalog.regnamespace
		UNION ALL
		SELECT pg_catalog.format('constraint %I of %s', k.conname, k.conrelid::pg_catalog.regclass)
		  FROM pg_catalog.pg_constraint k
		  JOIN pg_catalog.pg_class f ON f.oid OPERATOR(pg_catalog.=) k.confrelid
		  JOIN pg_catalog.pg_class c ON c.oid OPERATOR(pg_catalog.=) k.conrelid
		 WHERE f.relnamespace OPERATOR(pg_catalog.=) 'pap'::pg_catalog.regnamespace
		   AND c.relnamespace OPERATOR(pg_catalog.<>) 'pap'::pg_catalog.regnamespace
		UNION ALL
		SELECT pg_catalog.format('relation %s of role %s', c.oid::pg_catalog.regclass, c.relowner::pg_catalog.regrole)
		  FROM pg_catalog.pg_class c
		 WHERE c.relnamespace OPERATOR(pg_catalog.=) 'pap'::pg_catalog.regnamespace
		   AND c.relkind OPERATOR(pg_catalog.<>) ALL ('{i,I}'::pg_catalog."char"[])  -- only a table's owner indexes it
		   AND NOT EXISTS (  -- a member of the extension, or a sequence of one's identity column
		       SELECT FROM pg_catalog.pg_depend d
		        WHERE d.classid OPERATOR(pg_catalog.=) 'pg_catalog.pg_class'::pg_catalog.regclass
		          AND d.objid OPERATOR(pg_catalog.=) c.oid
		          AND ((d.deptype OPERATOR(pg_catalog.=) 'e'
		                AND d.refclassid OPERATOR(pg_catalog.=) 'pg_catalog.pg_extension'::pg_catalog.regclass)
		               OR (d.deptype OPERATOR(pg_catalog.=) ANY ('{a,i}'::pg_catalog."char"[])
		                   AND d.refclassid OPERATOR(pg_catalog.=) 'pg_catalog.pg_class'::pg_catalog.regclass
		                   AND EXISTS (SELECT FROM pg_catalog.pg_depend e
		                                WHERE e.classid OPERATOR(pg_catalog.=) 'pg_catalog.pg_class'::pg_catalog.regclass
		                                  AND e.objid OPERATOR(pg_catalog.=) d.refobjid
		                                  AND e.deptype OPERATOR(pg_catalog.=) 'e'))))
		UNION ALL
		SELECT pg_catalog.format('function %s of role %s', p.oid::pg_catalog.regprocedure, p.proowner::pg_catalog.regrole)
		  FROM pg_catalog.pg_proc p
		 WHERE p.pronamespace OPERATOR(pg_catalog.=) 'pap'::pg_catalog.regnamespace
		   AND NOT EXISTS (SELECT FROM pg_catalog.pg_depend d
		                    WHERE d.classid OPERATOR(pg_catalog.=) 'pg_catalog.pg_proc'::pg_catalog.regclass
		                      AND d.objid OPERATOR(pg_catalog.=) p.oid AND d.deptype OPERATOR(pg_catalog.=) 'e')
	) x;
	IF found IS NOT NULL THEN
		RAISE EXCEPTION 'schema pap holds objects the extension did not make: %', found
		      USING HINT = 'Another role could make them through grants the installing role''s default privileges gave. '
		                   'Review them (and the budgets and ledger they could have changed), drop them, and update again.';
	END IF;
END
$$;


-- The installing role's default privileges (ALTER DEFAULT PRIVILEGES) apply to what this script creates: they could
-- have granted a role the right to write a catalog table (a budget raised, a charge erased) or to create objects in
-- schema pap. Only this script's own grants stand: USAGE on the schema and SELECT on the views, to PUBLIC.
DO $$
DECLARE
	g record;
BEGIN
	FOR g IN
		SELECT pg_catalog.format('%s ON %s %s', a.privilege_type,
		                         CASE WHEN c.relkind OPERATOR(pg_catalog.=) 'S' THEN 'SEQUENCE' ELSE 'TABLE' END,
		                         c.oid::pg_catalog.regclass) AS target, a.grantee
		  FROM pg_catalog.pg_class c, pg_catalog.aclexplode(c.relacl) a
		 WHERE c.relnamespace OPERATOR(pg_catalog.=) 'pap'::pg_catalog.regnamespace
		   AND a.grantee OPERATOR(pg_catalog.<>) c.relowner
		   AND NOT (a.grantee OPERATOR(pg_catalog.=) 0 AND a.privilege_type OPERATOR(pg_catalog.=) 'SELECT'
		            AND c.relname OPERATOR(pg_catalog.=) ANY ('{budgets, ledger, releases, labellings, labelled_rows, spenders, private_quantiles}'::pg_catalog.name[]))
		UNION ALL
		SELECT pg_catalog.format('%s ON SCHEMA pap', a.privilege_type), a.grantee
		  FROM pg_catalog.pg_namespace n, pg_catalog.aclexplode(n.nspacl) a
		 WHERE n.nspname OPERATOR(pg_catalog.=) 'pap' AND a.grantee OPERATOR(pg_catalog.<>) n.nspowner
		   AND NOT (a.grantee OPERATOR(pg_catalog.=) 0 AND a.privilege_type OPERATOR(pg_catalog.=) 'USAGE')
	LOOP
		-- regrole's text is already quoted where the name needs it; CASCADE takes the grants made from it too
		EXECUTE pg_catalog.format('REVOKE %s FROM %s CASCADE', g.target,
		                          CASE WHEN g.grantee OPERATOR(pg_catalog.=) 0 THEN 'PUBLIC'
		                               ELSE g.grantee::pg_catalog.regrole::pg_catalog.text END);
		RAISE NOTICE 'pap_release: revoked % from %', g.target,
		             CASE WHEN g.grantee OPERATOR(pg_catalog.=) 0 THEN 'PUBLIC'
		                  ELSE g.grantee::pg_catalog.regrole::pg_catalog.text END;
	END LOOP;
END
$$;
