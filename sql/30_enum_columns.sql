-- A column of an enum type is closed (docs/mechanisms.md §10, "Closed columns"): its type admits only its labels,
-- so its axis's categories are every label, the public table's unseen ones included, and no query can name a value
-- outside them. The plan then has no part for values the public table never showed, which a text column of the same
-- data must keep. The scans read an enum through pg_catalog.enum_out, never a cast its type's owner added; a run
-- refuses a type whose labels changed since the definition. Self-contained: its own types, tables and budget.
SET pap_release.test_seed = 37;
SET extra_float_digits = 0;
CREATE TYPE en_region AS ENUM ('north', 'south', 'east', 'west', 'islands');
CREATE TYPE en_size AS ENUM ('small', 'large');
-- 20,000 private rows; 'islands' holds 1% of them and none of the 400 public rows.
CREATE TABLE en_priv AS
SELECT (CASE WHEN i % 100 = 0 THEN 'islands' ELSE (ARRAY['north', 'south', 'east', 'west'])[1 + i % 4] END)::en_region
           AS region,
       (CASE WHEN i % 3 = 0 THEN 'large' ELSE 'small' END)::en_size AS size
  FROM generate_series(1, 20000) i;
CREATE TABLE en_pub AS
SELECT (ARRAY['north', 'south', 'east', 'west'])[1 + i % 4]::en_region AS region,
       (CASE WHEN i % 3 = 0 THEN 'large' ELSE 'small' END)::en_size AS size
  FROM generate_series(1, 400) i;
-- The same data as text, and the same labels in another enum type.
CREATE TABLE en_priv_text AS SELECT region::text AS region, size::text AS size FROM en_priv;
CREATE TABLE en_pub_text AS SELECT region::text AS region, size::text AS size FROM en_pub;
CREATE TYPE en_region2 AS ENUM ('north', 'south', 'east', 'west', 'islands');
CREATE TABLE en_pub_other AS SELECT region::text::en_region2 AS region, size FROM en_pub;
SELECT pap.set_budget('en_priv', 10);
SELECT pap.set_budget('en_priv_text', 10);
-- A cast its owner adds from the type to text is never run by a scan or an answer: it would raise. (The test's own
-- queries below name no such cast.)
CREATE FUNCTION en_region_text(en_region) RETURNS text LANGUAGE plpgsql IMMUTABLE AS
$$BEGIN RAISE EXCEPTION 'the owner''s cast ran'; END$$;
CREATE CAST (en_region AS text) WITH FUNCTION en_region_text(en_region);

SELECT pap.define_release('en_enum', 'en_priv', 'en_pub', 'marginals(2; region, size)');
SELECT pap.define_release('en_text', 'en_priv_text', 'en_pub_text', 'marginals(2; region, size)');
-- Every label is a category, 'islands' too; the text release knows only the four public values.
SELECT name, axis_value_types, categories FROM pap.release_data WHERE name LIKE 'en\_%' ORDER BY name;
-- The enum release plans a smaller data part: no value outside the labels, and no "other" bin to bound.
SELECT round(e.projection_error::numeric, 4) AS enum_part, round(t.projection_error::numeric, 4) AS text_part,
       e.projection_error < 0.5 * t.projection_error AS less_than_half
  FROM pap.plan('en_enum', 1) e, pap.plan('en_text', 1) t;
CALL pap.run_release('en_enum', 1);
-- Every label is answered, the one the public table never showed included, within its bound.
SELECT label,
       abs(pap.answer('en_enum', format('region = %L AND size = %L', label, 'small')) -
           (SELECT count(*) FILTER (WHERE region = label::en_region AND size = 'small') FROM en_priv) / 20000.0)
       <= (pap.answer_bounded('en_enum', format('region = %L AND size = %L', label, 'small'))).error_bound
       AS within_bound
  FROM unnest('{east,islands,north,south,west}'::text[]) AS label ORDER BY label;
