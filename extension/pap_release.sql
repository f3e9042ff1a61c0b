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
	epsilon_total  pg_catalog.numeric NOT NULL CHECK (epsilon_total OPERATOR(pg_catalog.>) 0),
	delta_total    pg_catalog.numeric NOT NULL CHECK (delta_total OPERATOR(pg_catalog.>=) 0 AND delta_total OPERATOR(pg_catalog.<) 1),
	epsilon_spent  pg_catalog.numeric NOT NULL DEFAULT 0 CHECK (epsilon_spent OPERATOR(pg_catalog.>=) 0),
	delta_spent    pg_catalog.numeric NOT NULL DEFAULT 0 CHECK (delta_spent OPERATOR(pg_catalog.>=) 0),
	set_by         pg_catalog.name NOT NULL,
	set_at         pg_catalog.timestamptz NOT NULL,
	table_name     pg_catalog.text,                              -- qualified name of the dropped table
	dropped_at     pg_catalog.timestamptz,
	CHECK ((private_table IS NULL) = (dropped_at IS NOT NULL) AND (dropped_at IS NULL) = (table_name IS NULL)),
	-- Since 0.2: a budget in rho (zCDP) instead of (epsilon, delta) (docs/mechanisms.md, "zCDP budgets").
	rho_total      pg_catalog.numeric CHECK (rho_total OPERATOR(pg_catalog.>) 0),     -- NULL: a budget in (epsilon, delta)
	rho_spent      pg_catalog.numeric NOT NULL DEFAULT 0 CHECK (rho_spent OPERATOR(pg_catalog.>=) 0)
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
	CHECK ((private_table IS NULL) = (dropped_at IS NOT NULL) AND (dropped_at IS NULL) = (table_name IS NULL)),
	rho            pg_catalog.numeric CHECK (rho OPERATOR(pg_catalog.>) 0)            -- since 0.2: the charge of a zCDP budget
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
	layout_version   pg_catalog.int4 NOT NULL DEFAULT 1 CHECK (layout_version OPERATOR(pg_catalog.>=) 1),  -- since 0.2
	declared_domain  pg_catalog.jsonb,                  -- since 0.2: the domain of a release without a public table
	axis_value_steps pg_catalog.float8[],               -- since 0.2: per axis, the distance between its column's values
	answer_facts     pg_catalog.jsonb,                  -- since 0.2: the error model's facts answers read, stored by the run
	answer_gap_spreads pg_catalog.float8[],             -- since 0.2: and its spreads, one per public value
	axis_column_positions pg_catalog.int4[],            -- since 0.2: per axis, its private column's position
	axis_column_types pg_catalog.text[],                -- since 0.2: and that column's type, as defined over
	axis_check_lists pg_catalog.bool[],                 -- since 0.2: per axis, closed by a CHECK constraint's list
	CHECK ((private_table IS NULL) = (private_table_name IS NOT NULL)),
	-- A public table (its name kept once dropped), or none and a declared domain instead (docs/mechanisms.md §14).
	CONSTRAINT release_data_check1 CHECK (CASE WHEN declared_domain IS NULL
	                                           THEN (public_table IS NULL) = (public_table_name IS NOT NULL)
	                                           ELSE public_table IS NULL AND public_table_name IS NULL END)
);

-- The large numeric arrays are stored uncompressed: pglz gains little on them and would cost every first answer
-- of a release its decompression (docs/bench.md).
ALTER TABLE pap.release_data
	ALTER COLUMN cuts SET STORAGE EXTERNAL, ALTER COLUMN public_values SET STORAGE EXTERNAL,
	ALTER COLUMN public_value_rows SET STORAGE EXTERNAL, ALTER COLUMN public_points SET STORAGE EXTERNAL,
	ALTER COLUMN public_point_rows SET STORAGE EXTERNAL, ALTER COLUMN public_histogram SET STORAGE EXTERNAL,
	ALTER COLUMN synthetic SET STORAGE EXTERNAL, ALTER COLUMN answer_gap_spreads SET STORAGE EXTERNAL;

