-- Tables shared by the regression tests: a private table and a disjoint public sample of one population,
-- with NULL, NaN and infinite values among them, and date and timestamp columns.
CREATE EXTENSION pap_release;
SET pap_release.test_seed = 42;   -- reproducible noise; releases made now are marked as not private
SET extra_float_digits = 0;

CREATE TABLE population AS
SELECT i AS id,
       ((i * 7919) % 1000)::float8 AS x,
       ((i * 104729) % 97)::int AS k,
       (date '2020-01-01' + ((i * 31) % 400))::date AS d,
       (timestamp '2020-01-01 00:00' + ((i * 53) % 1000) * interval '1 hour') AS ts
  FROM generate_series(1, 3000) AS i;
-- every tenth row is public: the two tables never share a row
CREATE TABLE pub AS SELECT * FROM population WHERE id % 10 = 0;
CREATE TABLE priv AS SELECT * FROM population WHERE id % 10 <> 0;
INSERT INTO priv (id, x) VALUES (9001, NULL), (9002, 'NaN'), (9003, 'Infinity'), (9004, '-Infinity');
INSERT INTO pub (id, x) VALUES (9101, NULL), (9102, 'Infinity');
CREATE TABLE empty_pub (x float8, k int, d date, ts timestamp);
INSERT INTO empty_pub VALUES (NULL, NULL, NULL, NULL);
CREATE TABLE texty (x text);
SELECT count(*) AS private_rows FROM priv;
SELECT count(*) AS public_rows FROM pub;
