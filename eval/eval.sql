-- Helpers of the accuracy harness (eval/run.sh), created in the throwaway cluster after the raw data is loaded
-- (tables diamonds_raw and adult_raw, see eval/run-inner.sh). Everything that touches data is here, in plain
-- SQL: the seeded splits, the data-independent grids, the fixed query sets with their exact answers, and the
-- error of a release or of the public table over a workload. The C++ client (eval/pap_eval.cpp) only drives it.
--
-- Exact answers: for each query of a fixed set, the count over the whole data set is computed once
-- (prepare); after a split, the private count is that count minus the public table's count (split), so that
-- a split costs a scan of the small public table only. Both are plain count(*) over the rows.
SET client_min_messages = warning;
CREATE SCHEMA pap_eval;

-- The data sets, with their columns renamed to plain identifiers. price is float8 so that every cover query
-- text pap.answers prints (e.g. price < '-Infinity') is valid SQL on the tables.
CREATE TABLE pap_eval.diamonds AS
SELECT id, carat::float8 AS carat, price::float8 AS price FROM diamonds_raw;
CREATE TABLE pap_eval.adult AS
SELECT id, workclass, "education-num" AS education, "marital-status" AS marital, race, sex,
       "income>50K" AS income
  FROM adult_raw;
ANALYZE pap_eval.diamonds, pap_eval.adult;

-- The columns of the marginals workload and their domain sizes (values 0 .. size-1, data/adult-domain.json).
CREATE TABLE pap_eval.adult_columns (pos int PRIMARY KEY, name text NOT NULL, size int NOT NULL);

-- prepare(n_boxes, adult_columns, adult_sizes, seed): the fixed query sets and their counts over the whole
-- data set. Thresholds: price <= v for every distinct price v. Boxes: n_boxes random boxes, each side open with
-- probability 1/4, else at the value of a random row (setseed(seed)). Marginals: every cell of every 3-way
-- marginal of the listed columns over their full domains, zero cells included.
CREATE FUNCTION pap_eval.prepare(n_boxes int, cols text[], sizes int[], seed float8) RETURNS void
LANGUAGE plpgsql AS $fn$
DECLARE
	ii int; jj int; kk int;
BEGIN
	CREATE TABLE pap_eval.thr AS
	SELECT price AS v, count(*) OVER (ORDER BY price RANGE UNBOUNDED PRECEDING)::float8 AS full_cnt
	  FROM (SELECT price FROM pap_eval.diamonds) d;
	CREATE TABLE pap_eval.thr2 AS SELECT DISTINCT v, full_cnt FROM pap_eval.thr;
	DROP TABLE pap_eval.thr;
	ALTER TABLE pap_eval.thr2 RENAME TO thr;
	CREATE UNIQUE INDEX ON pap_eval.thr (v);

	PERFORM setseed(seed);
	CREATE TABLE pap_eval.boxes AS
	WITH v AS (SELECT array_agg(carat ORDER BY carat) c, array_agg(price ORDER BY price) p FROM pap_eval.diamonds),
	     n AS (SELECT cardinality(c) AS k FROM v),
	     raw AS (SELECT i, random() < 0.25 AS c_open_lo, random() < 0.25 AS c_open_hi,
	                    random() < 0.25 AS p_open_lo, random() < 0.25 AS p_open_hi,
	                    1 + floor(random() * n.k)::int AS c1, 1 + floor(random() * n.k)::int AS c2,
	                    1 + floor(random() * n.k)::int AS p1, 1 + floor(random() * n.k)::int AS p2
	               FROM generate_series(1, n_boxes) i, n)
	SELECT i,
	       CASE WHEN c_open_lo THEN NULL ELSE v.c[least(c1, c2)] END AS c_lo,
	       CASE WHEN c_open_hi THEN NULL ELSE v.c[greatest(c1, c2)] END AS c_hi,
	       CASE WHEN p_open_lo THEN NULL ELSE v.p[least(p1, p2)] END AS p_lo,
	       CASE WHEN p_open_hi THEN NULL ELSE v.p[greatest(p1, p2)] END AS p_hi
	  FROM raw, v;
	ALTER TABLE pap_eval.boxes ADD COLUMN q text, ADD COLUMN full_cnt float8;
	UPDATE pap_eval.boxes SET q = coalesce(nullif(concat_ws(' AND ',
		'carat > ' || c_lo, 'carat <= ' || c_hi, 'price > ' || p_lo, 'price <= ' || p_hi), ''), 'TRUE');
	UPDATE pap_eval.boxes b SET full_cnt = (SELECT count(*) FROM pap_eval.diamonds d
		WHERE (c_lo IS NULL OR d.carat > c_lo) AND (c_hi IS NULL OR d.carat <= c_hi)
		  AND (p_lo IS NULL OR d.price > p_lo) AND (p_hi IS NULL OR d.price <= p_hi));

	INSERT INTO pap_eval.adult_columns SELECT p, cols[p], sizes[p] FROM generate_subscripts(cols, 1) p;
	CREATE TABLE pap_eval.marg (mid int, a int, b int, c int, va int, vb int, vc int, q text, full_cnt float8);
	FOR ii IN 1..cardinality(cols) LOOP FOR jj IN ii + 1..cardinality(cols) LOOP FOR kk IN jj + 1..cardinality(cols) LOOP
		EXECUTE format(
			'INSERT INTO pap_eval.marg
			 SELECT %s, %s, %s, %s, x, y, z, format(''%s = %%s AND %s = %%s AND %s = %%s'', x, y, z),
			        (SELECT count(*) FROM pap_eval.adult d WHERE d.%I = x AND d.%I = y AND d.%I = z)
			   FROM generate_series(0, %s) x, generate_series(0, %s) y, generate_series(0, %s) z',
			ii * 10000 + jj * 100 + kk, ii, jj, kk, cols[ii], cols[jj], cols[kk], cols[ii], cols[jj], cols[kk],
			sizes[ii] - 1, sizes[jj] - 1, sizes[kk] - 1);
	END LOOP; END LOOP; END LOOP;
	CREATE INDEX ON pap_eval.marg (a, b, c, va, vb, vc);
