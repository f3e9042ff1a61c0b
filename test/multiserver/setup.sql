-- The coordinator's side of the multi-server test (test/multiserver/run_multiserver_test.sh, docs/distributed.md).
-- Run with psql -v port1=... -v port2=... (pap_reader's password in the environment, PAP_READER_PASSWORD) after the
-- rows of diamonds_dist_1 and diamonds_dist_2 were copied to the two remote servers. Builds:
--   diamonds_public  the public table (every tenth diamond)
--   diamonds_local   an ordinary table holding the private rows
--   diamonds_dist    the same private rows, partitioned by id: partitions 1 and 2 are postgres_fdw foreign
--                    tables on the two remote servers, partition 3 is a local table
SET client_min_messages = warning;
CREATE EXTENSION postgres_fdw;
CREATE EXTENSION pap_release;

CREATE TABLE diamonds_public AS SELECT carat, cut, color, clarity, price FROM diamonds WHERE id % 10 = 0;
CREATE TABLE diamonds_local AS SELECT id, carat, cut, color, clarity, price FROM diamonds WHERE id % 10 <> 0;
ANALYZE diamonds_public;
ANALYZE diamonds_local;

-- extensions 'pap_release': the aggregate pap.grid_counts, pap.category_index and pap.axis_value are members of
-- the extension, so postgres_fdw may ship them, and with them the whole aggregate of one foreign table.
CREATE SERVER remote1 FOREIGN DATA WRAPPER postgres_fdw
	OPTIONS (host '127.0.0.1', port :'port1', dbname 'postgres', extensions 'pap_release');
CREATE SERVER remote2 FOREIGN DATA WRAPPER postgres_fdw
	OPTIONS (host '127.0.0.1', port :'port2', dbname 'postgres', extensions 'pap_release');
-- The remote role can only read its table: the release needs nothing more on a remote server.
\getenv password PAP_READER_PASSWORD
CREATE USER MAPPING FOR PUBLIC SERVER remote1 OPTIONS (user 'pap_reader', password :'password');
CREATE USER MAPPING FOR PUBLIC SERVER remote2 OPTIONS (user 'pap_reader', password :'password');

CREATE TABLE diamonds_dist (id int8, carat float8, cut text, color text, clarity text, price int4)
	PARTITION BY RANGE (id);
CREATE FOREIGN TABLE diamonds_dist_1 PARTITION OF diamonds_dist FOR VALUES FROM (MINVALUE) TO (25000)
	SERVER remote1 OPTIONS (schema_name 'public', table_name 'diamonds_part');
CREATE FOREIGN TABLE diamonds_dist_2 PARTITION OF diamonds_dist FOR VALUES FROM (25000) TO (50000)
	SERVER remote2 OPTIONS (schema_name 'public', table_name 'diamonds_part');
CREATE TABLE diamonds_dist_3 PARTITION OF diamonds_dist FOR VALUES FROM (50000) TO (MAXVALUE);
INSERT INTO diamonds_dist_3 SELECT * FROM diamonds_local WHERE id >= 50000;
-- No ANALYZE of diamonds_dist: it would sample the foreign partitions' rows into this server.

SELECT pap.set_budget('diamonds_local', 100);
SELECT pap.set_budget('diamonds_dist', 100);

-- analyst: SELECT on the parent only. Its releases are still read leaf by leaf: every read runs as the table's
-- owner (docs/security.md), and a role runs only the releases it defined.
CREATE ROLE analyst;
GRANT SELECT ON diamonds_dist, diamonds_public TO analyst;
SELECT pap.grant_spend('diamonds_dist', 'analyst');  -- spending the budget is a right of its own

-- Every kind of axis the scan has: numeric (cut points and the column), linear (cut points and a weighted sum),
-- categorical (pap.category_index), and SQL predicates (plain expressions, read leaf by leaf as well).
SELECT pap.define_release(t || '_' || c, t::regclass, 'diamonds_public', q, alpha => 0.3)
  FROM (VALUES ('orth', 'orthants(carat, price)'),
               ('half', 'halfspaces(carat, price; [4000, -1], [1, 0.001])'),
               ('marg', 'marginals(2; cut, color, clarity)'),
               ('pred', $$predicates('price > 1000', 'carat < 0.5 AND cut = ''Ideal''', 'color IN (''D'', ''E'')')$$))
       AS classes(c, q),
       (VALUES ('diamonds_local'), ('diamonds_dist')) AS tables(t);
SELECT pap.define_release('diamonds_dist_orth_' || r, 'diamonds_dist', 'diamonds_public', 'orthants(carat, price)',
                          alpha => 0.3)
  FROM unnest(ARRAY['control', 'down']) AS r;
SET ROLE analyst;
SELECT pap.define_release('diamonds_dist_orth_' || r, 'diamonds_dist', 'diamonds_public', 'orthants(carat, price)',
                          alpha => 0.3)
  FROM unnest(ARRAY['parent', 'rls']) AS r;
RESET ROLE;
