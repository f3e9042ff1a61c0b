-- Which relations may be private and public tables, what a DROP TABLE keeps, and DROP EXTENSION
-- (docs/security.md, "Relation kinds, dropped tables and the run marker").
SET pap_release.test_seed = 7;
SET extra_float_digits = 0;
\set VERBOSITY default

-- A budget covers the rows a table stores. A view over priv with a budget of its own was a second budget for
-- priv's rows: refused, like every relation that only shows rows stored elsewhere.
CREATE VIEW rk_view AS SELECT * FROM priv;
SELECT pap.set_budget('rk_view', 1e6);
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT pap.define_release('rk_bad', 'rk_view', 'pub', 'thresholds(x)');
\echo SQLSTATE :LAST_ERROR_SQLSTATE
CREATE MATERIALIZED VIEW rk_matview AS SELECT * FROM priv;
SELECT pap.set_budget('rk_matview', 1);
CREATE FOREIGN DATA WRAPPER rk_fdw;
CREATE SERVER rk_server FOREIGN DATA WRAPPER rk_fdw;
CREATE FOREIGN TABLE rk_foreign (id int, x float8) SERVER rk_server;
SELECT pap.set_budget('rk_foreign', 1);
CREATE SEQUENCE rk_seq;
SELECT pap.set_budget('rk_seq', 1);
CREATE TEMPORARY TABLE rk_temp AS SELECT * FROM priv;
DO $$ BEGIN  -- (the error names the session's temporary schema)
  PERFORM pap.set_budget('rk_temp', 1);
EXCEPTION WHEN wrong_object_type THEN RAISE NOTICE 'refused (%): %', SQLSTATE, regexp_replace(SQLERRM, 'pg_temp_\d+', 'pg_temp');
END $$;
-- nor a public table: a definition keeps its OID, which outlives a temporary table (no event trigger at session end)
DO $$ BEGIN
  PERFORM pap.define_release('rk_temp_pub', 'priv', 'rk_temp', 'thresholds(x)');
EXCEPTION WHEN wrong_object_type THEN RAISE NOTICE 'refused (%): %', SQLSTATE, regexp_replace(SQLERRM, 'pg_temp_\d+', 'pg_temp');
END $$;
CREATE TEMPORARY VIEW rk_temp_view AS SELECT * FROM pub;
DO $$ BEGIN
  PERFORM pap.define_labelling('rk_temp_lab', 'priv', 'rk_temp_view', 'x', ARRAY['id'], classes => ARRAY['1', '2']);
EXCEPTION WHEN wrong_object_type THEN RAISE NOTICE 'refused (%): %', SQLSTATE, regexp_replace(SQLERRM, 'pg_temp_\d+', 'pg_temp');
END $$;
-- partitions and inheritance children: their rows are read through the root, whose budget covers them
CREATE TABLE rk_parted (id int, x float8) PARTITION BY RANGE (id);
CREATE TABLE rk_part1 PARTITION OF rk_parted FOR VALUES FROM (MINVALUE) TO (1500);
CREATE TABLE rk_part2 PARTITION OF rk_parted FOR VALUES FROM (1500) TO (5000);
INSERT INTO rk_parted SELECT id, x FROM priv WHERE id < 5000;
SELECT pap.set_budget('rk_part1', 1);
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT pap.define_release('rk_bad', 'rk_part1', 'pub', 'thresholds(x)');
CREATE TABLE rk_parent AS SELECT id, x FROM priv WHERE id < 1000;
CREATE TABLE rk_child () INHERITS (rk_parent);
INSERT INTO rk_child SELECT id, x FROM priv WHERE id >= 1000;
SELECT pap.set_budget('rk_child', 1);
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT count(*) AS refused_budgets FROM pap.budgets
 WHERE table_name LIKE '%rk\_%' AND table_name NOT IN ('public.rk_parted', 'public.rk_parent');
-- roots are private tables; a root may have foreign partitions (test/multiserver)
SELECT pap.set_budget('rk_parted', 1);
SELECT pap.set_budget('rk_parent', 1);
CREATE TABLE rk_fparted (id int, x float8) PARTITION BY RANGE (id);
CREATE TABLE rk_flocal PARTITION OF rk_fparted FOR VALUES FROM (MINVALUE) TO (1000);
CREATE FOREIGN TABLE rk_fremote PARTITION OF rk_fparted FOR VALUES FROM (1000) TO (MAXVALUE) SERVER rk_server;
SELECT pap.set_budget('rk_fparted', 1);
SELECT table_name, epsilon_total FROM pap.budgets WHERE table_name LIKE 'public.rk\_%' ORDER BY 1;
-- a table with a budget of its own attached later as a partition: one set of rows, two budgets; the root
-- can no longer spend until it is detached
CREATE TABLE rk_late (id int, x float8);
INSERT INTO rk_late SELECT id, x FROM priv WHERE id >= 5000;
SELECT pap.set_budget('rk_late', 1);
SELECT pap.define_release('rk_root', 'rk_parted', 'pub', 'thresholds(x)', granularity => 'alpha');
ALTER TABLE rk_parted ATTACH PARTITION rk_late FOR VALUES FROM (5000) TO (MAXVALUE);
CALL pap.run_release('rk_root', 0.1);
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT pap.set_budget('rk_parted', 2);
SELECT pap.set_budget('rk_late', 2);
SELECT count(*) AS charges FROM pap.ledger WHERE release_name = 'rk_root';
ALTER TABLE rk_parted DETACH PARTITION rk_late;
CALL pap.run_release('rk_root', 0.1);
SELECT state FROM pap.releases WHERE name = 'rk_root';

-- Public data is read without privacy: it must not read the private table's rows, directly, through a view
-- (recursively), a materialized view, or as a member of the private table's partition or inheritance tree.
CREATE VIEW rk_view2 AS SELECT * FROM rk_view WHERE id > 0;
CREATE VIEW rk_pubview AS SELECT * FROM pub WHERE id > 0;
SELECT pap.define_release('rk_bad', 'priv', 'rk_view', 'thresholds(x)');
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT pap.define_release('rk_bad', 'priv', 'rk_view2', 'thresholds(x)');
SELECT pap.define_release('rk_bad', 'priv', 'rk_matview', 'thresholds(x)');
SELECT pap.define_release('rk_bad', 'rk_parted', 'rk_part2', 'thresholds(x)');
CREATE VIEW rk_partview AS SELECT * FROM rk_part1;
SELECT pap.define_release('rk_bad', 'rk_parted', 'rk_partview', 'thresholds(x)');
SELECT pap.define_release('rk_bad', 'rk_parent', 'rk_child', 'thresholds(x)');
SELECT pap.define_release('rk_bad', 'priv', 'rk_seq', 'thresholds(x)');
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT count(*) AS releases FROM pap.releases WHERE name = 'rk_bad';
-- a view over other rows is public data
SELECT pap.define_release('rk_pub_view', 'priv', 'rk_pubview', 'thresholds(x)', granularity => 'alpha');
SELECT public_table, public_table_name FROM pap.releases WHERE name = 'rk_pub_view';
-- A public relation that returns other rows on each read (here: more rows every time): a predicates definition reads
-- it twice (every predicate's labels, then the merged axes' grid points) and refuses it when the reads differ.
CREATE SEQUENCE rk_reads;
CREATE VIEW rk_growing AS SELECT * FROM pub WHERE id <= 10 * (SELECT nextval('rk_reads'));
SELECT pap.define_release('rk_growing_p', 'priv', 'rk_growing', 'predicates(''x > 500'', ''x <= 500'')');
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT count(*) AS releases FROM pap.releases WHERE name = 'rk_growing_p';
-- The same for a categorical column: the grid points would hold a value the categories' read did not, in the
-- "other" bin, which must hold no public row (a folded release's is told by its public rows).
SELECT pap.define_release('rk_growing_m', 'priv', 'rk_growing', 'marginals(1; k)');
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT count(*) AS releases FROM pap.releases WHERE name = 'rk_growing_m';
DROP VIEW rk_growing;
DROP SEQUENCE rk_reads;

-- DROP TABLE keeps the spent budget, the charges and the released answers, detached from the table's OID:
-- a later table (with the same name, or the same OID) starts without them.
CREATE TABLE rk_gone AS SELECT id, x FROM priv;
SELECT pap.set_budget('rk_gone', 1);
SELECT pap.define_release('rk_gone_cdf', 'rk_gone', 'rk_pubview', 'thresholds(x)', granularity => 'alpha');
CALL pap.run_release('rk_gone_cdf', 0.4);
SELECT pap.define_release('rk_gone_later', 'rk_gone', 'rk_pubview', 'thresholds(x)', granularity => 'alpha');
DROP TABLE rk_gone;
SELECT private_table, table_name, epsilon_total, epsilon_spent, dropped_at IS NOT NULL AS dropped
  FROM pap.budgets WHERE table_name = 'public.rk_gone';
SELECT private_table, table_name, release_name, epsilon, dropped_at IS NOT NULL AS dropped
  FROM pap.ledger WHERE release_name = 'rk_gone_cdf';
SELECT private_table, private_table_name, public_table_name, state FROM pap.releases WHERE name = 'rk_gone_cdf';
SELECT pap.answer('rk_gone_cdf', 'x <= 500') BETWEEN 0 AND 1 AS still_answered;
CALL pap.run_release('rk_gone_cdf', 0.1);
\echo SQLSTATE :LAST_ERROR_SQLSTATE
-- a release of the dropped table that was never run cannot run now, and charges nothing
CALL pap.run_release('rk_gone_later', 0.1);
\echo SQLSTATE :LAST_ERROR_SQLSTATE
SELECT count(*) AS charges FROM pap.ledger WHERE release_name = 'rk_gone_later';
SELECT pap.drop_release('rk_gone_later');
-- a release whose private table and definer are both gone: a superuser may drop it (no one else could)
CREATE ROLE regress_rk_orphan;
CREATE TABLE rk_orphan AS SELECT id, x FROM priv;
GRANT SELECT ON rk_orphan, pub TO regress_rk_orphan;
SET ROLE regress_rk_orphan;
SELECT pap.define_release('rk_orphan_cdf', 'rk_orphan', 'pub', 'thresholds(x)', granularity => 'alpha');
RESET ROLE;
DROP TABLE rk_orphan;
REVOKE SELECT ON pub FROM regress_rk_orphan;
DROP ROLE regress_rk_orphan;
SELECT pap.drop_release('rk_orphan_cdf');
SELECT count(*) AS orphans FROM pap.releases WHERE name = 'rk_orphan_cdf';
-- no catalog row keeps the dropped OID
SELECT count(*) AS dangling FROM pap.budget_data b
 WHERE b.private_table IS NOT NULL AND NOT EXISTS (SELECT FROM pg_class c WHERE c.oid = b.private_table);
SELECT count(*) AS dangling FROM pap.ledger_data l
 WHERE l.private_table IS NOT NULL AND NOT EXISTS (SELECT FROM pg_class c WHERE c.oid = l.private_table);
CREATE TABLE rk_gone AS SELECT id, x FROM priv;
SELECT count(*) AS budgets_of_new_table FROM pap.budgets WHERE private_table = 'rk_gone'::regclass;
SELECT pap.set_budget('rk_gone', 1);
SELECT private_table IS NOT NULL AS live, table_name, epsilon_spent FROM pap.budgets
 WHERE table_name = 'public.rk_gone' ORDER BY budget_id;
-- dropping the public table detaches it too; the release keeps its layout and can still be dropped
DROP VIEW rk_pubview CASCADE;
SELECT public_table, public_table_name FROM pap.releases WHERE name IN ('rk_pub_view', 'rk_gone_cdf') ORDER BY name;
SELECT pap.drop_release('rk_pub_view');

-- DROP EXTENSION would delete the ledger: refused while it holds charges, unless explicitly allowed.
-- (the number of charges depends on the earlier tests; the transaction keeps the extension whatever happens)
BEGIN;
DO $$ BEGIN
  DROP EXTENSION pap_release CASCADE;
EXCEPTION WHEN dependent_objects_still_exist THEN
  RAISE NOTICE 'refused (%): %', SQLSTATE, regexp_replace(SQLERRM, '\d+', 'N');
END $$;
-- DROP OWNED BY the extension's owner (here the role running the tests) would drop it too
DO $$ BEGIN
  EXECUTE format('DROP OWNED BY %I', current_user);
EXCEPTION WHEN dependent_objects_still_exist THEN
  RAISE NOTICE 'refused (%): %', SQLSTATE, regexp_replace(SQLERRM, '\d+', 'N');
END $$;
-- So would DROP SCHEMA ... CASCADE of the schema the extension is recorded in (public), or DROP OWNED ... CASCADE
-- by that schema's owner
DO $$ BEGIN
  DROP SCHEMA public CASCADE;
EXCEPTION WHEN dependent_objects_still_exist THEN
  RAISE NOTICE 'refused (%): %', SQLSTATE, regexp_replace(SQLERRM, '\d+', 'N');
END $$;
DO $$ BEGIN
  EXECUTE format('DROP OWNED BY %I CASCADE', (SELECT nspowner::regrole FROM pg_namespace WHERE nspname = 'public'));
EXCEPTION WHEN dependent_objects_still_exist THEN
  RAISE NOTICE 'refused (%): %', SQLSTATE, regexp_replace(SQLERRM, '\d+', 'N');
END $$;
SELECT count(*) AS extensions FROM pg_extension WHERE extname = 'pap_release';
ROLLBACK;
-- Nothing of the extension is bound to an operator, function or type outside pg_catalog and pap: a CHECK on a
-- budget that compared a numeric with an integer unqualified took the operator an owner of public had made.
SELECT count(*) AS foreign_bindings
  FROM pg_depend d
  JOIN pg_class c ON d.classid = 'pg_constraint'::regclass AND c.oid = (SELECT conrelid FROM pg_constraint WHERE oid = d.objid)
                  OR d.classid = 'pg_rewrite'::regclass AND c.oid = (SELECT ev_class FROM pg_rewrite WHERE oid = d.objid)
                  OR d.classid = 'pg_attrdef'::regclass AND c.oid = (SELECT adrelid FROM pg_attrdef WHERE oid = d.objid)
 WHERE c.relnamespace = 'pap'::regnamespace
   AND ((d.refclassid = 'pg_operator'::regclass
         AND (SELECT oprnamespace FROM pg_operator WHERE oid = d.refobjid) NOT IN ('pg_catalog'::regnamespace, 'pap'::regnamespace))
     OR (d.refclassid = 'pg_proc'::regclass
         AND (SELECT pronamespace FROM pg_proc WHERE oid = d.refobjid) NOT IN ('pg_catalog'::regnamespace, 'pap'::regnamespace))
     OR (d.refclassid = 'pg_type'::regclass
         AND (SELECT typnamespace FROM pg_type WHERE oid = d.refobjid) NOT IN ('pg_catalog'::regnamespace, 'pap'::regnamespace)));
BEGIN;
SET LOCAL pap_release.allow_drop_ledger = on;
SET LOCAL client_min_messages = warning;
DROP EXTENSION pap_release CASCADE;
SELECT count(*) AS extensions FROM pg_extension WHERE extname = 'pap_release';
ROLLBACK;
SELECT count(*) > 0 AS ledger_kept FROM pap.ledger;

DROP VIEW rk_view CASCADE;
DROP VIEW rk_partview;
DROP MATERIALIZED VIEW rk_matview;
DROP TABLE rk_parted, rk_parent, rk_child, rk_late, rk_fparted, rk_gone;
DROP SEQUENCE rk_seq;
DROP SERVER rk_server CASCADE;
DROP FOREIGN DATA WRAPPER rk_fdw;
