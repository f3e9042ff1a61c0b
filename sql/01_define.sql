-- Defining releases: the cover and cells come from the public table only; every bad input gets a clear error
-- with its own SQLSTATE and leaves nothing behind.
SELECT pap.define_release('x_cdf', 'priv', 'pub', 'thresholds(x)', granularity => 'alpha');
SELECT pap.define_release('x_ranges', 'priv', 'pub', 'ranges(x)', alpha => 0.1, beta => 0.1, granularity => 'alpha');
SELECT name, query_class, state, public_rows, cover_size, cell_count, alpha, beta FROM pap.releases ORDER BY name;

-- missing table (the regclass cast itself) and missing column
SELECT pap.define_release('bad', 'no_such_table', 'pub', 'thresholds(x)');
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT pap.define_release('bad', 'priv', 'pub', 'thresholds(no_such_column)');
\echo SQLSTATE :LAST_ERROR_SQLSTATE
-- a column of the wrong type
SELECT pap.define_release('bad', 'texty', 'pub', 'thresholds(x)');
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT pap.define_release('bad', 'priv', 'texty', 'thresholds(x)');
\echo SQLSTATE :LAST_ERROR_SQLSTATE
-- public table with no usable rows
SELECT pap.define_release('bad', 'priv', 'empty_pub', 'thresholds(x)');
\echo SQLSTATE :LAST_ERROR_SQLSTATE
-- unknown or malformed class text
SELECT pap.define_release('bad', 'priv', 'pub', 'cdf(x)');
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT pap.define_release('bad', 'priv', 'pub', 'thresholds(x');
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT pap.define_release('bad', 'priv', 'pub', 'thresholds(x, k)');
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT pap.define_release('bad', 'priv', 'pub', '');
\echo SQLSTATE :LAST_ERROR_SQLSTATE
-- alpha and beta outside (0, 1)
SELECT pap.define_release('bad', 'priv', 'pub', 'thresholds(x)', alpha => 0);
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT pap.define_release('bad', 'priv', 'pub', 'thresholds(x)', beta => 1);
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT pap.define_release('bad', 'priv', 'pub', 'thresholds(x)', alpha => 'NaN');
\echo SQLSTATE :LAST_ERROR_SQLSTATE
-- a release name that exists already; an empty name; the same table twice
SELECT pap.define_release('x_cdf', 'priv', 'pub', 'thresholds(x)', granularity => 'alpha');
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT pap.define_release('', 'priv', 'pub', 'thresholds(x)');
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT pap.define_release('bad', 'priv', 'priv', 'thresholds(x)');
\echo SQLSTATE :LAST_ERROR_SQLSTATE
-- a cover over the limit (a class that lists its cover as it is defined; an ordered class has no such limit)
SET pap_release.max_cover_queries = 50;
SELECT pap.define_release('bad', 'priv', 'pub', 'marginals(1; k)');
\echo SQLSTATE :LAST_ERROR_SQLSTATE
RESET pap_release.max_cover_queries;
-- nothing half-written
SELECT count(*) AS releases FROM pap.releases;
