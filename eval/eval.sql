-- Helpers of the accuracy harness (eval/run.sh), created in the throwaway cluster after the raw data is loaded
-- (tables diamonds_raw, adult_raw, cps_raw and movielens_raw, see eval/run-inner.sh). Everything that touches
-- data is here, in plain SQL: the seeded workloads of random queries with their exact answers, the seeded
-- splits, the data-independent grids, the noisy marginal tables baseline, and the error of a release or of the
-- public table over a workload. The C++ client (eval/pap_eval.cpp) only drives it.
--
-- Exact answers: each query of a workload is a SQL condition that pap.answer accepts as it is; its count over
-- the whole data set is computed once (add_workload); after a split, the private count is that count minus the
-- public table's count (split), so that a split costs a scan of the small public table only. Both are plain
-- count(*) FILTER (WHERE <query>) over the rows.
SET client_min_messages = warning;
CREATE SCHEMA pap_eval;

-- The data sets, with their columns renamed to plain identifiers. price is float8 so that every cover query
-- text pap.answers prints (e.g. price < '-Infinity') is valid SQL on the tables. movielens: the rating time as a
-- timestamp (UTC), the decade of the movie's year and its first listed genre as categorical columns.
CREATE TABLE pap_eval.diamonds AS
SELECT id, carat::float8 AS carat, price::float8 AS price FROM diamonds_raw;
CREATE TABLE pap_eval.adult AS
SELECT id, workclass, "education-num" AS education, "marital-status" AS marital, race, sex,
       "income>50K" AS income
  FROM adult_raw;
CREATE TABLE pap_eval.cps AS
SELECT id, wage::float8 AS wage, education, experience, ethnicity, smsa, region, parttime FROM cps_raw;
CREATE TABLE pap_eval.movielens AS
SELECT id, year, to_timestamp(ts) AT TIME ZONE 'UTC' AS rated_at, rating::float8 AS rating,
       (year / 10) * 10 AS decade, split_part(genres, '|', 1) AS genre
  FROM movielens_raw;
ANALYZE pap_eval.diamonds, pap_eval.adult, pap_eval.cps, pap_eval.movielens;

-- The shifted split moves the share of "low" rows of the public table up (see split).
CREATE TABLE pap_eval.datasets (ds text PRIMARY KEY, low_expr text NOT NULL);
INSERT INTO pap_eval.datasets VALUES
	('diamonds', 'price < (SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY price) FROM pap_eval.diamonds)'),
	('adult', 'sex = 0'),
	('cps', 'wage < (SELECT percentile_disc(0.5) WITHIN GROUP (ORDER BY wage) FROM pap_eval.cps)'),
	('movielens', 'rated_at < (SELECT percentile_disc(0.5) WITHIN GROUP (ORDER BY rated_at) FROM pap_eval.movielens)');