END
$fn$;

-- split(ds, frac, shifted, seed): public table <ds>_pub and private table <ds>_priv, disjoint, covering the
-- data set. Rows are ordered by md5(seed, ds, id). Random: the first round(frac N) rows are public. Shifted:
-- the public table has the same size m but the share of "low" rows (diamonds: price below the median of the
-- whole data set; ADULT: sex = 0) is moved up by 0.3: round((p0 + 0.3) m) low rows and the rest high rows, each
-- the first ones of their group in that order (p0 = share of low rows in the whole data set). The private table
-- is every other row. Also computes the per-split exact answers (priv, pub) of the query sets of ds.
CREATE FUNCTION pap_eval.split(ds text, frac float8, shifted bool, seed int) RETURNS void
LANGUAGE plpgsql AS $fn$
DECLARE
	total int8; m int8; m_low int8; p0 float8; low_expr text; cols text;
BEGIN
	EXECUTE format('DROP TABLE IF EXISTS %I, %I', ds || '_pub', ds || '_priv');
	IF ds = 'diamonds' THEN
		low_expr := 'price < (SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY price) FROM pap_eval.diamonds)';
		cols := 'carat, price';
	ELSE
		low_expr := 'sex = 0';
		cols := (SELECT string_agg(quote_ident(name), ', ' ORDER BY pos) FROM pap_eval.adult_columns);
	END IF;
	EXECUTE format('SELECT count(*), avg((%s)::int) FROM pap_eval.%I', low_expr, ds) INTO total, p0;
	m := round(frac * total);
	m_low := CASE WHEN shifted THEN round(least(1.0, p0 + 0.3) * m) ELSE NULL END;
	EXECUTE format(
		'CREATE TEMP TABLE split_ids ON COMMIT DROP AS
		 SELECT id, CASE WHEN %L THEN
		                 CASE WHEN low THEN rk <= %s ELSE rk <= %s END
		            ELSE rn <= %s END AS pub
		   FROM (SELECT id, low, row_number() OVER (ORDER BY h, id) AS rn,
		                row_number() OVER (PARTITION BY low ORDER BY h, id) AS rk
		           FROM (SELECT id, (%s) AS low, md5(%L || id) AS h FROM pap_eval.%I) x) y',
		shifted, coalesce(m_low, 0), m - coalesce(m_low, 0), m, low_expr, seed || ':' || ds || ':', ds);
	EXECUTE format('CREATE TABLE %I AS SELECT %s FROM pap_eval.%I JOIN split_ids USING (id) WHERE pub',
		ds || '_pub', cols, ds);
	EXECUTE format('CREATE TABLE %I AS SELECT %s FROM pap_eval.%I JOIN split_ids USING (id) WHERE NOT pub',
		ds || '_priv', cols, ds);
	DROP TABLE split_ids;
	EXECUTE format('ANALYZE %I, %I', ds || '_pub', ds || '_priv');
	EXECUTE format('SELECT pap.set_budget(%L, 1e9)', ds || '_priv');

	IF ds = 'diamonds' THEN
		DROP TABLE IF EXISTS pap_eval.thr_truth, pap_eval.box_truth, pap_eval.priv_cdf;
		-- thresholds: exact private and public fractions at every distinct price of the data set
		CREATE TABLE pap_eval.thr_truth AS
		WITH u AS (SELECT price AS v, 1 AS w FROM diamonds_pub UNION ALL SELECT v, 0 FROM pap_eval.thr),
		     c AS (SELECT v, w, sum(w) OVER (ORDER BY v RANGE UNBOUNDED PRECEDING)::float8 AS pubc FROM u)
		SELECT t.v, (t.full_cnt - c.pubc) / (total - m) AS priv, c.pubc / m AS pub
		  FROM pap_eval.thr t JOIN (SELECT DISTINCT v, pubc FROM c WHERE w = 0) c USING (v);
		-- the private CDF, to evaluate any cover query price <= w
		CREATE TABLE pap_eval.priv_cdf AS SELECT v, priv FROM pap_eval.thr_truth;
		CREATE UNIQUE INDEX ON pap_eval.priv_cdf (v);
		CREATE TABLE pap_eval.box_truth AS
		SELECT b.i, b.q, (b.full_cnt - p.c) / (total - m) AS priv, p.c / m AS pub
		  FROM pap_eval.boxes b, LATERAL (SELECT count(*)::float8 AS c FROM diamonds_pub d
		       WHERE (b.c_lo IS NULL OR d.carat > b.c_lo) AND (b.c_hi IS NULL OR d.carat <= b.c_hi)
		         AND (b.p_lo IS NULL OR d.price > b.p_lo) AND (b.p_hi IS NULL OR d.price <= b.p_hi)) p;
	ELSE
		DROP TABLE IF EXISTS pap_eval.marg_truth;
		CREATE TEMP TABLE pub_marg (a int, b int, c int, va int, vb int, vc int, n float8) ON COMMIT DROP;
		PERFORM pap_eval.public_marginals();
		CREATE TABLE pap_eval.marg_truth AS
		SELECT g.q, (g.full_cnt - coalesce(p.n, 0)) / (total - m) AS priv, coalesce(p.n, 0) / m AS pub
		  FROM pap_eval.marg g LEFT JOIN pub_marg p USING (a, b, c, va, vb, vc);
		DROP TABLE pub_marg;
	END IF;
