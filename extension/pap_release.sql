/* pap_release: differentially private release of counting-query classes assisted by public data.
 * The install script of the current version (default_version in pap_release.control): make copies it to
 * pap_release--<version>.sql. A database of an older version reaches this one through the upgrade scripts
 * pap_release--<old>--<new>.sql, and must end with the same objects (docs/development.md, "Evolving the catalog").
 * Architecture: docs/architecture.md; privacy rules: docs/security.md; the SQL contract: docs/reference.md. */
\echo Use "CREATE EXTENSION pap_release" to load this file. \quit

-- Everything below is created in the extension's own schema, with fully qualified names; the script never
-- relies on the caller's search_path (PostgreSQL docs, "Security Considerations for Extensions").
CREATE SCHEMA pap;
COMMENT ON SCHEMA pap IS 'pap_release: differentially private answers to classes of counting queries, assisted by a public table';

--------------------------------------------------------------------------------------------------------------
-- Catalog. Written only by the extension's C functions (as the owner of schema pap); readable through views.
-- Registered with pg_extension_config_dump so that pg_dump keeps budgets, ledger and releases.
--------------------------------------------------------------------------------------------------------------
-- A budget, charge or release belongs to the table's rows, not to its OID: when the table is dropped, the
-- sql_drop event trigger below sets private_table (public_table) to NULL and keeps its qualified name in
-- table_name (public_table_name), so that neither a later table with the same OID nor a dump restored elsewhere
-- inherits the rows; the spent budget stays.
CREATE TABLE pap.budget_data (
	budget_id      pg_catalog.int8 GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
	private_table  pg_catalog.regclass UNIQUE,                   -- NULL once the table is dropped
	epsilon_total  pg_catalog.numeric NOT NULL CHECK (epsilon_total > 0),
	delta_total    pg_catalog.numeric NOT NULL CHECK (delta_total >= 0 AND delta_total < 1),
	epsilon_spent  pg_catalog.numeric NOT NULL DEFAULT 0 CHECK (epsilon_spent >= 0),
	delta_spent    pg_catalog.numeric NOT NULL DEFAULT 0 CHECK (delta_spent >= 0),
	set_by         pg_catalog.name NOT NULL,
	set_at         pg_catalog.timestamptz NOT NULL,
	table_name     pg_catalog.text,                              -- qualified name of the dropped table
	dropped_at     pg_catalog.timestamptz,
	CHECK ((private_table IS NULL) = (dropped_at IS NOT NULL) AND (dropped_at IS NULL) = (table_name IS NULL))
);

CREATE TABLE pap.ledger_data (
	entry_id       pg_catalog.int8 GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
	private_table  pg_catalog.regclass,                          -- NULL once the table is dropped
	release_name   pg_catalog.text NOT NULL,
	epsilon        pg_catalog.numeric NOT NULL,
	delta          pg_catalog.numeric NOT NULL,
	mechanism      pg_catalog.text NOT NULL,
	charged_by     pg_catalog.name NOT NULL,
	charged_at     pg_catalog.timestamptz NOT NULL,
	table_name     pg_catalog.text,                              -- qualified name of the dropped table
	dropped_at     pg_catalog.timestamptz,
	CHECK ((private_table IS NULL) = (dropped_at IS NOT NULL) AND (dropped_at IS NULL) = (table_name IS NULL))
);