-- Published domain information (eval/domains, ADULT's data/adult-domain.json), inserted by the client.
CREATE TABLE pap_eval.bounds (ds text, col text, lo float8 NOT NULL, hi float8 NOT NULL, PRIMARY KEY (ds, col));
CREATE TABLE pap_eval.levels (ds text, col text, val text, PRIMARY KEY (ds, col, val));
-- Columns the documentation gives a value in every row (eval/domains' notnull lines): NOT NULL in the private table.
CREATE TABLE pap_eval.not_null (ds text, col text, PRIMARY KEY (ds, col));

-- A workload: a class over columns of a data set and a fixed, seeded set of queries of that class.
CREATE TABLE pap_eval.workloads (wid int PRIMARY KEY, ds text NOT NULL, name text UNIQUE NOT NULL,
                                 kind text NOT NULL, numcols text[] NOT NULL, catcols text[] NOT NULL,
                                 class_text text);
-- cols/vals: a marginal cell's attribute set and values (the noisy tables baseline answers from them).
CREATE TABLE pap_eval.queries (wid int, i int, q text NOT NULL, cols text[], vals text[], full_cnt float8,
                               PRIMARY KEY (wid, i));
-- The exact answers of the current split (fractions of the private and of the public rows).
CREATE TABLE pap_eval.truth (wid int, i int, q text, cols text[], vals text[], priv float8, pub float8,
                             PRIMARY KEY (wid, i));

-- The column's type, as format_type prints it.
CREATE FUNCTION pap_eval.coltype(tbl text, col text) RETURNS text LANGUAGE sql STABLE AS $$
	SELECT format_type(atttypid, atttypmod) FROM pg_attribute
	 WHERE attrelid = tbl::regclass AND attname = col AND NOT attisdropped
$$;

-- A column as a float8 expression (a timestamp as Unix seconds), and a float8 back as a literal of the column's
-- type (timestamps to the second, integers rounded) that both SQL and pap.answer read.
CREATE FUNCTION pap_eval.num(typ text, col text) RETURNS text LANGUAGE sql IMMUTABLE AS $$
	SELECT CASE WHEN typ LIKE 'timestamp%' THEN format('extract(epoch FROM %I)::float8', col)
	            ELSE format('%I::float8', col) END
$$;
CREATE FUNCTION pap_eval.lit(typ text, v float8) RETURNS text LANGUAGE sql IMMUTABLE AS $$
	SELECT quote_literal(CASE WHEN typ LIKE 'timestamp%'
	                          THEN to_char(to_timestamp(round(v)) AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS')
	                          WHEN typ IN ('integer', 'bigint', 'smallint') THEN round(v)::bigint::text
	                          ELSE v::text END)
$$;

-- counts(wid, tbl): count(*) of every query of the workload over tbl, in query order, in one scan per 400
-- queries.
CREATE FUNCTION pap_eval.counts(w int, tbl text) RETURNS float8[]
LANGUAGE plpgsql AS $fn$
DECLARE
	res float8[] := '{}'; part float8[]; sel text; lo int := 1; hi int;
BEGIN
	SELECT max(i) INTO hi FROM pap_eval.queries WHERE wid = w;
	WHILE lo <= hi LOOP
		SELECT string_agg(format('count(*) FILTER (WHERE %s)', q), ', ' ORDER BY i) INTO sel
		  FROM pap_eval.queries WHERE wid = w AND i BETWEEN lo AND lo + 399;
		EXECUTE format('SELECT ARRAY[%s]::float8[] FROM %s', sel, tbl) INTO part;
		res := res || part;
		lo := lo + 400;
	END LOOP;
	RETURN res;
END
$fn$;

-- add_workload(wid, ds, name, kind, numcols, catcols, k, n_q, seed): the class and its seeded query set.
--   thresholds(c): n_q queries c <= v. ranges(c), boxes(c1..): each column gets c > a AND c <= b, each side
--   left open with probability 1/4. orthants(c1..): c <= v per column, open with probability 1/4. A query with
--   every side open keeps the upper side of its first column. Every value v, a, b is, with probability 1/2, the
--   value of a random row of the whole data set, else uniform between the data set's minimum and maximum
--   (a, b ordered).
--   marginals(k; c1..): every cell of every k-subset of the columns over the values of the whole data set and
--   the published levels (cells without rows and cells the public sample never shows included); when there are
--   more than n_q cells, n_q of them at random.
--   predicates: n_q predicates "x <= v AND c = u", x a random numeric column with v drawn as above, c a random
--   categorical column, u its value in a random row; the class lists them and they are its queries.
CREATE FUNCTION pap_eval.add_workload(w int, d text, wname text, kind text, numcols text[], catcols text[], k int,
                                      n_q int, seed float8) RETURNS void
LANGUAGE plpgsql AS $fn$
DECLARE
	tbl text := 'pap_eval.' || d; c text; sel text; cnts float8[]; ctext text;
BEGIN
	PERFORM setseed(seed);
	INSERT INTO pap_eval.workloads VALUES (w, d, wname, kind, numcols, catcols, NULL);
	CREATE TEMP TABLE dv (col text, rn int, v float8) ON COMMIT DROP;
	CREATE TEMP TABLE dstat (col text, typ text, p int, cnt int, lo float8, hi float8) ON COMMIT DROP;
	FOR c IN SELECT unnest(numcols) LOOP
		EXECUTE format('INSERT INTO dv SELECT %L, row_number() OVER (ORDER BY v), v FROM (SELECT %s AS v FROM %s) x
		                 WHERE v IS NOT NULL', c, pap_eval.num(pap_eval.coltype(tbl, c), c), tbl);
		INSERT INTO dstat SELECT c, pap_eval.coltype(tbl, c), array_position(numcols, c), count(*), min(v), max(v)
		  FROM dv WHERE col = c;
	END LOOP;
	CREATE INDEX ON dv (col, rn);
	IF kind IN ('thresholds', 'ranges', 'boxes', 'orthants') THEN
		INSERT INTO pap_eval.queries (wid, i, q)
		WITH raw AS (
			SELECT i, s.p, s.col, s.typ, random() < 0.25 AS open_lo, random() < 0.25 AS open_hi,
			       random() < 0.5 AS a_row, 1 + floor(random() * s.cnt)::int AS ra, s.lo + random() * (s.hi - s.lo) AS ua,
			       random() < 0.5 AS b_row, 1 + floor(random() * s.cnt)::int AS rb, s.lo + random() * (s.hi - s.lo) AS ub
			  FROM generate_series(1, n_q) i, dstat s),
		drawn AS (
			SELECT i, p, col, typ, open_lo, open_hi,
			       CASE WHEN a_row THEN (SELECT v FROM dv WHERE dv.col = raw.col AND rn = ra) ELSE ua END AS a,
			       CASE WHEN b_row THEN (SELECT v FROM dv WHERE dv.col = raw.col AND rn = rb) ELSE ub END AS b
			  FROM raw),
		conj AS (
			SELECT i, p, format('%I <= %s', col, pap_eval.lit(typ, greatest(a, b))) AS fallback,
			       CASE kind
			            WHEN 'thresholds' THEN format('%I <= %s', col, pap_eval.lit(typ, a))
			            WHEN 'orthants' THEN CASE WHEN NOT open_hi THEN format('%I <= %s', col, pap_eval.lit(typ, a)) END
			            ELSE concat_ws(' AND ',
			                           CASE WHEN NOT open_lo THEN format('%I > %s', col, pap_eval.lit(typ, least(a, b))) END,
			                           CASE WHEN NOT open_hi THEN format('%I <= %s', col, pap_eval.lit(typ, greatest(a, b))) END)
			       END AS t
			  FROM drawn)
		SELECT w, i, coalesce(string_agg(t, ' AND ' ORDER BY p) FILTER (WHERE t <> ''),
		                      min(fallback) FILTER (WHERE p = 1))
		  FROM conj GROUP BY i;
		ctext := format('%s(%s)', kind, (SELECT string_agg(quote_ident(x), ', ') FROM unnest(numcols) x));
	ELSIF kind = 'marginals' THEN
		CREATE TEMP TABLE ql (col text, val text) ON COMMIT DROP;
		FOR c IN SELECT unnest(catcols) LOOP
			EXECUTE format('INSERT INTO ql SELECT %L, v FROM (SELECT %I::text AS v FROM %s WHERE %I IS NOT NULL
			                 UNION SELECT val FROM pap_eval.levels WHERE ds = %L AND col = %L) x', c, c, tbl, c, d, c);
		END LOOP;
		CREATE TEMP TABLE cells ON COMMIT DROP AS
		WITH s AS (SELECT col, p FROM unnest(catcols) WITH ORDINALITY u(col, p))
		SELECT ARRAY[a.col, b.col] AS cols, ARRAY[x.val, y.val] AS vals
		  FROM s a JOIN s b ON a.p < b.p JOIN ql x ON x.col = a.col JOIN ql y ON y.col = b.col WHERE k = 2
		UNION ALL
		SELECT ARRAY[a.col, b.col, e.col], ARRAY[x.val, y.val, z.val]
		  FROM s a JOIN s b ON a.p < b.p JOIN s e ON b.p < e.p
		  JOIN ql x ON x.col = a.col JOIN ql y ON y.col = b.col JOIN ql z ON z.col = e.col WHERE k = 3;
		INSERT INTO pap_eval.queries (wid, i, q, cols, vals)
		SELECT w, row_number() OVER (ORDER BY cols, vals),
		       (SELECT string_agg(format('%I = %L', cols[j], vals[j]), ' AND ' ORDER BY j)
		          FROM generate_subscripts(cols, 1) j), cols, vals
		  FROM (SELECT * FROM (SELECT * FROM cells ORDER BY cols, vals) x
		         ORDER BY CASE WHEN (SELECT count(*) FROM cells) > n_q THEN random() END, cols, vals
		         LIMIT n_q) y;
		ctext := format('marginals(%s; %s)', k, (SELECT string_agg(quote_ident(x), ', ') FROM unnest(catcols) x));
	ELSIF kind = 'predicates' THEN
		CREATE TEMP TABLE cv (col text, rn int, val text) ON COMMIT DROP;
		FOR c IN SELECT unnest(catcols) LOOP
			EXECUTE format('INSERT INTO cv SELECT %L, row_number() OVER (ORDER BY id), %I::text FROM %s WHERE %I IS NOT NULL',
			               c, c, tbl, c);
		END LOOP;
		CREATE INDEX ON cv (col, rn);
		INSERT INTO pap_eval.queries (wid, i, q)
		WITH pick AS (
			SELECT i, 1 + floor(random() * cardinality(numcols))::int AS xp,
			       catcols[1 + floor(random() * cardinality(catcols))::int] AS ccol, random() AS r1, random() AS r2,
			       random() AS r3, random() AS r4
			  FROM generate_series(1, n_q) i)
		SELECT w, i, format('%I <= %s AND %I = %L', s.col,
		                    pap_eval.lit(s.typ, CASE WHEN r1 < 0.5
		                        THEN (SELECT v FROM dv WHERE dv.col = s.col AND rn = 1 + floor(r2 * s.cnt)::int)
		                        ELSE s.lo + r2 * (s.hi - s.lo) END),
		                    ccol, (SELECT val FROM cv WHERE cv.col = ccol
		                             AND rn = 1 + floor(r3 * (SELECT count(*) FROM cv x WHERE x.col = ccol))::int))
		  FROM pick JOIN dstat s ON s.p = pick.xp;
		SELECT format('predicates(%s)', string_agg(quote_literal(q), ', ' ORDER BY i)) INTO ctext
		  FROM pap_eval.queries WHERE wid = w;
	ELSE
		RAISE EXCEPTION 'unknown workload kind %', kind;
	END IF;
	UPDATE pap_eval.workloads SET class_text = ctext WHERE wid = w;
	cnts := pap_eval.counts(w, tbl);
	UPDATE pap_eval.queries SET full_cnt = cnts[i] WHERE wid = w;
	DROP TABLE dv, dstat;
	DROP TABLE IF EXISTS ql, cells, cv;
END
$fn$;

-- split(ds, frac, shifted, seed): public table <ds>_pub and private table <ds>_priv, disjoint, covering the
-- data set. Rows are ordered by md5(seed, ds, id). Random: the first round(frac N) rows are public. Shifted:
-- the public table has the same size m but the share of "low" rows (pap_eval.datasets) is moved up by 0.3:
-- round((p0 + 0.3) m) low rows and the rest high rows, each the first ones of their group in that order (p0 =
-- share of low rows in the whole data set). The private table is every other row. Also computes the exact
-- answers (priv, pub) of every workload of ds into pap_eval.truth.
CREATE FUNCTION pap_eval.split(d text, frac float8, shifted bool, seed int) RETURNS void
LANGUAGE plpgsql AS $fn$
DECLARE
	total int8; m int8; m_low int8; p0 float8; low_expr text; colist text; w int; cnts float8[]; lv record;
BEGIN
	EXECUTE format('DROP TABLE IF EXISTS %I, %I', d || '_pub', d || '_priv');
	SELECT x.low_expr INTO low_expr FROM pap_eval.datasets x WHERE x.ds = d;
	SELECT string_agg(quote_ident(attname), ', ' ORDER BY attnum) INTO colist FROM pg_attribute
	 WHERE attrelid = ('pap_eval.' || d)::regclass AND attnum > 0 AND NOT attisdropped AND attname <> 'id';
	EXECUTE format('SELECT count(*), avg((%s)::int) FROM pap_eval.%I', low_expr, d) INTO total, p0;
	m := round(frac * total);
	m_low := CASE WHEN shifted THEN round(least(1.0, p0 + 0.3) * m) ELSE NULL END;
	EXECUTE format(
		'CREATE TEMP TABLE split_ids ON COMMIT DROP AS
		 SELECT id, CASE WHEN %L THEN
		                 CASE WHEN low THEN rk <= %s ELSE rk <= %s END
		            ELSE rn <= %s END AS pub
		   FROM (SELECT id, low, row_number() OVER (ORDER BY h, id) AS rn,
		                row_number() OVER (PARTITION BY low ORDER BY h, id) AS rk
		           FROM (SELECT id, coalesce((%s), false) AS low, md5(%L || id) AS h FROM pap_eval.%I) x) y',
		shifted, coalesce(m_low, 0), m - coalesce(m_low, 0), m, low_expr, seed || ':' || d || ':', d);
	EXECUTE format('CREATE TABLE %I AS SELECT %s FROM pap_eval.%I JOIN split_ids USING (id) WHERE pub',
		d || '_pub', colist, d);
	EXECUTE format('CREATE TABLE %I AS SELECT %s FROM pap_eval.%I JOIN split_ids USING (id) WHERE NOT pub',
		d || '_priv', colist, d);
	DROP TABLE split_ids;
	-- A numeric column with published levels: a CHECK constraint lists them, as a schema closes a number column
	-- (declare_level_types closes a text one with an enum type). Public information, as the levels are.
	FOR lv IN SELECT l.col, string_agg(quote_literal(l.val), ', ' ORDER BY l.val) AS vals
	            FROM pap_eval.levels l
	            JOIN pg_attribute a ON a.attrelid = (d || '_priv')::regclass AND a.attname = l.col
	           WHERE l.ds = d AND a.atttypid IN ('int2'::regtype, 'int4'::regtype, 'int8'::regtype,
	                                            'float4'::regtype, 'float8'::regtype)
	           GROUP BY l.col LOOP
		EXECUTE format('ALTER TABLE %I ADD CHECK (%I IN (%s))', d || '_priv', lv.col, lv.vals);
	END LOOP;
	-- A column the documentation gives a value in every row is NOT NULL, as a schema states it (public, as the levels).
	FOR lv IN SELECT n.col FROM pap_eval.not_null n WHERE n.ds = d LOOP
		EXECUTE format('ALTER TABLE %I ALTER COLUMN %I SET NOT NULL', d || '_priv', lv.col);
	END LOOP;
	EXECUTE format('ANALYZE %I, %I', d || '_pub', d || '_priv');
	EXECUTE format('SELECT pap.set_budget(%L, 1e9)', d || '_priv');

	DELETE FROM pap_eval.truth;
	FOR w IN SELECT wid FROM pap_eval.workloads WHERE ds = d LOOP
		cnts := pap_eval.counts(w, quote_ident(d || '_pub'));
		INSERT INTO pap_eval.truth
		SELECT wid, i, q, cols, vals, (full_cnt - cnts[i]) / (total - m), cnts[i] / m
		  FROM pap_eval.queries WHERE wid = w;
	END LOOP;
END
$fn$;

-- declare_level_types(): a text column with a published list of levels (eval/domains) becomes a column of an enum
-- type of those levels, as a schema states a closed domain (CPS1988's four factors: AER documents their levels). A
-- release then reads the type's labels (docs/mechanisms.md §10, "Closed columns"); the baselines' grids use the same
-- levels. Fails if a row holds a value outside them. Numeric columns with published levels (ADULT's integer codes,
-- movielens' rating and decade) stay numeric, so that their ordered classes read them as numbers: split() gives the
-- private table a CHECK constraint listing the levels instead, which closes them as the enum type closes a text column.
CREATE FUNCTION pap_eval.declare_level_types() RETURNS void
LANGUAGE plpgsql AS $fn$
DECLARE
	r record; type_name text;
BEGIN
	FOR r IN SELECT l.ds, l.col, string_agg(quote_literal(l.val), ', ' ORDER BY l.val) AS labels
	           FROM pap_eval.levels l
	           JOIN pg_attribute a ON a.attrelid = ('pap_eval.' || l.ds)::regclass AND a.attname = l.col
	          WHERE a.atttypid = 'text'::regtype
	          GROUP BY l.ds, l.col LOOP
		type_name := r.ds || '_' || r.col;
		EXECUTE format('CREATE TYPE pap_eval.%I AS ENUM (%s)', type_name, r.labels);
		EXECUTE format('ALTER TABLE pap_eval.%I ALTER COLUMN %I TYPE pap_eval.%I USING %I::text::pap_eval.%I',
		               r.ds, r.col, type_name, r.col, type_name);
	END LOOP;
END
$fn$;

-- The values of a categorical column the baselines' domain holds: its published levels when there are any,
-- else the distinct values of the public table (public information).
CREATE FUNCTION pap_eval.domain_levels(d text, c text) RETURNS SETOF text
LANGUAGE plpgsql AS $fn$
BEGIN
	IF EXISTS (SELECT FROM pap_eval.levels WHERE ds = d AND col = c) THEN
		RETURN QUERY SELECT val FROM pap_eval.levels WHERE ds = d AND col = c;
	ELSE
		RETURN QUERY EXECUTE format('SELECT DISTINCT %I::text FROM %I WHERE %I IS NOT NULL', c, d || '_pub', c);
	END IF;
END
$fn$;

-- grid(wid, eps, n, max_per_axis): the data-independent "public" table "grid" of the private-only baselines,
-- over the workload's columns. A numeric column (d of them) gets m equal cells between its published bounds
-- (eval/domains) or, without them, the public table's 1st and 99th percentiles (a heavy tail, such as CPS1988's
-- wages, would otherwise leave nearly all rows in the first cell); rows beyond fall in the open cells at either
-- end. m follows Qardaji, Yang and Li's
-- uniform-grid rule (ICDE 2013), m = (n eps / 10)^(2 / (d + 2)) per axis (their guideline sqrt(n eps / 10)
-- for d = 2), at least 2 and at most max_per_axis (the client lowers it until the release fits the limits).
-- Each cell holds r evenly spaced points, lo + (i - 1 + j / r) (hi - lo) / m, j = 1..r (rounded to the column's
-- type), so that a release whose cut points are every r-th value has the m cells and pap.answer's refinement
-- spreads a cell's count uniformly over it; r is at most 8 and keeps the table under 200,000 rows (r = 1: one
-- point per cell, at its upper end; an integer column always has r = 1). A categorical column gets every value of domain_levels. Returns m (0
-- without numeric columns) and r.
CREATE FUNCTION pap_eval.grid(w int, eps float8, n int8, max_per_axis int, OUT m int, OUT r int)
LANGUAGE plpgsql AS $fn$
DECLARE
	wl pap_eval.workloads; d int; c text; typ text; lo float8; hi float8; parts text[] := '{}';
	num_cols text[]; cat_cols text[]; pt text; rc int;
BEGIN
	SELECT * INTO wl FROM pap_eval.workloads WHERE wid = w;
	num_cols := CASE WHEN wl.kind = 'marginals' THEN '{}' ELSE wl.numcols END;
	cat_cols := CASE WHEN wl.kind IN ('marginals', 'predicates') THEN wl.catcols ELSE '{}' END;
	d := cardinality(num_cols);
	m := CASE WHEN d = 0 THEN 0
	          ELSE greatest(2, least(max_per_axis, ceil(power(n * eps / 10.0, 2.0 / (d + 2)))::int)) END;
	r := CASE WHEN d = 0 OR wl.kind = 'predicates' THEN 1
	          ELSE greatest(1, least(8, floor(power(200000.0, 1.0 / d) / m)::int)) END;
	FOREACH c IN ARRAY num_cols LOOP
		typ := pap_eval.coltype('pap_eval.' || wl.ds, c);
		SELECT b.lo, b.hi INTO lo, hi FROM pap_eval.bounds b WHERE b.ds = wl.ds AND b.col = c;
		-- Without a published range: a whole-number column spans the public sample's minimum and maximum (it
		-- holds at most hi - lo + 1 values, which a grid of that many cells resolves; clipping would only lose
		-- its tails), any other its 1st and 99th percentiles (a heavy tail such as a wage's would otherwise
		-- leave nearly every row in the first cell; rows beyond fall in the open cells at either end).
		IF NOT FOUND AND typ IN ('integer', 'bigint', 'smallint') THEN
			EXECUTE format('SELECT min(v), max(v) FROM (SELECT %s AS v FROM %I) x', pap_eval.num(typ, c), wl.ds || '_pub')
			   INTO lo, hi;
		ELSIF NOT FOUND THEN
			EXECUTE format('SELECT percentile_cont(0.01) WITHIN GROUP (ORDER BY v), percentile_cont(0.99) WITHIN GROUP (ORDER BY v)
			                  FROM (SELECT %s AS v FROM %I) x', pap_eval.num(typ, c), wl.ds || '_pub')
			   INTO lo, hi;
		END IF;
		-- an integer axis keeps one point per cell (rounded, duplicates dropped): rounding r points would
		-- make some integers heavier than a cell and split the cells at them
		rc := CASE WHEN typ IN ('integer', 'bigint', 'smallint') THEN 1 ELSE r END;
		pt := format('(%s::float8 + (i - 1 + j / %s::float8) * %s::float8 / %s)', lo, rc, hi - lo, m);
		parts := parts || format('(SELECT DISTINCT %s AS %I FROM generate_series(1, %s) i, generate_series(1, %s) j) AS %I',
			CASE WHEN typ LIKE 'timestamp%' THEN format('to_timestamp(round(%s)) AT TIME ZONE ''UTC''', pt)
			     WHEN typ IN ('integer', 'bigint', 'smallint') THEN format('round(%s)::%s', pt, typ)
			     ELSE format('%s::%s', pt, typ) END, c, m, rc, 'g_' || c);
	END LOOP;
	FOREACH c IN ARRAY cat_cols LOOP
		typ := pap_eval.coltype('pap_eval.' || wl.ds, c);
		parts := parts || format('(SELECT v::%s AS %I FROM pap_eval.domain_levels(%L, %L) v) AS %I', typ, c, wl.ds, c,
		                         'g_' || c);
	END LOOP;
	DROP TABLE IF EXISTS grid;
	EXECUTE 'CREATE TABLE grid AS SELECT * FROM ' || array_to_string(parts, ' CROSS JOIN ');
END
$fn$;

-- margtables(wid, eps, seed): the noisy per-attribute-set marginal tables baseline of a marginals workload. For
-- each of the T attribute sets of the workload's queries, its contingency table over domain_levels, each count
-- plus discrete Laplace noise of parameter exp(-eps / (2 T)) (replacing one row moves one unit between two
-- cells of every table: l1 sensitivity 2 T over the T tables, so the release is eps-DP; docs/mechanisms.md,
-- neighbours), then clipped at 0 and scaled to sum n. A query's answer is its cell over n (0 for a value
-- outside the domain). Returns the max and mean error over the workload.
CREATE FUNCTION pap_eval.margtables(w int, eps float8, seed float8, OUT max_error float8, OUT mean_error float8)
LANGUAGE plpgsql AS $fn$
DECLARE
	d text; sets text[]; t int; n float8; s text; cs text[]; gen text; grp text; eps_t float8;
BEGIN
	SELECT ds INTO d FROM pap_eval.workloads WHERE wid = w;
	EXECUTE format('SELECT count(*) FROM %I', d || '_priv') INTO n;
	SELECT array_agg(x ORDER BY x) INTO sets FROM (SELECT DISTINCT array_to_string(cols, ',') x FROM pap_eval.truth WHERE wid = w) y;
	t := cardinality(sets);
	eps_t := eps / (2 * t);
	PERFORM setseed(seed);
	CREATE TEMP TABLE mt (cols text[], vals text[], cnt float8) ON COMMIT DROP;
	FOREACH s IN ARRAY sets LOOP
		cs := string_to_array(s, ',');
		SELECT string_agg(format('pap_eval.domain_levels(%L, %L) AS l%s', d, cs[j], j), ' CROSS JOIN ' ORDER BY j),
		       string_agg(format('%I::text', cs[j]), ', ' ORDER BY j)
		  INTO gen, grp FROM generate_subscripts(cs, 1) j;
		EXECUTE format(
			'INSERT INTO mt SELECT %L::text[], v, greatest(0, coalesce(c.cnt, 0)
			        + floor(ln(1 - random()) / %s) - floor(ln(1 - random()) / %s))
			   FROM (SELECT ARRAY[%s] AS v FROM %s ORDER BY 1) g
			   LEFT JOIN (SELECT ARRAY[%s] AS v, count(*)::float8 AS cnt FROM %I GROUP BY 1) c USING (v)',
			cs, -eps_t, -eps_t,
			(SELECT string_agg(format('l%s', j), ', ' ORDER BY j) FROM generate_subscripts(cs, 1) j), gen, grp,
			d || '_priv');
		UPDATE mt SET cnt = cnt * n / nullif((SELECT sum(cnt) FROM mt x WHERE x.cols = cs), 0) WHERE mt.cols = cs;
	END LOOP;
	SELECT max(e), avg(e) INTO max_error, mean_error
	  FROM (SELECT abs(tr.priv - coalesce(mt.cnt, 0) / n) AS e
	          FROM pap_eval.truth tr LEFT JOIN mt ON mt.cols = tr.cols AND mt.vals = tr.vals
	         WHERE tr.wid = w) x;
	DROP TABLE mt;
END
$fn$;

-- errors(wid, release, refine): max and mean |released - exact| over the workload's queries, fractions of n.
-- release NULL: the public table's own fractions (the public-only baseline). refine: pap.answer's within-cell
-- refinement (NULL: the release's answer mode).
CREATE FUNCTION pap_eval.errors(w int, rel text, refine bool DEFAULT NULL, OUT max_error float8,
                                OUT mean_error float8)
LANGUAGE sql AS $fn$
	SELECT max(e), avg(e) FROM (SELECT abs(priv - CASE WHEN rel IS NULL THEN pub ELSE pap.answer(rel, q, refine) END) AS e
	                              FROM pap_eval.truth WHERE wid = w) x
$fn$;

-- coverage(wid, release, refine): how many of the workload's queries have their exact private answer within
-- pap.answer_bounded's [lower, upper] (docs/mechanisms.md §18).
CREATE FUNCTION pap_eval.coverage(w int, rel text, refine bool, OUT queries int8, OUT covered int8)
LANGUAGE sql AS $fn$
	SELECT count(*), count(*) FILTER (WHERE t.priv BETWEEN b.lower AND b.upper)
	  FROM pap_eval.truth t, LATERAL pap.answer_bounded(rel, t.q, refine) b
	 WHERE t.wid = w
$fn$;