END
$fn$;

-- Fills pub_marg with the public counts of every 3-way marginal cell holding a public row.
CREATE FUNCTION pap_eval.public_marginals() RETURNS void
LANGUAGE plpgsql AS $fn$
DECLARE
	r record;
BEGIN
	FOR r IN SELECT x.pos AS i, y.pos AS j, z.pos AS k, x.name AS ci, y.name AS cj, z.name AS ck
	           FROM pap_eval.adult_columns x, pap_eval.adult_columns y, pap_eval.adult_columns z
	          WHERE x.pos < y.pos AND y.pos < z.pos LOOP
		EXECUTE format('INSERT INTO pub_marg SELECT %s, %s, %s, %I, %I, %I, count(*) FROM adult_pub GROUP BY 4, 5, 6',
			r.i, r.j, r.k, r.ci, r.cj, r.ck);
	END LOOP;
END
$fn$;

-- grid(workload, eps, n, max_per_axis): the data-independent "public" table grid_<workload> for the private-only
-- baselines, built from the published domain bounds (eval/domains, passed in by the client as pap_eval.bounds)
-- only. Resolution: Qardaji, Yang and Li's uniform-grid rule (ICDE 2013), m = (n eps / 10)^(2 / (d + 2)) cells
-- per axis for d axes (their guideline m = sqrt(n eps / 10) for d = 2), at least 2 and at most max_per_axis;
-- grid points at the upper ends lo + i (hi - lo) / m, i = 1..m. Marginals: every point of the full domain.
-- Returns the number of points per axis.
CREATE TABLE pap_eval.bounds (col text PRIMARY KEY, lo float8 NOT NULL, hi float8 NOT NULL);
CREATE FUNCTION pap_eval.grid(workload text, eps float8, n int8, max_per_axis int) RETURNS int
LANGUAGE plpgsql AS $fn$
DECLARE
	d int; m int; cols text; gen text;