COMMENT ON COLUMN pap.release_data.declared_domain IS 'the declared domain of a release without a public table (pap.define_private_release), as given; NULL for a release over a public table';
COMMENT ON COLUMN pap.budget_data.rho_total IS 'a zCDP budget''s total rho (pap.set_budget_rho), NULL for a budget in (epsilon, delta); epsilon_total and epsilon_spent are then the tight conversions of rho_total and rho_spent at delta_total';
COMMENT ON COLUMN pap.budget_data.rho_spent IS 'the rho charged to a zCDP budget so far (0 for a budget in (epsilon, delta))';
COMMENT ON COLUMN pap.ledger_data.rho IS 'a charge of a zCDP budget in rho (epsilon and delta are then what the run guarantees); NULL on a budget in (epsilon, delta)';
COMMENT ON COLUMN pap.release_data.axis_value_steps IS 'per axis, the distance between consecutive values its column can hold, in axis units (1 for an integer column, a day for a date, 0 for any other; docs/mechanisms.md §10, "Discrete columns"); NULL for a release defined before, whose axes take their value types'' steps';
COMMENT ON COLUMN pap.release_data.answer_facts IS 'what answers read from the error model beside the plan''s parts, computed by the run from public numbers (the layout, the public and private row counts, beta) and stored so that a later library does not change a released answer (docs/mechanisms.md §18, "Stored with the release"): event_projection, unseen_points_mass and other_bin_caps (per axis), with the spreads in answer_gap_spreads; NULL for a release run before, whose facts the loading library computes';
COMMENT ON COLUMN pap.release_data.answer_gap_spreads IS 'per public value of the layout (public_values, axes concatenated), the share of its first row that refined answers spread over the gap below it, computed and stored by the run with answer_facts (0 on an axis without spreads; empty where answers do not spread); NULL for a release run before';
COMMENT ON COLUMN pap.release_data.axis_column_positions IS 'per axis, the position of the private table''s column a numeric or categorical axis reads among the table''s columns (dropped columns not counted, so that a dump and restore keeps it), 0 for the other axes: a run refuses a release whose column name now names another column (a rename, a column dropped and added again, or an earlier column dropped); NULL for a release defined before';
COMMENT ON COLUMN pap.release_data.axis_column_types IS 'per axis, the type (with its modifier, schema-qualified) of that column when the release was defined, empty for the other axes: a run refuses a release whose column has changed type since, even to a wider one; NULL for a release defined before';
COMMENT ON COLUMN pap.release_data.axis_check_lists IS 'per axis, whether its categories are the list of values the private table''s validated CHECK constraints allowed its column when the release was defined (docs/mechanisms.md §10, "Closed columns"): a run refuses a release whose list has changed since; NULL for a release defined before, none of whose axes is so closed';
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

CREATE VIEW pap.ledger AS
SELECT l.entry_id, l.private_table, l.release_name, l.epsilon, l.delta, l.mechanism, l.charged_by, l.charged_at,
       pap.table_name(l.private_table, l.table_name) AS table_name, l.dropped_at, l.rho
  FROM pap.ledger_data l;
COMMENT ON VIEW pap.ledger IS 'every privacy charge ever made, never refunded: one row per run of a release, with the rho charged to a budget in rho; kept when the table is dropped';

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
       -- private table, every row of it (docs/security.md, "Timing").
       CASE WHEN pg_catalog.has_table_privilege(r.private_table, 'SELECT')
                 AND NOT pg_catalog.row_security_active(r.private_table) THEN r.released_at END AS released_at,
       r.details,
       pap.table_name(r.private_table, r.private_table_name) AS private_table_name,
       pap.table_name(r.public_table, r.public_table_name) AS public_table_name,
       r.declared_domain
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

-- DROP EXTENSION pap_release (or DROP OWNED BY its owner, or DROP SCHEMA ... CASCADE of the schema it is recorded
-- in, public) would delete the ledger with it: refused while the ledger holds charges, unless pap_release.allow_drop_ledger is on. (sql_drop cannot do it: the extension's own
-- event triggers are gone by then.)
CREATE FUNCTION pap.on_drop_extension() RETURNS event_trigger
	AS 'MODULE_PATHNAME', 'pap_on_drop_extension' LANGUAGE C
	SET search_path = pg_catalog, pg_temp;