-- Identity measures only the cells a row can hold: the "other" bins of the two enum columns get no draw and no
-- weight (mechanisms.md §9, "Cells no row can hold"); the cells of every label and the NULL bins are measured.
SELECT count(*) FILTER (WHERE jsonb_typeof(columns->'region') = 'object' OR jsonb_typeof(columns->'size') = 'object')
           AS weighted_other_cells,
       count(*) FILTER (WHERE columns->>'region' = 'islands') > 0 AS unseen_label_weighted
  FROM pap.synthetic('en_enum');
-- A NOT NULL column's NULL bin holds no row either: on a copy of the private table whose two columns are NOT NULL,
-- identity measures only the 10 cells of the labels (of 28), and plans less. Read when the release is planned or run,
-- never stored: dropping a constraint opens its bin again at the next plan.
CREATE TABLE en_priv_nn (region en_region NOT NULL, size en_size NOT NULL);
INSERT INTO en_priv_nn SELECT * FROM en_priv;
SELECT pap.set_budget('en_priv_nn', 10);
SELECT pap.define_release('en_nn', 'en_priv_nn', 'en_pub', 'marginals(2; region, size)');
SELECT round(nn.noise_error::numeric, 6) AS not_null_noise, round(e.noise_error::numeric, 6) AS nullable_noise
  FROM pap.plan('en_nn', 1, 0, 'identity') nn, pap.plan('en_enum', 1, 0, 'identity') e;
CALL pap.run_release('en_nn', 1, mechanism => 'identity');
SELECT count(*) FILTER (WHERE jsonb_typeof(columns->'region') IN ('object', 'null')
                           OR jsonb_typeof(columns->'size') IN ('object', 'null')) AS weighted_closed_cells,
       round(sum(weight)::numeric, 6) AS total
  FROM pap.synthetic('en_nn');
-- Marginal tables measure and fit the same open cells (mechanisms.md §13, "Cells no row can hold").
SELECT pap.define_release('en_nn_mt', 'en_priv_nn', 'en_pub', 'marginals(2; region, size)');
SELECT nn.noise_error < e.noise_error AS marginal_tables_not_null_plans_less
  FROM pap.plan('en_nn_mt', 1, 0, 'marginal_tables') nn, pap.plan('en_enum', 1, 0, 'marginal_tables') e;
CALL pap.run_release('en_nn_mt', 1, mechanism => 'marginal_tables');
SELECT count(*) FILTER (WHERE jsonb_typeof(columns->'region') IN ('object', 'null')
                           OR jsonb_typeof(columns->'size') IN ('object', 'null')) AS weighted_closed_cells,
       round(sum(weight)::numeric, 6) AS total
  FROM pap.synthetic('en_nn_mt');
-- PMW and MWEM start from the prior conditioned on the open cells (mechanisms.md §9), and MW keeps its zeros.
SELECT pap.define_release('en_nn_pmw', 'en_priv_nn', 'en_pub', 'marginals(2; region, size)'),
       pap.define_release('en_nn_mwem', 'en_priv_nn', 'en_pub', 'marginals(2; region, size)');
CALL pap.run_release('en_nn_pmw', 1, mechanism => 'pmw');
CALL pap.run_release('en_nn_mwem', 1, mechanism => 'mwem');
SELECT r AS release, count(*) FILTER (WHERE weight > 0 AND (jsonb_typeof(columns->'region') IN ('object', 'null')
                                      OR jsonb_typeof(columns->'size') IN ('object', 'null'))) AS weighted_closed_cells,
       round(sum(weight)::numeric, 6) AS total
  FROM unnest(ARRAY['en_nn_pmw', 'en_nn_mwem']) r, pap.synthetic(r)
 GROUP BY r ORDER BY r;
