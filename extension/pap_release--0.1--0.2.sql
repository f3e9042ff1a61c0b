/* pap_release 0.1 -> 0.2 (docs/reference.md, "Upgrading"). Brings a 0.1 database to the objects a fresh install
 * of 0.2 creates (extension/pap_release.sql); test/upgrade/run_upgrade_test.sh compares the two. */
\echo Use "ALTER EXTENSION pap_release UPDATE TO '0.2'" to load this file. \quit

-- Every release of 0.1 is in catalog layout 1: the default fills the existing rows (and the rows of a 0.1 dump
-- restored into 0.2).
ALTER TABLE pap.release_data
	ADD COLUMN layout_version pg_catalog.int4 NOT NULL DEFAULT 1 CHECK (layout_version >= 1);
COMMENT ON COLUMN pap.release_data.layout_version IS 'how the axis and cell arrays of the row are laid out (docs/query-classes.md): 1 for every release so far; the library refuses a layout it does not know';

-- Quantiles of a thresholds or ranges release: free post-processing (docs/reference.md, pap.quantile).
CREATE FUNCTION pap.quantile(name pg_catalog.text, q pg_catalog.float8, refine pg_catalog.bool DEFAULT false)
	RETURNS pg_catalog.float8 AS 'MODULE_PATHNAME', 'pap_quantile' LANGUAGE C STABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION pap.quantile(pg_catalog.text, pg_catalog.float8, pg_catalog.bool) IS
	'q-quantile of the released distribution of a thresholds or ranges release''s column (dates and timestamps as Unix epoch seconds); free';

CREATE FUNCTION pap.quantiles(name pg_catalog.text, qs pg_catalog.float8[], refine pg_catalog.bool DEFAULT false)
	RETURNS TABLE (q pg_catalog.float8, value pg_catalog.float8) LANGUAGE sql STABLE STRICT PARALLEL SAFE
BEGIN ATOMIC
	SELECT x.q, pap.quantile(name, x.q, refine) FROM pg_catalog.unnest(qs) WITH ORDINALITY AS x(q, i) ORDER BY x.i;
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
                         OUT prior_error pg_catalog.float8)
	AS 'MODULE_PATHNAME', 'pap_plan' LANGUAGE C STABLE PARALLEL RESTRICTED
	SET search_path = pg_catalog, pg_temp;
COMMENT ON FUNCTION pap.plan(pg_catalog.text, pg_catalog.float8, pg_catalog.float8, pg_catalog.text, pg_catalog.text) IS
	'the mechanism a run would use (auto: the smallest predicted error, from public information only), every mechanism''s predicted max error over the query class with its parts (projection onto the cover, mass outside the domain, noise, the prior''s error), and PMW''s parameters beside the sizes the source papers require; free: reads no private row';

-- Answers with their (1 - beta) error bound (docs/mechanisms.md §13): free, like pap.answer.
CREATE FUNCTION pap.answer_bounded(name pg_catalog.text, query pg_catalog.text, refine pg_catalog.bool DEFAULT false,
                                   OUT estimate pg_catalog.float8, OUT error_bound pg_catalog.float8,
                                   OUT lower pg_catalog.float8, OUT upper pg_catalog.float8,
                                   OUT estimate_count pg_catalog.float8, OUT private_rows pg_catalog.int8)
	AS 'MODULE_PATHNAME', 'pap_answer_bounded' LANGUAGE C STABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION pap.answer_bounded(pg_catalog.text, pg_catalog.text, pg_catalog.bool) IS
	'pap.answer with its error bound: the true answer lies in [lower, upper] for every query of the class at once with probability at least 1 - beta (the release''s beta), from public information only; free';

CREATE FUNCTION pap.answers_bounded(name pg_catalog.text, queries pg_catalog.text[],
                                    refine pg_catalog.bool DEFAULT false)
	RETURNS TABLE (query pg_catalog.text, estimate pg_catalog.float8, error_bound pg_catalog.float8,
	               lower pg_catalog.float8, upper pg_catalog.float8)
	LANGUAGE sql STABLE STRICT PARALLEL SAFE
BEGIN ATOMIC
	SELECT x.q, b.estimate, b.error_bound, b.lower, b.upper
	  FROM pg_catalog.unnest(queries) WITH ORDINALITY AS x(q, i),
	       LATERAL pap.answer_bounded(name, x.q, refine) AS b
	 ORDER BY x.i;
END;
COMMENT ON FUNCTION pap.answers_bounded(pg_catalog.text, pg_catalog.text[], pg_catalog.bool) IS
	'pap.answer_bounded for every element of queries, in order; free';