CREATE EVENT TRIGGER pap_release_drop_extension ON ddl_command_start
	WHEN TAG IN ('DROP EXTENSION', 'DROP OWNED', 'DROP SCHEMA')
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
                                   granularity pg_catalog.text DEFAULT 'auto')
	RETURNS void
	AS 'MODULE_PATHNAME', 'pap_define_release' LANGUAGE C VOLATILE STRICT PARALLEL UNSAFE
	SET search_path = pg_catalog, pg_temp;
COMMENT ON FUNCTION pap.define_release(pg_catalog.text, pg_catalog.regclass, pg_catalog.regclass, pg_catalog.text, pg_catalog.float8, pg_catalog.float8, pg_catalog.text) IS
	'defines a release: builds the axes, cover and cells of a query class from the public table only (granularity auto: the cuts and domain with the smallest predicted error at pap_release.layout_epsilon, planned with count(*) of the private table; alpha: public quantiles as coarse as alpha allows; finest: every public value); spends nothing';

-- A release without a public table, over a domain the curator declares (docs/mechanisms.md §14). Not STRICT: a
-- NULL domain is refused with the reason (no release over an unbounded domain), not answered with NULL.
CREATE FUNCTION pap.define_private_release(name pg_catalog.text, private_table pg_catalog.regclass,
                                           query_class pg_catalog.text, domain pg_catalog.jsonb,
                                           alpha pg_catalog.float8 DEFAULT 0.05, beta pg_catalog.float8 DEFAULT 0.05)
	RETURNS void
	AS 'MODULE_PATHNAME', 'pap_define_private_release' LANGUAGE C VOLATILE PARALLEL UNSAFE
	SET search_path = pg_catalog, pg_temp;
COMMENT ON FUNCTION pap.define_private_release(pg_catalog.text, pg_catalog.regclass, pg_catalog.text, pg_catalog.jsonb, pg_catalog.float8, pg_catalog.float8) IS
	'defines a release without a public table: its axes, cover and cells come from a declared domain (bounds and a step per ordered column, categories per categorical one); reads no table; spends nothing';

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

CREATE PROCEDURE pap.run_release(name pg_catalog.text, epsilon pg_catalog.float8, delta pg_catalog.float8 DEFAULT 0,
                                 mechanism pg_catalog.text DEFAULT 'auto', prior pg_catalog.text DEFAULT 'public')
	AS 'MODULE_PATHNAME', 'pap_run_release' LANGUAGE C;
COMMENT ON PROCEDURE pap.run_release(pg_catalog.text, pg_catalog.float8, pg_catalog.float8, pg_catalog.text, pg_catalog.text) IS
	'runs a release: commits the budget charge, then reads the private table once and stores the private answers';

CREATE FUNCTION pap.answer(name pg_catalog.text, query pg_catalog.text, refine pg_catalog.bool DEFAULT NULL)
	RETURNS pg_catalog.float8 AS 'MODULE_PATHNAME', 'pap_answer' LANGUAGE C STABLE PARALLEL SAFE;
COMMENT ON FUNCTION pap.answer(pg_catalog.text, pg_catalog.text, pg_catalog.bool) IS
	'released answer to a query of the release''s class, as a fraction of the private rows (refine: a bin a bound cuts through counts with the share of its public rows on the query''s side; NULL: the release''s answer mode); free';

CREATE FUNCTION pap.answer_count(name pg_catalog.text, query pg_catalog.text, refine pg_catalog.bool DEFAULT NULL)
	RETURNS pg_catalog.float8 AS 'MODULE_PATHNAME', 'pap_answer_count' LANGUAGE C STABLE PARALLEL SAFE;
COMMENT ON FUNCTION pap.answer_count(pg_catalog.text, pg_catalog.text, pg_catalog.bool) IS
	'released answer to a query of the release''s class, as an estimated number of private rows; free';

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

-- The right to spend a private table's budget (docs/security.md, "Who may spend"): besides SELECT, a role other
-- than the table's owner needs the owner's grant, optionally with a limit on the epsilon it may spend. Rows name
-- the budget (budget_id), not the table's OID, so that a dropped table's grants go with its detached budget and a
-- later table with the same OID starts with none; and the role by name, as pg_dump's GRANTs and the ledger's
-- charged_by do, so that a dump restored elsewhere names the same roles. Written only by the extension's C functions.
--------------------------------------------------------------------------------------------------------------
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
