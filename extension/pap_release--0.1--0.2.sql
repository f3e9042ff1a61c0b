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