ALTER TABLE en_priv_nn ALTER COLUMN size DROP NOT NULL;
SELECT round(noise_error::numeric, 6) AS one_column_not_null FROM pap.plan('en_nn', 1, 0, 'identity');
-- A partition tree is closed where every partition is: here the tree's parent states it, so all do.
CREATE TABLE en_parted_nn (id int, region en_region NOT NULL, size en_size NOT NULL) PARTITION BY RANGE (id);
CREATE TABLE en_parted_nn_1 PARTITION OF en_parted_nn FOR VALUES FROM (0) TO (10000);
CREATE TABLE en_parted_nn_2 PARTITION OF en_parted_nn FOR VALUES FROM (10000) TO (30000);
INSERT INTO en_parted_nn SELECT row_number() OVER (), region, size FROM en_priv;
SELECT pap.set_budget('en_parted_nn', 10);
SELECT pap.define_release('en_parted_nn', 'en_parted_nn', 'en_pub', 'marginals(2; region, size)');
SELECT round(noise_error::numeric, 6) AS parted_not_null_noise FROM pap.plan('en_parted_nn', 1, 0, 'identity');
SELECT pap.drop_release('en_parted_nn'), pap.drop_release('en_nn');
DROP TABLE en_parted_nn, en_priv_nn;
-- An inheritance child whose NOT NULL was dropped (its parent keeps it) stores rows too: its column's NULL bin is
-- open, as with one column NOT NULL above. A partitioned parent that allows NULL, every partition NOT NULL, is closed.
CREATE TABLE en_inh (region en_region NOT NULL, size en_size NOT NULL);
CREATE TABLE en_inh_child () INHERITS (en_inh);
ALTER TABLE en_inh_child ALTER COLUMN size DROP NOT NULL;
INSERT INTO en_inh_child SELECT * FROM en_priv;
SELECT pap.set_budget('en_inh', 10);
SELECT pap.define_release('en_inh', 'en_inh', 'en_pub', 'marginals(2; region, size)');
SELECT round(noise_error::numeric, 6) AS child_size_nullable FROM pap.plan('en_inh', 1, 0, 'identity');
CREATE TABLE en_pnull (id int, region en_region, size en_size) PARTITION BY RANGE (id);
CREATE TABLE en_pnull_1 PARTITION OF en_pnull (region NOT NULL, size NOT NULL) FOR VALUES FROM (0) TO (30000);
INSERT INTO en_pnull SELECT row_number() OVER (), region, size FROM en_priv;
SELECT pap.set_budget('en_pnull', 10);
SELECT pap.define_release('en_pnull', 'en_pnull', 'en_pub', 'marginals(2; region, size)');
SELECT round(noise_error::numeric, 6) AS partitions_not_null FROM pap.plan('en_pnull', 1, 0, 'identity');
SELECT pap.drop_release('en_inh'), pap.drop_release('en_pnull');
DROP TABLE en_inh_child, en_inh, en_pnull;
-- A value that is not a label is refused as PostgreSQL refuses it.
SELECT pap.answer('en_enum', $$region = 'atlantis' AND size = 'small'$$);
SELECT pap.answer('en_enum', $$region IN ('north', 'atlantis') AND size = 'large'$$);

-- A label compared as another type would need a cast to the enum, which only its owner can have made: refused.
-- Cast to the enum itself, it is read by enum_in.
SELECT pap.answer('en_enum', $$region = 'north'::text AND size = 'small'$$);
SELECT pap.answer('en_enum', $$region = 'north'::en_region AND size = 'small'$$) =
       pap.answer('en_enum', $$region = 'north' AND size = 'small'$$) AS same;