BEGIN
	EXECUTE format('DROP TABLE IF EXISTS %I', 'grid_' || workload);
	IF workload = 'marginals' THEN
		SELECT string_agg(format('generate_series(0, %s) AS %I', size - 1, name), ', ' ORDER BY pos)
		  INTO gen FROM pap_eval.adult_columns;
		EXECUTE format('CREATE TABLE grid_marginals AS SELECT * FROM %s', gen);
		-- same column types as the data (int)
		RETURN NULL;
	END IF;
	d := CASE workload WHEN 'thresholds' THEN 1 ELSE 2 END;
	m := greatest(2, least(max_per_axis, ceil(power(n * eps / 10.0, 2.0 / (d + 2)))::int));
	IF d = 1 THEN
		EXECUTE format('CREATE TABLE grid_thresholds AS
			SELECT (b.lo + i * (b.hi - b.lo) / %s)::float8 AS price
			  FROM pap_eval.bounds b, generate_series(1, %s) i WHERE b.col = ''price''', m, m);
	ELSE
		EXECUTE format('CREATE TABLE grid_boxes AS
			SELECT (c.lo + i * (c.hi - c.lo) / %s)::float8 AS carat, (p.lo + j * (p.hi - p.lo) / %s)::float8 AS price
			  FROM pap_eval.bounds c, pap_eval.bounds p, generate_series(1, %s) i, generate_series(1, %s) j
			 WHERE c.col = ''carat'' AND p.col = ''price''', m, m, m, m);
	END IF;
	RETURN m;
END
$fn$;

-- errors(workload, release): max and mean |released - exact| over the workload's query set, fractions of n.
-- release NULL: the public table's own fractions (the public-only baseline). refine: pap.answer's within-cell
-- refinement.
CREATE FUNCTION pap_eval.errors(workload text, rel text, refine bool DEFAULT false, OUT max_error float8,
                                OUT mean_error float8)
LANGUAGE plpgsql AS $fn$
BEGIN
	IF workload = 'thresholds' THEN
		SELECT max(e), avg(e) INTO max_error, mean_error FROM (SELECT abs(priv -
			CASE WHEN rel IS NULL THEN pub ELSE pap.answer(rel, 'price <= ' || v, refine) END) AS e FROM pap_eval.thr_truth) x;
	ELSIF workload = 'boxes' THEN
		SELECT max(e), avg(e) INTO max_error, mean_error FROM (SELECT abs(priv -
			CASE WHEN rel IS NULL THEN pub ELSE pap.answer(rel, q, refine) END) AS e FROM pap_eval.box_truth) x;
	ELSE
		SELECT max(e), avg(e) INTO max_error, mean_error FROM (SELECT abs(priv -
			CASE WHEN rel IS NULL THEN pub ELSE pap.answer(rel, q, refine) END) AS e FROM pap_eval.marg_truth) x;
	END IF;
END
$fn$;

-- cover_error(workload, rel, sample): max |released - exact| over the release's cover queries (pap.answers),
-- and how many were evaluated. Thresholds: every cover query, through the private CDF. Boxes and marginals:
-- at most `sample` cover queries (every one when the cover is smaller; else every k-th, k = ceil(cover size
-- / sample), in the order of pap.answers), each evaluated as count(*) FILTER (WHERE <its text>) in one scan of the private table.
CREATE FUNCTION pap_eval.cover_error(workload text, rel text, sample int, OUT max_error float8, OUT evaluated int8)
LANGUAGE plpgsql AS $fn$
DECLARE
	n float8; priv_table text; sel text; stride int8; answers float8[]; counts float8[];
BEGIN
	priv_table := CASE workload WHEN 'marginals' THEN 'adult_priv' ELSE 'diamonds_priv' END;
	EXECUTE format('SELECT count(*) FROM %I', priv_table) INTO n;
	IF workload = 'thresholds' THEN
		SELECT max(abs(a.answer - coalesce(c.priv, 0))), count(*) INTO max_error, evaluated
		  FROM pap.answers(rel) a
		  LEFT JOIN LATERAL (SELECT x.priv FROM pap_eval.priv_cdf x
		                      WHERE x.v <= substring(a.query FROM '^price <= (.*)$')::float8
		                      ORDER BY x.v DESC LIMIT 1) c ON true;
		RETURN;
	END IF;
	SELECT ceil(cover_size::float8 / sample)::int8 INTO stride FROM pap.releases WHERE name = rel;
	SELECT array_agg(answer ORDER BY k), string_agg(format('count(*) FILTER (WHERE %s)', query), ', ' ORDER BY k),
	       count(*)
	  INTO answers, sel, evaluated
	  FROM (SELECT cover_query AS k, query, answer FROM pap.answers(rel) WHERE cover_query % stride = 0) s;
	EXECUTE format('SELECT ARRAY[%s]::float8[] FROM %I', sel, priv_table) INTO counts;
	SELECT max(abs(answers[i] - counts[i] / n)) INTO max_error FROM generate_subscripts(answers, 1) i;
END
$fn$;
