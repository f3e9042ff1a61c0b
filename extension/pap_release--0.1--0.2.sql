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

-- The right to spend a budget, separate from SELECT (docs/reference.md, "Upgrading": after the update only the
-- owner of a private table may spend its budget until it grants the right with pap.grant_spend).
CREATE TABLE pap.spender_data (
	budget_id      pg_catalog.int8 NOT NULL,                     -- pap.budget_data.budget_id
	grantee        pg_catalog.name NOT NULL,                     -- the role that may spend (not its members)
	epsilon_limit  pg_catalog.numeric CHECK (epsilon_limit > 0), -- NULL: up to the table's budget
	epsilon_spent  pg_catalog.numeric NOT NULL DEFAULT 0 CHECK (epsilon_spent >= 0),  -- since the grant
	granted_by     pg_catalog.name NOT NULL,
	granted_at     pg_catalog.timestamptz NOT NULL,
	PRIMARY KEY (budget_id, grantee)
);
SELECT pg_catalog.pg_extension_config_dump('pap.spender_data', '');
REVOKE ALL ON pap.spender_data FROM PUBLIC;

CREATE VIEW pap.spenders AS
SELECT b.private_table, pap.table_name(b.private_table, b.table_name) AS table_name,
       s.grantee, s.epsilon_limit, s.epsilon_spent,
       s.epsilon_limit OPERATOR(pg_catalog.-) s.epsilon_spent AS epsilon_remaining, s.granted_by, s.granted_at
  FROM pap.spender_data s JOIN pap.budget_data b ON b.budget_id OPERATOR(pg_catalog.=) s.budget_id;
COMMENT ON VIEW pap.spenders IS 'roles granted the right to spend a private table''s budget (pap.grant_spend), with their epsilon limit and what they spent since the grant; the table''s owner spends without a grant';
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