-- Nor through a cast its owner made to the type (both would raise): a quoted label, cast to the enum itself or not.
CREATE FUNCTION en_region_of_text(text) RETURNS en_region LANGUAGE plpgsql IMMUTABLE AS
$$BEGIN RAISE EXCEPTION 'the owner''s cast ran'; END$$;
CREATE CAST (text AS en_region) WITH FUNCTION en_region_of_text(text);
CREATE FUNCTION en_region_of_int(int) RETURNS en_region LANGUAGE plpgsql IMMUTABLE AS
$$BEGIN RAISE EXCEPTION 'the owner''s cast ran'; END$$;
CREATE CAST (int AS en_region) WITH FUNCTION en_region_of_int(int);
SELECT pap.answer('en_enum', $$region = 'north'::text::en_region AND size = 'small'$$);
SELECT pap.answer('en_enum', $$region = 5::en_region AND size = 'small'$$);
DROP CAST (text AS en_region);
DROP CAST (int AS en_region);
DROP FUNCTION en_region_of_text(text), en_region_of_int(int);
-- A foreign partition sends an enum back as text, read with the local labels: one remote row outside them would
-- decide whether a charged run fails. Refused, for axes and for predicates alike.
CREATE FOREIGN DATA WRAPPER en_fdw;
CREATE SERVER en_server FOREIGN DATA WRAPPER en_fdw;
CREATE TABLE en_parted (id int, region en_region, size en_size) PARTITION BY RANGE (id);
CREATE TABLE en_local PARTITION OF en_parted FOR VALUES FROM (0) TO (1000);
CREATE FOREIGN TABLE en_remote PARTITION OF en_parted FOR VALUES FROM (1000) TO (MAXVALUE) SERVER en_server;
SELECT pap.define_release('en_foreign', 'en_parted', 'en_pub', 'marginals(1; region, size)',
                          granularity => 'finest');
SELECT pap.define_release('en_foreign', 'en_parted', 'en_pub', $$predicates('region = ''north''')$$,
                          granularity => 'finest');
DROP TABLE en_parted;
DROP SERVER en_server CASCADE;
DROP FOREIGN DATA WRAPPER en_fdw;

-- Predicates over enum columns compare with the type's built-in operators. An operator its owner adds (here one
-- that holds for every row) is not seen: a release resolves names in pg_catalog only.
SELECT pap.define_release('en_preds', 'en_priv', 'en_pub',
                          $$predicates('region = ''north''', 'size = ''large'' AND region <> ''east''')$$);
CALL pap.run_release('en_preds', 1);
SELECT round(pap.answer('en_preds', $$region = 'north'$$)::numeric, 1) AS north;
CREATE FUNCTION en_region_eq(en_region, en_region) RETURNS bool LANGUAGE sql IMMUTABLE AS 'SELECT true';
CREATE OPERATOR = (LEFTARG = en_region, RIGHTARG = en_region, FUNCTION = en_region_eq);
SELECT pap.define_release('en_preds_own', 'en_priv', 'en_pub', $$predicates('region = ''north''')$$);
CALL pap.run_release('en_preds_own', 1);
SELECT round(pap.answer('en_preds_own', $$region = 'north'$$)::numeric, 1) AS north;
DROP OPERATOR = (en_region, en_region);
DROP FUNCTION en_region_eq(en_region, en_region);
-- Nor an implicit cast through the types' text forms, which the enum's owner can make (WITH INOUT): it would turn
-- region = 'north' into region::text = 'north' in the scan, text order for the enum's. Made after the definition,
-- it is refused before the charge.
CREATE TYPE en_tone AS ENUM ('north', 'south');
CREATE TABLE en_tone_priv AS SELECT (CASE WHEN i % 3 = 0 THEN 'north' ELSE 'south' END)::en_tone AS region
  FROM generate_series(1, 600) i;
CREATE TABLE en_tone_pub AS SELECT (CASE WHEN i % 2 = 0 THEN 'north' ELSE 'south' END)::en_tone AS region
  FROM generate_series(1, 100) i;
SELECT pap.set_budget('en_tone_priv', 1);
SELECT pap.define_release('en_tone', 'en_tone_priv', 'en_tone_pub', $$predicates('region = ''north''')$$);
CREATE CAST (en_tone AS text) WITH INOUT AS IMPLICIT;
CALL pap.run_release('en_tone', 1);
SELECT epsilon_spent FROM pap.budgets WHERE private_table = 'en_tone_priv'::regclass;
DROP CAST (en_tone AS text);

