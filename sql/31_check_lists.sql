-- A column whose validated CHECK constraint lists its values is closed as an enum column is (docs/mechanisms.md
-- §10, "Closed columns"): its axis's categories are the list, the values the public table never showed included, and
-- the plan has no part for values outside them. Only a list the catalog proves holds every stored row closes a
-- column; folding it runs built-in functions only; a run refuses a list that changed since the definition.
-- Self-contained: its own tables and budget.
SET pap_release.test_seed = 41;
SET extra_float_digits = 0;
-- 20,000 private rows; rating 5 holds 1% of them and none of the 400 public rows, decade 1950 none of either.
CREATE TABLE ck_priv (
	rating float8 CHECK (rating IN (0.5, 1, 1.5, 2, 2.5, 3, 3.5, 4, 4.5, 5)),
	decade int,
	genre varchar(20),
	CHECK (decade IN (1950, 1960, 1970) AND genre IN ('drama', 'comedy', 'western'))
);
INSERT INTO ck_priv
SELECT CASE WHEN i % 100 = 0 THEN 5 ELSE 0.5 * (1 + i % 8) END, 1960 + 10 * (i % 2),
       (ARRAY['drama', 'comedy', 'western'])[1 + i % 3]
  FROM generate_series(1, 20000) i;
CREATE TABLE ck_pub AS
SELECT 0.5::float8 * (1 + i % 8) AS rating, 1960 + 10 * (i % 2) AS decade, (ARRAY['drama', 'comedy'])[1 + i % 2] AS genre
  FROM generate_series(1, 400) i;
-- The same rows without the constraints.
CREATE TABLE ck_priv_open AS SELECT * FROM ck_priv;
SELECT pap.set_budget('ck_priv', 10);
SELECT pap.set_budget('ck_priv_open', 10);

SELECT pap.define_release('ck_closed', 'ck_priv', 'ck_pub', 'marginals(2; rating, decade, genre)');
SELECT pap.define_release('ck_open', 'ck_priv_open', 'ck_pub', 'marginals(2; rating, decade, genre)');
-- Every listed value is a category, rating 5, decade 1950 and 'western' too; the open release knows the public's.
SELECT name, axis_check_lists, categories FROM pap.release_data WHERE name LIKE 'ck\_%' ORDER BY name;
-- The closed release plans a smaller data part: no value outside the lists, and no "other" bin to bound.
SELECT round(c.projection_error::numeric, 4) AS closed_part, round(o.projection_error::numeric, 4) AS open_part,
       c.projection_error < 0.5 * o.projection_error AS less_than_half
  FROM pap.plan('ck_closed', 1) c, pap.plan('ck_open', 1) o;
CALL pap.run_release('ck_closed', 1);
-- Every listed rating is answered, the one the public table never showed included, within its bound.
SELECT r AS rating,
       abs(pap.answer('ck_closed', format('rating = %s AND genre = %L', r, 'drama')) -
           (SELECT count(*) FILTER (WHERE rating = r AND genre = 'drama') FROM ck_priv) / 20000.0)
       <= (pap.answer_bounded('ck_closed', format('rating = %s AND genre = %L', r, 'drama'))).error_bound
       AS within_bound
  FROM unnest('{0.5,1,1.5,2,2.5,3,3.5,4,4.5,5}'::float8[]) AS r ORDER BY r;
-- A value is read as the column's type reads it: 1.0 is the listed 1.
SELECT pap.answer('ck_closed', 'rating = 1.0 AND decade = 1960') = pap.answer('ck_closed', 'rating = 1 AND decade = 1960')
       AS same;
-- A value the constraint does not allow is outside the class: no row holds it.
SELECT pap.answer('ck_closed', 'rating = 2.25 AND decade = 1960');
SELECT pap.answer('ck_closed', $$genre = 'horror' AND decade = 1960$$);

-- A public row outside the list is refused at definition: the release counts on no row of either table holding one.
INSERT INTO ck_pub VALUES (2.25, 1960, 'drama');
SELECT pap.define_release('ck_bad_public', 'ck_priv', 'ck_pub', 'marginals(1; rating)');
DELETE FROM ck_pub WHERE rating = 2.25;

