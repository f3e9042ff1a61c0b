/* pap_release 0.1 -> 0.2 (docs/reference.md, "Upgrading"). Brings a 0.1 database to the objects a fresh install
 * of 0.2 creates (extension/pap_release.sql); test/upgrade/run_upgrade_test.sh compares the two. */
\echo Use "ALTER EXTENSION pap_release UPDATE TO '0.2'" to load this file. \quit

-- Every release of 0.1 is in catalog layout 1: the default fills the existing rows (and the rows of a 0.1 dump
-- restored into 0.2).
ALTER TABLE pap.release_data
	ADD COLUMN layout_version pg_catalog.int4 NOT NULL DEFAULT 1 CHECK (layout_version >= 1);
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
       -- private table (docs/security.md, "Timing").
       CASE WHEN pg_catalog.has_table_privilege(r.private_table, 'SELECT') THEN r.released_at END AS released_at,
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