-- Both tables must hold the same enum type.
SELECT pap.define_release('en_mixed', 'en_priv', 'en_pub_other', 'marginals(1; region, size)');
SELECT pap.define_release('en_mixed', 'en_priv', 'en_pub_text', 'marginals(1; region, size)');
-- Ordered classes do not read enums; a type without labels is refused.
SELECT pap.define_release('en_thresholds', 'en_priv', 'en_pub', 'thresholds(region)');
-- A domain over an enum stays refused, as every type that is not built in (enum_out does not take it).
CREATE DOMAIN en_region_dom AS en_region CHECK (VALUE <> 'islands');
CREATE TABLE en_priv_dom AS SELECT region::en_region_dom AS region, size FROM en_pub;
SELECT pap.define_release('en_dom', 'en_priv_dom', 'en_pub', 'marginals(1; region, size)');
CREATE TYPE en_empty AS ENUM ();
CREATE TABLE en_priv_empty AS SELECT NULL::en_empty AS e, size FROM en_priv;
CREATE TABLE en_pub_empty AS SELECT NULL::en_empty AS e, size FROM en_pub;
SELECT pap.define_release('en_empty', 'en_priv_empty', 'en_pub_empty', 'marginals(1; e, size)');

-- Without a public table an enum column needs no declaration, as a boolean one: its domain is its type's labels.
SELECT pap.define_private_release('en_declared', 'en_priv', 'marginals(1; region, size)', '{}');
SELECT categories, public_rows FROM pap.release_data WHERE name = 'en_declared';
SELECT pap.define_private_release('en_declared2', 'en_priv', 'marginals(1; region, size)',
                                  '{"region": {"categories": ["north"]}}');

-- A label added since the definition: the run refuses before any charge.
SELECT pap.define_release('en_later', 'en_priv', 'en_pub', 'marginals(1; region, size)');
ALTER TYPE en_region ADD VALUE 'highlands';
SELECT epsilon_spent FROM pap.budgets WHERE private_table = 'en_priv'::regclass;
CALL pap.run_release('en_later', 1);
SELECT epsilon_spent FROM pap.budgets WHERE private_table = 'en_priv'::regclass;
-- The released one still answers its labels.
SELECT pap.answer('en_enum', $$region = 'north' AND size = 'small'$$) > 0.1 AS still_answers;
-- A label renamed since the run is still the label the release was run over, cast or not; a text that is a label
-- of neither is refused as before.
CREATE TEMP TABLE en_before AS SELECT pap.answer('en_enum', $$region = 'north' AND size = 'small'$$) AS north;
ALTER TYPE en_region RENAME VALUE 'north' TO 'nord';
SELECT pap.answer('en_enum', $$region = 'north' AND size = 'small'$$) = north AS same_answer,
       pap.answer('en_enum', $$region = 'north'::en_region AND size = 'small'$$) = north AS same_cast,
       pap.answer('en_enum', $$region IN ('north', 'south') AND size = 'small'$$) > north AS in_list
  FROM en_before;
SELECT pap.answer('en_enum', $$region = 'atlantis' AND size = 'small'$$);
ALTER TYPE en_region RENAME VALUE 'nord' TO 'north';

SELECT pap.drop_release(name) FROM pap.releases WHERE name LIKE 'en\_%' ORDER BY name;
DROP TABLE en_priv, en_pub, en_priv_text, en_pub_text, en_pub_other, en_priv_empty, en_pub_empty, en_priv_dom;
DROP DOMAIN en_region_dom;
DROP CAST (en_region AS text);
DROP FUNCTION en_region_text(en_region);
DROP TABLE en_tone_priv, en_tone_pub;
DROP TYPE en_region, en_region2, en_size, en_empty, en_tone;