-- What does not close a column (each defines with the public categories only, and an "other" bin). The tiny public
-- tables below warn that they are no alpha-net; those warnings are not the point here.
SET client_min_messages = error;
CREATE TABLE ck_weak (a int, b float8, c text, d int, e int, f int, g text, h int, k text);
ALTER TABLE ck_weak ADD CHECK (a IN (1, 2, 3)) NOT VALID;      -- not validated: older rows may hold anything
ALTER TABLE ck_weak ADD CHECK (b IN (0, 1, 2));                -- a float list with zero: -0 passes it, prints "-0"
ALTER TABLE ck_weak ADD CHECK (c IN ('x', 'y', NULL));         -- NULL in the list: any other value passes (NULL)
ALTER TABLE ck_weak ADD CHECK (d IN (1, 2) OR d > 10);         -- not a list ANDed at the top
CREATE FUNCTION ck_two() RETURNS int LANGUAGE plpgsql IMMUTABLE AS $$BEGIN RETURN 2; END$$;
ALTER TABLE ck_weak ADD CHECK (e IN (1, ck_two()));            -- a user's function: never run to fold the list
ALTER TABLE ck_weak ADD CHECK (f = ANY (ARRAY[1, 2]) AND f IN (2, 3));  -- two lists: their intersection, {2}
ALTER TABLE ck_weak ADD CHECK (g::bpchar IN ('x', 'y'));       -- compared as another type: 'x ' passes as 'x'
ALTER TABLE ck_weak ADD CHECK (h = ANY (array_fill(1, ARRAY[2])));  -- a function called by name: never folded
ALTER TABLE ck_weak ADD CHECK (k IN ('x' || 'y', 'z'));        -- an operator's call: never folded
INSERT INTO ck_weak VALUES (1, 1, 'x', 1, 1, 2, 'x', 1, 'xy'), (2, 2, 'y', 2, 2, 2, 'y ', 1, 'z');
CREATE TABLE ck_weak_pub AS SELECT * FROM ck_weak;
SELECT pap.set_budget('ck_weak', 1);
SELECT pap.define_release('ck_weak', 'ck_weak', 'ck_weak_pub', 'marginals(1; a, b, c, d, e, f, g, h, k)');
SELECT axis_labels, axis_check_lists, categories FROM pap.release_data WHERE name = 'ck_weak';
-- The user's function had its chance to run and did not: redefined to raise, the definition still works.
CREATE OR REPLACE FUNCTION ck_two() RETURNS int LANGUAGE plpgsql IMMUTABLE AS
$$BEGIN RAISE EXCEPTION 'the table owner''s function ran'; END$$;
SELECT pap.define_release('ck_weak2', 'ck_weak', 'ck_weak_pub', 'marginals(1; e)');

-- What closes a column besides IN over its own type: an integer column compared with another integer type (a value
-- the column cannot hold left out), and a list of one written as an equality.
CREATE TABLE ck_more (s smallint CHECK (s IN (1, 2, 40000)), v bigint CHECK (v IN (7, 8)), u text CHECK (u = 'only'));
INSERT INTO ck_more VALUES (1, 7, 'only'), (2, 8, 'only');
CREATE TABLE ck_more_pub AS SELECT * FROM ck_more;
SELECT pap.set_budget('ck_more', 1);
SELECT pap.define_release('ck_more', 'ck_more', 'ck_more_pub', 'marginals(1; s, v, u)');
SELECT axis_labels, axis_check_lists, categories FROM pap.release_data WHERE name = 'ck_more';

-- A partitioned table: closed when every partition holding rows is, over the union of their lists.
CREATE TABLE ck_parted (id int, g text) PARTITION BY RANGE (id);
CREATE TABLE ck_part1 PARTITION OF ck_parted FOR VALUES FROM (0) TO (100);
CREATE TABLE ck_part2 PARTITION OF ck_parted FOR VALUES FROM (100) TO (200);
ALTER TABLE ck_part1 ADD CHECK (g IN ('p', 'q'));
ALTER TABLE ck_part2 ADD CHECK (g IN ('q', 'r'));
INSERT INTO ck_parted VALUES (1, 'p'), (150, 'r');
CREATE TABLE ck_parted_pub AS SELECT * FROM ck_parted;
SELECT pap.set_budget('ck_parted', 1);
SELECT pap.define_release('ck_parted', 'ck_parted', 'ck_parted_pub', 'marginals(1; g)');
CREATE TABLE ck_part3 PARTITION OF ck_parted FOR VALUES FROM (200) TO (300);
SELECT pap.define_release('ck_parted_open', 'ck_parted', 'ck_parted_pub', 'marginals(1; g)');
SELECT name, axis_check_lists, categories FROM pap.release_data WHERE name LIKE 'ck\_parted%' ORDER BY name;

RESET client_min_messages;

-- An ordered class reads values, not categories: it does not read the lists (no notice, nothing stored as closed).
SELECT pap.define_release('ck_ordered', 'ck_priv', 'ck_pub', 'thresholds(rating)');
SELECT axis_check_lists FROM pap.release_data WHERE name = 'ck_ordered';

-- A run refuses, before its charge, a list that changed since the definition: a value added, or the constraint gone.
SELECT pap.define_release('ck_changed', 'ck_priv', 'ck_pub', 'marginals(1; rating)');
ALTER TABLE ck_priv DROP CONSTRAINT ck_priv_rating_check;
ALTER TABLE ck_priv ADD CONSTRAINT ck_priv_rating_check CHECK (rating IN (0.5, 1, 1.5, 2, 2.5, 3, 3.5, 4, 4.5, 5, 5.5));
CALL pap.run_release('ck_changed', 1);
ALTER TABLE ck_priv DROP CONSTRAINT ck_priv_rating_check;
CALL pap.run_release('ck_changed', 1);
SELECT count(*) AS charges FROM pap.ledger WHERE release_name = 'ck_changed';
-- The same list again, written another way (= ANY, another order): the run goes ahead.
ALTER TABLE ck_priv ADD CHECK (rating = ANY (ARRAY[5, 4.5, 4, 3.5, 3, 2.5, 2, 1.5, 1, 0.5]));
CALL pap.run_release('ck_changed', 1);
SELECT state FROM pap.releases WHERE name = 'ck_changed';

SELECT pap.drop_release(name) FROM pap.releases WHERE name LIKE 'ck\_%' ORDER BY name;
DROP TABLE ck_priv, ck_pub, ck_priv_open, ck_weak, ck_weak_pub, ck_more, ck_more_pub, ck_parted, ck_parted_pub;
DROP FUNCTION ck_two();
RESET extra_float_digits;
RESET pap_release.test_seed;