CREATE TABLE pap.release_data (
	name             pg_catalog.text PRIMARY KEY,
	release_id       pg_catalog.int8 GENERATED ALWAYS AS IDENTITY UNIQUE,  -- key of the run's lock
	private_table    pg_catalog.regclass,                -- NULL once the table is dropped, and then
	private_table_name pg_catalog.text,                  -- its qualified name
	public_table     pg_catalog.regclass,                -- likewise
	public_table_name pg_catalog.text,
	query_class      pg_catalog.text NOT NULL,          -- canonical text, e.g. thresholds(price)
	alpha            pg_catalog.float8 NOT NULL,
	beta             pg_catalog.float8 NOT NULL,
	granularity      pg_catalog.text NOT NULL,           -- how coarse the numeric axes are, and why
	public_rows      pg_catalog.int8 NOT NULL,
	-- The axes (one array entry per axis; per-axis lists concatenated, with their lengths) (docs/query-classes.md).
	axis_kinds       pg_catalog.text[] NOT NULL,         -- numeric, categorical, linear, predicate
	axis_value_types pg_catalog.text[] NOT NULL,         -- number, date, timestamp, timestamptz, text, boolean
	axis_labels      pg_catalog.text[] NOT NULL,         -- column, w.x text, or predicate SQL
	cut_counts       pg_catalog.int4[] NOT NULL,
	cuts             pg_catalog.float8[] NOT NULL,       -- cut points of numeric and linear axes
	category_counts  pg_catalog.int4[] NOT NULL,
	categories       pg_catalog.text[] NOT NULL,         -- categories of categorical axes (byte order)
	public_value_counts pg_catalog.int4[] NOT NULL,
	public_values    pg_catalog.float8[] NOT NULL,       -- finest public marginal of numeric and linear axes
	public_value_rows pg_catalog.int8[] NOT NULL,
	predicate_axis   pg_catalog.int4[] NOT NULL,         -- predicates: listed predicate -> its (merged) axis
	public_points    pg_catalog.int4[] NOT NULL,         -- distinct public grid points, axis_count each
	public_point_rows pg_catalog.int8[] NOT NULL,
	domain           pg_catalog.text NOT NULL CHECK (domain IN ('full grid', 'public support')),
	domain_reason    pg_catalog.text NOT NULL,
	vc_dimension     pg_catalog.int4 NOT NULL,
	public_histogram pg_catalog.int8[] NOT NULL,         -- public rows per cell
	cover_size       pg_catalog.int8 NOT NULL,
	cell_count       pg_catalog.int8 NOT NULL,
	defined_by       pg_catalog.name NOT NULL,
	defined_at       pg_catalog.timestamptz NOT NULL,
	state            pg_catalog.text NOT NULL DEFAULT 'defined' CHECK (state IN ('defined', 'running', 'released')),
	run_pid          pg_catalog.int4,
	run_started_at   pg_catalog.timestamptz,
	epsilon          pg_catalog.float8,
	delta            pg_catalog.float8,
	mechanism        pg_catalog.text,
	private_rows     pg_catalog.int8,
	synthetic        pg_catalog.float8[],               -- released distribution over the cells
	details          pg_catalog.jsonb,                  -- parameters chosen and run statistics (public)
	is_private       pg_catalog.bool,                   -- false when made with pap_release.test_seed
	released_at      pg_catalog.timestamptz,
	-- Columns added by later versions, in the order their upgrade scripts add them, each with a default that
	-- describes the rows written before it existed (an older version's dump restores into this table).
	layout_version   pg_catalog.int4 NOT NULL DEFAULT 1 CHECK (layout_version >= 1),  -- since 0.2
	CHECK ((private_table IS NULL) = (private_table_name IS NOT NULL)),
	CHECK ((public_table IS NULL) = (public_table_name IS NOT NULL))
);

-- The large numeric arrays are stored uncompressed: pglz gains little on them and would cost every first answer
-- of a release its decompression (docs/bench.md).
ALTER TABLE pap.release_data
	ALTER COLUMN cuts SET STORAGE EXTERNAL, ALTER COLUMN public_values SET STORAGE EXTERNAL,
	ALTER COLUMN public_value_rows SET STORAGE EXTERNAL, ALTER COLUMN public_points SET STORAGE EXTERNAL,
	ALTER COLUMN public_point_rows SET STORAGE EXTERNAL, ALTER COLUMN public_histogram SET STORAGE EXTERNAL,
	ALTER COLUMN synthetic SET STORAGE EXTERNAL;

COMMENT ON COLUMN pap.release_data.layout_version IS 'how the axis and cell arrays of the row are laid out (docs/query-classes.md): 1 for every release so far; the library refuses a layout it does not know';

SELECT pg_catalog.pg_extension_config_dump('pap.budget_data', '');
SELECT pg_catalog.pg_extension_config_dump('pap.budget_data_budget_id_seq', '');
SELECT pg_catalog.pg_extension_config_dump('pap.ledger_data', '');
SELECT pg_catalog.pg_extension_config_dump('pap.ledger_data_entry_id_seq', '');
SELECT pg_catalog.pg_extension_config_dump('pap.release_data', '');
SELECT pg_catalog.pg_extension_config_dump('pap.release_data_release_id_seq', '');

REVOKE ALL ON pap.budget_data, pap.ledger_data, pap.release_data FROM PUBLIC;

--------------------------------------------------------------------------------------------------------------
-- Views (read by anyone: they hold budgets, charges and differentially private outputs only).
--------------------------------------------------------------------------------------------------------------
-- The qualified name of a live table, or the one kept when it was dropped.
CREATE FUNCTION pap.table_name(private_table pg_catalog.regclass, dropped_name pg_catalog.text)
	RETURNS pg_catalog.text LANGUAGE sql STABLE PARALLEL SAFE
BEGIN ATOMIC
	SELECT COALESCE(dropped_name, (SELECT pg_catalog.format('%I.%I', n.nspname, c.relname)
	                                 FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n
	                                   ON n.oid OPERATOR(pg_catalog.=) c.relnamespace
	                                WHERE c.oid OPERATOR(pg_catalog.=) private_table::pg_catalog.oid));
END;
COMMENT ON FUNCTION pap.table_name(pg_catalog.regclass, pg_catalog.text) IS 'qualified name of a table of the catalog: its current name, or the name it had when it was dropped';

CREATE VIEW pap.budgets AS
SELECT b.private_table, b.epsilon_total, b.epsilon_spent,
       b.epsilon_total OPERATOR(pg_catalog.-) b.epsilon_spent AS epsilon_remaining,
       b.delta_total, b.delta_spent,
       b.delta_total OPERATOR(pg_catalog.-) b.delta_spent AS delta_remaining,
       b.set_by, b.set_at, pap.table_name(b.private_table, b.table_name) AS table_name, b.dropped_at, b.budget_id
  FROM pap.budget_data b;
COMMENT ON VIEW pap.budgets IS 'privacy budget of every private table: total, spent and remaining (epsilon, delta); a dropped table keeps its row, with private_table NULL';

CREATE VIEW pap.ledger AS
SELECT l.entry_id, l.private_table, l.release_name, l.epsilon, l.delta, l.mechanism, l.charged_by, l.charged_at,
       pap.table_name(l.private_table, l.table_name) AS table_name, l.dropped_at
  FROM pap.ledger_data l;
COMMENT ON VIEW pap.ledger IS 'every privacy charge ever made, never refunded: one row per run of a release; kept when the table is dropped';

-- A run holds a session-level lock on the object (pap.release_data, release id) from its charge to its end;
-- PostgreSQL drops it when the run's backend exits or crashes, and run_release drops it on error. A release
-- marked running without that lock has failed. It is not an advisory lock: no SQL function can take or release
-- an object lock whose class is a user table, so no role can fake or clear the marker (docs/security.md).
CREATE FUNCTION pap.run_in_progress(release_id pg_catalog.int8) RETURNS pg_catalog.bool
	LANGUAGE sql STABLE PARALLEL RESTRICTED
BEGIN ATOMIC
	SELECT EXISTS (
	  SELECT 1 FROM pg_catalog.pg_locks l
	   WHERE l.locktype OPERATOR(pg_catalog.=) 'object' AND l.granted AND l.objsubid OPERATOR(pg_catalog.=) 0
	     AND l.database OPERATOR(pg_catalog.=) (SELECT d.oid FROM pg_catalog.pg_database d
	                                             WHERE d.datname OPERATOR(pg_catalog.=) pg_catalog.current_database())
	     AND l.classid OPERATOR(pg_catalog.=) 'pap.release_data'::pg_catalog.regclass::pg_catalog.oid
	     AND l.objid OPERATOR(pg_catalog.=) (release_id OPERATOR(pg_catalog.%) 4294967296)::pg_catalog.oid);
END;
COMMENT ON FUNCTION pap.run_in_progress(pg_catalog.int8) IS 'whether a run of the release with this id is in progress (its run lock is held)';

CREATE VIEW pap.releases AS
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
       pap.table_name(r.public_table, r.public_table_name) AS public_table_name
  FROM pap.release_data r;
COMMENT ON VIEW pap.releases IS 'every defined release: class, tables, state (defined, running, failed, released), budget spent and run details';

GRANT USAGE ON SCHEMA pap TO PUBLIC;
GRANT SELECT ON pap.budgets, pap.ledger, pap.releases TO PUBLIC;

--------------------------------------------------------------------------------------------------------------
-- Event triggers (docs/security.md, "Relation kinds, dropped tables and the run marker").
--------------------------------------------------------------------------------------------------------------
-- DROP of a table: its budget, charges and releases stay, detached from its OID (private_table NULL, the name
-- kept). Runs as the dropping role; writes the catalog as its owner.
CREATE FUNCTION pap.on_sql_drop() RETURNS event_trigger
	AS 'MODULE_PATHNAME', 'pap_on_sql_drop' LANGUAGE C
	SET search_path = pg_catalog, pg_temp;
CREATE EVENT TRIGGER pap_release_sql_drop ON sql_drop EXECUTE FUNCTION pap.on_sql_drop();

-- DROP EXTENSION pap_release (or DROP OWNED BY its owner) would delete the ledger with it: refused while the
-- ledger holds charges, unless pap_release.allow_drop_ledger is on. (sql_drop cannot do it: the extension's own
-- event triggers are gone by then.)
CREATE FUNCTION pap.on_drop_extension() RETURNS event_trigger
	AS 'MODULE_PATHNAME', 'pap_on_drop_extension' LANGUAGE C
	SET search_path = pg_catalog, pg_temp;
CREATE EVENT TRIGGER pap_release_drop_extension ON ddl_command_start WHEN TAG IN ('DROP EXTENSION', 'DROP OWNED')
	EXECUTE FUNCTION pap.on_drop_extension();

--------------------------------------------------------------------------------------------------------------
-- Deterministic helpers used by the private scan: IMMUTABLE PARALLEL SAFE, so the planner can parallelise the
-- histogram and postgres_fdw can ship it.
--------------------------------------------------------------------------------------------------------------
CREATE FUNCTION pap.axis_value(value pg_catalog.float8) RETURNS pg_catalog.float8
	AS 'MODULE_PATHNAME', 'pap_axis_value_float8' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION pap.axis_value(value pg_catalog.date) RETURNS pg_catalog.float8
	AS 'MODULE_PATHNAME', 'pap_axis_value_date' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION pap.axis_value(value pg_catalog.timestamp) RETURNS pg_catalog.float8
	AS 'MODULE_PATHNAME', 'pap_axis_value_timestamp' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION pap.axis_value(value pg_catalog.timestamptz) RETURNS pg_catalog.float8
	AS 'MODULE_PATHNAME', 'pap_axis_value_timestamptz' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION pap.axis_value(value pg_catalog.numeric) RETURNS pg_catalog.float8
	AS 'MODULE_PATHNAME', 'pap_axis_value_numeric' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION pap.linear_value(weights pg_catalog.float8[], VARIADIC "values" "any") RETURNS pg_catalog.float8
	AS 'MODULE_PATHNAME', 'pap_linear_value' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION pap.axis_value(pg_catalog.float8) IS 'position of a value on a numeric axis (the value itself)';
COMMENT ON FUNCTION pap.axis_value(pg_catalog.numeric) IS 'position of a numeric on an axis, total: beyond float8''s range +-Infinity, below it 0, never an error';
COMMENT ON FUNCTION pap.linear_value(pg_catalog.float8[], "any") IS 'weighted sum of numbers (smallint to numeric) in IEEE arithmetic, for linear axes: an overflow is +-Infinity, never an error; NULL if any value is NULL';
COMMENT ON FUNCTION pap.axis_value(pg_catalog.date) IS 'position of a date on an axis: microseconds since 2000-01-01, infinities kept';
COMMENT ON FUNCTION pap.axis_value(pg_catalog.timestamp) IS 'position of a timestamp on an axis: microseconds since 2000-01-01, infinities kept';
COMMENT ON FUNCTION pap.axis_value(pg_catalog.timestamptz) IS 'position of a timestamptz on an axis: microseconds since 2000-01-01 UTC, infinities kept';

CREATE FUNCTION pap.cell_index(cuts pg_catalog.float8[], value pg_catalog.float8) RETURNS pg_catalog.int4
	AS 'MODULE_PATHNAME', 'pap_cell_index' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION pap.cell_index(pg_catalog.float8[], pg_catalog.float8) IS 'cell of an axis value: number of cut points below it (PostgreSQL float8 order, in which the cut points must be sorted), or the NULL cell M + 1 for NULL';

CREATE FUNCTION pap.category_index(categories pg_catalog.text[], value pg_catalog.text) RETURNS pg_catalog.int4
	AS 'MODULE_PATHNAME', 'pap_category_index' LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION pap.category_index(pg_catalog.text[], pg_catalog.text) IS 'bin of a value on a categorical axis: its position among the categories (sorted by bytes), the "other" bin after them, or the NULL bin last';

-- pap.grid_counts: rows per grid point, the private scan's one aggregate (src/pg/fmgr_grid_counts.cpp). After
-- the radices, each axis is one int4 bin or a pair (cut points float8[], a number) whose bin the aggregate
-- computes as pap.cell_index does. Its support functions take or return internal, so SQL cannot call them directly.
CREATE FUNCTION pap.grid_counts_transfn(state internal, radices pg_catalog.int8[], VARIADIC axes "any") RETURNS internal
	AS 'MODULE_PATHNAME', 'pap_grid_counts_transfn' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION pap.grid_counts_combinefn(state internal, other internal) RETURNS internal
	AS 'MODULE_PATHNAME', 'pap_grid_counts_combinefn' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION pap.grid_counts_serialfn(state internal) RETURNS pg_catalog.bytea
	AS 'MODULE_PATHNAME', 'pap_grid_counts_serialfn' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION pap.grid_counts_deserialfn(bytes pg_catalog.bytea, unused internal) RETURNS internal
	AS 'MODULE_PATHNAME', 'pap_grid_counts_deserialfn' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION pap.grid_counts_finalfn(state internal) RETURNS pg_catalog.int8[]
	AS 'MODULE_PATHNAME', 'pap_grid_counts_finalfn' LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE AGGREGATE pap.grid_counts(radices pg_catalog.int8[], VARIADIC axes "any") (
	SFUNC = pap.grid_counts_transfn,
	STYPE = internal,
	SSPACE = 65536,
	COMBINEFUNC = pap.grid_counts_combinefn,
	SERIALFUNC = pap.grid_counts_serialfn,
	DESERIALFUNC = pap.grid_counts_deserialfn,
	FINALFUNC = pap.grid_counts_finalfn,
	FINALFUNC_MODIFY = READ_ONLY,
	PARALLEL = SAFE
);
COMMENT ON AGGREGATE pap.grid_counts(pg_catalog.int8[], "any") IS 'rows per grid point: after the radices, each axis is an int4 bin or a pair (cut points float8[], a value of any number type, converted totally) binned as pap.cell_index does; the key is the mixed-radix number of the bins, first axis most significant; returns [key0, rows0, key1, rows1, ...] sorted by key';

--------------------------------------------------------------------------------------------------------------
-- The API (docs/reference.md). Every function runs with its caller's rights and checks them itself; catalog writes
-- are made in C as the owner of schema pap, with fully qualified SQL. Catalog writers pin search_path; the
-- procedure run_release cannot (a SET clause forbids transaction control), so its SQL qualifies every name
-- and operator, and the hot read functions (answer, answer_count) qualify theirs instead of paying a GUC push.
--------------------------------------------------------------------------------------------------------------
CREATE FUNCTION pap.set_budget(private_table pg_catalog.regclass, epsilon pg_catalog.float8,
                               delta pg_catalog.float8 DEFAULT 0) RETURNS void
	AS 'MODULE_PATHNAME', 'pap_set_budget' LANGUAGE C VOLATILE STRICT PARALLEL UNSAFE
	SET search_path = pg_catalog, pg_temp;
COMMENT ON FUNCTION pap.set_budget(pg_catalog.regclass, pg_catalog.float8, pg_catalog.float8) IS
	'sets the total privacy budget (epsilon, delta) of a private table; only its owner may; never below what is spent';

CREATE FUNCTION pap.define_release(name pg_catalog.text, private_table pg_catalog.regclass,
                                   public_table pg_catalog.regclass, query_class pg_catalog.text,
                                   alpha pg_catalog.float8 DEFAULT 0.05, beta pg_catalog.float8 DEFAULT 0.05,
                                   granularity pg_catalog.text DEFAULT 'alpha')
	RETURNS void
	AS 'MODULE_PATHNAME', 'pap_define_release' LANGUAGE C VOLATILE STRICT PARALLEL UNSAFE
	SET search_path = pg_catalog, pg_temp;
COMMENT ON FUNCTION pap.define_release(pg_catalog.text, pg_catalog.regclass, pg_catalog.regclass, pg_catalog.text, pg_catalog.float8, pg_catalog.float8, pg_catalog.text) IS
	'defines a release: builds the axes, cover and cells of a query class from the public table only (granularity alpha: public quantiles as coarse as alpha allows; finest: every public value); spends nothing';

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

CREATE PROCEDURE pap.run_release(name pg_catalog.text, epsilon pg_catalog.float8, delta pg_catalog.float8 DEFAULT 0,
                                 mechanism pg_catalog.text DEFAULT 'auto', prior pg_catalog.text DEFAULT 'public')
	AS 'MODULE_PATHNAME', 'pap_run_release' LANGUAGE C;
COMMENT ON PROCEDURE pap.run_release(pg_catalog.text, pg_catalog.float8, pg_catalog.float8, pg_catalog.text, pg_catalog.text) IS
	'runs a release: commits the budget charge, then reads the private table once and stores the private answers';

CREATE FUNCTION pap.answer(name pg_catalog.text, query pg_catalog.text, refine pg_catalog.bool DEFAULT false)
	RETURNS pg_catalog.float8 AS 'MODULE_PATHNAME', 'pap_answer' LANGUAGE C STABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION pap.answer(pg_catalog.text, pg_catalog.text, pg_catalog.bool) IS
	'released answer to a query of the release''s class, as a fraction of the private rows (refine: a bin a bound cuts through counts with the share of its public rows on the query''s side); free';

CREATE FUNCTION pap.answer_count(name pg_catalog.text, query pg_catalog.text, refine pg_catalog.bool DEFAULT false)
	RETURNS pg_catalog.float8 AS 'MODULE_PATHNAME', 'pap_answer_count' LANGUAGE C STABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION pap.answer_count(pg_catalog.text, pg_catalog.text, pg_catalog.bool) IS
	'released answer to a query of the release''s class, as an estimated number of private rows; free';

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

CREATE FUNCTION pap.answers(name pg_catalog.text, OUT cover_query pg_catalog.int8, OUT query pg_catalog.text,
                            OUT answer pg_catalog.float8, OUT answer_count pg_catalog.float8)
	RETURNS SETOF record
	AS 'MODULE_PATHNAME', 'pap_answers' LANGUAGE C STABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION pap.answers(pg_catalog.text) IS
	'every cover query of a release with its released answer; free';

CREATE FUNCTION pap.synthetic(name pg_catalog.text, OUT cell pg_catalog.int8, OUT bounds pg_catalog.text,
                              OUT columns pg_catalog.jsonb, OUT weight pg_catalog.float8, OUT count pg_catalog.float8)
	RETURNS SETOF record
	AS 'MODULE_PATHNAME', 'pap_synthetic' LANGUAGE C STABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION pap.synthetic(pg_catalog.text) IS
	'the released synthetic distribution: every cell with positive weight, its bounds (as SQL and per column as jsonb), weight and estimated count; free';

CREATE FUNCTION pap.drop_release(name pg_catalog.text) RETURNS void
	AS 'MODULE_PATHNAME', 'pap_drop_release' LANGUAGE C VOLATILE STRICT PARALLEL UNSAFE
	SET search_path = pg_catalog, pg_temp;
COMMENT ON FUNCTION pap.drop_release(pg_catalog.text) IS
	'drops a release and its answers; its charges stay in the ledger (nothing is refunded)';

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
